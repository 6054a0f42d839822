//===- cuda_runtime.h - hetGPU's CUDA runtime header ------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The header hetgpu-cc pre-includes into every CUDA translation unit, for
/// both the device and the host compile (as nvcc does): the CUDA language
/// (execution-space keywords, built-in variables, vector types), the device
/// API (synchronisation, atomics, warp functions, intrinsics, the math
/// library, printf/assert/malloc) and the runtime API with CUDA's C++
/// template conveniences (cudaMalloc(T**, size_t), symbol templates, ...).
///
/// Clang in CUDA mode with -nocudainc; no NVIDIA SDK. Order matters: the
/// device math overloads and the device heap are declared before any
/// standard header (see hetgpu/cuda/math_forward.h and clang's <new>
/// wrapper). docs/Headers.md lists what exists and what does not.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_CUDA_RUNTIME_H
#define HETGPU_CUDA_RUNTIME_H
// The guard names of NVIDIA's headers, which user code tests (helper_cuda.h).
#define __CUDA_RUNTIME_H__

// nvcc defines these in CUDA compiles; libstdc++ tests __CUDACC__ to leave
// __float128 out.
#if defined(__CUDA__)
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef __CUDACC_VER_MAJOR__
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 8
#define __CUDACC_VER_BUILD__ 0
#endif
#endif
#ifndef CUDA_VERSION
#define CUDA_VERSION 12080
#endif

#if defined(__CUDA__)
// clang-format off
// The order matters: the language first, then the early device math
// declarations and the device heap, then the standard headers, then the rest.
#include <host_defines.h>
#include <hetgpu/cuda/builtins.h>
#include <hetgpu/cuda/math_forward.h>
#include <device_functions.h> // device malloc/free before <new>

#include <climits>
#include <cmath>
#include <cstdlib>
#include <new>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector_types.h>
#include <vector_functions.h>
#include <device_launch_parameters.h>
#include <device_atomic_functions.h>
#include <sm_30_intrinsics.h>
#include <math_functions.h>
#include <hetgpu/cuda/complex_builtins.h>

#include <driver_types.h>
#include <cuda_runtime_api.h>
#include <cuda_device_runtime_api.h>
#include <channel_descriptor.h>
#include <texture_fetch_functions.h>
#include <surface_functions.h>
// clang-format on
#else
// A plain C/C++ file that calls the runtime API (nvcc's headers allow this
// too): the types, the C API and, in C++, the templates below.
#include <host_defines.h>
#include <vector_types.h>
#include <vector_functions.h>
#include <driver_types.h>
#include <cuda_runtime_api.h>
#include <channel_descriptor.h>
#endif

//===----------------------------------------------------------------------===//
// Declarations cuda_runtime_api.h does not have (marked for its owner).
//===----------------------------------------------------------------------===//
#ifdef __CUDA_ARCH__
// Clang's device-side semantic check of `k<<<...>>>` in host functions uses
// the pre-CUDA-9.2 launch API unless given -target-sdk-version; the call is
// never code-generated on the device side, so a declaration is enough.
extern "C" cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim,
                                         size_t sharedMem = 0,
                                         cudaStream_t stream = 0);
#endif

//===----------------------------------------------------------------------===//
// C++ conveniences of CUDA's cuda_runtime.h over the C API
//===----------------------------------------------------------------------===//

#ifdef __cplusplus
#pragma push_macro("__HG_HOST")
#define __HG_HOST static __inline__ __host__

template <class T> __HG_HOST cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return ::cudaMalloc((void **)(void *)devPtr, size);
}
template <class T>
__HG_HOST cudaError_t cudaMallocHost(T **ptr, size_t size,
                                     unsigned int flags = 0) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T>
__HG_HOST cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T>
__HG_HOST cudaError_t cudaMallocManaged(
    T **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}
template <class T>
__HG_HOST cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width,
                                      size_t height) {
  return ::cudaMallocPitch((void **)(void *)devPtr, pitch, width, height);
}
template <class T>
__HG_HOST cudaError_t cudaHostGetDevicePointer(T **pDevice, void *pHost,
                                               unsigned int flags) {
  return ::cudaHostGetDevicePointer((void **)(void *)pDevice, pHost, flags);
}
__HG_HOST cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags) {
  return ::cudaEventCreateWithFlags(event, flags);
}

// Symbols: `symbol` is the variable itself (its host shadow, which the
// runtime maps to the device copy).
template <class T>
__HG_HOST cudaError_t cudaMemcpyToSymbol(
    const T &symbol, const void *src, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T>
__HG_HOST cudaError_t cudaMemcpyFromSymbol(
    void *dst, const T &symbol, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset,
                                kind);
}
template <class T>
__HG_HOST cudaError_t cudaMemcpyToSymbolAsync(
    const T &symbol, const void *src, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
    cudaStream_t stream = 0) {
  return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset,
                                   kind, stream);
}
template <class T>
__HG_HOST cudaError_t cudaMemcpyFromSymbolAsync(
    void *dst, const T &symbol, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
    cudaStream_t stream = 0) {
  return ::cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset,
                                     kind, stream);
}
template <class T>
__HG_HOST cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol) {
  return ::cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <class T>
__HG_HOST cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol) {
  return ::cudaGetSymbolSize(size, (const void *)&symbol);
}

// Kernels: `func` is the __global__ function (its host stub).
// (CUDA spells the parameter `const T *`; clang cannot deduce that from a
// pointer to function, so it is `T *` here.)
template <class T>
__HG_HOST cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim,
                                       void **args, size_t sharedMem = 0,
                                       cudaStream_t stream = 0) {
  return ::cudaLaunchKernel((const void *)func, gridDim, blockDim, args,
                            sharedMem, stream);
}
template <class T>
__HG_HOST cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 gridDim,
                                                  dim3 blockDim, void **args,
                                                  size_t sharedMem = 0,
                                                  cudaStream_t stream = 0) {
  return ::cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim,
                                       args, sharedMem, stream);
}
template <class T>
__HG_HOST cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                            T *entry) {
  return ::cudaFuncGetAttributes(attr, (const void *)entry);
}
template <class T>
__HG_HOST cudaError_t cudaFuncSetAttribute(T *entry,
                                           enum cudaFuncAttribute attr,
                                           int value) {
  return ::cudaFuncSetAttribute((const void *)entry, attr, value);
}
template <class T>
__HG_HOST cudaError_t cudaFuncSetCacheConfig(T *func,
                                             enum cudaFuncCache cacheConfig) {
  return ::cudaFuncSetCacheConfig((const void *)func, cacheConfig);
}
template <class T>
__HG_HOST cudaError_t
cudaFuncSetSharedMemConfig(T *func, enum cudaSharedMemConfig config) {
  return ::cudaFuncSetSharedMemConfig((const void *)func, config);
}
template <class T>
__HG_HOST cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, T func, int blockSize, size_t dynamicSMemSize) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      numBlocks, (const void *)func, blockSize, dynamicSMemSize);
}
template <class T>
__HG_HOST cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, T func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, (const void *)func, blockSize, dynamicSMemSize, flags);
}
template <class T>
__HG_HOST cudaError_t cudaOccupancyMaxPotentialBlockSize(
    int *minGridSize, int *blockSize, T func, size_t dynamicSMemSize = 0,
    int blockSizeLimit = 0) {
  return ::__hetgpuOccupancyMaxPotentialBlockSize(
      minGridSize, blockSize, (const void *)func, dynamicSMemSize,
      blockSizeLimit);
}
/// The block size with the highest occupancy when the dynamic shared memory
/// depends on the block size (\p blockSizeToDynamicSMemSize(int) -> size_t),
/// searched in warp steps as CUDA's header does.
template <class UnaryFunction, class T>
__HG_HOST cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(
    int *minGridSize, int *blockSize, T func,
    UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0) {
  if (!minGridSize || !blockSize || !func)
    return cudaErrorInvalidValue;
  int device = 0, maxThreads = 0, smCount = 0;
  cudaError_t err = ::cudaGetDevice(&device);
  if (err == cudaSuccess)
    err = ::cudaDeviceGetAttribute(&maxThreads, cudaDevAttrMaxThreadsPerBlock,
                                   device);
  if (err == cudaSuccess)
    err = ::cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount,
                                   device);
  if (err != cudaSuccess)
    return err;
  struct cudaFuncAttributes attr;
  err = ::cudaFuncGetAttributes(&attr, (const void *)func);
  if (err != cudaSuccess)
    return err;
  int limit = maxThreads;
  if (attr.maxThreadsPerBlock > 0 && attr.maxThreadsPerBlock < limit)
    limit = attr.maxThreadsPerBlock;
  if (blockSizeLimit > 0 && blockSizeLimit < limit)
    limit = blockSizeLimit;
  int bestThreads = 0, bestBlocks = 0;
  for (int size = (limit + 31) / 32 * 32; size > 0; size -= 32) {
    int threads = size > limit ? limit : size;
    int blocks = 0;
    err = ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, (const void *)func, threads,
        (size_t)blockSizeToDynamicSMemSize(threads));
    if (err != cudaSuccess)
      return err;
    if (blocks * threads > bestBlocks * bestThreads) {
      bestThreads = threads;
      bestBlocks = blocks;
    }
  }
  *blockSize = bestThreads;
  *minGridSize = bestBlocks * smCount;
  return cudaSuccess;
}

#pragma pop_macro("__HG_HOST")
#endif // __cplusplus

#endif // HETGPU_CUDA_RUNTIME_H
