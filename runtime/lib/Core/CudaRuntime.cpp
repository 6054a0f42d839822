//===- CudaRuntime.cpp - The CUDA runtime API on hetGPU devices -----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The cudaXxx functions of cuda_runtime_api.h, mapped onto the device
/// interface of Device.h. Error behaviour follows CUDA: every failing call
/// sets the thread's last error; launch-configuration errors are not sticky;
/// faults of kernels (trap, assert) become sticky errors of the device,
/// returned by every later call until cudaDeviceReset.
///
//===----------------------------------------------------------------------===//

#include "Core/ArgPack.h"
#include "Core/Migration.h"
#include "Core/CudaErrors.h"
#include "Core/Log.h"
#include "Core/Runtime.h"
#include "hetgpu/ABI/Profile.h"
#include "cuda_runtime_api.h"

#include <algorithm>
#include <cstring>
#include <vector>

using namespace hetgpu;
using namespace hetgpu::rt;

#define HETGPU_API extern "C" __attribute__((visibility("default")))

namespace hetgpu {
namespace rt {
cudaError_t takeLastError(bool Reset);
} // namespace rt
} // namespace hetgpu

namespace {

Runtime &RT() { return Runtime::get(); }

/// Records \p E as the last error and returns it.
cudaError_t ret(cudaError_t E) { return setLastError(E); }

/// The current device, or the error of initialisation / a sticky error.
cudaError_t currentCtx(DeviceContext *&Ctx, bool CheckSticky = true) {
  if (cudaError_t E = RT().current(Ctx))
    return E;
  if (CheckSticky && Ctx->Sticky.load())
    return static_cast<cudaError_t>(Ctx->Sticky.load());
  return cudaSuccess;
}

cudaError_t resolve(cudaStream_t S, StreamObj *&Out) {
  if (cudaError_t E = RT().resolveStream(S, Out))
    return E;
  if (int St = Out->Ctx->Sticky.load())
    return static_cast<cudaError_t>(St);
  return cudaSuccess;
}

cudaError_t mapStatus(DeviceContext &Ctx, const Status &S) {
  return S.isOk() ? cudaSuccess : RT().absorb(Ctx, S);
}

bool isDevicePtr(const void *P, int *Dev = nullptr) {
  Allocation A;
  if (!RT().findAlloc(P, A))
    return false;
  if (Dev)
    *Dev = A.Device;
  return A.Kind == AllocKind::Device || A.Kind == AllocKind::Managed;
}

cudaError_t copyKind(const void *Dst, const void *Src, cudaMemcpyKind Kind,
                     CopyKind &Out) {
  switch (Kind) {
  case cudaMemcpyHostToHost:
    Out = CopyKind::HostToHost;
    return cudaSuccess;
  case cudaMemcpyHostToDevice:
    Out = CopyKind::HostToDevice;
    return cudaSuccess;
  case cudaMemcpyDeviceToHost:
    Out = CopyKind::DeviceToHost;
    return cudaSuccess;
  case cudaMemcpyDeviceToDevice:
    Out = CopyKind::DeviceToDevice;
    return cudaSuccess;
  case cudaMemcpyDefault: {
    bool D = isDevicePtr(Dst), S = isDevicePtr(Src);
    Out = D ? (S ? CopyKind::DeviceToDevice : CopyKind::HostToDevice)
            : (S ? CopyKind::DeviceToHost : CopyKind::HostToHost);
    return cudaSuccess;
  }
  }
  return cudaErrorInvalidMemcpyDirection;
}

/// Whether \p P is pageable host memory (not from cudaMalloc*, cudaHostAlloc
/// or cudaHostRegister). As in CUDA, an "asynchronous" copy from or to
/// pageable memory returns only once the host buffer has been read or
/// written, so the caller may reuse it at once.
bool isPageable(const void *P) {
  Allocation A;
  return !RT().findAlloc(P, A);
}

bool copyNeedsSync(const void *Dst, const void *Src, CopyKind K) {
  switch (K) {
  case CopyKind::HostToDevice:
    return isPageable(Src);
  case CopyKind::DeviceToHost:
    return isPageable(Dst);
  case CopyKind::HostToHost:
    return isPageable(Src) || isPageable(Dst);
  case CopyKind::DeviceToDevice:
    return false;
  }
  return true;
}

/// Queues a copy on \p S with the legacy stream's ordering.
cudaError_t enqueueCopy(StreamObj &S, void *Dst, const void *Src, size_t N,
                        CopyKind K) {
  std::lock_guard<std::recursive_mutex> Lock(S.Ctx->M);
  RT().orderLegacy(S);
  return mapStatus(*S.Ctx, S.Q->memcpy(Dst, Src, N, K));
}

cudaError_t syncStream(StreamObj &S) {
  return mapStatus(*S.Ctx, S.Q->synchronize());
}

cudaError_t peerCopy(DeviceContext *D, void *Dst, DeviceContext *S,
                     const void *Src, size_t N, StreamObj *Q, bool Sync);

/// The contexts of \p Dst and \p Src when both are device memory of two
/// contexts on different physical devices (a copy between devices).
bool crossDevice(const void *Dst, const void *Src, DeviceContext *&DC,
                 DeviceContext *&SC) {
  Allocation AD, AS;
  if (!RT().findAlloc(Dst, AD) || !RT().findAlloc(Src, AS) ||
      AD.Kind != AllocKind::Device || AS.Kind != AllocKind::Device ||
      AD.Device == AS.Device)
    return false;
  DC = RT().context(AD.Device);
  SC = RT().context(AS.Device);
  return DC && SC && DC->Dev != SC->Dev;
}

cudaError_t memcpyImpl(void *Dst, const void *Src, size_t N,
                       cudaMemcpyKind Kind, cudaStream_t Stream, bool Sync) {
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return E;
  CopyKind K;
  if (cudaError_t E = copyKind(Dst, Src, Kind, K))
    return E;
  if (N == 0)
    return cudaSuccess;
  if (!Dst || !Src)
    return cudaErrorInvalidValue;
  // Device memory of two devices (unified addressing: cudaMemcpyDefault or
  // DeviceToDevice): a peer copy, as CUDA does.
  DeviceContext *DC, *SC;
  if (K == CopyKind::DeviceToDevice && crossDevice(Dst, Src, DC, SC))
    return peerCopy(DC, Dst, SC, Src, N, S, Sync);
  if (cudaError_t E = enqueueCopy(*S, Dst, Src, N, K))
    return E;
  return Sync || copyNeedsSync(Dst, Src, K) ? syncStream(*S) : cudaSuccess;
}

cudaError_t memsetImpl(void *Dst, int Value, size_t N, cudaStream_t Stream,
                       bool Sync) {
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return E;
  if (N == 0)
    return cudaSuccess;
  if (!Dst)
    return cudaErrorInvalidValue;
  {
    std::lock_guard<std::recursive_mutex> Lock(S->Ctx->M);
    RT().orderLegacy(*S);
    if (cudaError_t E = mapStatus(*S->Ctx, S->Q->memset(Dst, Value, N)))
      return E;
  }
  return Sync ? syncStream(*S) : cudaSuccess;
}

cudaError_t symbolCopy(void *Dst, const void *Src, const void *Symbol,
                       size_t Count, size_t Offset, cudaMemcpyKind Kind,
                       cudaStream_t Stream, bool Sync, bool ToSymbol) {
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return E;
  void *Addr;
  size_t Size;
  if (cudaError_t E = RT().getSymbol(*S->Ctx, Symbol, Addr, Size))
    return E;
  if (Offset > Size || Count > Size - Offset)
    return cudaErrorInvalidValue;
  CopyKind K;
  char *SymAddr = static_cast<char *>(Addr) + Offset;
  if (ToSymbol) {
    if (Kind == cudaMemcpyHostToDevice)
      K = CopyKind::HostToDevice;
    else if (Kind == cudaMemcpyDeviceToDevice)
      K = CopyKind::DeviceToDevice;
    else if (Kind == cudaMemcpyDefault)
      K = isDevicePtr(Src) ? CopyKind::DeviceToDevice : CopyKind::HostToDevice;
    else
      return cudaErrorInvalidMemcpyDirection;
    Dst = SymAddr;
  } else {
    if (Kind == cudaMemcpyDeviceToHost)
      K = CopyKind::DeviceToHost;
    else if (Kind == cudaMemcpyDeviceToDevice)
      K = CopyKind::DeviceToDevice;
    else if (Kind == cudaMemcpyDefault)
      K = isDevicePtr(Dst) ? CopyKind::DeviceToDevice : CopyKind::DeviceToHost;
    else
      return cudaErrorInvalidMemcpyDirection;
    Src = SymAddr;
  }
  if (Count == 0)
    return cudaSuccess;
  if (!Dst || !Src)
    return cudaErrorInvalidValue;
  if (cudaError_t E = enqueueCopy(*S, Dst, Src, Count, K))
    return E;
  return Sync || copyNeedsSync(Dst, Src, K) ? syncStream(*S) : cudaSuccess;
}

/// Blocks per multiprocessor of a kernel for a block size.
int occupancy(const DeviceProperties &P, const container::KernelInfo *K,
              int BlockSize, size_t DynShared) {
  if (BlockSize <= 0 || static_cast<uint32_t>(BlockSize) > P.MaxThreadsPerBlock)
    return 0;
  if (K && K->MaxThreads && static_cast<uint32_t>(BlockSize) > K->MaxThreads)
    return 0;
  uint32_t Warps = (BlockSize + 31) / 32;
  uint32_t N = std::max<uint32_t>(P.MaxThreadsPerMultiProcessor / (Warps * 32),
                                  0);
  N = std::min(N, P.MaxBlocksPerMultiProcessor);
  uint64_t Shared = (K ? K->StaticShared : 0) + DynShared;
  if (Shared) {
    if (Shared > P.SharedMemPerBlockOptin)
      return 0;
    N = std::min<uint64_t>(N, P.SharedMemPerMultiprocessor / Shared);
  }
  return static_cast<int>(N);
}

} // namespace

//===----------------------------------------------------------------------===//
// Errors, versions
//===----------------------------------------------------------------------===//

HETGPU_API cudaError_t cudaGetLastError(void) {
  DeviceContext *Ctx;
  if (RT().current(Ctx) == cudaSuccess && Ctx->Sticky.load()) {
    takeLastError(true);
    return static_cast<cudaError_t>(Ctx->Sticky.load());
  }
  return takeLastError(true);
}

HETGPU_API cudaError_t cudaPeekAtLastError(void) {
  DeviceContext *Ctx;
  if (RT().current(Ctx) == cudaSuccess && Ctx->Sticky.load())
    return static_cast<cudaError_t>(Ctx->Sticky.load());
  return takeLastError(false);
}

HETGPU_API const char *cudaGetErrorName(cudaError_t E) {
  const char *N = cudaErrorNameOrNull(E);
  return N ? N : "unrecognized error code";
}

HETGPU_API const char *cudaGetErrorString(cudaError_t E) {
  const char *S = cudaErrorStringOrNull(E);
  return S ? S : "unrecognized error code";
}

HETGPU_API cudaError_t cudaRuntimeGetVersion(int *V) {
  if (!V)
    return ret(cudaErrorInvalidValue);
  *V = CUDART_VERSION;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaDriverGetVersion(int *V) {
  if (!V)
    return ret(cudaErrorInvalidValue);
  *V = CUDART_VERSION;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
HETGPU_API cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

HETGPU_API cudaError_t cudaGetDeviceCount(int *Count) {
  if (!Count)
    return ret(cudaErrorInvalidValue);
  *Count = 0;
  if (cudaError_t E = RT().init())
    return ret(E);
  *Count = RT().deviceCount();
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaSetDevice(int Device) {
  if (cudaError_t E = RT().init())
    return ret(E);
  if (!RT().context(Device))
    return ret(cudaErrorInvalidDevice);
  RT().setCurrentIndex(Device);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaGetDevice(int *Device) {
  if (!Device)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = RT().init())
    return ret(E);
  *Device = RT().currentIndex();
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaChooseDevice(int *Device,
                                        const struct cudaDeviceProp *) {
  return cudaGetDevice(Device);
}

static void copyName(char *Dst, size_t N, const std::string &S) {
  size_t L = std::min(N - 1, S.size());
  memcpy(Dst, S.data(), L);
  Dst[L] = 0;
}

HETGPU_API cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *Prop,
                                                  int Device) {
  if (!Prop)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = RT().init())
    return ret(E);
  DeviceContext *Ctx = RT().context(Device);
  if (!Ctx)
    return ret(cudaErrorInvalidDevice);
  const DeviceProperties &P = Ctx->Dev->properties();
  memset(Prop, 0, sizeof(*Prop));
  copyName(Prop->name, sizeof(Prop->name), P.Name);
  uint64_t H = container::fnv1a64(P.Name.data(), P.Name.size(), Device + 1);
  memcpy(Prop->uuid.bytes, &H, 8);
  memcpy(Prop->uuid.bytes + 8, &H, 8);
  Prop->totalGlobalMem = P.TotalMemory;
  Prop->sharedMemPerBlock = P.SharedMemPerBlock;
  Prop->regsPerBlock = P.RegsPerBlock;
  Prop->warpSize = 32;
  Prop->memPitch = 2147483647;
  Prop->maxThreadsPerBlock = P.MaxThreadsPerBlock;
  for (int I = 0; I < 3; ++I) {
    Prop->maxThreadsDim[I] = P.MaxBlockDim[I];
    Prop->maxGridSize[I] = static_cast<int>(std::min<uint32_t>(P.MaxGridDim[I], 2147483647u));
  }
  Prop->clockRate = P.ClockRateKHz;
  Prop->totalConstMem = P.TotalConstMem;
  Prop->major = P.ComputeMajor;
  Prop->minor = P.ComputeMinor;
  Prop->textureAlignment = 512;
  Prop->texturePitchAlignment = 32;
  Prop->deviceOverlap = 1;
  Prop->multiProcessorCount = P.MultiProcessorCount;
  Prop->integrated = P.Integrated;
  Prop->canMapHostMemory = P.Integrated;
  Prop->computeMode = cudaComputeModeDefault;
  Prop->surfaceAlignment = 512;
  Prop->concurrentKernels = P.ConcurrentKernels;
  Prop->pciBusID = P.PciBusId;
  Prop->asyncEngineCount = 1;
  Prop->unifiedAddressing = 1;
  Prop->memoryClockRate = P.MemoryClockRateKHz;
  Prop->memoryBusWidth = P.MemoryBusWidth;
  Prop->l2CacheSize = P.L2CacheSize;
  Prop->maxThreadsPerMultiProcessor = P.MaxThreadsPerMultiProcessor;
  Prop->streamPrioritiesSupported = 0;
  Prop->globalL1CacheSupported = 1;
  Prop->localL1CacheSupported = 1;
  Prop->sharedMemPerMultiprocessor = P.SharedMemPerMultiprocessor;
  Prop->regsPerMultiprocessor = P.RegsPerBlock;
  Prop->managedMemory = P.ManagedMemory;
  Prop->hostNativeAtomicSupported = P.Integrated;
  Prop->singleToDoublePrecisionPerfRatio = 2;
  Prop->pageableMemoryAccess = P.Integrated;
  Prop->concurrentManagedAccess = P.Integrated;
  Prop->sharedMemPerBlockOptin = P.SharedMemPerBlockOptin;
  Prop->directManagedMemAccessFromHost = P.Integrated;
  Prop->maxBlocksPerMultiProcessor = P.MaxBlocksPerMultiProcessor;
  return cudaSuccess;
}

extern "C" __attribute__((visibility("default"))) cudaError_t
hetgpuGetDevicePropertiesLegacy(struct cudaDeviceProp *Prop, int Device)
    __asm__("cudaGetDeviceProperties");
cudaError_t hetgpuGetDevicePropertiesLegacy(struct cudaDeviceProp *Prop,
                                            int Device) {
  return cudaGetDeviceProperties_v2(Prop, Device);
}

HETGPU_API cudaError_t cudaDeviceGetAttribute(int *Value,
                                              enum cudaDeviceAttr Attr,
                                              int Device) {
  if (!Value)
    return ret(cudaErrorInvalidValue);
  cudaDeviceProp P;
  if (cudaError_t E = cudaGetDeviceProperties_v2(&P, Device))
    return E;
  int V = 0;
  switch (Attr) {
  case cudaDevAttrMaxThreadsPerBlock: V = P.maxThreadsPerBlock; break;
  case cudaDevAttrMaxBlockDimX: V = P.maxThreadsDim[0]; break;
  case cudaDevAttrMaxBlockDimY: V = P.maxThreadsDim[1]; break;
  case cudaDevAttrMaxBlockDimZ: V = P.maxThreadsDim[2]; break;
  case cudaDevAttrMaxGridDimX: V = P.maxGridSize[0]; break;
  case cudaDevAttrMaxGridDimY: V = P.maxGridSize[1]; break;
  case cudaDevAttrMaxGridDimZ: V = P.maxGridSize[2]; break;
  case cudaDevAttrMaxSharedMemoryPerBlock: V = static_cast<int>(P.sharedMemPerBlock); break;
  case cudaDevAttrTotalConstantMemory: V = static_cast<int>(P.totalConstMem); break;
  case cudaDevAttrWarpSize: V = 32; break;
  case cudaDevAttrMaxPitch: V = static_cast<int>(P.memPitch); break;
  case cudaDevAttrMaxRegistersPerBlock: V = P.regsPerBlock; break;
  case cudaDevAttrClockRate: V = P.clockRate; break;
  case cudaDevAttrTextureAlignment: V = static_cast<int>(P.textureAlignment); break;
  case cudaDevAttrGpuOverlap: V = P.deviceOverlap; break;
  case cudaDevAttrMultiProcessorCount: V = P.multiProcessorCount; break;
  case cudaDevAttrIntegrated: V = P.integrated; break;
  case cudaDevAttrCanMapHostMemory: V = P.canMapHostMemory; break;
  case cudaDevAttrComputeMode: V = P.computeMode; break;
  case cudaDevAttrSurfaceAlignment: V = static_cast<int>(P.surfaceAlignment); break;
  case cudaDevAttrConcurrentKernels: V = P.concurrentKernels; break;
  case cudaDevAttrPciBusId: V = P.pciBusID; break;
  case cudaDevAttrMemoryClockRate: V = P.memoryClockRate; break;
  case cudaDevAttrGlobalMemoryBusWidth: V = P.memoryBusWidth; break;
  case cudaDevAttrL2CacheSize: V = P.l2CacheSize; break;
  case cudaDevAttrMaxThreadsPerMultiProcessor: V = P.maxThreadsPerMultiProcessor; break;
  case cudaDevAttrAsyncEngineCount: V = P.asyncEngineCount; break;
  case cudaDevAttrUnifiedAddressing: V = P.unifiedAddressing; break;
  case cudaDevAttrTexturePitchAlignment: V = static_cast<int>(P.texturePitchAlignment); break;
  case cudaDevAttrComputeCapabilityMajor: V = P.major; break;
  case cudaDevAttrComputeCapabilityMinor: V = P.minor; break;
  case cudaDevAttrGlobalL1CacheSupported: V = 1; break;
  case cudaDevAttrLocalL1CacheSupported: V = 1; break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor: V = static_cast<int>(P.sharedMemPerMultiprocessor); break;
  case cudaDevAttrMaxRegistersPerMultiprocessor: V = P.regsPerMultiprocessor; break;
  case cudaDevAttrManagedMemory: V = P.managedMemory; break;
  case cudaDevAttrHostNativeAtomicSupported: V = P.hostNativeAtomicSupported; break;
  case cudaDevAttrSingleToDoublePrecisionPerfRatio: V = P.singleToDoublePrecisionPerfRatio; break;
  case cudaDevAttrPageableMemoryAccess: V = P.pageableMemoryAccess; break;
  case cudaDevAttrConcurrentManagedAccess: V = P.concurrentManagedAccess; break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin: V = static_cast<int>(P.sharedMemPerBlockOptin); break;
  case cudaDevAttrDirectManagedMemAccessFromHost: V = P.directManagedMemAccessFromHost; break;
  case cudaDevAttrMaxBlocksPerMultiprocessor: V = P.maxBlocksPerMultiProcessor; break;
  default:
    if (Attr <= 0 || Attr >= cudaDevAttrMax)
      return ret(cudaErrorInvalidValue);
    V = 0; // a feature hetGPU devices do not have (textures, clusters, ...)
  }
  *Value = V;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaDeviceSynchronize(void) {
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  return ret(mapStatus(*Ctx, Ctx->Dev->synchronize()));
}

HETGPU_API cudaError_t cudaThreadSynchronize(void) {
  return cudaDeviceSynchronize();
}

HETGPU_API cudaError_t cudaDeviceReset(void) {
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx, /*CheckSticky=*/false))
    return ret(E);
  Runtime &R = RT();
  Ctx->Dev->synchronize();
  std::vector<StreamObj *> Streams;
  {
    std::lock_guard<std::recursive_mutex> Lock(Ctx->M);
    Streams.assign(Ctx->Streams.begin(), Ctx->Streams.end());
  }
  for (StreamObj *S : Streams)
    R.destroyStream(S);
  {
    std::lock_guard<std::recursive_mutex> Lock(Ctx->M);
    if (Ctx->NullStream) {
      std::lock_guard<std::mutex> HL(R.HandleM);
      R.LiveStreams.erase(Ctx->NullStream.get());
    }
    Ctx->NullStream.reset();
    Ctx->Modules.clear();
    Ctx->Sticky = 0;
    Ctx->Flags = 0;
    size_t Defaults[7] = {1024, 1 << 20, 8 << 20, 2, 2048, 0, 0};
    memcpy(Ctx->Limits, Defaults, sizeof(Defaults));
  }
  releaseMigrationBuffers(*Ctx->Dev);
  R.removeDeviceAllocs(Ctx->Index);
  Status St = Ctx->Dev->reset();
  takeLastError(true);
  if (St) {
    // NVIDIA's driver keeps a sticky error (device assert, trap, illegal
    // address) for the rest of the process, as CUDA documents: every later
    // call returns it.
    Ctx->Sticky = toCudaError(St.Code);
    return ret(toCudaError(St.Code));
  }
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }

HETGPU_API cudaError_t cudaSetDeviceFlags(unsigned int Flags) {
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  if (Flags & ~static_cast<unsigned>(cudaDeviceMask))
    return ret(cudaErrorInvalidValue);
  Ctx->Flags = Flags;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaGetDeviceFlags(unsigned int *Flags) {
  DeviceContext *Ctx;
  if (!Flags)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  *Flags = Ctx->Flags | cudaDeviceMapHost;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaDeviceSetLimit(enum cudaLimit Limit, size_t Value) {
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  switch (Limit) {
  case cudaLimitStackSize:
  case cudaLimitPrintfFifoSize:
  case cudaLimitMallocHeapSize:
  case cudaLimitDevRuntimeSyncDepth:
  case cudaLimitDevRuntimePendingLaunchCount:
  case cudaLimitMaxL2FetchGranularity:
  case cudaLimitPersistingL2CacheSize:
    Ctx->Limits[Limit] = Value;
    return cudaSuccess;
  }
  return ret(cudaErrorUnsupportedLimit);
}

HETGPU_API cudaError_t cudaDeviceGetLimit(size_t *Value, enum cudaLimit Limit) {
  DeviceContext *Ctx;
  if (!Value)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  if (static_cast<unsigned>(Limit) > cudaLimitPersistingL2CacheSize)
    return ret(cudaErrorUnsupportedLimit);
  *Value = Ctx->Limits[Limit];
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache C) {
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  if (static_cast<unsigned>(C) > cudaFuncCachePreferEqual)
    return ret(cudaErrorInvalidValue);
  Ctx->CacheConfig = C;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *C) {
  DeviceContext *Ctx;
  if (!C)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  *C = static_cast<cudaFuncCache>(Ctx->CacheConfig);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig C) {
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  if (static_cast<unsigned>(C) > cudaSharedMemBankSizeEightByte)
    return ret(cudaErrorInvalidValue);
  Ctx->SharedMemConfig = C;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *C) {
  DeviceContext *Ctx;
  if (!C)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  *C = static_cast<cudaSharedMemConfig>(Ctx->SharedMemConfig);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaDeviceGetStreamPriorityRange(int *Least,
                                                        int *Greatest) {
  if (Least)
    *Least = 0;
  if (Greatest)
    *Greatest = 0;
  return cudaSuccess;
}

/// Two devices reach each other's memory directly when both keep it in the
/// process-wide arena (Core/UnifiedMemory.h: the CPU device, tt-sim and
/// OpenCL CPU devices of a process with HETGPU_MIGRATE or HETGPU_ARENA=1):
/// one address space, one physical memory.
static bool sharesMemory(DeviceContext *A, DeviceContext *B) {
  return A && B && A != B && A->Dev->sharesArena() && B->Dev->sharesArena();
}

/// Two devices with memory of their own whose backend connects them (two
/// NVIDIA GPUs with peer-to-peer: Device::canAccessPeer).
static bool peerCapable(DeviceContext *A, DeviceContext *B) {
  return A && B && A->Dev != B->Dev && A->Dev->canAccessPeer(*B->Dev);
}

HETGPU_API cudaError_t cudaDeviceCanAccessPeer(int *Can, int Device, int Peer) {
  if (!Can)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = RT().init())
    return ret(E);
  DeviceContext *D = RT().context(Device), *P = RT().context(Peer);
  if (!D || !P || Device == Peer)
    return ret(cudaErrorInvalidDevice);
  *Can = sharesMemory(D, P) || peerCapable(D, P);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaDeviceEnablePeerAccess(int Peer, unsigned int Flags) {
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  if (Flags)
    return ret(cudaErrorInvalidValue);
  DeviceContext *P = RT().context(Peer);
  if (!P || P == Ctx)
    return ret(cudaErrorInvalidDevice);
  bool Shared = sharesMemory(Ctx, P);
  if (!Shared && !peerCapable(Ctx, P))
    return ret(cudaErrorPeerAccessUnsupported);
  std::lock_guard<std::recursive_mutex> Lock(Ctx->M);
  if (Ctx->Peers.count(Peer))
    return ret(cudaErrorPeerAccessAlreadyEnabled);
  // Memory of its own: the backend maps the peer's memory for this device.
  if (!Shared)
    if (Status St = Ctx->Dev->enablePeerAccess(*P->Dev)) {
      log(LogLevel::Error, "cudaDeviceEnablePeerAccess: " + St.Message);
      return ret(St.Code == ErrorCode::NotSupported
                     ? cudaErrorPeerAccessUnsupported
                     : toCudaError(St.Code));
    }
  Ctx->Peers.insert(Peer);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaDeviceDisablePeerAccess(int Peer) {
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  DeviceContext *P = RT().context(Peer);
  if (!P)
    return ret(cudaErrorInvalidDevice);
  std::lock_guard<std::recursive_mutex> Lock(Ctx->M);
  if (!Ctx->Peers.count(Peer))
    return ret(cudaErrorPeerAccessNotEnabled);
  if (!sharesMemory(Ctx, P) && Ctx->Dev != P->Dev)
    if (Status St = Ctx->Dev->disablePeerAccess(*P->Dev)) {
      log(LogLevel::Error, "cudaDeviceDisablePeerAccess: " + St.Message);
      return ret(toCudaError(St.Code));
    }
  Ctx->Peers.erase(Peer);
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

HETGPU_API cudaError_t cudaMalloc(void **Ptr, size_t Size) {
  if (!Ptr)
    return ret(cudaErrorInvalidValue);
  *Ptr = nullptr;
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  if (Size == 0)
    return cudaSuccess;
  void *P = nullptr;
  if (Status S = Ctx->Dev->allocate(Size, P))
    return ret(S.Code == ErrorCode::OutOfMemory ? cudaErrorMemoryAllocation
                                                : toCudaError(S.Code));
  RT().addAlloc({reinterpret_cast<uintptr_t>(P), Size, Ctx->Index,
                 AllocKind::Device, 0});
  *Ptr = P;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaMallocPitch(void **Ptr, size_t *Pitch, size_t Width,
                                       size_t Height) {
  if (!Pitch)
    return ret(cudaErrorInvalidValue);
  size_t P = (Width + 255) / 256 * 256;
  if (cudaError_t E = cudaMalloc(Ptr, P * Height))
    return E;
  *Pitch = P;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaFree(void *Ptr) {
  if (!Ptr)
    return cudaSuccess;
  Runtime &R = RT();
  if (cudaError_t E = R.init())
    return ret(E);
  Allocation A;
  if (!R.findAlloc(Ptr, A) || A.Base != reinterpret_cast<uintptr_t>(Ptr) ||
      (A.Kind != AllocKind::Device && A.Kind != AllocKind::Managed))
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx = R.context(A.Device);
  if (int St = Ctx->Sticky.load())
    return ret(static_cast<cudaError_t>(St));
  // cudaFree waits for the device, like CUDA's.
  if (cudaError_t E = mapStatus(*Ctx, Ctx->Dev->synchronize()))
    return ret(E);
  R.removeAlloc(Ptr, AllocKind::Device, A);
  return ret(toCudaError(Ctx->Dev->release(Ptr).Code));
}

HETGPU_API cudaError_t cudaHostAlloc(void **Ptr, size_t Size,
                                     unsigned int Flags) {
  if (!Ptr)
    return ret(cudaErrorInvalidValue);
  *Ptr = nullptr;
  if (Flags & ~0x7u)
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  if (Size == 0)
    return cudaSuccess;
  void *P = nullptr;
  if (Status S = Ctx->Dev->allocateHost(Size, P))
    return ret(cudaErrorMemoryAllocation);
  RT().addAlloc({reinterpret_cast<uintptr_t>(P), Size, Ctx->Index,
                 AllocKind::Host, Flags, Ctx->Dev.get()});
  *Ptr = P;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaMallocHost(void **Ptr, size_t Size) {
  return cudaHostAlloc(Ptr, Size, cudaHostAllocDefault);
}

HETGPU_API cudaError_t cudaFreeHost(void *Ptr) {
  if (!Ptr)
    return cudaSuccess;
  Runtime &R = RT();
  if (cudaError_t E = R.init())
    return ret(E);
  Allocation A;
  if (!R.removeAlloc(Ptr, AllocKind::Host, A))
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx = R.context(A.Device);
  Ctx->Dev->synchronize();
  // The allocating device frees it, also after a migration (Migration.h).
  Device *Owner = A.Owner ? A.Owner : Ctx->Dev.get();
  return ret(toCudaError(Owner->releaseHost(Ptr).Code));
}

HETGPU_API cudaError_t cudaMallocManaged(void **Ptr, size_t Size,
                                         unsigned int Flags) {
  if (!Ptr)
    return ret(cudaErrorInvalidValue);
  *Ptr = nullptr;
  if (Flags != cudaMemAttachGlobal && Flags != cudaMemAttachHost)
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  if (Size == 0)
    return ret(cudaErrorInvalidValue);
  void *P = nullptr;
  Status S = Ctx->Dev->allocateManaged(Size, P);
  if (S.Code == ErrorCode::NotSupported && Ctx->Dev->properties().Integrated)
    S = Ctx->Dev->allocate(Size, P);
  if (S)
    return ret(S.Code == ErrorCode::NotSupported ? cudaErrorNotSupported
                                                 : cudaErrorMemoryAllocation);
  RT().addAlloc({reinterpret_cast<uintptr_t>(P), Size, Ctx->Index,
                 AllocKind::Managed, Flags});
  *Ptr = P;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaHostGetDevicePointer(void **PDevice, void *PHost,
                                                unsigned int Flags) {
  if (!PDevice || Flags)
    return ret(cudaErrorInvalidValue);
  Allocation A;
  if (!RT().findAlloc(PHost, A) ||
      (A.Kind != AllocKind::Host && A.Kind != AllocKind::Registered &&
       A.Kind != AllocKind::Managed))
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx = RT().context(A.Device);
  if (!Ctx->Dev->properties().Integrated)
    return ret(cudaErrorNotSupported);
  *PDevice = PHost;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaHostGetFlags(unsigned int *Flags, void *PHost) {
  Allocation A;
  if (!Flags || !RT().findAlloc(PHost, A) || A.Kind != AllocKind::Host)
    return ret(cudaErrorInvalidValue);
  *Flags = A.Flags;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaHostRegister(void *Ptr, size_t Size,
                                        unsigned int Flags) {
  if (!Ptr || !Size)
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  Allocation A;
  if (RT().findAlloc(Ptr, A))
    return ret(cudaErrorHostMemoryAlreadyRegistered);
  RT().addAlloc({reinterpret_cast<uintptr_t>(Ptr), Size, Ctx->Index,
                 AllocKind::Registered, Flags});
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaHostUnregister(void *Ptr) {
  Allocation A;
  if (!RT().removeAlloc(Ptr, AllocKind::Registered, A))
    return ret(cudaErrorHostMemoryNotRegistered);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaMemGetInfo(size_t *Free, size_t *Total) {
  if (!Free || !Total)
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  return ret(toCudaError(Ctx->Dev->memoryInfo(*Free, *Total).Code));
}

HETGPU_API cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *At,
                                                const void *Ptr) {
  if (!At)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = RT().init())
    return ret(E);
  memset(At, 0, sizeof(*At));
  Allocation A;
  void *P = const_cast<void *>(Ptr);
  if (!RT().findAlloc(Ptr, A)) {
    At->type = cudaMemoryTypeUnregistered;
    At->device = cudaInvalidDeviceId;
    return cudaSuccess;
  }
  bool Integrated = RT().context(A.Device)->Dev->properties().Integrated;
  At->device = A.Device;
  switch (A.Kind) {
  case AllocKind::Device:
    At->type = cudaMemoryTypeDevice;
    At->devicePointer = P;
    At->hostPointer = Integrated ? P : nullptr;
    break;
  case AllocKind::Managed:
    At->type = cudaMemoryTypeManaged;
    At->devicePointer = P;
    At->hostPointer = P;
    break;
  case AllocKind::Host:
  case AllocKind::Registered:
    At->type = cudaMemoryTypeHost;
    At->hostPointer = P;
    At->devicePointer = Integrated ? P : nullptr;
    break;
  }
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t N,
                                  enum cudaMemcpyKind Kind) {
  return ret(memcpyImpl(Dst, Src, N, Kind, nullptr, true));
}

HETGPU_API cudaError_t cudaMemcpyAsync(void *Dst, const void *Src, size_t N,
                                       enum cudaMemcpyKind Kind,
                                       cudaStream_t S) {
  return ret(memcpyImpl(Dst, Src, N, Kind, S, false));
}

static cudaError_t memcpy2D(void *Dst, size_t DPitch, const void *Src,
                            size_t SPitch, size_t Width, size_t Height,
                            cudaMemcpyKind Kind, cudaStream_t Stream,
                            bool Sync) {
  if (Width > DPitch || Width > SPitch)
    return cudaErrorInvalidPitchValue;
  for (size_t Row = 0; Row < Height; ++Row)
    if (cudaError_t E = memcpyImpl(static_cast<char *>(Dst) + Row * DPitch,
                                   static_cast<const char *>(Src) + Row * SPitch,
                                   Width, Kind, Stream, false))
      return E;
  if (!Sync)
    return cudaSuccess;
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return E;
  return syncStream(*S);
}

HETGPU_API cudaError_t cudaMemcpy2D(void *Dst, size_t DPitch, const void *Src,
                                    size_t SPitch, size_t Width, size_t Height,
                                    enum cudaMemcpyKind Kind) {
  return ret(memcpy2D(Dst, DPitch, Src, SPitch, Width, Height, Kind, nullptr,
                      true));
}

HETGPU_API cudaError_t cudaMemcpy2DAsync(void *Dst, size_t DPitch,
                                         const void *Src, size_t SPitch,
                                         size_t Width, size_t Height,
                                         enum cudaMemcpyKind Kind,
                                         cudaStream_t S) {
  return ret(memcpy2D(Dst, DPitch, Src, SPitch, Width, Height, Kind, S, false));
}

namespace {

/// The default stream of context \p Ctx.
cudaError_t nullStreamOf(DeviceContext *Ctx, StreamObj *&Out) {
  Runtime &R = RT();
  int Saved = R.currentIndex();
  R.setCurrentIndex(Ctx->Index);
  cudaError_t E = resolve(nullptr, Out);
  R.setCurrentIndex(Saved);
  return E;
}

/// Copies \p N bytes of device memory from \p Src (context \p S) to
/// \p Dst (context \p D). \p Q null: cudaMemcpyPeer, ordered after all
/// work of both devices and finished on return; else queued on \p Q (and
/// waited for when \p Sync). In order of preference: one physical device
/// (a device-to-device copy), one memory (devices sharing the arena),
/// straight between two devices with memory of their own (Queue::copyPeer,
/// e.g. cuMemcpyPeerAsync between two GPUs), else staged through a host
/// buffer.
cudaError_t peerCopy(DeviceContext *D, void *Dst, DeviceContext *S,
                     const void *Src, size_t N, StreamObj *Q, bool Sync) {
  Runtime &R = RT();
  if (N == 0)
    return cudaSuccess;
  if (!Dst || !Src)
    return cudaErrorInvalidValue;
  if (int St = S->Sticky.load())
    return static_cast<cudaError_t>(St);
  if (int St = D->Sticky.load())
    return static_cast<cudaError_t>(St);
  bool Whole = !Q; // cudaMemcpyPeer: both devices' work first, then wait
  if (Whole) {
    if (Status St = S->Dev->synchronize())
      return mapStatus(*S, St);
    if (D->Dev != S->Dev)
      if (Status St = D->Dev->synchronize())
        return mapStatus(*D, St);
    if (cudaError_t E = nullStreamOf(S, Q))
      return E;
    Sync = true;
  } else if (Sync) {
    // A blocking cudaMemcpy between two devices also waits for the work
    // queued on the device whose stream it is not.
    DeviceContext *Other = Q->Ctx->Dev == S->Dev ? D : S;
    if (Other->Dev != Q->Ctx->Dev)
      if (Status St = Other->Dev->synchronize())
        return mapStatus(*Other, St);
  }
  auto Done = [&]() { return Sync ? syncStream(*Q) : cudaSuccess; };
  // Inside one allocation each, as CUDA requires of peer copies.
  auto Within = [&R, N](const void *P) {
    Allocation A;
    return R.findAlloc(P, A) &&
           reinterpret_cast<uintptr_t>(P) + N <= A.Base + A.Size;
  };
  if (D->Dev == S->Dev && Q->Ctx->Dev == S->Dev) {
    if (cudaError_t E = enqueueCopy(*Q, Dst, Src, N, CopyKind::DeviceToDevice))
      return E;
    return Done();
  }
  if (sharesMemory(D, S) && Within(Src) && Within(Dst)) {
    // One memory: wait for the work before the copy, then copy directly.
    if (cudaError_t E = syncStream(*Q))
      return E;
    std::memmove(Dst, Src, N);
    return cudaSuccess;
  }
  if (Q->Ctx->Dev == S->Dev || Q->Ctx->Dev == D->Dev) {
    Status St;
    {
      std::lock_guard<std::recursive_mutex> Lock(Q->Ctx->M);
      R.orderLegacy(*Q);
      St = Q->Q->copyPeer(Dst, *D->Dev, Src, *S->Dev, N);
    }
    if (St.isOk())
      return Done();
    if (St.Code != ErrorCode::NotSupported)
      return mapStatus(*Q->Ctx, St);
    log(LogLevel::Debug, "peer copy staged through host memory: " + St.Message);
  }
  // Staged through host memory: device-to-host on the source, then
  // host-to-device on the destination, after the work before the copy.
  if (cudaError_t E = syncStream(*Q))
    return E;
  std::vector<char> Tmp(N);
  int Saved = R.currentIndex();
  R.setCurrentIndex(S->Index);
  cudaError_t E = memcpyImpl(Tmp.data(), Src, N, cudaMemcpyDeviceToHost,
                             nullptr, true);
  R.setCurrentIndex(D->Index);
  if (!E)
    E = memcpyImpl(Dst, Tmp.data(), N, cudaMemcpyHostToDevice, nullptr, true);
  R.setCurrentIndex(Saved);
  return E;
}

} // namespace

/// The two CUDA devices of a peer copy (devices the program can name).
static cudaError_t peerDevices(int DstDevice, int SrcDevice, DeviceContext *&D,
                               DeviceContext *&S) {
  Runtime &R = RT();
  if (cudaError_t E = R.init())
    return E;
  D = R.context(DstDevice);
  S = R.context(SrcDevice);
  if (!D || !S || DstDevice >= R.deviceCount() || SrcDevice >= R.deviceCount())
    return cudaErrorInvalidDevice;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaMemcpyPeer(void *Dst, int DstDevice,
                                      const void *Src, int SrcDevice,
                                      size_t N) {
  DeviceContext *D, *S;
  if (cudaError_t E = peerDevices(DstDevice, SrcDevice, D, S))
    return ret(E);
  return ret(peerCopy(D, Dst, S, Src, N, nullptr, true));
}

HETGPU_API cudaError_t cudaMemcpyPeerAsync(void *Dst, int DstDevice,
                                           const void *Src, int SrcDevice,
                                           size_t N, cudaStream_t Stream) {
  DeviceContext *D, *S;
  if (cudaError_t E = peerDevices(DstDevice, SrcDevice, D, S))
    return ret(E);
  StreamObj *Q;
  if (cudaError_t E = resolve(Stream, Q))
    return ret(E);
  return ret(peerCopy(D, Dst, S, Src, N, Q, false));
}

HETGPU_API cudaError_t cudaMemcpyToSymbol(const void *Symbol, const void *Src,
                                          size_t Count, size_t Offset,
                                          enum cudaMemcpyKind Kind) {
  return ret(symbolCopy(nullptr, Src, Symbol, Count, Offset, Kind, nullptr,
                        true, true));
}

HETGPU_API cudaError_t cudaMemcpyFromSymbol(void *Dst, const void *Symbol,
                                            size_t Count, size_t Offset,
                                            enum cudaMemcpyKind Kind) {
  return ret(symbolCopy(Dst, nullptr, Symbol, Count, Offset, Kind, nullptr,
                        true, false));
}

HETGPU_API cudaError_t cudaMemcpyToSymbolAsync(const void *Symbol,
                                               const void *Src, size_t Count,
                                               size_t Offset,
                                               enum cudaMemcpyKind Kind,
                                               cudaStream_t S) {
  return ret(symbolCopy(nullptr, Src, Symbol, Count, Offset, Kind, S, false,
                        true));
}

HETGPU_API cudaError_t cudaMemcpyFromSymbolAsync(void *Dst, const void *Symbol,
                                                 size_t Count, size_t Offset,
                                                 enum cudaMemcpyKind Kind,
                                                 cudaStream_t S) {
  return ret(symbolCopy(Dst, nullptr, Symbol, Count, Offset, Kind, S, false,
                        false));
}

HETGPU_API cudaError_t cudaMemset(void *Dst, int Value, size_t N) {
  return ret(memsetImpl(Dst, Value, N, nullptr, true));
}

HETGPU_API cudaError_t cudaMemsetAsync(void *Dst, int Value, size_t N,
                                       cudaStream_t S) {
  return ret(memsetImpl(Dst, Value, N, S, false));
}

HETGPU_API cudaError_t cudaMemset2D(void *Dst, size_t Pitch, int Value,
                                    size_t Width, size_t Height) {
  if (Width > Pitch)
    return ret(cudaErrorInvalidPitchValue);
  for (size_t Row = 0; Row < Height; ++Row)
    if (cudaError_t E = memsetImpl(static_cast<char *>(Dst) + Row * Pitch,
                                   Value, Width, nullptr, false))
      return ret(E);
  StreamObj *S;
  if (cudaError_t E = resolve(nullptr, S))
    return ret(E);
  return ret(syncStream(*S));
}

HETGPU_API cudaError_t cudaGetSymbolAddress(void **DevPtr, const void *Symbol) {
  if (!DevPtr)
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  size_t Size;
  return ret(RT().getSymbol(*Ctx, Symbol, *DevPtr, Size));
}

HETGPU_API cudaError_t cudaGetSymbolSize(size_t *Size, const void *Symbol) {
  if (!Size)
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  void *Addr;
  return ret(RT().getSymbol(*Ctx, Symbol, Addr, *Size));
}

HETGPU_API cudaError_t cudaMemPrefetchAsync(const void *Ptr, size_t, int,
                                            cudaStream_t S) {
  StreamObj *Obj;
  if (cudaError_t E = resolve(S, Obj))
    return ret(E);
  Allocation A;
  if (!RT().findAlloc(Ptr, A) || A.Kind != AllocKind::Managed)
    return ret(cudaErrorInvalidValue);
  return cudaSuccess; // one copy of managed memory: nothing to move
}

HETGPU_API cudaError_t cudaMemAdvise(const void *Ptr, size_t, int, int) {
  Allocation A;
  if (!RT().findAlloc(Ptr, A) || A.Kind != AllocKind::Managed)
    return ret(cudaErrorInvalidValue);
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

HETGPU_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *Out,
                                                    unsigned int Flags,
                                                    int Priority) {
  if (!Out || (Flags & ~1u))
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  StreamObj *S;
  if (cudaError_t E = RT().createStream(*Ctx, Flags, Priority, S))
    return ret(E);
  {
    std::lock_guard<std::recursive_mutex> Lock(Ctx->M);
    Ctx->Streams.insert(S);
  }
  *Out = reinterpret_cast<cudaStream_t>(S);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *Out,
                                                 unsigned int Flags) {
  return cudaStreamCreateWithPriority(Out, Flags, 0);
}

HETGPU_API cudaError_t cudaStreamCreate(cudaStream_t *Out) {
  return cudaStreamCreateWithPriority(Out, cudaStreamDefault, 0);
}

HETGPU_API cudaError_t cudaStreamDestroy(cudaStream_t S) {
  if (!S || S == cudaStreamLegacy || S == cudaStreamPerThread)
    return ret(cudaErrorInvalidResourceHandle);
  return ret(RT().destroyStream(reinterpret_cast<StreamObj *>(S)));
}

HETGPU_API cudaError_t cudaStreamSynchronize(cudaStream_t Stream) {
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return ret(E);
  if (S->IsNull) {
    // The legacy stream waits for the blocking streams too.
    std::lock_guard<std::recursive_mutex> Lock(S->Ctx->M);
    RT().orderLegacy(*S);
  }
  return ret(syncStream(*S));
}

HETGPU_API cudaError_t cudaStreamQuery(cudaStream_t Stream) {
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return ret(E);
  Status St = S->Q->query();
  if (St.Code == ErrorCode::NotReady)
    return cudaErrorNotReady; // not recorded as the last error
  return ret(mapStatus(*S->Ctx, St));
}

HETGPU_API cudaError_t cudaStreamWaitEvent(cudaStream_t Stream,
                                           cudaEvent_t Event,
                                           unsigned int Flags) {
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return ret(E);
  auto *Ev = reinterpret_cast<EventObj *>(Event);
  if (!Ev || !RT().isLiveEvent(Ev) || (Flags & ~1u))
    return ret(Ev ? cudaErrorInvalidValue : cudaErrorInvalidResourceHandle);
  if (!Ev->Recorded)
    return cudaSuccess; // nothing to wait for
  std::lock_guard<std::recursive_mutex> Lock(S->Ctx->M);
  RT().orderLegacy(*S);
  return ret(mapStatus(*S->Ctx, S->Q->wait(*Ev->E)));
}

static cudaError_t hostFunc(cudaStream_t Stream, std::function<void()> Fn) {
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return E;
  std::lock_guard<std::recursive_mutex> Lock(S->Ctx->M);
  RT().orderLegacy(*S);
  return mapStatus(*S->Ctx, S->Q->hostFunc(std::move(Fn)));
}

HETGPU_API cudaError_t cudaStreamAddCallback(cudaStream_t Stream,
                                             cudaStreamCallback_t Callback,
                                             void *UserData,
                                             unsigned int Flags) {
  if (!Callback || Flags)
    return ret(cudaErrorInvalidValue);
  return ret(hostFunc(Stream, [=] { Callback(Stream, cudaSuccess, UserData); }));
}

HETGPU_API cudaError_t cudaLaunchHostFunc(cudaStream_t Stream, cudaHostFn_t Fn,
                                          void *UserData) {
  if (!Fn)
    return ret(cudaErrorInvalidValue);
  return ret(hostFunc(Stream, [=] { Fn(UserData); }));
}

HETGPU_API cudaError_t cudaStreamGetFlags(cudaStream_t Stream,
                                          unsigned int *Flags) {
  StreamObj *S;
  if (!Flags)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = resolve(Stream, S))
    return ret(E);
  *Flags = S->Flags;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaStreamGetPriority(cudaStream_t Stream,
                                             int *Priority) {
  StreamObj *S;
  if (!Priority)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = resolve(Stream, S))
    return ret(E);
  *Priority = 0;
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

HETGPU_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *Out,
                                                unsigned int Flags) {
  if (!Out || (Flags & ~0x7u))
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  auto Ev = std::make_unique<EventObj>();
  Ev->Ctx = Ctx;
  Ev->Flags = Flags;
  if (Status S = Ctx->Dev->createEvent(Ev->E))
    return ret(toCudaError(S.Code));
  EventObj *P = Ev.release();
  {
    std::lock_guard<std::mutex> Lock(RT().HandleM);
    RT().LiveEvents.insert(P);
  }
  *Out = reinterpret_cast<cudaEvent_t>(P);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaEventCreate(cudaEvent_t *Out) {
  return cudaEventCreateWithFlags(Out, cudaEventDefault);
}

static cudaError_t liveEvent(cudaEvent_t Event, EventObj *&Out) {
  Out = reinterpret_cast<EventObj *>(Event);
  if (!Out || !RT().isLiveEvent(Out))
    return cudaErrorInvalidResourceHandle;
  if (int St = Out->Ctx->Sticky.load())
    return static_cast<cudaError_t>(St);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t Event,
                                                cudaStream_t Stream,
                                                unsigned int) {
  EventObj *Ev;
  if (cudaError_t E = liveEvent(Event, Ev))
    return ret(E);
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return ret(E);
  if (S->Ctx != Ev->Ctx)
    return ret(cudaErrorInvalidResourceHandle);
  std::lock_guard<std::recursive_mutex> Lock(S->Ctx->M);
  RT().orderLegacy(*S);
  if (cudaError_t E = mapStatus(*S->Ctx, S->Q->record(*Ev->E)))
    return ret(E);
  Ev->Recorded = true;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaEventRecord(cudaEvent_t Event, cudaStream_t Stream) {
  return cudaEventRecordWithFlags(Event, Stream, 0);
}

HETGPU_API cudaError_t cudaEventSynchronize(cudaEvent_t Event) {
  EventObj *Ev;
  if (cudaError_t E = liveEvent(Event, Ev))
    return ret(E);
  if (!Ev->Recorded)
    return cudaSuccess;
  return ret(mapStatus(*Ev->Ctx, Ev->E->synchronize()));
}

HETGPU_API cudaError_t cudaEventQuery(cudaEvent_t Event) {
  EventObj *Ev;
  if (cudaError_t E = liveEvent(Event, Ev))
    return ret(E);
  if (!Ev->Recorded)
    return cudaSuccess;
  Status S = Ev->E->query();
  if (S.Code == ErrorCode::NotReady)
    return cudaErrorNotReady;
  return ret(mapStatus(*Ev->Ctx, S));
}

HETGPU_API cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t Start,
                                            cudaEvent_t End) {
  if (!Ms)
    return ret(cudaErrorInvalidValue);
  EventObj *A, *B;
  if (cudaError_t E = liveEvent(Start, A))
    return ret(E);
  if (cudaError_t E = liveEvent(End, B))
    return ret(E);
  if ((A->Flags | B->Flags) & cudaEventDisableTiming)
    return ret(cudaErrorInvalidResourceHandle);
  if (!A->Recorded || !B->Recorded)
    return ret(cudaErrorInvalidResourceHandle);
  if (A->E->query().Code == ErrorCode::NotReady ||
      B->E->query().Code == ErrorCode::NotReady)
    return ret(cudaErrorNotReady);
  return ret(mapStatus(*B->Ctx, B->E->elapsedSince(*A->E, *Ms)));
}

HETGPU_API cudaError_t cudaEventDestroy(cudaEvent_t Event) {
  auto *Ev = reinterpret_cast<EventObj *>(Event);
  {
    std::lock_guard<std::mutex> Lock(RT().HandleM);
    if (!Ev || !RT().LiveEvents.erase(Ev))
      return ret(cudaErrorInvalidResourceHandle);
  }
  // Queues may still signal it: wait until it is complete.
  if (Ev->Recorded)
    Ev->E->synchronize();
  delete Ev;
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Execution
//===----------------------------------------------------------------------===//

static cudaError_t launch(const void *Func, dim3 Grid, dim3 Block, void **Args,
                          size_t Shared, cudaStream_t Stream) {
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return E;
  KernelRecord *K = RT().findKernel(Func);
  if (!K)
    return cudaErrorInvalidDeviceFunction;
  DeviceContext &Ctx = *S->Ctx;
  const DeviceProperties &P = Ctx.Dev->properties();
  // Launch configuration, checked as CUDA does (not sticky).
  uint64_t Threads = uint64_t(Block.x) * Block.y * Block.z;
  if (!Grid.x || !Grid.y || !Grid.z || !Block.x || !Block.y || !Block.z ||
      Threads > P.MaxThreadsPerBlock || Block.x > P.MaxBlockDim[0] ||
      Block.y > P.MaxBlockDim[1] || Block.z > P.MaxBlockDim[2] ||
      Grid.x > P.MaxGridDim[0] || Grid.y > P.MaxGridDim[1] ||
      Grid.z > P.MaxGridDim[2])
    return cudaErrorInvalidConfiguration;
  if (K->Info) {
    if (K->Info->MaxThreads && Threads > K->Info->MaxThreads)
      return cudaErrorLaunchOutOfResources;
    uint64_t Limit = K->MaxDynamicShared >= 0
                         ? uint64_t(K->MaxDynamicShared)
                         : (P.SharedMemPerBlock > K->Info->StaticShared
                                ? P.SharedMemPerBlock - K->Info->StaticShared
                                : 0);
    if (Shared > Limit)
      return cudaErrorInvalidValue;
  }
  Kernel *Kn;
  if (cudaError_t E = RT().getKernel(Ctx, *K, Kn))
    return E;
  LaunchParams LP;
  LP.Grid[0] = Grid.x;
  LP.Grid[1] = Grid.y;
  LP.Grid[2] = Grid.z;
  LP.Block[0] = Block.x;
  LP.Block[1] = Block.y;
  LP.Block[2] = Block.z;
  LP.DynamicShared = Shared;
  LP.Args = Args;
  if (migrationEnabled()) { // live migration: Core/Migration.h
    {
      std::lock_guard<std::recursive_mutex> Lock(Ctx.M);
      RT().orderLegacy(*S);
    }
    return mapStatus(Ctx, migratableLaunch(Ctx, *S, *Kn, *K, LP));
  }
  std::lock_guard<std::recursive_mutex> Lock(Ctx.M);
  RT().orderLegacy(*S);
  return mapStatus(Ctx, S->Q->launch(*Kn, LP));
}

HETGPU_API cudaError_t cudaLaunchKernel(const void *Func, dim3 Grid,
                                        dim3 Block, void **Args, size_t Shared,
                                        cudaStream_t Stream) {
  return ret(launch(Func, Grid, Block, Args, Shared, Stream));
}

HETGPU_API cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *Attr,
                                             const void *Func) {
  if (!Attr)
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  KernelRecord *K = RT().findKernel(Func);
  if (!K)
    return ret(cudaErrorInvalidDeviceFunction);
  if (!K->Bin || !K->Bin->Valid)
    return ret(cudaErrorInvalidKernelImage);
  const DeviceProperties &P = Ctx->Dev->properties();
  memset(Attr, 0, sizeof(*Attr));
  uint64_t Static = K->Info ? K->Info->StaticShared : 0;
  Attr->sharedSizeBytes = Static;
  Attr->constSizeBytes = 0;
  Attr->localSizeBytes = 0;
  Attr->maxThreadsPerBlock =
      K->Info && K->Info->MaxThreads
          ? static_cast<int>(std::min(K->Info->MaxThreads, P.MaxThreadsPerBlock))
          : static_cast<int>(P.MaxThreadsPerBlock);
  Attr->numRegs = 32;
  // Every kernel was compiled for the portable profile (ABI/Profile.h):
  // libraries match their host-side policy choice against it.
  Attr->ptxVersion = abi::ProfilePTXVersion;
  Attr->binaryVersion = abi::ProfilePTXVersion;
  Attr->maxDynamicSharedSizeBytes =
      K->MaxDynamicShared >= 0
          ? K->MaxDynamicShared
          : static_cast<int>(P.SharedMemPerBlock > Static
                                 ? P.SharedMemPerBlock - Static
                                 : 0);
  Attr->preferredShmemCarveout = -1;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaFuncSetAttribute(const void *Func,
                                            enum cudaFuncAttribute Attr,
                                            int Value) {
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  KernelRecord *K = RT().findKernel(Func);
  if (!K)
    return ret(cudaErrorInvalidDeviceFunction);
  const DeviceProperties &P = Ctx->Dev->properties();
  uint64_t Static = K->Info ? K->Info->StaticShared : 0;
  switch (Attr) {
  case cudaFuncAttributeMaxDynamicSharedMemorySize:
    if (Value < 0 || uint64_t(Value) + Static > P.SharedMemPerBlockOptin)
      return ret(cudaErrorInvalidValue);
    K->MaxDynamicShared = Value;
    return cudaSuccess;
  case cudaFuncAttributePreferredSharedMemoryCarveout:
    if (Value < -1 || Value > 100)
      return ret(cudaErrorInvalidValue);
    return cudaSuccess;
  default:
    return ret(cudaErrorInvalidValue);
  }
}

HETGPU_API cudaError_t cudaFuncSetCacheConfig(const void *Func,
                                              enum cudaFuncCache) {
  return RT().findKernel(Func) ? cudaSuccess
                               : ret(cudaErrorInvalidDeviceFunction);
}

HETGPU_API cudaError_t cudaFuncSetSharedMemConfig(const void *Func,
                                                  enum cudaSharedMemConfig) {
  return RT().findKernel(Func) ? cudaSuccess
                               : ret(cudaErrorInvalidDeviceFunction);
}

HETGPU_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *NumBlocks, const void *Func, int BlockSize, size_t DynShared,
    unsigned int) {
  if (!NumBlocks)
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  KernelRecord *K = RT().findKernel(Func);
  if (!K)
    return ret(cudaErrorInvalidDeviceFunction);
  *NumBlocks = occupancy(Ctx->Dev->properties(), K->Info, BlockSize, DynShared);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *NumBlocks, const void *Func, int BlockSize, size_t DynShared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      NumBlocks, Func, BlockSize, DynShared, 0);
}

HETGPU_API cudaError_t __hetgpuOccupancyMaxPotentialBlockSize(
    int *MinGridSize, int *BlockSize, const void *Func, size_t DynShared,
    int BlockSizeLimit) {
  if (!MinGridSize || !BlockSize)
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  KernelRecord *K = RT().findKernel(Func);
  if (!K)
    return ret(cudaErrorInvalidDeviceFunction);
  const DeviceProperties &P = Ctx->Dev->properties();
  int Max = static_cast<int>(P.MaxThreadsPerBlock);
  if (K->Info && K->Info->MaxThreads)
    Max = std::min<int>(Max, K->Info->MaxThreads);
  if (BlockSizeLimit > 0)
    Max = std::min(Max, BlockSizeLimit);
  int BestSize = 0, BestThreads = -1, BestBlocks = 0;
  for (int B = Max; B > 0; B -= (B % 32 ? B % 32 : 32)) {
    int N = occupancy(P, K->Info, B, DynShared);
    if (N * B > BestThreads) {
      BestThreads = N * B;
      BestSize = B;
      BestBlocks = N;
    }
  }
  *BlockSize = BestSize;
  *MinGridSize = BestBlocks * static_cast<int>(P.MultiProcessorCount);
  return cudaSuccess;
}
