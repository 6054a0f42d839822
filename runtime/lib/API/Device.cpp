//===- Device.cpp - CUDA device management --------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Device selection (cudaSetDevice: the calling thread's current device),
/// synchronisation, cudaDeviceReset (streams, modules, allocations, sticky
/// error and the migration service's buffers of the device go), device
/// flags, limits and cache/shared-memory configuration. Properties are in
/// DeviceProperties.cpp, peer access in Peer.cpp.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"
#include "Core/CudaErrors.h"
#include "Core/KernelMemCheck.h"
#include "Core/Log.h"
#include "Core/MigrationService.h"

#include <cstring>
#include <vector>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

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

HETGPU_API cudaError_t cudaDeviceSynchronize(void) {
  if (cudaError_t E = captureUnsafe("cudaDeviceSynchronize"))
    return ret(E);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  return ret(mapStatus(*Ctx, Ctx->Dev->synchronize()));
}

HETGPU_API cudaError_t cudaThreadSynchronize(void) {
  return cudaDeviceSynchronize();
}

/// True when another context runs on the device \p Self runs on.
static bool runsOthers(Runtime &R, const DeviceContext &Self) {
  for (int I = 0, N = R.contextCount(); I < N; ++I)
    if (samePhysical(&Self, R.context(I)))
      return true;
  return false;
}

/// The device step of cudaDeviceReset, once the context's work, memory and
/// modules are gone. A context that live migration moved goes back to the
/// device it was created for, as if it had never left: a fault of its work
/// on the other device is forgotten there, and that device's own context
/// keeps its memory (on NVIDIA a reset would tear the primary context down
/// for both). A device that another context also runs on only forgets its
/// fault; otherwise it is reset.
static Status resetDevices(Runtime &R, DeviceContext &Ctx) {
  if (Ctx.Dev != Ctx.Home) {
    std::shared_ptr<Device> Away = Ctx.Dev;
    Ctx.Dev = Ctx.Home;
    Ctx.Backend = Ctx.HomeBackend;
    if (Status St = Away->forgetFault())
      log(LogLevel::Info,
          "device " + std::to_string(Ctx.Index) + " reset: back on " +
              Ctx.Home->properties().Name + "; " + Away->properties().Name +
              " keeps the fault of its work there: " + St.Message);
  }
  return runsOthers(R, Ctx) ? Ctx.Dev->forgetFault() : Ctx.Dev->reset();
}

HETGPU_API cudaError_t cudaDeviceReset(void) {
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx, /*CheckSticky=*/false))
    return ret(E);
  Runtime &R = RT();
  Ctx->Dev->synchronize();
  std::vector<StreamObj *> Streams;
  StreamObj *Null;
  {
    std::lock_guard<std::recursive_mutex> Lock(Ctx->M);
    Streams.assign(Ctx->Streams.begin(), Ctx->Streams.end());
    Null = Ctx->NullStream.get();
  }
  // Outside Ctx->M: a graph launch holds its graph's lock, then Ctx->M.
  if (Null)
    graphsForgetStream(*Null);
  for (StreamObj *S : Streams) {
    graphsForgetStream(*S);
    R.destroyStream(S);
  }
  {
    std::lock_guard<std::recursive_mutex> Lock(Ctx->M);
    memCheckResetContext(*Ctx);
    if (Ctx->NullStream) {
      std::lock_guard<std::mutex> HL(R.HandleM);
      R.LiveStreams.erase(Ctx->NullStream.get());
    }
    Ctx->NullStream.reset();
    Ctx->Modules.clear();
    Ctx->Sticky = 0;
    Ctx->Flags = 0;
    Ctx->HeapKernel.clear();
    size_t Defaults[7] = {1024, 1 << 20, 8 << 20, 2, 2048, 0, 0};
    memcpy(Ctx->Limits, Defaults, sizeof(Defaults));
  }
  if (MigrationService *Mig = activeMigrationService())
    Mig->releaseDevice(*Ctx->Dev);
  R.removeDeviceAllocs(Ctx->Index);
  Status St = resetDevices(R, *Ctx);
  // The thread's last error survives the reset (CUDA 13 on an H200:
  // cudaGetLastError after a reset returns the sticky error once).
  if (St) {
    cudaError_t E = toCudaError(St.Code);
    if (!isStickyError(E)) {
      Ctx->Sticky = E;
      return ret(E);
    }
    // NVIDIA's driver keeps a sticky error (device assert, trap, illegal
    // address) past the reset. CUDA 13 on an H200: cudaDeviceReset returns
    // success, and every later call that touches the device returns
    // cudaErrorDevicesUnavailable (bad-api-table.cu, *-reset-*).
    Ctx->Sticky = cudaErrorDevicesUnavailable;
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
  // CUDA 13: a value that names no limit is an invalid value.
  return ret(cudaErrorInvalidValue);
}

HETGPU_API cudaError_t cudaDeviceGetLimit(size_t *Value, enum cudaLimit Limit) {
  DeviceContext *Ctx;
  if (!Value)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  if (static_cast<unsigned>(Limit) > cudaLimitPersistingL2CacheSize)
    return ret(cudaErrorInvalidValue);
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
