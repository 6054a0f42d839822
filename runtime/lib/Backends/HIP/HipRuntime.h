//===- HipRuntime.h - The HIP runtime API, loaded with dlopen ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The few HIP types, constants and entry points the HIP backend uses,
/// declared from HIP's documented C ABI (ROCm 5.x/6.x/7.x) so that neither
/// the build nor the runtime needs ROCm headers. libamdhip64.so is opened
/// with dlopen on first use ($HETGPU_LIBAMDHIP overrides the path;
/// otherwise libamdhip64.so, .so.7, .so.6, .so.5 are tried).
///
/// hipDeviceProp_t changed layout between ROCm releases, so the backend
/// never reads it by field: device limits come from hipDeviceGetAttribute
/// (the CUDA-compatible attribute numbers below, stable since ROCm 5.0)
/// and the processor name ("gfx942:sramecc+:xnack-") is found as the
/// "gfx..." string inside the property block.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_HIP_HIPRUNTIME_H
#define HETGPU_RUNTIME_BACKENDS_HIP_HIPRUNTIME_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace hetgpu {
namespace rt {
namespace hip {

using hipError_t = int;
using hipDevice_t = int;
using hipModule_t = struct ihipModule_t *;
using hipFunction_t = struct ihipModuleSymbol_t *;
using hipStream_t = struct ihipStream_t *;
using hipEvent_t = struct ihipEvent_t *;
using hipDeviceptr_t = void *;
using hipHostFn_t = void (*)(void *UserData);

// hipError_t values the backend distinguishes.
enum : hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorNotInitialized = 3,
  hipErrorInvalidConfiguration = 9,
  hipErrorInvalidDevicePointer = 17,
  hipErrorNoDevice = 100,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidImage = 200,
  hipErrorNoBinaryForGpu = 209,
  hipErrorSharedObjectInitFailed = 303,
  hipErrorInvalidHandle = 400,
  hipErrorNotFound = 500,
  hipErrorNotReady = 600,
  hipErrorIllegalAddress = 700,
  hipErrorLaunchOutOfResources = 701,
  hipErrorLaunchTimeOut = 702,
  hipErrorAssert = 710,
  hipErrorLaunchFailure = 719,
  hipErrorNotSupported = 801,
};

// hipDeviceAttribute_t (CUDA-compatible range).
enum hipDeviceAttribute_t : int {
  hipDeviceAttributeClockRate = 5,
  hipDeviceAttributeConcurrentKernels = 8,
  hipDeviceAttributeIntegrated = 16,
  hipDeviceAttributeL2CacheSize = 19,
  hipDeviceAttributeComputeCapabilityMajor = 23,
  hipDeviceAttributeManagedMemory = 24,
  hipDeviceAttributeMaxBlocksPerMultiProcessor = 25,
  hipDeviceAttributeMaxBlockDimX = 26,
  hipDeviceAttributeMaxBlockDimY = 27,
  hipDeviceAttributeMaxBlockDimZ = 28,
  hipDeviceAttributeMaxGridDimX = 29,
  hipDeviceAttributeMaxGridDimY = 30,
  hipDeviceAttributeMaxGridDimZ = 31,
  hipDeviceAttributeMaxThreadsPerBlock = 56,
  hipDeviceAttributeMaxThreadsPerMultiProcessor = 57,
  hipDeviceAttributeMemoryBusWidth = 59,
  hipDeviceAttributeMemoryClockRate = 60,
  hipDeviceAttributeComputeCapabilityMinor = 61,
  hipDeviceAttributeMultiprocessorCount = 63,
  hipDeviceAttributePciBusId = 67,
  hipDeviceAttributeMaxRegistersPerBlock = 71,
  hipDeviceAttributeMaxSharedMemoryPerBlock = 74,
  hipDeviceAttributeSharedMemPerBlockOptin = 75,
  hipDeviceAttributeSharedMemPerMultiprocessor = 76,
  hipDeviceAttributeTotalConstantMemory = 83,
  hipDeviceAttributeWarpSize = 87,
};

enum hipMemcpyKind : int {
  hipMemcpyHostToHost = 0,
  hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3,
  hipMemcpyDefault = 4,
};

constexpr unsigned hipStreamNonBlocking = 1;
constexpr unsigned hipEventDefault = 0;
constexpr unsigned hipHostMallocDefault = 0;
constexpr unsigned hipMemAttachGlobal = 1;
/// hipModuleLaunchKernel's `extra` keys.
inline void *const HIP_LAUNCH_PARAM_BUFFER_POINTER = reinterpret_cast<void *>(1);
inline void *const HIP_LAUNCH_PARAM_BUFFER_SIZE = reinterpret_cast<void *>(2);
inline void *const HIP_LAUNCH_PARAM_END = reinterpret_cast<void *>(3);

/// Every entry point the backend calls: X(member, symbol, params) returns
/// hipError_t, XS(...) returns `const char *`. The
/// device-properties entry is resolved separately (its name changed).
#define HETGPU_HIP_FUNCTIONS(X, XS)                                              \
  X(Init, "hipInit", (unsigned Flags))                                         \
  X(DriverGetVersion, "hipDriverGetVersion", (int *Version))                   \
  XS(GetErrorName, "hipGetErrorName", (hipError_t E))             \
  XS(GetErrorString, "hipGetErrorString", (hipError_t E))         \
  X(GetDeviceCount, "hipGetDeviceCount", (int *Count))                         \
  X(SetDevice, "hipSetDevice", (int Device))                                   \
  X(DeviceGetName, "hipDeviceGetName", (char *Name, int Len, hipDevice_t D))   \
  X(DeviceGetAttribute, "hipDeviceGetAttribute",                               \
    (int *V, hipDeviceAttribute_t A, int Device))                              \
  X(DeviceTotalMem, "hipDeviceTotalMem", (size_t * Bytes, hipDevice_t D))      \
  X(DeviceSynchronize, "hipDeviceSynchronize", ())                             \
  X(Malloc, "hipMalloc", (void **P, size_t Bytes))                             \
  X(MallocManaged, "hipMallocManaged", (void **P, size_t Bytes, unsigned F))   \
  X(Free, "hipFree", (void *P))                                                \
  X(HostMalloc, "hipHostMalloc", (void **P, size_t Bytes, unsigned Flags))     \
  X(HostFree, "hipHostFree", (void *P))                                        \
  X(MemGetInfo, "hipMemGetInfo", (size_t * Free, size_t *Total))               \
  X(Memcpy, "hipMemcpy",                                                       \
    (void *Dst, const void *Src, size_t Bytes, hipMemcpyKind K))               \
  X(MemcpyAsync, "hipMemcpyAsync",                                             \
    (void *Dst, const void *Src, size_t Bytes, hipMemcpyKind K,                \
     hipStream_t S))                                                           \
  X(MemsetAsync, "hipMemsetAsync",                                             \
    (void *Dst, int V, size_t Bytes, hipStream_t S))                           \
  X(ModuleLoadData, "hipModuleLoadData", (hipModule_t * M, const void *Image)) \
  X(ModuleUnload, "hipModuleUnload", (hipModule_t M))                          \
  X(ModuleGetFunction, "hipModuleGetFunction",                                 \
    (hipFunction_t * F, hipModule_t M, const char *Name))                      \
  X(ModuleGetGlobal, "hipModuleGetGlobal",                                     \
    (hipDeviceptr_t * P, size_t *Bytes, hipModule_t M, const char *Name))      \
  X(ModuleLaunchKernel, "hipModuleLaunchKernel",                               \
    (hipFunction_t F, unsigned GX, unsigned GY, unsigned GZ, unsigned BX,      \
     unsigned BY, unsigned BZ, unsigned Shared, hipStream_t S,                 \
     void **Params, void **Extra))                                             \
  X(LaunchHostFunc, "hipLaunchHostFunc",                                       \
    (hipStream_t S, hipHostFn_t Fn, void *UserData))                           \
  X(StreamCreateWithFlags, "hipStreamCreateWithFlags",                         \
    (hipStream_t * S, unsigned Flags))                                         \
  X(StreamDestroy, "hipStreamDestroy", (hipStream_t S))                        \
  X(StreamSynchronize, "hipStreamSynchronize", (hipStream_t S))                \
  X(StreamQuery, "hipStreamQuery", (hipStream_t S))                            \
  X(StreamWaitEvent, "hipStreamWaitEvent",                                     \
    (hipStream_t S, hipEvent_t E, unsigned Flags))                             \
  X(EventCreateWithFlags, "hipEventCreateWithFlags",                           \
    (hipEvent_t * E, unsigned Flags))                                          \
  X(EventDestroy, "hipEventDestroy", (hipEvent_t E))                           \
  X(EventRecord, "hipEventRecord", (hipEvent_t E, hipStream_t S))              \
  X(EventSynchronize, "hipEventSynchronize", (hipEvent_t E))                   \
  X(EventQuery, "hipEventQuery", (hipEvent_t E))                               \
  X(EventElapsedTime, "hipEventElapsedTime",                                   \
    (float *Ms, hipEvent_t A, hipEvent_t B))

/// The loaded runtime: one function pointer per entry point.
struct Runtime {
#define HETGPU_HIP_MEMBER(Name, Symbol, Params) hipError_t(*Name) Params = nullptr;
#define HETGPU_HIP_SMEMBER(Name, Symbol, Params)                               \
  const char *(*Name) Params = nullptr;
  HETGPU_HIP_FUNCTIONS(HETGPU_HIP_MEMBER, HETGPU_HIP_SMEMBER)
#undef HETGPU_HIP_MEMBER
#undef HETGPU_HIP_SMEMBER
  /// hipGetDevicePropertiesR0600 (ROCm 6+) or hipGetDeviceProperties.
  hipError_t (*GetDeviceProperties)(void *Props, int Device) = nullptr;
  /// The library that was opened.
  std::string Path;

  /// "hipErrorX (description)" for \p E.
  std::string describe(hipError_t E) const;
};

/// Opens the HIP runtime (once) and resolves every entry point. Returns
/// null and sets \p Error ("libamdhip64.so not found (...)", "... lacks
/// hipX") when it is unusable.
const Runtime *loadRuntime(std::string &Error);

/// The processor ("gfx942") in a hipDeviceProp_t block of \p Size bytes:
/// the first NUL-terminated "gfx<hex digits>[:features]" string, without
/// the features; empty when none is found.
std::string findArchName(const unsigned char *Props, size_t Size);

} // namespace hip
} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_HIP_HIPRUNTIME_H
