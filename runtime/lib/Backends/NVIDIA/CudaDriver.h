//===- CudaDriver.h - The CUDA driver API, loaded with dlopen ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The few CUDA driver types, constants and entry points the NVIDIA backend
/// uses, declared here from the driver API's documented ABI so that neither
/// the build nor the runtime needs the CUDA SDK. libcuda.so.1 is opened with
/// dlopen on first use; every entry point is resolved by its versioned
/// symbol name (the `_v2` names are the ones the CUDA 12/13 headers bind).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_NVIDIA_CUDADRIVER_H
#define HETGPU_RUNTIME_BACKENDS_NVIDIA_CUDADRIVER_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace hetgpu {
namespace rt {
namespace cu {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
struct CUuuid {
  unsigned char Bytes[16];
};
using CUhostFn = void (*)(void *UserData);

// CUresult values the backend distinguishes.
enum : CUresult {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_PEER_ACCESS_UNSUPPORTED = 217,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221,
  CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_LAUNCH_TIMEOUT = 702,
  CUDA_ERROR_ASSERT = 710,
  CUDA_ERROR_ILLEGAL_INSTRUCTION = 715,
  CUDA_ERROR_MISALIGNED_ADDRESS = 716,
  CUDA_ERROR_INVALID_ADDRESS_SPACE = 717,
  CUDA_ERROR_INVALID_PC = 718,
  CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704,
  CUDA_ERROR_PEER_ACCESS_NOT_ENABLED = 705,
  CUDA_ERROR_LAUNCH_FAILED = 719,
  CUDA_ERROR_NOT_SUPPORTED = 801,
};

// CUdevice_attribute values.
enum CUdevice_attribute : int {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY = 9,
  CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
  CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
  CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_INTEGRATED = 18,
  CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS = 31,
  CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
  CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
  CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
  CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
  CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR = 106,
};

// CUjit_option values.
enum CUjit_option : int {
  CU_JIT_WALL_TIME = 2,
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_OPTIMIZATION_LEVEL = 7,
  CU_JIT_LOG_VERBOSE = 12,
};

// CUfunction_attribute values.
enum CUfunction_attribute : int {
  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
constexpr unsigned CU_MEM_ATTACH_GLOBAL = 1;
constexpr unsigned CU_EVENT_DEFAULT = 0;

/// Every entry point the backend calls: X(name, symbol, return, params).
#define HETGPU_CUDA_DRIVER_FUNCTIONS(X)                                        \
  X(Init, "cuInit", (unsigned Flags))                                          \
  X(DriverGetVersion, "cuDriverGetVersion", (int *Version))                    \
  X(GetErrorName, "cuGetErrorName", (CUresult E, const char **Str))            \
  X(GetErrorString, "cuGetErrorString", (CUresult E, const char **Str))        \
  X(DeviceGetCount, "cuDeviceGetCount", (int *Count))                          \
  X(DeviceGet, "cuDeviceGet", (CUdevice * D, int Ordinal))                     \
  X(DeviceGetName, "cuDeviceGetName", (char *Name, int Len, CUdevice D))       \
  X(DeviceGetUuid, "cuDeviceGetUuid", (CUuuid * Uuid, CUdevice D))            \
  X(DeviceGetAttribute, "cuDeviceGetAttribute",                                \
    (int *V, CUdevice_attribute A, CUdevice D))                                \
  X(DeviceTotalMem, "cuDeviceTotalMem_v2", (size_t * Bytes, CUdevice D))       \
  X(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",                        \
    (CUcontext * Ctx, CUdevice D))                                             \
  X(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", (CUdevice D))     \
  X(DevicePrimaryCtxReset, "cuDevicePrimaryCtxReset_v2", (CUdevice D))         \
  X(CtxSetCurrent, "cuCtxSetCurrent", (CUcontext Ctx))                         \
  X(CtxSynchronize, "cuCtxSynchronize", ())                                    \
  X(MemAlloc, "cuMemAlloc_v2", (CUdeviceptr * P, size_t Bytes))                \
  X(MemFree, "cuMemFree_v2", (CUdeviceptr P))                                  \
  X(MemAllocManaged, "cuMemAllocManaged",                                      \
    (CUdeviceptr * P, size_t Bytes, unsigned Flags))                           \
  X(MemHostAlloc, "cuMemHostAlloc", (void **P, size_t Bytes, unsigned Flags))  \
  X(MemFreeHost, "cuMemFreeHost", (void *P))                                   \
  X(MemGetInfo, "cuMemGetInfo_v2", (size_t * Free, size_t *Total))             \
  X(MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2",                                   \
    (CUdeviceptr Dst, const void *Src, size_t Bytes, CUstream S))              \
  X(MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2",                                   \
    (void *Dst, CUdeviceptr Src, size_t Bytes, CUstream S))                    \
  X(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2",                                   \
    (CUdeviceptr Dst, CUdeviceptr Src, size_t Bytes, CUstream S))              \
  X(MemsetD8Async, "cuMemsetD8Async",                                          \
    (CUdeviceptr Dst, unsigned char V, size_t N, CUstream S))                  \
  X(ModuleLoadDataEx, "cuModuleLoadDataEx",                                    \
    (CUmodule * M, const void *Image, unsigned NumOptions,                     \
     CUjit_option *Options, void **Values))                                    \
  X(ModuleUnload, "cuModuleUnload", (CUmodule M))                              \
  X(ModuleGetFunction, "cuModuleGetFunction",                                  \
    (CUfunction * F, CUmodule M, const char *Name))                            \
  X(ModuleGetGlobal, "cuModuleGetGlobal_v2",                                   \
    (CUdeviceptr * P, size_t *Bytes, CUmodule M, const char *Name))            \
  X(FuncSetAttribute, "cuFuncSetAttribute",                                    \
    (CUfunction F, CUfunction_attribute A, int V))                             \
  X(FuncGetAttribute, "cuFuncGetAttribute",                                    \
    (int *V, CUfunction_attribute A, CUfunction F))                            \
  X(LaunchKernel, "cuLaunchKernel",                                            \
    (CUfunction F, unsigned GX, unsigned GY, unsigned GZ, unsigned BX,         \
     unsigned BY, unsigned BZ, unsigned Shared, CUstream S, void **Params,     \
     void **Extra))                                                            \
  X(LaunchHostFunc, "cuLaunchHostFunc",                                        \
    (CUstream S, CUhostFn Fn, void *UserData))                                 \
  X(StreamCreate, "cuStreamCreate", (CUstream * S, unsigned Flags))            \
  X(StreamDestroy, "cuStreamDestroy_v2", (CUstream S))                         \
  X(StreamSynchronize, "cuStreamSynchronize", (CUstream S))                    \
  X(StreamQuery, "cuStreamQuery", (CUstream S))                                \
  X(StreamWaitEvent, "cuStreamWaitEvent",                                      \
    (CUstream S, CUevent E, unsigned Flags))                                   \
  X(EventCreate, "cuEventCreate", (CUevent * E, unsigned Flags))               \
  X(EventDestroy, "cuEventDestroy_v2", (CUevent E))                            \
  X(EventRecord, "cuEventRecord", (CUevent E, CUstream S))                     \
  X(EventSynchronize, "cuEventSynchronize", (CUevent E))                       \
  X(EventQuery, "cuEventQuery", (CUevent E))                                   \
  X(EventElapsedTime, "cuEventElapsedTime", (float *Ms, CUevent A, CUevent B)) \
  X(DeviceCanAccessPeer, "cuDeviceCanAccessPeer",                              \
    (int *Can, CUdevice D, CUdevice Peer))                                     \
  X(CtxEnablePeerAccess, "cuCtxEnablePeerAccess",                              \
    (CUcontext Peer, unsigned Flags))                                          \
  X(CtxDisablePeerAccess, "cuCtxDisablePeerAccess", (CUcontext Peer))          \
  X(MemcpyPeerAsync, "cuMemcpyPeerAsync",                                      \
    (CUdeviceptr Dst, CUcontext DstCtx, CUdeviceptr Src, CUcontext SrcCtx,     \
     size_t Bytes, CUstream S))

/// The loaded driver: one function pointer per entry point.
struct Driver {
#define HETGPU_CU_MEMBER(Name, Symbol, Params) CUresult(*Name) Params = nullptr;
  HETGPU_CUDA_DRIVER_FUNCTIONS(HETGPU_CU_MEMBER)
#undef HETGPU_CU_MEMBER

  /// The CUDA version the driver supports (e.g. 13000), 0 if unknown.
  int Version = 0;

  /// "CUDA_ERROR_X (description)" for \p E.
  std::string describe(CUresult E) const;
};

//===--- Graphs (cuGraph*): optional entry points -----------------------===//

using CUgraph = struct CUgraph_st *;
using CUgraphNode = struct CUgraphNode_st *;
using CUgraphExec = struct CUgraphExec_st *;

/// CUDA_KERNEL_NODE_PARAMS_v2 (its first ten fields are _v1's).
struct CuKernelNodeParams {
  CUfunction Func;
  unsigned GridX, GridY, GridZ, BlockX, BlockY, BlockZ;
  unsigned Shared;
  void **Params;
  void **Extra;
  void *Kern;    ///< CUkernel (unused: null)
  CUcontext Ctx; ///< null: the current context
};

/// CUmemorytype values.
enum : int { CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2 };

/// CUDA_MEMCPY3D.
struct CuMemcpy3D {
  size_t SrcXInBytes, SrcY, SrcZ, SrcLOD;
  int SrcMemoryType;
  const void *SrcHost;
  CUdeviceptr SrcDevice;
  void *SrcArray;
  void *Reserved0;
  size_t SrcPitch, SrcHeight;
  size_t DstXInBytes, DstY, DstZ, DstLOD;
  int DstMemoryType;
  void *DstHost;
  CUdeviceptr DstDevice;
  void *DstArray;
  void *Reserved1;
  size_t DstPitch, DstHeight;
  size_t WidthInBytes, Height, Depth;
};

/// CUDA_MEMSET_NODE_PARAMS.
struct CuMemsetNodeParams {
  CUdeviceptr Dst;
  size_t Pitch;
  unsigned Value, ElementSize;
  size_t Width, Height;
};

/// CUDA_HOST_NODE_PARAMS.
struct CuHostNodeParams {
  CUhostFn Fn;
  void *UserData;
};

/// The graph entry points, resolved when present (CUDA 11.4 and later have
/// them all); a driver without them makes CUDA graphs replay as eager work.
struct GraphApi {
  CUresult (*Create)(CUgraph *, unsigned) = nullptr;
  CUresult (*Destroy)(CUgraph) = nullptr;
  CUresult (*AddKernel)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t,
                        const CuKernelNodeParams *) = nullptr;
  CUresult (*AddMemcpy)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t,
                        const CuMemcpy3D *, CUcontext) = nullptr;
  CUresult (*AddMemset)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t,
                        const CuMemsetNodeParams *, CUcontext) = nullptr;
  CUresult (*AddHost)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t,
                      const CuHostNodeParams *) = nullptr;
  CUresult (*AddEmpty)(CUgraphNode *, CUgraph, const CUgraphNode *,
                       size_t) = nullptr;
  CUresult (*AddEventRecord)(CUgraphNode *, CUgraph, const CUgraphNode *,
                             size_t, CUevent) = nullptr;
  CUresult (*AddEventWait)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t,
                           CUevent) = nullptr;
  CUresult (*Instantiate)(CUgraphExec *, CUgraph, unsigned long long) = nullptr;
  CUresult (*ExecDestroy)(CUgraphExec) = nullptr;
  CUresult (*Launch)(CUgraphExec, CUstream) = nullptr;
  CUresult (*ExecKernelSetParams)(CUgraphExec, CUgraphNode,
                                  const CuKernelNodeParams *) = nullptr;
};

/// The graph entry points of the loaded driver, or null with the missing
/// names in \p Why.
const GraphApi *loadGraphApi(std::string &Why);

/// The handle of the driver library loadDriver opened (libcuda.so.1 or
/// $HETGPU_LIBCUDA), or null when it is not loaded: the optional entry
/// points (VMM, graphs, the linker) are looked up in it.
void *loadedDriverLibrary();

/// Opens libcuda.so.1 (once) and resolves every entry point. Returns null
/// and sets \p Error ("libcuda.so.1 not found (...)", "libcuda.so.1 lacks
/// cuX") when the driver is unusable. $HETGPU_LIBCUDA overrides the path.
const Driver *loadDriver(std::string &Error);

/// Highest PTX ISA version (x10) a driver of CUDA version \p Version (as
/// cuDriverGetVersion reports it, e.g. 12080) accepts; capped at what
/// hetGPU's code generator emits.
unsigned maxPTXVersionForDriver(int Version);

} // namespace cu
} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_NVIDIA_CUDADRIVER_H
