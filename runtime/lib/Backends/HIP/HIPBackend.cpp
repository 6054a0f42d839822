//===- HIPBackend.cpp - AMD GPUs through the HIP runtime ------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu::rt::createHIPBackend()`: devices, memory, code objects, streams
/// and events on top of the HIP runtime (HipRuntime.h, loaded with dlopen).
/// The lowering target is "amdgpu" with the device's gfx processor name.
/// Kernels are launched with hipModuleLaunchKernel and one packed argument
/// buffer (HIP_LAUNCH_PARAM_BUFFER_POINTER) laid out as CUDA's parameters,
/// which the amdgpu target makes the explicit kernarg segment; HIP appends
/// the implicit arguments (block counts, group sizes) itself.
///
/// Device printf/assert/__trap write into each code object's hidden
/// `__hetgpu_amdgpu_printf` buffer; every synchronisation drains the
/// buffers of the device's modules, prints the records and turns the
/// assert/trap flags into ErrorCode::Assert / ErrorCode::LaunchFailure.
///
/// Not exercised on AMD hardware (none was available): see
/// docs/targets/AMDGPU.md.
///
//===----------------------------------------------------------------------===//

#include "HIPPrintf.h"
#include "HipRuntime.h"

#include "hetgpu/ABI/AMDGPUDevice.h"
#include "Core/ArgPack.h"
#include "Core/Device.h"
#include "Core/Log.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <set>

namespace hetgpu {
namespace rt {

std::unique_ptr<Backend> createHIPBackend();

namespace {

using namespace hip;

ErrorCode mapResult(hipError_t R) {
  switch (R) {
  case hipSuccess:
    return ErrorCode::Success;
  case hipErrorInvalidValue:
  case hipErrorInvalidHandle:
    return ErrorCode::InvalidValue;
  case hipErrorOutOfMemory:
    return ErrorCode::OutOfMemory;
  case hipErrorInvalidConfiguration:
    return ErrorCode::InvalidConfiguration;
  case hipErrorInvalidDevicePointer:
    return ErrorCode::InvalidDevicePointer;
  case hipErrorNotReady:
    return ErrorCode::NotReady;
  case hipErrorLaunchOutOfResources:
    return ErrorCode::LaunchOutOfResources;
  case hipErrorAssert:
    return ErrorCode::Assert;
  case hipErrorIllegalAddress:
  case hipErrorLaunchTimeOut:
  case hipErrorLaunchFailure:
    return ErrorCode::LaunchFailure;
  case hipErrorInvalidImage:
  case hipErrorNoBinaryForGpu:
  case hipErrorSharedObjectInitFailed:
    return ErrorCode::NoBinaryForGpu;
  case hipErrorNotFound:
    return ErrorCode::InvalidSymbol;
  case hipErrorNotSupported:
    return ErrorCode::NotSupported;
  default:
    return ErrorCode::DriverFailure;
  }
}

Status check(const Runtime &R, hipError_t E, const std::string &What) {
  if (E == hipSuccess)
    return Status::ok();
  return Status(mapResult(E), What + ": " + R.describe(E));
}

/// Makes a device current on this thread (HIP's device is per thread).
struct DeviceScope {
  DeviceScope(const Runtime &R, int Index) { Result = R.SetDevice(Index); }
  hipError_t Result;
};

class HIPDevice;

class HIPKernel final : public Kernel {
public:
  HIPKernel(hipFunction_t F, container::KernelInfo Info)
      : Fn(F), Info(std::move(Info)) {}
  const container::KernelInfo &info() const override { return Info; }
  hipFunction_t Fn;

private:
  container::KernelInfo Info;
};

class HIPModule final : public Module {
public:
  HIPModule(HIPDevice &Dev, hipModule_t M, const container::ModuleInfo &Info,
            void *PrintfBuf, size_t PrintfSize);
  ~HIPModule() override;

  Status getKernel(const std::string &Name, Kernel *&Out) override;
  Status getGlobal(const std::string &Name, void *&Addr, size_t &Size) override;
  /// Prints and clears the module's printf buffer; reports assert/trap.
  Status drain();

private:
  HIPDevice &Dev;
  hipModule_t Mod;
  container::ModuleInfo Info;
  void *PrintfBuf;
  size_t PrintfSize;
  std::mutex Mu;
  std::map<std::string, std::unique_ptr<HIPKernel>> Kernels;
};

class HIPDevice final : public Device {
public:
  HIPDevice(const Runtime &R, int Index, DeviceProperties P)
      : R(R), Index(Index), Props(std::move(P)) {}
  const DeviceProperties &properties() const override { return Props; }

  Status allocate(size_t Bytes, void *&Ptr) override {
    DeviceScope S(R, Index);
    return check(R, R.Malloc(&Ptr, Bytes ? Bytes : 1), "hipMalloc");
  }
  Status release(void *Ptr) override {
    if (!Ptr)
      return Status::ok();
    DeviceScope S(R, Index);
    hipError_t E = R.Free(Ptr);
    if (E == hipErrorInvalidValue || E == hipErrorInvalidDevicePointer)
      return Status(ErrorCode::InvalidDevicePointer, "hipFree: " + R.describe(E));
    return check(R, E, "hipFree");
  }
  Status allocateHost(size_t Bytes, void *&Ptr) override {
    DeviceScope S(R, Index);
    return check(R, R.HostMalloc(&Ptr, Bytes ? Bytes : 1, hipHostMallocDefault),
                 "hipHostMalloc");
  }
  Status releaseHost(void *Ptr) override {
    if (!Ptr)
      return Status::ok();
    DeviceScope S(R, Index);
    return check(R, R.HostFree(Ptr), "hipHostFree");
  }
  Status memoryInfo(size_t &Free, size_t &Total) override {
    DeviceScope S(R, Index);
    return check(R, R.MemGetInfo(&Free, &Total), "hipMemGetInfo");
  }
  Status allocateManaged(size_t Bytes, void *&Ptr) override {
    if (!Props.ManagedMemory)
      return Status(ErrorCode::NotSupported,
                    "hipMallocManaged: the device has no managed memory");
    DeviceScope S(R, Index);
    return check(R, R.MallocManaged(&Ptr, Bytes ? Bytes : 1, hipMemAttachGlobal),
                 "hipMallocManaged");
  }

  Status loadModule(const std::vector<char> &Binary,
                    const container::ModuleInfo &Info,
                    std::unique_ptr<Module> &Out) override {
    static const char ElfMagic[4] = {0x7f, 'E', 'L', 'F'};
    if (Binary.size() < 4 || std::memcmp(Binary.data(), ElfMagic, 4) != 0)
      return Status(ErrorCode::NoBinaryForGpu,
                    "hipModuleLoadData: the amdgpu translation is not an ELF "
                    "code object");
    DeviceScope S(R, Index);
    hipModule_t M = nullptr;
    hipError_t E = R.ModuleLoadData(&M, Binary.data());
    if (E != hipSuccess) {
      ErrorCode C = mapResult(E);
      return Status(C == ErrorCode::DriverFailure ? ErrorCode::NoBinaryForGpu : C,
                    "hipModuleLoadData (" + Props.Arch + "): " + R.describe(E));
    }
    // The hidden printf buffer exists when a kernel prints, asserts or traps.
    hipDeviceptr_t Buf = nullptr;
    size_t BufSize = 0;
    if (R.ModuleGetGlobal(&Buf, &BufSize, M, amdgpu_abi::PrintfBufferName) !=
        hipSuccess) {
      Buf = nullptr;
      BufSize = 0;
    }
    auto Mod = std::make_unique<HIPModule>(*this, M, Info, Buf, BufSize);
    {
      std::lock_guard<std::mutex> L(ModulesMu);
      Modules.insert(Mod.get());
    }
    Out = std::move(Mod);
    return Status::ok();
  }

  Status createQueue(std::unique_ptr<Queue> &Out) override;
  Status createEvent(std::unique_ptr<Event> &Out) override;
  Status synchronize() override {
    DeviceScope S(R, Index);
    if (Status St = check(R, R.DeviceSynchronize(), "hipDeviceSynchronize"))
      return St;
    return drainAll();
  }

  /// Drains every module's printf buffer (after a synchronisation).
  Status drainAll() {
    std::lock_guard<std::mutex> L(ModulesMu);
    Status First;
    for (HIPModule *M : Modules)
      if (Status St = M->drain(); St && !First)
        First = St;
    return First;
  }
  void forget(HIPModule *M) {
    std::lock_guard<std::mutex> L(ModulesMu);
    Modules.erase(M);
  }

  const Runtime &R;
  const int Index;

private:
  DeviceProperties Props;
  std::mutex ModulesMu;
  std::set<HIPModule *> Modules;
};

HIPModule::HIPModule(HIPDevice &Dev, hipModule_t M,
                     const container::ModuleInfo &Info, void *PrintfBuf,
                     size_t PrintfSize)
    : Dev(Dev), Mod(M), Info(Info), PrintfBuf(PrintfBuf), PrintfSize(PrintfSize) {}

HIPModule::~HIPModule() {
  Dev.forget(this);
  DeviceScope S(Dev.R, Dev.Index);
  Dev.R.ModuleUnload(Mod);
}

Status HIPModule::getKernel(const std::string &Name, Kernel *&Out) {
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
  DeviceScope S(Dev.R, Dev.Index);
  hipFunction_t F = nullptr;
  if (Status St = check(Dev.R, Dev.R.ModuleGetFunction(&F, Mod, Name.c_str()),
                        "hipModuleGetFunction(" + Name + ")"))
    return St;
  auto K = std::make_unique<HIPKernel>(F, *KI);
  Out = K.get();
  Kernels.emplace(Name, std::move(K));
  return Status::ok();
}

Status HIPModule::getGlobal(const std::string &Name, void *&Addr, size_t &Size) {
  DeviceScope S(Dev.R, Dev.Index);
  hipDeviceptr_t P = nullptr;
  size_t Bytes = 0;
  hipError_t E = Dev.R.ModuleGetGlobal(&P, &Bytes, Mod, Name.c_str());
  if (E != hipSuccess)
    return Status(E == hipErrorNotFound ? ErrorCode::InvalidSymbol : mapResult(E),
                  "hipModuleGetGlobal(" + Name + "): " + Dev.R.describe(E));
  Addr = P;
  Size = Bytes;
  return Status::ok();
}

Status HIPModule::drain() {
  namespace pf = amdgpu_printf;
  if (!PrintfBuf || PrintfSize < pf::DataOffset)
    return Status::ok();
  const Runtime &R = Dev.R;
  DeviceScope S(R, Dev.Index);
  unsigned char Header[pf::DataOffset];
  if (Status St = check(R, R.Memcpy(Header, PrintfBuf, sizeof(Header),
                                    hipMemcpyDeviceToHost),
                        "reading the device printf buffer"))
    return St;
  uint64_t Head;
  uint32_t Flags;
  std::memcpy(&Head, Header, 8);
  std::memcpy(&Flags, Header + 8, 4);
  if (Head == 0 && Flags == 0)
    return Status::ok();
  uint64_t Capacity = PrintfSize - pf::DataOffset;
  uint64_t Bytes = std::min<uint64_t>(Head, Capacity);
  if (Bytes) {
    std::vector<unsigned char> Data(Bytes);
    if (Status St = check(R, R.Memcpy(Data.data(),
                                      static_cast<char *>(PrintfBuf) + pf::DataOffset,
                                      Bytes, hipMemcpyDeviceToHost),
                          "reading the device printf buffer"))
      return St;
    printRecords(Data.data(), Data.size());
  }
  if (Head > Capacity)
    log(LogLevel::Warn,
        "hip: device printf buffer full: " + std::to_string(Head - Capacity) +
            " bytes of output were dropped");
  std::memset(Header, 0, sizeof(Header));
  if (Status St = check(R, R.Memcpy(PrintfBuf, Header, sizeof(Header),
                                    hipMemcpyHostToDevice),
                        "clearing the device printf buffer"))
    return St;
  if (Flags & pf::FlagAssert)
    return Status(ErrorCode::Assert, "device-side assert triggered");
  if (Flags & pf::FlagTrap)
    return Status(ErrorCode::LaunchFailure, "__trap() executed on the device");
  return Status::ok();
}

class HIPEvent final : public Event {
public:
  HIPEvent(HIPDevice &Dev, hipEvent_t E) : Ev(E), Dev(Dev) {}
  ~HIPEvent() override {
    DeviceScope S(Dev.R, Dev.Index);
    Dev.R.EventDestroy(Ev);
  }
  Status synchronize() override {
    DeviceScope S(Dev.R, Dev.Index);
    if (Status St = check(Dev.R, Dev.R.EventSynchronize(Ev), "hipEventSynchronize"))
      return St;
    return Dev.drainAll();
  }
  Status query() override {
    DeviceScope S(Dev.R, Dev.Index);
    return check(Dev.R, Dev.R.EventQuery(Ev), "hipEventQuery");
  }
  Status elapsedSince(Event &Start, float &Ms) override {
    DeviceScope S(Dev.R, Dev.Index);
    auto &From = static_cast<HIPEvent &>(Start);
    return check(Dev.R, Dev.R.EventElapsedTime(&Ms, From.Ev, Ev),
                 "hipEventElapsedTime");
  }
  hipEvent_t Ev;

private:
  HIPDevice &Dev;
};

class HIPQueue final : public Queue {
public:
  HIPQueue(HIPDevice &Dev, hipStream_t S) : Dev(Dev), R(Dev.R), Stream(S) {}
  ~HIPQueue() override {
    DeviceScope S(R, Dev.Index);
    R.StreamSynchronize(Stream);
    R.StreamDestroy(Stream);
  }

  Status memcpy(void *Dst, const void *Src, size_t Bytes, CopyKind Kind) override {
    if (Bytes == 0)
      return Status::ok();
    DeviceScope S(R, Dev.Index);
    hipMemcpyKind K = Kind == CopyKind::HostToDevice   ? hipMemcpyHostToDevice
                      : Kind == CopyKind::DeviceToHost ? hipMemcpyDeviceToHost
                      : Kind == CopyKind::DeviceToDevice
                          ? hipMemcpyDeviceToDevice
                          : hipMemcpyHostToHost;
    return check(R, R.MemcpyAsync(Dst, Src, Bytes, K, Stream), "hipMemcpyAsync");
  }
  Status memset(void *Dst, int Value, size_t Bytes) override {
    if (Bytes == 0)
      return Status::ok();
    DeviceScope S(R, Dev.Index);
    return check(R, R.MemsetAsync(Dst, Value, Bytes, Stream), "hipMemsetAsync");
  }

  Status launch(Kernel &K, const LaunchParams &P) override {
    auto &HK = static_cast<HIPKernel &>(K);
    const container::KernelInfo &Info = HK.info();
    if (P.State)
      return Status(ErrorCode::NotSupported,
                    "launch of '" + Info.Name +
                        "': live migration (state buffer) is not implemented "
                        "on the hip backend");
    const DeviceProperties &DP = Dev.properties();
    if (Info.StaticShared + P.DynamicShared > DP.SharedMemPerBlockOptin)
      return Status(ErrorCode::InvalidValue,
                    "launch of '" + Info.Name + "': " +
                        std::to_string(Info.StaticShared + P.DynamicShared) +
                        " bytes of shared memory exceed the device's LDS "
                        "limit of " + std::to_string(DP.SharedMemPerBlockOptin));
    // One packed buffer with CUDA's parameter layout: the kernarg segment.
    ArgPack Pack(Info, P.Args);
    size_t Size = Pack.size();
    void *Extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER,
                     const_cast<char *>(Pack.buffer()),
                     HIP_LAUNCH_PARAM_BUFFER_SIZE, &Size, HIP_LAUNCH_PARAM_END};
    DeviceScope S(R, Dev.Index);
    hipError_t E = R.ModuleLaunchKernel(
        HK.Fn, P.Grid[0], P.Grid[1], P.Grid[2], P.Block[0], P.Block[1],
        P.Block[2], static_cast<unsigned>(P.DynamicShared), Stream, nullptr,
        Size ? Extra : nullptr);
    if (E == hipErrorInvalidValue || E == hipErrorInvalidConfiguration)
      return Status(ErrorCode::InvalidConfiguration,
                    "hipModuleLaunchKernel(" + Info.Name + "): " + R.describe(E));
    return check(R, E, "hipModuleLaunchKernel(" + Info.Name + ")");
  }

  Status hostFunc(std::function<void()> Fn) override {
    DeviceScope S(R, Dev.Index);
    auto *Heap = new std::function<void()>(std::move(Fn));
    hipError_t E = R.LaunchHostFunc(
        Stream,
        [](void *U) {
          auto *F = static_cast<std::function<void()> *>(U);
          (*F)();
          delete F;
        },
        Heap);
    if (E != hipSuccess)
      delete Heap;
    return check(R, E, "hipLaunchHostFunc");
  }
  Status record(Event &E) override {
    DeviceScope S(R, Dev.Index);
    return check(R, R.EventRecord(static_cast<HIPEvent &>(E).Ev, Stream),
                 "hipEventRecord");
  }
  Status wait(Event &E) override {
    DeviceScope S(R, Dev.Index);
    return check(R, R.StreamWaitEvent(Stream, static_cast<HIPEvent &>(E).Ev, 0),
                 "hipStreamWaitEvent");
  }
  Status synchronize() override {
    DeviceScope S(R, Dev.Index);
    if (Status St = check(R, R.StreamSynchronize(Stream), "hipStreamSynchronize"))
      return St;
    return Dev.drainAll();
  }
  Status query() override {
    DeviceScope S(R, Dev.Index);
    return check(R, R.StreamQuery(Stream), "hipStreamQuery");
  }

private:
  HIPDevice &Dev;
  const Runtime &R;
  hipStream_t Stream;
};

Status HIPDevice::createQueue(std::unique_ptr<Queue> &Out) {
  DeviceScope S(R, Index);
  hipStream_t St = nullptr;
  if (Status E = check(R, R.StreamCreateWithFlags(&St, hipStreamNonBlocking),
                       "hipStreamCreateWithFlags"))
    return E;
  Out = std::make_unique<HIPQueue>(*this, St);
  return Status::ok();
}

Status HIPDevice::createEvent(std::unique_ptr<Event> &Out) {
  DeviceScope S(R, Index);
  hipEvent_t E = nullptr;
  if (Status St = check(R, R.EventCreateWithFlags(&E, hipEventDefault),
                        "hipEventCreateWithFlags"))
    return St;
  Out = std::make_unique<HIPEvent>(*this, E);
  return Status::ok();
}

class HIPBackend final : public Backend {
public:
  const char *name() const override { return "hip"; }

  Status discover(std::vector<std::unique_ptr<Device>> &Out) override {
    std::string Err;
    const Runtime *RP = loadRuntime(Err);
    if (!RP)
      return Status(ErrorCode::NotSupported, Err);
    const Runtime &R = *RP;
    if (Status St = check(R, R.Init(0), "hipInit"))
      return St;
    int Version = 0;
    R.DriverGetVersion(&Version);
    int Count = 0;
    if (Status St = check(R, R.GetDeviceCount(&Count), "hipGetDeviceCount"))
      return St;
    if (Count == 0)
      return Status(ErrorCode::NotSupported, "hipGetDeviceCount: no AMD GPU");
    for (int I = 0; I < Count; ++I) {
      DeviceScope S(R, I);
      if (Status St = check(R, S.Result, "hipSetDevice"))
        return St;
      auto Attr = [&](hipDeviceAttribute_t A, int Default) {
        int V = 0;
        return R.DeviceGetAttribute(&V, A, I) == hipSuccess ? V : Default;
      };
      DeviceProperties P;
      char Name[256] = {0};
      R.DeviceGetName(Name, sizeof(Name) - 1, I);
      // hipDeviceProp_t is about 1.5 KiB in every ROCm release; the block
      // is generous and zeroed so the gfx name search stays inside it.
      std::vector<unsigned char> Props(16384, 0);
      if (Status St = check(R, R.GetDeviceProperties(Props.data(), I),
                            "hipGetDeviceProperties"))
        return St;
      P.Arch = findArchName(Props.data(), Props.size());
      if (P.Arch.empty())
        return Status(ErrorCode::DriverFailure,
                      "hipGetDeviceProperties: no gcnArchName for device " +
                          std::to_string(I));
      P.Name = Name[0] ? Name : "AMD " + P.Arch;
      P.Vendor = "AMD";
      P.Kind = BackendKind::HIP;
      P.Target = "amdgpu";
      // CUDA warps stay 32 lanes on wave64 (the amdgpu target emulates
      // them); the compute capability is that of hetIR's feature set.
      P.ComputeMajor = 8;
      P.ComputeMinor = 0;
      size_t Total = 0;
      R.DeviceTotalMem(&Total, I);
      P.TotalMemory = Total;
      P.MultiProcessorCount = Attr(hipDeviceAttributeMultiprocessorCount, 1);
      P.MaxThreadsPerBlock = Attr(hipDeviceAttributeMaxThreadsPerBlock, 1024);
      P.MaxBlockDim[0] = Attr(hipDeviceAttributeMaxBlockDimX, 1024);
      P.MaxBlockDim[1] = Attr(hipDeviceAttributeMaxBlockDimY, 1024);
      P.MaxBlockDim[2] = Attr(hipDeviceAttributeMaxBlockDimZ, 1024);
      P.MaxGridDim[0] = Attr(hipDeviceAttributeMaxGridDimX, 2147483647);
      P.MaxGridDim[1] = Attr(hipDeviceAttributeMaxGridDimY, 65535);
      P.MaxGridDim[2] = Attr(hipDeviceAttributeMaxGridDimZ, 65535);
      P.SharedMemPerBlock = Attr(hipDeviceAttributeMaxSharedMemoryPerBlock, 64 << 10);
      P.SharedMemPerBlockOptin =
          std::max<uint64_t>(Attr(hipDeviceAttributeSharedMemPerBlockOptin, 0),
                             P.SharedMemPerBlock);
      P.SharedMemPerMultiprocessor =
          Attr(hipDeviceAttributeSharedMemPerMultiprocessor, 64 << 10);
      P.TotalConstMem = Attr(hipDeviceAttributeTotalConstantMemory, 64 << 10);
      P.RegsPerBlock = Attr(hipDeviceAttributeMaxRegistersPerBlock, 65536);
      P.MaxThreadsPerMultiProcessor =
          Attr(hipDeviceAttributeMaxThreadsPerMultiProcessor, 2048);
      P.MaxBlocksPerMultiProcessor =
          Attr(hipDeviceAttributeMaxBlocksPerMultiProcessor, 32);
      P.ClockRateKHz = Attr(hipDeviceAttributeClockRate, 1000000);
      P.MemoryClockRateKHz = Attr(hipDeviceAttributeMemoryClockRate, 1000000);
      P.MemoryBusWidth = Attr(hipDeviceAttributeMemoryBusWidth, 64);
      P.L2CacheSize = Attr(hipDeviceAttributeL2CacheSize, 0);
      P.PciBusId = Attr(hipDeviceAttributePciBusId, 0);
      P.Integrated = Attr(hipDeviceAttributeIntegrated, 0) != 0;
      P.ConcurrentKernels = Attr(hipDeviceAttributeConcurrentKernels, 1) != 0;
      P.ManagedMemory = Attr(hipDeviceAttributeManagedMemory, 0) != 0;
      if (logEnabled(LogLevel::Info))
        log(LogLevel::Info, "hip: device " + std::to_string(I) + ": " + P.Name +
                                " (" + P.Arch + ", HIP " + std::to_string(Version) +
                                ", " + R.Path + ")");
      Out.push_back(std::make_unique<HIPDevice>(R, I, std::move(P)));
    }
    return Status::ok();
  }
};

} // namespace

std::unique_ptr<Backend> createHIPBackend() {
  return std::make_unique<HIPBackend>();
}

} // namespace rt
} // namespace hetgpu
