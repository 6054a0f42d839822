/*===- cuda_device_runtime_api.h - The CUDA runtime API in device code ----===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * Declarations of the CUDA runtime calls that CUDA allows in device code
 * (dynamic parallelism, device-side error and attribute queries). Libraries
 * such as Thrust and CUB name them inside __device__ functions that are
 * compiled only with relocatable device code (-rdc); clang checks those
 * bodies in every compile, so the names must be declared.
 *
 * hetGPU does not implement device-side launches: nothing defines these
 * functions, and a kernel that calls one is rejected when its hetIR is
 * verified ("call of undefined function"), naming the function.
 *
\*===----------------------------------------------------------------------===*/

#ifndef HETGPU_CUDA_DEVICE_RUNTIME_API_H
#define HETGPU_CUDA_DEVICE_RUNTIME_API_H
#define __CUDA_DEVICE_RUNTIME_API_H__

#if defined(__CUDA__) && defined(__cplusplus)
#include "driver_types.h"
#include "vector_types.h"

#include <stddef.h>

extern "C" {
__device__ void *cudaGetParameterBuffer(size_t alignment, size_t size);
__device__ void *cudaGetParameterBufferV2(void *func, dim3 gridDimension,
                                          dim3 blockDimension,
                                          unsigned int sharedMemSize);
__device__ cudaError_t cudaLaunchDevice(void *func, void *parameterBuffer,
                                        dim3 gridDimension,
                                        dim3 blockDimension,
                                        unsigned int sharedMemSize,
                                        cudaStream_t stream);
__device__ cudaError_t cudaLaunchDeviceV2(void *parameterBuffer,
                                          cudaStream_t stream);
__device__ cudaError_t __cudaDeviceSynchronizeDeprecationAvoidance(void);
}

/* The host API's calls that device code may also make. */
__device__ cudaError_t cudaDeviceSynchronize(void);
__device__ cudaError_t cudaGetLastError(void);
__device__ cudaError_t cudaPeekAtLastError(void);
__device__ cudaError_t cudaGetDevice(int *device);
__device__ cudaError_t cudaDeviceGetAttribute(int *value,
                                              enum cudaDeviceAttr attr,
                                              int device);
__device__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                             const void *func);
__device__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSmemSize);
__device__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSmemSize,
    unsigned int flags);
__device__ cudaError_t cudaMalloc(void **devPtr, size_t size);
__device__ cudaError_t cudaFree(void *devPtr);
__device__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream,
                                                 unsigned int flags);
__device__ cudaError_t cudaStreamDestroy(cudaStream_t stream);
__device__ cudaError_t cudaMemcpyAsync(void *dst, const void *src,
                                       size_t count, enum cudaMemcpyKind kind,
                                       cudaStream_t stream);
__device__ cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                                       cudaStream_t stream);
#endif

#endif /* HETGPU_CUDA_DEVICE_RUNTIME_API_H */
