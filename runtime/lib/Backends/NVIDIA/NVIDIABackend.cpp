//===- NVIDIABackend.cpp - NVIDIA GPUs through the CUDA driver API --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu::rt::createNVIDIABackend()`: devices, memory, PTX modules,
/// streams and events on top of the CUDA driver API (CudaDriver.h, loaded
/// with dlopen). Each device uses its primary context, made current on the
/// calling thread before every driver call. The lowering target is "nvptx"
/// with the device's sm_XY and a PTX ISA version the driver accepts.
///
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include "Core/Device.h"
#include "Core/Log.h"
#include "Core/UnifiedMemory.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <set>
#include <type_traits>

namespace hetgpu {
namespace rt {

std::unique_ptr<Backend> createNVIDIABackend();

namespace {

using namespace cu;

ErrorCode mapResult(CUresult R) {
  switch (R) {
  case CUDA_SUCCESS:
    return ErrorCode::Success;
  case CUDA_ERROR_INVALID_VALUE:
  case CUDA_ERROR_INVALID_HANDLE:
    return ErrorCode::InvalidValue;
  case CUDA_ERROR_OUT_OF_MEMORY:
    return ErrorCode::OutOfMemory;
  case CUDA_ERROR_NOT_READY:
    return ErrorCode::NotReady;
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    return ErrorCode::LaunchOutOfResources;
  case CUDA_ERROR_ASSERT:
    return ErrorCode::Assert;
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_FAILED:
    return ErrorCode::LaunchFailure;
  case CUDA_ERROR_INVALID_IMAGE:
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
  case CUDA_ERROR_INVALID_PTX:
  case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
  case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    return ErrorCode::NoBinaryForGpu;
  case CUDA_ERROR_NOT_FOUND:
    return ErrorCode::InvalidSymbol;
  case CUDA_ERROR_NOT_SUPPORTED:
    return ErrorCode::NotSupported;
  default:
    return ErrorCode::DriverFailure;
  }
}

/// Status of driver call \p What that returned \p R.
Status check(const Driver &D, CUresult R, const char *What) {
  if (R == CUDA_SUCCESS)
    return Status::ok();
  return Status(mapResult(R), std::string(What) + ": " + D.describe(R));
}

CUdeviceptr dptr(const void *P) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(P));
}

//===----------------------------------------------------------------------===//
// Device memory at unified addresses (Core/UnifiedMemory.h): the driver's
// virtual-memory API places this device's memory inside the process-wide
// arena, so an allocation keeps its address when a context migrates between
// this GPU and host-memory devices. Its entry points are optional (resolved
// here; CudaDriver.h lists what every driver has).
//===----------------------------------------------------------------------===//

struct VmmLocation {
  int Type, Id; // CU_MEM_LOCATION_TYPE_DEVICE = 1
};
struct VmmProp { // CUmemAllocationProp
  int Type, HandleTypes;
  VmmLocation Location;
  void *Win32;
  unsigned char Compression, GpuDirect;
  unsigned short Usage;
  unsigned char Reserved[4];
};
struct VmmAccess { // CUmemAccessDesc
  VmmLocation Location;
  int Flags; // CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 3
};

struct VmmApi {
  CUresult (*AddressReserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr,
                             unsigned long long) = nullptr;
  CUresult (*AddressFree)(CUdeviceptr, size_t) = nullptr;
  CUresult (*Create)(unsigned long long *, size_t, const VmmProp *,
                     unsigned long long) = nullptr;
  CUresult (*Release)(unsigned long long) = nullptr;
  CUresult (*Map)(CUdeviceptr, size_t, size_t, unsigned long long,
                  unsigned long long) = nullptr;
  CUresult (*Unmap)(CUdeviceptr, size_t) = nullptr;
  CUresult (*SetAccess)(CUdeviceptr, size_t, const VmmAccess *,
                        size_t) = nullptr;
  CUresult (*Granularity)(size_t *, const VmmProp *, int) = nullptr;
  // Host memory for kernels (managed memory at unified addresses).
  CUresult (*HostRegister)(void *, size_t, unsigned) = nullptr;
  CUresult (*HostUnregister)(void *) = nullptr;
  CUresult (*HostGetDevicePointer)(CUdeviceptr *, void *, unsigned) = nullptr;
};

/// The VMM entry points of the loaded driver, or null (with the reason).
const VmmApi *loadVmm(std::string &Why) {
  static VmmApi Api;
  static std::string Missing;
  static bool Ok = [] {
    const char *Path = std::getenv("HETGPU_LIBCUDA");
    void *H = dlopen(Path && *Path ? Path : "libcuda.so.1",
                     RTLD_NOW | RTLD_NOLOAD);
    if (!H) {
      Missing = "the driver library is not loaded";
      return false;
    }
    auto Get = [&](auto &Fn, const char *Name) {
      Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(
          dlsym(H, Name));
      if (!Fn)
        Missing += std::string(Missing.empty() ? "" : ", ") + Name;
    };
    Get(Api.AddressReserve, "cuMemAddressReserve");
    Get(Api.AddressFree, "cuMemAddressFree");
    Get(Api.Create, "cuMemCreate");
    Get(Api.Release, "cuMemRelease");
    Get(Api.Map, "cuMemMap");
    Get(Api.Unmap, "cuMemUnmap");
    Get(Api.SetAccess, "cuMemSetAccess");
    Get(Api.Granularity, "cuMemGetAllocationGranularity");
    Get(Api.HostRegister, "cuMemHostRegister_v2");
    Get(Api.HostUnregister, "cuMemHostUnregister");
    Get(Api.HostGetDevicePointer, "cuMemHostGetDevicePointer_v2");
    if (!Missing.empty())
      Missing = "the driver lacks " + Missing;
    return Missing.empty();
  }();
  Why = Missing;
  return Ok ? &Api : nullptr;
}

std::string hexAddr(uint64_t V) {
  char B[32];
  std::snprintf(B, sizeof B, "0x%llx", (unsigned long long)V);
  return B;
}

/// The arena chunks reserved for GPU memory, shared by all NVIDIA devices of
/// the process: a virtual address reservation is process-wide, and while a
/// migration moves a context GPU -> GPU one chunk holds pages of both. Each
/// reserved chunk counts the pages (of any device) mapped in it; it goes
/// back to the host when the count drops to zero. The lock guards every
/// device's VMM bookkeeping.
struct SharedVA {
  std::mutex M;
  std::map<uint64_t, unsigned> Chunks; ///< chunk address -> mapped pages
};
SharedVA &sharedVA() {
  static SharedVA V;
  return V;
}

class NVIDIADevice;

/// Makes a device's primary context current on this thread.
class ContextScope {
public:
  ContextScope(const Driver &D, CUcontext Ctx) { Result = D.CtxSetCurrent(Ctx); }
  CUresult Result;
};

class NVIDIAKernel final : public Kernel {
public:
  NVIDIAKernel(CUfunction F, container::KernelInfo Info)
      : Fn(F), Info(std::move(Info)) {}
  const container::KernelInfo &info() const override { return Info; }
  CUfunction Fn;
  /// Dynamic shared memory the function is configured for (48 KiB by
  /// default; raised on demand up to the opt-in limit).
  uint64_t DynamicSharedLimit = 48 * 1024;
  std::mutex Mu;

private:
  container::KernelInfo Info;
};

class NVIDIAModule final : public Module {
public:
  NVIDIAModule(const Driver &D, CUcontext Ctx, CUmodule M,
               const container::ModuleInfo &Info)
      : D(D), Ctx(Ctx), Mod(M), Info(Info) {}
  ~NVIDIAModule() override {
    ContextScope S(D, Ctx);
    D.ModuleUnload(Mod);
  }

  Status getKernel(const std::string &Name, Kernel *&Out) override {
    std::lock_guard<std::mutex> L(Mu);
    auto It = Kernels.find(Name);
    if (It != Kernels.end()) {
      Out = It->second.get();
      return Status::ok();
    }
    const container::KernelInfo *KI = Info.findKernel(Name);
    if (!KI)
      return Status(ErrorCode::InvalidValue,
                    "kernel '" + Name + "' is not in the module's kernel table");
    ContextScope S(D, Ctx);
    CUfunction F = nullptr;
    if (Status St = check(D, D.ModuleGetFunction(&F, Mod, Name.c_str()),
                          ("cuModuleGetFunction(" + Name + ")").c_str()))
      return St;
    auto K = std::make_unique<NVIDIAKernel>(F, *KI);
    Out = K.get();
    Kernels.emplace(Name, std::move(K));
    return Status::ok();
  }

  Status getGlobal(const std::string &Name, void *&Addr, size_t &Size) override {
    ContextScope S(D, Ctx);
    CUdeviceptr P = 0;
    size_t Bytes = 0;
    CUresult R = D.ModuleGetGlobal(&P, &Bytes, Mod, Name.c_str());
    if (R != CUDA_SUCCESS)
      return Status(R == CUDA_ERROR_NOT_FOUND ? ErrorCode::InvalidSymbol
                                              : mapResult(R),
                    "cuModuleGetGlobal(" + Name + "): " + D.describe(R));
    Addr = reinterpret_cast<void *>(static_cast<uintptr_t>(P));
    Size = Bytes;
    return Status::ok();
  }

private:
  const Driver &D;
  CUcontext Ctx;
  CUmodule Mod;
  container::ModuleInfo Info;
  std::mutex Mu;
  std::map<std::string, std::unique_ptr<NVIDIAKernel>> Kernels;
};

class NVIDIAEvent final : public Event {
public:
  NVIDIAEvent(const Driver &D, CUcontext Ctx, CUevent E) : Ev(E), D(D), Ctx(Ctx) {}
  ~NVIDIAEvent() override {
    ContextScope S(D, Ctx);
    D.EventDestroy(Ev);
  }
  Status synchronize() override {
    ContextScope S(D, Ctx);
    return check(D, D.EventSynchronize(Ev), "cuEventSynchronize");
  }
  Status query() override {
    ContextScope S(D, Ctx);
    return check(D, D.EventQuery(Ev), "cuEventQuery");
  }
  Status elapsedSince(Event &Start, float &Ms) override {
    ContextScope S(D, Ctx);
    auto &From = static_cast<NVIDIAEvent &>(Start);
    return check(D, D.EventElapsedTime(&Ms, From.Ev, Ev), "cuEventElapsedTime");
  }
  CUevent Ev;

private:
  const Driver &D;
  CUcontext Ctx;
};

class NVIDIAQueue final : public Queue {
public:
  NVIDIAQueue(const Driver &D, CUcontext Ctx, CUstream S, uint64_t OptinShared)
      : D(D), Ctx(Ctx), Stream(S), OptinShared(OptinShared) {}
  ~NVIDIAQueue() override {
    ContextScope S(D, Ctx);
    D.StreamSynchronize(Stream);
    D.StreamDestroy(Stream);
  }

  Status memcpy(void *Dst, const void *Src, size_t Bytes, CopyKind Kind) override {
    if (Bytes == 0)
      return Status::ok();
    ContextScope S(D, Ctx);
    switch (Kind) {
    case CopyKind::HostToDevice:
      return check(D, D.MemcpyHtoDAsync(dptr(Dst), Src, Bytes, Stream),
                   "cuMemcpyHtoDAsync");
    case CopyKind::DeviceToHost:
      return check(D, D.MemcpyDtoHAsync(Dst, dptr(Src), Bytes, Stream),
                   "cuMemcpyDtoHAsync");
    case CopyKind::DeviceToDevice:
      return check(D, D.MemcpyDtoDAsync(dptr(Dst), dptr(Src), Bytes, Stream),
                   "cuMemcpyDtoDAsync");
    case CopyKind::HostToHost:
      if (Status St = synchronize())
        return St;
      std::memmove(Dst, Src, Bytes);
      return Status::ok();
    }
    return Status(ErrorCode::InvalidValue, "memcpy: unknown copy kind");
  }

  Status memset(void *Dst, int Value, size_t Bytes) override {
    if (Bytes == 0)
      return Status::ok();
    ContextScope S(D, Ctx);
    return check(D,
                 D.MemsetD8Async(dptr(Dst), static_cast<unsigned char>(Value),
                                 Bytes, Stream),
                 "cuMemsetD8Async");
  }

  Status launch(Kernel &K, const LaunchParams &P) override {
    auto &NK = static_cast<NVIDIAKernel &>(K);
    if (P.State)
      return Status(ErrorCode::NotSupported,
                    "launch of '" + NK.info().Name +
                        "': live migration (state buffer) is not implemented "
                        "on the nvidia backend");
    ContextScope S(D, Ctx);
    if (P.DynamicShared > 48 * 1024) {
      std::lock_guard<std::mutex> L(NK.Mu);
      if (P.DynamicShared > NK.DynamicSharedLimit) {
        if (P.DynamicShared + NK.info().StaticShared > OptinShared)
          return Status(ErrorCode::InvalidValue,
                        "launch of '" + NK.info().Name + "': " +
                            std::to_string(P.DynamicShared) +
                            " bytes of dynamic shared memory exceed the "
                            "device's limit of " +
                            std::to_string(OptinShared));
        if (Status St = check(D,
                              D.FuncSetAttribute(
                                  NK.Fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                  static_cast<int>(P.DynamicShared)),
                              "cuFuncSetAttribute"))
          return St;
        NK.DynamicSharedLimit = P.DynamicShared;
      }
    }
    CUresult R = D.LaunchKernel(NK.Fn, P.Grid[0], P.Grid[1], P.Grid[2],
                                P.Block[0], P.Block[1], P.Block[2],
                                static_cast<unsigned>(P.DynamicShared), Stream,
                                P.Args, nullptr);
    if (R == CUDA_ERROR_INVALID_VALUE)
      return Status(ErrorCode::InvalidConfiguration,
                    "cuLaunchKernel(" + NK.info().Name + "): " + D.describe(R));
    return check(D, R, ("cuLaunchKernel(" + NK.info().Name + ")").c_str());
  }

  Status hostFunc(std::function<void()> Fn) override {
    ContextScope S(D, Ctx);
    auto *Heap = new std::function<void()>(std::move(Fn));
    CUresult R = D.LaunchHostFunc(
        Stream,
        [](void *U) {
          auto *F = static_cast<std::function<void()> *>(U);
          (*F)();
          delete F;
        },
        Heap);
    if (R != CUDA_SUCCESS)
      delete Heap;
    return check(D, R, "cuLaunchHostFunc");
  }

  Status record(Event &E) override {
    ContextScope S(D, Ctx);
    return check(D, D.EventRecord(static_cast<NVIDIAEvent &>(E).Ev, Stream),
                 "cuEventRecord");
  }
  Status wait(Event &E) override {
    ContextScope S(D, Ctx);
    return check(D, D.StreamWaitEvent(Stream, static_cast<NVIDIAEvent &>(E).Ev, 0),
                 "cuStreamWaitEvent");
  }
  Status synchronize() override {
    ContextScope S(D, Ctx);
    return check(D, D.StreamSynchronize(Stream), "cuStreamSynchronize");
  }
  Status query() override {
    ContextScope S(D, Ctx);
    return check(D, D.StreamQuery(Stream), "cuStreamQuery");
  }
  Status copyPeer(void *Dst, Device &DstDev, const void *Src, Device &SrcDev,
                  size_t Bytes) override;

private:
  const Driver &D;
  CUcontext Ctx;
  CUstream Stream;
  uint64_t OptinShared;
};

class NVIDIADevice final : public Device {
public:
  NVIDIADevice(const Driver &D, CUdevice Dev, CUcontext Ctx, DeviceProperties P)
      : D(D), Dev(Dev), Ctx(Ctx), Props(std::move(P)), Ordinal(Dev) {}
  ~NVIDIADevice() override { D.DevicePrimaryCtxRelease(Dev); }

  const DeviceProperties &properties() const override { return Props; }

  Status allocate(size_t Bytes, void *&Ptr) override {
    if (useArena()) {
      // At unified addresses: an arena range, backed by this GPU's memory.
      uint64_t A = 0, N = (std::max<uint64_t>(Bytes, 1) + Gran - 1) / Gran * Gran;
      if (Status St = Arena::get().allocate(N, Gran, ArenaTag, A))
        return St;
      if (Status St = attachArenaRange(reinterpret_cast<void *>(A), N)) {
        Arena::get().release(A);
        return St;
      }
      Ptr = reinterpret_cast<void *>(A);
      return Status::ok();
    }
    ContextScope S(D, Ctx);
    CUdeviceptr P = 0;
    if (Status St = check(D, D.MemAlloc(&P, Bytes ? Bytes : 1), "cuMemAlloc"))
      return St;
    Ptr = reinterpret_cast<void *>(static_cast<uintptr_t>(P));
    return Status::ok();
  }
  Status release(void *Ptr) override {
    if (!Ptr)
      return Status::ok();
    if (Arena::get().contains(Ptr)) {
      bool Host;
      {
        std::lock_guard<std::mutex> L(VM);
        Host = Registered.count(reinterpret_cast<uint64_t>(Ptr)) != 0;
      }
      if (Status St = Host ? detachHostRange(Ptr) : detachArenaRange(Ptr, 0))
        return St;
      return Arena::get().release(reinterpret_cast<uint64_t>(Ptr));
    }
    ContextScope S(D, Ctx);
    CUresult R = D.MemFree(dptr(Ptr));
    if (R == CUDA_ERROR_INVALID_VALUE)
      return Status(ErrorCode::InvalidDevicePointer, "cuMemFree: " + D.describe(R));
    return check(D, R, "cuMemFree");
  }
  Status allocateManaged(size_t Bytes, void *&Ptr) override {
    if (useArena()) {
      // Managed memory at unified addresses: host memory of the arena the
      // GPU reaches through cuMemHostRegister, so the host can read it and
      // it needs no copy when the context migrates.
      uint64_t A = 0, N = (std::max<uint64_t>(Bytes, 1) + 4095) & ~uint64_t(4095);
      if (Status St = Arena::get().allocate(N, 4096, Arena::get().managedTag(), A))
        return St;
      if (Status St = attachHostRange(reinterpret_cast<void *>(A), N)) {
        Arena::get().release(A);
        return St;
      }
      Ptr = reinterpret_cast<void *>(A);
      return Status::ok();
    }
    if (!Props.ManagedMemory)
      return Status(ErrorCode::NotSupported,
                    "cuMemAllocManaged: the device has no managed memory");
    ContextScope S(D, Ctx);
    CUdeviceptr P = 0;
    if (Status St = check(D, D.MemAllocManaged(&P, Bytes ? Bytes : 1, CU_MEM_ATTACH_GLOBAL),
                          "cuMemAllocManaged"))
      return St;
    Ptr = reinterpret_cast<void *>(static_cast<uintptr_t>(P));
    return Status::ok();
  }
  /// cudaDeviceReset after a fault: a CUDA context that saw a trap or an
  /// illegal address stays unusable, so the primary context is reset (every
  /// driver object of it dies; Core has released its own already).
  Status reset() override {
    {
      ContextScope S(D, Ctx);
      D.CtxSynchronize(); // reports the sticky error; nothing to do with it
    }
    // Our retain is dropped first, so the reset tears the context down and
    // the retain below initialises a fresh one.
    D.DevicePrimaryCtxRelease(Dev);
    if (Status St = check(D, D.DevicePrimaryCtxReset(Dev), "cuDevicePrimaryCtxReset")) {
      log(LogLevel::Warn, "nvidia: device reset: " + St.Message);
      return St;
    }
    CUcontext NewCtx = nullptr;
    if (Status St = check(D, D.DevicePrimaryCtxRetain(&NewCtx, Dev),
                          "cuDevicePrimaryCtxRetain")) {
      log(LogLevel::Warn, "nvidia: device reset: " + St.Message);
      return St;
    }
    Ctx = NewCtx;
    ContextScope S(D, Ctx);
    if (Status St = check(D, D.CtxSynchronize(), "cuCtxSynchronize after reset")) {
      log(LogLevel::Warn, "nvidia: device reset: " + St.Message);
      return St;
    }
    return Status::ok();
  }
  Status allocateHost(size_t Bytes, void *&Ptr) override {
    ContextScope S(D, Ctx);
    return check(D, D.MemHostAlloc(&Ptr, Bytes ? Bytes : 1, 0), "cuMemHostAlloc");
  }
  Status releaseHost(void *Ptr) override {
    if (!Ptr)
      return Status::ok();
    ContextScope S(D, Ctx);
    return check(D, D.MemFreeHost(Ptr), "cuMemFreeHost");
  }
  Status memoryInfo(size_t &Free, size_t &Total) override {
    ContextScope S(D, Ctx);
    return check(D, D.MemGetInfo(&Free, &Total), "cuMemGetInfo");
  }

  Status loadModule(const std::vector<char> &Binary,
                    const container::ModuleInfo &Info,
                    std::unique_ptr<Module> &Out) override {
    // The driver wants NUL-terminated PTX text.
    std::string PTX(Binary.begin(), Binary.end());
    if (PTX.find(".target") == std::string::npos)
      return Status(ErrorCode::NoBinaryForGpu,
                    "cuModuleLoadDataEx: the nvptx translation is not PTX text");
    ContextScope S(D, Ctx);
    char InfoLog[8192] = {0}, ErrorLog[8192] = {0};
    float WallMs = 0;
    CUjit_option Opts[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                           CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                           CU_JIT_WALL_TIME};
    void *Vals[] = {InfoLog, reinterpret_cast<void *>(uintptr_t(sizeof(InfoLog))),
                    ErrorLog, reinterpret_cast<void *>(uintptr_t(sizeof(ErrorLog))),
                    nullptr};
    CUmodule M = nullptr;
    CUresult R = D.ModuleLoadDataEx(&M, PTX.c_str(), 5, Opts, Vals);
    // Output options overwrite their value slot: the wall time is a float
    // stored in the pointer-sized slot itself.
    std::memcpy(&WallMs, &Vals[4], sizeof(float));
    if (R != CUDA_SUCCESS) {
      std::string Msg = "cuModuleLoadDataEx (" + Props.Arch + ", " +
                        Props.Features + "): " + D.describe(R);
      if (ErrorLog[0])
        Msg += ": " + std::string(ErrorLog);
      if (InfoLog[0])
        Msg += " [info: " + std::string(InfoLog) + "]";
      ErrorCode C = mapResult(R);
      return Status(C == ErrorCode::DriverFailure ? ErrorCode::NoBinaryForGpu : C,
                    Msg);
    }
    if (logEnabled(LogLevel::Info))
      log(LogLevel::Info, "nvidia: PTX JIT of " + std::to_string(PTX.size()) +
                              " bytes for " + Props.Arch + " took " +
                              std::to_string(WallMs) + " ms" +
                              (InfoLog[0] ? std::string(": ") + InfoLog : ""));
    Out = std::make_unique<NVIDIAModule>(D, Ctx, M, Info);
    return Status::ok();
  }

  Status createQueue(std::unique_ptr<Queue> &Out) override {
    ContextScope S(D, Ctx);
    CUstream St = nullptr;
    // CUDA streams other than the legacy default stream do not synchronise
    // with each other; Core orders the default stream itself.
    if (Status E = check(D, D.StreamCreate(&St, CU_STREAM_NON_BLOCKING),
                         "cuStreamCreate"))
      return E;
    Out = std::make_unique<NVIDIAQueue>(D, Ctx, St, Props.SharedMemPerBlockOptin);
    return Status::ok();
  }
  Status createEvent(std::unique_ptr<Event> &Out) override {
    ContextScope S(D, Ctx);
    CUevent E = nullptr;
    if (Status St = check(D, D.EventCreate(&E, CU_EVENT_DEFAULT), "cuEventCreate"))
      return St;
    Out = std::make_unique<NVIDIAEvent>(D, Ctx, E);
    return Status::ok();
  }
  Status synchronize() override {
    ContextScope S(D, Ctx);
    return check(D, D.CtxSynchronize(), "cuCtxSynchronize");
  }

  /// Makes the arena allocation [Ptr, Ptr + Bytes) memory of this GPU at
  /// the same addresses: each 32 MiB arena chunk it touches is lent by the
  /// host (Arena::lend) and reserved with cuMemAddressReserve at that fixed
  /// address; each granularity page gets its own cuMemCreate + cuMemMap.
  Status attachArenaRange(void *Ptr, size_t Bytes) override {
    if (!useArena())
      return Status(ErrorCode::NotSupported,
                    Props.Name + " cannot map memory at unified addresses (" +
                        ArenaWhy + ")");
    if (!Ptr)
      return Status::ok(); // the capability query
    uint64_t A = reinterpret_cast<uint64_t>(Ptr);
    std::lock_guard<std::mutex> L(VM);
    ContextScope S(D, Ctx);
    const uint64_t Chunk = Arena::ChunkBytes;
    std::map<uint64_t, unsigned> &Reserved = sharedVA().Chunks;
    for (uint64_t C = A / Chunk * Chunk; C < A + Bytes; C += Chunk) {
      if (Reserved.count(C))
        continue;
      if (Status St = Arena::get().lend(C))
        return St;
      CUdeviceptr Got = 0;
      CUresult R = Vmm->AddressReserve(&Got, Chunk, Chunk, C, 0);
      if (R != CUDA_SUCCESS || Got != C) {
        if (R == CUDA_SUCCESS)
          Vmm->AddressFree(Got, Chunk);
        Arena::get().reclaim(C);
        return Status(ErrorCode::OutOfMemory,
                      "cuMemAddressReserve at " + hexAddr(C) + ": " +
                          (R ? D.describe(R)
                             : "the driver chose " + hexAddr(Got) +
                                   " instead"));
      }
      Reserved[C] = 0;
    }
    VmmProp P{};
    P.Type = 1;
    P.Location = {1, Ordinal};
    // This GPU, and the GPUs given peer access to its memory.
    std::vector<VmmAccess> Acc = accessList();
    for (uint64_t Pg = A / Gran * Gran; Pg < A + Bytes; Pg += Gran) {
      if (Pages.count(Pg))
        continue;
      unsigned long long H = 0;
      if (Status St = check(D, Vmm->Create(&H, Gran, &P, 0), "cuMemCreate"))
        return St;
      CUresult R = Vmm->Map(Pg, Gran, 0, H, 0);
      if (R == CUDA_SUCCESS) {
        R = Vmm->SetAccess(Pg, Gran, Acc.data(), Acc.size());
        if (R != CUDA_SUCCESS)
          Vmm->Unmap(Pg, Gran);
      }
      if (R != CUDA_SUCCESS) {
        Vmm->Release(H);
        return check(D, R, "cuMemMap/cuMemSetAccess");
      }
      Pages[Pg] = H;
      ++Reserved[Pg / Chunk * Chunk];
    }
    Attached[A] = Bytes;
    return Status::ok();
  }

  /// Drops this GPU's memory under the allocation at \p Ptr: pages no
  /// other attached allocation uses are unmapped; chunks left without pages
  /// go back to the host (the range stays an arena allocation).
  Status detachArenaRange(void *Ptr, size_t) override {
    if (!useArena())
      return Status(ErrorCode::NotSupported,
                    Props.Name + " cannot map memory at unified addresses (" +
                        ArenaWhy + ")");
    if (!Ptr)
      return Status::ok();
    ContextScope S(D, Ctx);
    // Kernels may still use the memory (waited for outside the lock that
    // every GPU's allocations take).
    if (Status St = check(D, D.CtxSynchronize(), "cuCtxSynchronize"))
      return St;
    std::lock_guard<std::mutex> L(VM);
    uint64_t A = reinterpret_cast<uint64_t>(Ptr);
    auto It = Attached.find(A);
    if (It == Attached.end())
      return Status(ErrorCode::InvalidDevicePointer,
                    "nvidia: " + hexAddr(A) + " is not memory of " + Props.Name);
    uint64_t Bytes = It->second;
    Attached.erase(It);
    auto InUse = [&](uint64_t Lo, uint64_t Hi) {
      auto J = Attached.upper_bound(Hi - 1);
      while (J != Attached.begin()) {
        --J;
        if (J->first + J->second > Lo)
          return true;
        if (J->first + (uint64_t(1) << 40) < Lo)
          break;
      }
      return false;
    };
    const uint64_t Chunk = Arena::ChunkBytes;
    std::map<uint64_t, unsigned> &Reserved = sharedVA().Chunks;
    for (uint64_t Pg = A / Gran * Gran; Pg < A + Bytes; Pg += Gran) {
      auto P = Pages.find(Pg);
      if (P == Pages.end() || InUse(Pg, Pg + Gran))
        continue;
      Vmm->Unmap(Pg, Gran);
      Vmm->Release(P->second);
      Pages.erase(P);
      auto C = Reserved.find(Pg / Chunk * Chunk);
      if (C != Reserved.end() && C->second)
        --C->second;
    }
    for (uint64_t C = A / Chunk * Chunk; C < A + Bytes; C += Chunk) {
      // Pages of another GPU (a context in the middle of a move) keep the
      // chunk reserved.
      auto R = Reserved.find(C);
      if (R == Reserved.end() || R->second)
        continue;
      Vmm->AddressFree(C, Chunk);
      Reserved.erase(R);
      if (Status St = Arena::get().reclaim(C))
        return St;
    }
    return Status::ok();
  }

  Status attachHostRange(void *Ptr, size_t Bytes) override {
    if (!useArena())
      return Status(ErrorCode::NotSupported,
                    Props.Name + " cannot use host memory at unified "
                                 "addresses (" + ArenaWhy + ")");
    if (!Ptr)
      return Status::ok(); // the capability query
    std::lock_guard<std::mutex> L(VM);
    ContextScope S(D, Ctx);
    // CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP
    if (Status St = check(D, Vmm->HostRegister(Ptr, Bytes, 3),
                          "cuMemHostRegister"))
      return St;
    CUdeviceptr DP = 0;
    if (Vmm->HostGetDevicePointer(&DP, Ptr, 0) != CUDA_SUCCESS ||
        DP != dptr(Ptr)) {
      Vmm->HostUnregister(Ptr);
      return Status(ErrorCode::NotSupported,
                    Props.Name + " maps registered host memory at another "
                                 "address (" + hexAddr(DP) + ")");
    }
    Registered.insert(reinterpret_cast<uint64_t>(Ptr));
    return Status::ok();
  }
  Status detachHostRange(void *Ptr) override {
    std::lock_guard<std::mutex> L(VM);
    if (!Registered.erase(reinterpret_cast<uint64_t>(Ptr)))
      return Status::ok();
    ContextScope S(D, Ctx);
    D.CtxSynchronize();
    return check(D, Vmm->HostUnregister(Ptr), "cuMemHostUnregister");
  }

  //===--- Peers -----------------------------------------------------------===//

  CUcontext context() const { return Ctx; }
  int ordinal() const { return Ordinal; }

  bool canAccessPeer(Device &PeerDev) override {
    auto *P = dynamic_cast<NVIDIADevice *>(&PeerDev);
    if (!P || P == this)
      return false;
    int Can = 0;
    return D.DeviceCanAccessPeer(&Can, Dev, P->Dev) == CUDA_SUCCESS && Can;
  }

  /// Kernels of this GPU may use \p PeerDev's memory: cuCtxEnablePeerAccess
  /// for memory from cuMemAlloc and, at unified addresses (VMM), read/write
  /// access to every page the peer has mapped now and maps later.
  Status enablePeerAccess(Device &PeerDev) override {
    auto *P = dynamic_cast<NVIDIADevice *>(&PeerDev);
    if (!P || P == this)
      return Device::enablePeerAccess(PeerDev);
    {
      ContextScope S(D, Ctx);
      CUresult R = D.CtxEnablePeerAccess(P->Ctx, 0);
      if (R == CUDA_ERROR_PEER_ACCESS_UNSUPPORTED)
        return Status(ErrorCode::NotSupported,
                      "cuCtxEnablePeerAccess: " + D.describe(R));
      if (R != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
        if (Status St = check(D, R, "cuCtxEnablePeerAccess"))
          return St;
    }
    return grantArenaAccess(*P, /*On=*/true);
  }

  Status disablePeerAccess(Device &PeerDev) override {
    auto *P = dynamic_cast<NVIDIADevice *>(&PeerDev);
    if (!P || P == this)
      return Device::disablePeerAccess(PeerDev);
    ContextScope S(D, Ctx);
    // Kernels of this GPU may still read the peer's memory.
    if (Status St = check(D, D.CtxSynchronize(), "cuCtxSynchronize"))
      return St;
    CUresult R = D.CtxDisablePeerAccess(P->Ctx);
    if (R != CUDA_ERROR_PEER_ACCESS_NOT_ENABLED)
      if (Status St = check(D, R, "cuCtxDisablePeerAccess"))
        return St;
    return grantArenaAccess(*P, /*On=*/false);
  }

  /// The unified-address (VMM) half of peer access: every page \p P maps,
  /// now and later, readable and writable by this GPU, or no longer.
  Status grantArenaAccess(NVIDIADevice &P, bool On) {
    if (!P.useArena())
      return Status::ok();
    std::lock_guard<std::mutex> L(VM);
    if (On)
      P.AccessFrom.insert(Ordinal);
    else
      P.AccessFrom.erase(Ordinal);
    return P.setPeerAccess(Ordinal, /*ReadWrite=*/On);
  }

  /// Whether a copy engine of this GPU may touch \p Ptr, memory of \p Owner:
  /// anything not at unified addresses (cuMemAlloc: the driver sorts out
  /// peers), or VMM pages that grant this GPU access.
  bool reaches(NVIDIADevice &Owner, const void *Ptr) {
    if (&Owner == this || !Arena::get().contains(Ptr))
      return true;
    std::lock_guard<std::mutex> L(VM);
    return Owner.AccessFrom.count(Ordinal) != 0;
  }

  /// GPU -> GPU live migration of one arena allocation: the target's pages
  /// are created and mapped at a temporary address (both GPUs may access
  /// them), this GPU's copy engine copies the bytes across (NVLink or PCIe
  /// peer-to-peer), then the source pages are unmapped from the arena
  /// address and the target's mapped there instead. The chunk reservation
  /// stays (it is process-wide, sharedVA counts the pages).
  Status transferArenaRange(Device &ToDev, void *Ptr, size_t Bytes) override {
    auto *To = dynamic_cast<NVIDIADevice *>(&ToDev);
    if (!To || To == this)
      return Device::transferArenaRange(ToDev, Ptr, Bytes);
    if (!useArena() || !To->useArena())
      return Status(ErrorCode::NotSupported,
                    Props.Name + " -> " + To->Props.Name +
                        ": GPU memory is not at unified addresses (" +
                        (ArenaWhy.empty() ? To->ArenaWhy : ArenaWhy) + ")");
    if (!canAccessPeer(*To))
      return Status(ErrorCode::NotSupported,
                    "GPU " + std::to_string(Ordinal) + " cannot write the "
                    "memory of GPU " + std::to_string(To->Ordinal) +
                        " (cuDeviceCanAccessPeer says 0)");
    if (!Ptr)
      return Status::ok(); // the capability query
    auto T0 = std::chrono::steady_clock::now();
    ContextScope S(D, Ctx);
    if (Status St = check(D, D.CtxSynchronize(), "cuCtxSynchronize"))
      return St;
    std::lock_guard<std::mutex> L(VM);
    uint64_t A = reinterpret_cast<uint64_t>(Ptr);
    auto It = Attached.find(A);
    if (It == Attached.end())
      return Status(ErrorCode::InvalidDevicePointer,
                    "nvidia: " + hexAddr(A) + " is not memory of GPU " +
                        std::to_string(Ordinal));
    uint64_t Len = It->second;
    // Pages this GPU maps under the allocation. A page it shares with
    // another allocation moves with the first of them (a context moves all
    // of its allocations); a page already on the target has moved so.
    std::vector<uint64_t> Move;
    for (uint64_t Pg = A / Gran * Gran; Pg < A + Len; Pg += Gran) {
      if (Pages.count(Pg))
        Move.push_back(Pg);
      else if (!To->Pages.count(Pg))
        return Status(ErrorCode::InvalidDevicePointer,
                      "nvidia: page " + hexAddr(Pg) + " of " + hexAddr(A) +
                          " is mapped by neither GPU");
    }
    std::vector<unsigned long long> New(Move.size(), 0);
    size_t Mapped = 0;
    CUdeviceptr Tmp = 0;
    const size_t TmpLen = Move.size() * Gran;
    auto Undo = [&] {
      for (size_t I = 0; I < Mapped; ++I)
        Vmm->Unmap(Tmp + I * Gran, Gran);
      for (unsigned long long H : New)
        if (H)
          Vmm->Release(H);
      if (Tmp)
        Vmm->AddressFree(Tmp, TmpLen);
    };
    if (!Move.empty()) {
      if (Status St = check(D, Vmm->AddressReserve(&Tmp, TmpLen, Gran, 0, 0),
                            "cuMemAddressReserve (staging the move)"))
        return St;
      VmmProp P{};
      P.Type = 1;
      P.Location = {1, To->Ordinal};
      VmmAccess Both[2] = {{{1, To->Ordinal}, 3}, {{1, Ordinal}, 3}};
      Status St;
      for (size_t I = 0; I < Move.size() && St.isOk(); ++I) {
        St = check(D, Vmm->Create(&New[I], Gran, &P, 0), "cuMemCreate");
        if (St.isOk())
          St = check(D, Vmm->Map(Tmp + I * Gran, Gran, 0, New[I], 0),
                     "cuMemMap (staging the move)");
        if (St.isOk()) {
          ++Mapped;
          St = check(D, Vmm->SetAccess(Tmp + I * Gran, Gran, Both, 2),
                     "cuMemSetAccess (staging the move)");
        }
      }
      // Runs of consecutive pages, one copy each, on the legacy stream of
      // this GPU's context (idle: synchronised above).
      for (size_t I = 0; I < Move.size() && St.isOk();) {
        size_t J = I + 1;
        while (J < Move.size() && Move[J] == Move[J - 1] + Gran)
          ++J;
        St = check(D,
                   D.MemcpyDtoDAsync(Tmp + I * Gran, Move[I], (J - I) * Gran,
                                     nullptr),
                   "cuMemcpyDtoDAsync (GPU to GPU)");
        I = J;
      }
      if (St.isOk())
        St = check(D, D.CtxSynchronize(), "cuCtxSynchronize (GPU to GPU)");
      if (St) {
        Undo();
        return St;
      }
    }
    // From here on the range changes GPU.
    std::vector<VmmAccess> Acc = To->accessList();
    Status St;
    for (size_t I = 0; I < Move.size(); ++I) {
      uint64_t Pg = Move[I];
      Vmm->Unmap(Pg, Gran);
      Vmm->Release(Pages[Pg]);
      Pages.erase(Pg);
      CUresult R = Vmm->Map(Pg, Gran, 0, New[I], 0);
      if (R == CUDA_SUCCESS)
        R = Vmm->SetAccess(Pg, Gran, Acc.data(), Acc.size());
      if (R != CUDA_SUCCESS && St.isOk())
        St = check(D, R, "cuMemMap/cuMemSetAccess (GPU to GPU)");
      if (R == CUDA_SUCCESS) {
        To->Pages[Pg] = New[I];
        New[I] = 0; // owned by the target now
      }
    }
    Undo(); // the staging mapping (and handles of pages that failed)
    Attached.erase(It);
    To->Attached[A] = Len;
    if (logEnabled(LogLevel::Info)) {
      double Ms = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - T0)
                      .count();
      log(LogLevel::Info,
          "nvidia: " + std::to_string(Len) + " bytes at " + hexAddr(A) +
              " moved GPU " + std::to_string(Ordinal) + " -> GPU " +
              std::to_string(To->Ordinal) + " peer-to-peer (" +
              std::to_string(Move.size()) + " pages, " + std::to_string(Ms) +
              " ms)");
    }
    return St;
  }

private:
  /// cuMemSetAccess descriptors of this GPU's pages: itself and its peers.
  /// Call with VM held.
  std::vector<VmmAccess> accessList() const {
    std::vector<VmmAccess> Acc{{{1, Ordinal}, 3}};
    for (int O : AccessFrom)
      Acc.push_back({{1, O}, 3});
    return Acc;
  }

  /// Grants (or revokes) GPU \p Peer read/write access to every page this
  /// GPU maps. Call with VM held.
  Status setPeerAccess(int Peer, bool ReadWrite) {
    ContextScope S(D, Ctx);
    VmmAccess Acc{{1, Peer}, ReadWrite ? 3 : 0};
    for (auto &[Pg, H] : Pages)
      if (Status St = check(D, Vmm->SetAccess(Pg, Gran, &Acc, 1),
                            "cuMemSetAccess (peer access)"))
        return St;
    return Status::ok();
  }

  /// Device memory at unified addresses: in a migratable process when the
  /// driver has the virtual-memory API.
  bool useArena() {
    std::call_once(ArenaOnce, [this] {
      if (!arenaWanted()) {
        ArenaWhy = "no unified address space: HETGPU_MIGRATE unset or HETGPU_ARENA=0";
        return;
      }
      Vmm = loadVmm(ArenaWhy);
      if (!Vmm)
        return;
      VmmProp P{};
      P.Type = 1;
      P.Location = {1, Ordinal};
      ContextScope S(D, Ctx);
      size_t G = 0;
      if (Vmm->Granularity(&G, &P, 0) != CUDA_SUCCESS || !G ||
          Arena::ChunkBytes % G) {
        ArenaWhy = "unusable allocation granularity " + std::to_string(G);
        return;
      }
      if (Status St = Arena::get().ensureMapped()) {
        ArenaWhy = St.Message;
        return;
      }
      Gran = G;
      ArenaTag = Arena::get().newTag();
      InArena = true;
    });
    return InArena;
  }

  const Driver &D;
  CUdevice Dev;
  CUcontext Ctx;
  DeviceProperties Props;
  int Ordinal = 0;
  std::once_flag ArenaOnce;
  bool InArena = false;
  std::string ArenaWhy;
  const VmmApi *Vmm = nullptr;
  uint64_t Gran = 2 << 20;
  unsigned ArenaTag = 0;
  std::mutex &VM = sharedVA().M;
  /// Ordinals of the GPUs whose kernels may use this GPU's memory at arena
  /// addresses (enablePeerAccess on them): cuMemSetAccess grants them every
  /// page mapped here.
  std::set<int> AccessFrom;
  std::map<uint64_t, unsigned long long> Pages; ///< page -> cuMemCreate handle
  std::map<uint64_t, uint64_t> Attached;      ///< allocation -> bytes
  std::set<uint64_t> Registered;              ///< managed (host) allocations
};

Status NVIDIAQueue::copyPeer(void *Dst, Device &DstDev, const void *Src,
                             Device &SrcDev, size_t Bytes) {
  auto *To = dynamic_cast<NVIDIADevice *>(&DstDev);
  auto *From = dynamic_cast<NVIDIADevice *>(&SrcDev);
  if (!To || !From || (To->context() != Ctx && From->context() != Ctx))
    return Queue::copyPeer(Dst, DstDev, Src, SrcDev, Bytes);
  if (Bytes == 0)
    return Status::ok();
  // Memory at unified addresses (VMM) is reachable by the GPU running the
  // copy only with peer access (cuMemSetAccess); without it the caller
  // stages the bytes through the host.
  NVIDIADevice &Runner = From->context() == Ctx ? *From : *To;
  if (!Runner.reaches(*To, Dst) || !Runner.reaches(*From, Src))
    return Status(ErrorCode::NotSupported,
                  "GPU " + std::to_string(Runner.ordinal()) +
                      " has no peer access to the other GPU's memory at "
                      "unified addresses");
  ContextScope S(D, Ctx);
  return check(D,
               D.MemcpyPeerAsync(dptr(Dst), To->context(), dptr(Src),
                                 From->context(), Bytes, Stream),
               "cuMemcpyPeerAsync");
}

class NVIDIABackend final : public Backend {
public:
  const char *name() const override { return "nvidia"; }

  Status discover(std::vector<std::unique_ptr<Device>> &Out) override {
    std::string Err;
    const Driver *DP = loadDriver(Err);
    if (!DP)
      return Status(ErrorCode::NotSupported, Err);
    const Driver &D = *DP;
    if (Status St = check(D, D.Init(0), "cuInit"))
      return St;
    int Version = 0;
    D.DriverGetVersion(&Version);
    int Count = 0;
    if (Status St = check(D, D.DeviceGetCount(&Count), "cuDeviceGetCount"))
      return St;
    if (Count == 0)
      return Status(ErrorCode::NotSupported, "cuDeviceGetCount: no NVIDIA GPU");
    unsigned MaxPTX = maxPTXVersionForDriver(Version);
    for (int I = 0; I < Count; ++I) {
      CUdevice Dev = 0;
      if (Status St = check(D, D.DeviceGet(&Dev, I), "cuDeviceGet"))
        return St;
      auto Attr = [&](CUdevice_attribute A, int Default) {
        int V = 0;
        return D.DeviceGetAttribute(&V, A, Dev) == CUDA_SUCCESS ? V : Default;
      };
      DeviceProperties P;
      char Name[256] = {0};
      D.DeviceGetName(Name, sizeof(Name) - 1, Dev);
      P.Name = Name;
      P.Vendor = "NVIDIA";
      P.Kind = BackendKind::NVIDIA;
      P.ComputeMajor = Attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 7);
      P.ComputeMinor = Attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0);
      P.Target = "nvptx";
      P.Arch = "sm_" + std::to_string(P.ComputeMajor) + std::to_string(P.ComputeMinor);
      P.Features = "+ptx" + std::to_string(MaxPTX);
      size_t Total = 0;
      D.DeviceTotalMem(&Total, Dev);
      P.TotalMemory = Total;
      P.MultiProcessorCount = Attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 1);
      P.MaxThreadsPerBlock = Attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024);
      P.MaxBlockDim[0] = Attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 1024);
      P.MaxBlockDim[1] = Attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 1024);
      P.MaxBlockDim[2] = Attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64);
      P.MaxGridDim[0] = Attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 2147483647);
      P.MaxGridDim[1] = Attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 65535);
      P.MaxGridDim[2] = Attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 65535);
      P.SharedMemPerBlock = Attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 48 << 10);
      P.SharedMemPerBlockOptin = Attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                                      static_cast<int>(P.SharedMemPerBlock));
      P.SharedMemPerMultiprocessor =
          Attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 64 << 10);
      P.TotalConstMem = Attr(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, 64 << 10);
      P.RegsPerBlock = Attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 65536);
      P.MaxThreadsPerMultiProcessor =
          Attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 2048);
      P.MaxBlocksPerMultiProcessor =
          Attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, 32);
      P.ClockRateKHz = Attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 1000000);
      P.MemoryClockRateKHz = Attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, 1000000);
      P.MemoryBusWidth = Attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 64);
      P.L2CacheSize = Attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 0);
      P.PciBusId = Attr(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, 0);
      P.Integrated = Attr(CU_DEVICE_ATTRIBUTE_INTEGRATED, 0) != 0;
      P.ConcurrentKernels = Attr(CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS, 1) != 0;
      P.ManagedMemory = Attr(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 0) != 0;

      CUcontext Ctx = nullptr;
      if (Status St = check(D, D.DevicePrimaryCtxRetain(&Ctx, Dev),
                            "cuDevicePrimaryCtxRetain"))
        return St;
      if (logEnabled(LogLevel::Info))
        log(LogLevel::Info, "nvidia: device " + std::to_string(I) + ": " + P.Name +
                                " (" + P.Arch + ", driver " + std::to_string(Version) +
                                ", " + P.Features + ")");
      Out.push_back(std::make_unique<NVIDIADevice>(D, Dev, Ctx, std::move(P)));
    }
    return Status::ok();
  }
};

} // namespace

std::unique_ptr<Backend> createNVIDIABackend() {
  return std::make_unique<NVIDIABackend>();
}

} // namespace rt
} // namespace hetgpu
