//===- LevelZeroBackend.cpp - Intel GPUs through oneAPI Level Zero --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu::rt::createLevelZeroBackend()`: GPU devices of every Level Zero
/// driver. Modules are hetGPU SPIR-V (lib/Targets/SPIRV, kernel ABI in
/// ABI/SPIRVKernel.h) built with zeModuleCreate; streams are in-order
/// immediate command lists; device memory is zeMemAllocDevice (pointers are
/// USM device addresses, valid in kernels as they are), the globals block
/// and the printf buffer are shared (host-visible) allocations; events are
/// host-visible events plus global timestamps for elapsed times.
///
/// This backend is compiled and its discovery runs everywhere, but no
/// machine it was written on has Level Zero: see docs/targets/SPIRV.md for
/// what has and has not been exercised.
///
//===----------------------------------------------------------------------===//

#include "LevelZeroApi.h"

#include "Core/Device.h"
#include "Core/Log.h"
#include "Core/Printf.h"
#include "Backends/SPIRV/SPIRVModuleTable.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>

namespace hetgpu {
namespace rt {

std::unique_ptr<Backend> createLevelZeroBackend();

namespace {

using namespace ze;

constexpr uint64_t Forever = UINT64_MAX;

Status zeStatus(ze_result_t R, const std::string &What) {
  if (R == ZE_RESULT_SUCCESS)
    return Status::ok();
  ErrorCode C = ErrorCode::DriverFailure;
  switch (R) {
  case ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY:
  case ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY:
    C = ErrorCode::OutOfMemory;
    break;
  case ZE_RESULT_NOT_READY:
    C = ErrorCode::NotReady;
    break;
  case ZE_RESULT_ERROR_INVALID_ARGUMENT:
    C = ErrorCode::InvalidValue;
    break;
  case ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION:
    C = ErrorCode::InvalidConfiguration;
    break;
  case ZE_RESULT_ERROR_DEVICE_LOST:
    C = ErrorCode::LaunchFailure;
    break;
  default:
    break;
  }
  char Hex[16];
  snprintf(Hex, sizeof Hex, "0x%x", R);
  return Status(C, "level-zero: " + What + " failed: " + resultName(R) + " (" +
                       Hex + ")");
}

class ZEDevice;

class ZEKernel final : public Kernel {
public:
  ZEKernel(const API &A, ze_kernel_handle_t K,
           const container::KernelInfo &Info, void *Globals)
      : A(A), K(K), Info(Info), Globals(Globals) {}
  ~ZEKernel() override { A.zeKernelDestroy(K); }
  const container::KernelInfo &info() const override { return Info; }

  const API &A;
  ze_kernel_handle_t K;
  container::KernelInfo Info;
  void *Globals;
  std::mutex M; ///< argument setting + append are one step
};

class ZEModule final : public Module {
public:
  ZEModule(ZEDevice &D, ze_module_handle_t H) : Dev(D), H(H) {}
  ~ZEModule() override;
  Status getKernel(const std::string &Name, Kernel *&Out) override;
  Status getGlobal(const std::string &Name, void *&Addr,
                   size_t &Size) override;

  ZEDevice &Dev;
  ze_module_handle_t H;
  container::ModuleInfo Info;
  spirv_abi::ModuleTable Table;
  void *Block = nullptr;        ///< globals block (shared USM)
  void *PrintfBuffer = nullptr; ///< shared USM
  uint64_t PrintfCapacity = 0;
  void *Heap = nullptr; ///< device malloc() heap (device USM)
  std::map<std::string, std::unique_ptr<ZEKernel>> Kernels;
  std::mutex M;
};

class ZEEvent final : public Event {
public:
  ZEEvent(const API &A, ze_event_handle_t E, uint64_t *Stamp, double NsPerTick)
      : A(A), E(E), Stamp(Stamp), NsPerTick(NsPerTick) {}
  ~ZEEvent() override { A.zeEventDestroy(E); }
  Status synchronize() override {
    if (!Recorded)
      return Status::ok();
    return zeStatus(A.zeEventHostSynchronize(E, Forever),
                    "zeEventHostSynchronize");
  }
  Status query() override {
    if (!Recorded)
      return Status::ok();
    ze_result_t R = A.zeEventQueryStatus(E);
    if (R == ZE_RESULT_NOT_READY)
      return Status(ErrorCode::NotReady, "event not ready");
    return zeStatus(R, "zeEventQueryStatus");
  }
  Status elapsedSince(Event &Start, float &Ms) override {
    auto &S = static_cast<ZEEvent &>(Start);
    if (!Recorded || !S.Recorded)
      return Status(ErrorCode::InvalidValue,
                    "level-zero: elapsed time of an event never recorded");
    if (Status St = S.query())
      return St;
    if (Status St = query())
      return St;
    Ms = float(double(int64_t(*Stamp - *S.Stamp)) * NsPerTick / 1e6);
    return Status::ok();
  }

  const API &A;
  ze_event_handle_t E;
  uint64_t *Stamp; ///< host-visible timestamp slot
  double NsPerTick;
  bool Recorded = false;
};

class ZEQueue;

class ZEDevice final : public Device {
public:
  ZEDevice(const API &A, ze_driver_handle_t Drv, ze_device_handle_t D,
           ze_context_handle_t Ctx)
      : A(A), Drv(Drv), Dev(D), Ctx(Ctx) {}
  ~ZEDevice() override {
    if (Helper)
      A.zeCommandListDestroy(Helper);
    for (ze_event_pool_handle_t P : Pools)
      A.zeEventPoolDestroy(P);
    if (StampMem)
      A.zeMemFree(Ctx, StampMem);
    A.zeContextDestroy(Ctx);
  }

  Status init();
  const DeviceProperties &properties() const override { return Props; }

  Status allocate(size_t Bytes, void *&Ptr) override {
    ze_device_mem_alloc_desc_t DD;
    if (Status S = zeStatus(A.zeMemAllocDevice(Ctx, &DD,
                                               std::max<size_t>(Bytes, 1), 256,
                                               Dev, &Ptr),
                            "zeMemAllocDevice(" + std::to_string(Bytes) + ")"))
      return S;
    std::lock_guard<std::mutex> L(M);
    Allocations[Ptr] = Bytes;
    Used += Bytes;
    return Status::ok();
  }
  Status allocateShared(size_t Bytes, void *&Ptr) {
    ze_device_mem_alloc_desc_t DD;
    ze_host_mem_alloc_desc_t HD;
    return zeStatus(A.zeMemAllocShared(Ctx, &DD, &HD,
                                       std::max<size_t>(Bytes, 1), 256, Dev,
                                       &Ptr),
                    "zeMemAllocShared(" + std::to_string(Bytes) + ")");
  }
  Status allocateManaged(size_t Bytes, void *&Ptr) override {
    if (Status S = allocateShared(Bytes, Ptr))
      return S;
    std::lock_guard<std::mutex> L(M);
    Allocations[Ptr] = Bytes;
    Used += Bytes;
    return Status::ok();
  }
  Status release(void *Ptr) override {
    if (!Ptr)
      return Status::ok();
    {
      std::lock_guard<std::mutex> L(M);
      auto It = Allocations.find(Ptr);
      if (It == Allocations.end())
        return Status(ErrorCode::InvalidDevicePointer,
                      "level-zero: pointer was not allocated on this device");
      Used -= It->second;
      Allocations.erase(It);
    }
    if (Status S = synchronize())
      log(LogLevel::Warn, S.Message);
    return zeStatus(A.zeMemFree(Ctx, Ptr), "zeMemFree");
  }
  Status allocateHost(size_t Bytes, void *&Ptr) override {
    ze_host_mem_alloc_desc_t HD;
    return zeStatus(
        A.zeMemAllocHost(Ctx, &HD, std::max<size_t>(Bytes, 1), 64, &Ptr),
        "zeMemAllocHost");
  }
  Status releaseHost(void *Ptr) override {
    return zeStatus(A.zeMemFree(Ctx, Ptr), "zeMemFree");
  }
  Status memoryInfo(size_t &Free, size_t &Total) override {
    std::lock_guard<std::mutex> L(M);
    Total = Props.TotalMemory;
    Free = Used < Total ? Total - Used : 0;
    return Status::ok();
  }

  Status loadModule(const std::vector<char> &Binary,
                    const container::ModuleInfo &Info,
                    std::unique_ptr<Module> &Out) override;
  Status createQueue(std::unique_ptr<Queue> &Out) override;
  Status createEvent(std::unique_ptr<Event> &Out) override;
  Status synchronize() override;
  Status reset() override {
    std::lock_guard<std::mutex> L(M);
    for (ZEModule *Mod : Modules)
      if (Mod->Block)
        std::memset(static_cast<char *>(Mod->Block) + spirv_abi::StatusOffset,
                    0, 4);
    return Status::ok();
  }

  Status helperList(ze_command_list_handle_t &Out);
  Status runHelper(ze_kernel_handle_t K);
  Status createList(ze_command_list_handle_t &Out);
  void drainPrintf();
  Status deviceFailure();

  const API &A;
  ze_driver_handle_t Drv;
  ze_device_handle_t Dev;
  ze_context_handle_t Ctx;
  DeviceProperties Props;
  double NsPerTick = 1.0;
  std::mutex M;
  std::map<void *, size_t> Allocations;
  size_t Used = 0;
  std::set<ZEQueue *> Queues;
  std::set<ZEModule *> Modules;
  ze_command_list_handle_t Helper = nullptr;
  // Events: pools of 64, timestamps in one shared allocation per pool.
  std::vector<ze_event_pool_handle_t> Pools;
  uint32_t NextEvent = 64;
  void *StampMem = nullptr;
  std::vector<void *> StampBlocks;
};

class ZEQueue final : public Queue {
public:
  ZEQueue(ZEDevice &D, ze_command_list_handle_t L) : D(D), A(D.A), L(L) {}
  ~ZEQueue() override {
    A.zeCommandListHostSynchronize(L, Forever);
    {
      std::lock_guard<std::mutex> G(D.M);
      D.Queues.erase(this);
    }
    A.zeCommandListDestroy(L);
  }
  Status memcpy(void *Dst, const void *Src, size_t Bytes,
                CopyKind Kind) override {
    if (Bytes == 0)
      return Status::ok();
    if (Status S = zeStatus(A.zeCommandListAppendMemoryCopy(
                                L, Dst, Src, Bytes, nullptr, 0, nullptr),
                            "zeCommandListAppendMemoryCopy"))
      return S;
    // Pageable host sources may change once we return.
    if (Kind == CopyKind::HostToDevice || Kind == CopyKind::HostToHost)
      return zeStatus(A.zeCommandListHostSynchronize(L, Forever),
                      "zeCommandListHostSynchronize");
    return Status::ok();
  }
  Status memset(void *Dst, int Value, size_t Bytes) override {
    if (Bytes == 0)
      return Status::ok();
    unsigned char P = static_cast<unsigned char>(Value);
    return zeStatus(A.zeCommandListAppendMemoryFill(L, Dst, &P, 1, Bytes,
                                                    nullptr, 0, nullptr),
                    "zeCommandListAppendMemoryFill");
  }
  Status launch(Kernel &Kn, const LaunchParams &P) override {
    auto &K = static_cast<ZEKernel &>(Kn);
    const container::KernelInfo &I = K.Info;
    std::lock_guard<std::mutex> G(K.M);
    uint32_t N = 0;
    for (const container::ParamInfo &PI : I.Params) {
      if (Status S = zeStatus(A.zeKernelSetArgumentValue(K.K, N, PI.Size,
                                                         P.Args[N]),
                              "zeKernelSetArgumentValue(" + I.Name + ", " +
                                  std::to_string(N) + ")"))
        return S;
      ++N;
    }
    if (Status S = zeStatus(
            A.zeKernelSetArgumentValue(
                K.K, N, std::max<uint64_t>(P.DynamicShared, 1), nullptr),
            "zeKernelSetArgumentValue(" + I.Name + ", dynamic shared)"))
      return S;
    if (Status S = zeStatus(A.zeKernelSetArgumentValue(K.K, N + 1,
                                                       sizeof(void *),
                                                       &K.Globals),
                            "zeKernelSetArgumentValue(" + I.Name +
                                ", globals)"))
      return S;
    if (Status S = zeStatus(A.zeKernelSetGroupSize(K.K, P.Block[0], P.Block[1],
                                                   P.Block[2]),
                            "zeKernelSetGroupSize(" + I.Name + ")"))
      return S;
    ze_group_count_t GC;
    GC.groupCountX = P.Grid[0];
    GC.groupCountY = P.Grid[1];
    GC.groupCountZ = P.Grid[2];
    return zeStatus(A.zeCommandListAppendLaunchKernel(L, K.K, &GC, nullptr, 0,
                                                      nullptr),
                    "zeCommandListAppendLaunchKernel(" + I.Name + ")");
  }
  Status hostFunc(std::function<void()> Fn) override {
    if (Status S = synchronize())
      return S;
    Fn();
    return Status::ok();
  }
  Status record(Event &Ev) override {
    auto &E = static_cast<ZEEvent &>(Ev);
    A.zeEventHostReset(E.E);
    E.Recorded = true;
    return zeStatus(A.zeCommandListAppendWriteGlobalTimestamp(L, E.Stamp, E.E,
                                                              0, nullptr),
                    "zeCommandListAppendWriteGlobalTimestamp");
  }
  Status wait(Event &Ev) override {
    auto &E = static_cast<ZEEvent &>(Ev);
    if (!E.Recorded)
      return Status::ok();
    return zeStatus(A.zeCommandListAppendWaitOnEvents(L, 1, &E.E),
                    "zeCommandListAppendWaitOnEvents");
  }
  Status synchronize() override {
    if (Status S = zeStatus(A.zeCommandListHostSynchronize(L, Forever),
                            "zeCommandListHostSynchronize"))
      return S;
    D.drainPrintf();
    return D.deviceFailure();
  }
  Status query() override {
    ze_result_t R = A.zeCommandListHostSynchronize(L, 0);
    if (R == ZE_RESULT_NOT_READY)
      return Status(ErrorCode::NotReady, "queue busy");
    if (Status S = zeStatus(R, "zeCommandListHostSynchronize"))
      return S;
    return D.deviceFailure();
  }

  ZEDevice &D;
  const API &A;
  ze_command_list_handle_t L;
};

//===----------------------------------------------------------------------===//
// ZEDevice
//===----------------------------------------------------------------------===//

Status ZEDevice::init() {
  ze_device_properties_t P;
  if (Status S = zeStatus(A.zeDeviceGetProperties(Dev, &P),
                          "zeDeviceGetProperties"))
    return S;
  ze_device_compute_properties_t CP;
  if (Status S = zeStatus(A.zeDeviceGetComputeProperties(Dev, &CP),
                          "zeDeviceGetComputeProperties"))
    return S;
  ze_device_module_properties_t MP;
  if (Status S = zeStatus(A.zeDeviceGetModuleProperties(Dev, &MP),
                          "zeDeviceGetModuleProperties"))
    return S;
  Props.Name = std::string(P.name, strnlen(P.name, sizeof P.name));
  Props.Vendor = P.vendorId == 0x8086 ? "Intel" : "Level Zero";
  Props.Kind = BackendKind::LevelZero;
  Props.Target = "spirv";
  unsigned Major = MP.spirvVersionSupported >> 16,
           Minor = MP.spirvVersionSupported & 0xffff;
  if (Major != 1)
    Minor = 0;
  Props.Arch = "spirv1." + std::to_string(std::min(Minor, 6u));
  Props.Features = "+defer-unsupported";
  for (uint32_t I = 0; I < std::min(CP.numSubGroupSizes, ZE_SUBGROUPSIZE_COUNT);
       ++I)
    if (CP.subGroupSizes[I] == 32 && Minor >= 3)
      Props.Features += ",+subgroups32";
  uint32_t NMem = 0;
  A.zeDeviceGetMemoryProperties(Dev, &NMem, nullptr);
  std::vector<ze_device_memory_properties_t> MemP(NMem);
  if (NMem && A.zeDeviceGetMemoryProperties(Dev, &NMem, MemP.data()) ==
                  ZE_RESULT_SUCCESS)
    for (const auto &MPr : MemP) {
      Props.TotalMemory += MPr.totalSize;
      Props.MemoryClockRateKHz = MPr.maxClockRate * 1000;
      Props.MemoryBusWidth = MPr.maxBusWidth;
    }
  Props.MultiProcessorCount =
      std::max(1u, P.numSlices * P.numSubslicesPerSlice);
  Props.MaxThreadsPerBlock = std::min<uint32_t>(CP.maxTotalGroupSize, 1024);
  Props.MaxBlockDim[0] = std::min(CP.maxGroupSizeX, Props.MaxThreadsPerBlock);
  Props.MaxBlockDim[1] = std::min(CP.maxGroupSizeY, Props.MaxThreadsPerBlock);
  Props.MaxBlockDim[2] = std::min<uint32_t>(CP.maxGroupSizeZ, 64);
  Props.MaxGridDim[0] = std::min<uint32_t>(CP.maxGroupCountX, 2147483647u);
  Props.MaxGridDim[1] = std::min<uint32_t>(CP.maxGroupCountY, 65535);
  Props.MaxGridDim[2] = std::min<uint32_t>(CP.maxGroupCountZ, 65535);
  uint64_t Local = CP.maxSharedLocalMemory;
  uint64_t Reserved = 4096 + 16; // warp emulation scratch, barrier counter
  Local = Local > Reserved ? Local - Reserved : 0;
  Props.SharedMemPerBlock = std::min<uint64_t>(Local, 48 * 1024);
  Props.SharedMemPerBlockOptin = Local;
  Props.SharedMemPerMultiprocessor = Local;
  Props.ClockRateKHz = P.coreClockRate * 1000;
  Props.Integrated = (P.flags & ZE_DEVICE_PROPERTY_FLAG_INTEGRATED) != 0;
  Props.ManagedMemory = true;
  NsPerTick = P.timerResolution ? double(P.timerResolution) : 1.0;
  return Status::ok();
}

Status ZEDevice::createList(ze_command_list_handle_t &Out) {
  ze_command_queue_desc_t QD;
  QD.flags = ZE_COMMAND_QUEUE_FLAG_IN_ORDER;
  QD.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  return zeStatus(A.zeCommandListCreateImmediate(Ctx, Dev, &QD, &Out),
                  "zeCommandListCreateImmediate");
}

Status ZEDevice::helperList(ze_command_list_handle_t &Out) {
  std::lock_guard<std::mutex> L(M);
  if (!Helper)
    if (Status S = createList(Helper))
      return S;
  Out = Helper;
  return Status::ok();
}

Status ZEDevice::runHelper(ze_kernel_handle_t K) {
  ze_command_list_handle_t L = nullptr;
  if (Status S = helperList(L))
    return S;
  if (Status S = zeStatus(A.zeKernelSetGroupSize(K, 1, 1, 1),
                          "zeKernelSetGroupSize"))
    return S;
  ze_group_count_t GC;
  if (Status S = zeStatus(A.zeCommandListAppendLaunchKernel(L, K, &GC, nullptr,
                                                            0, nullptr),
                          "zeCommandListAppendLaunchKernel"))
    return S;
  return zeStatus(A.zeCommandListHostSynchronize(L, Forever),
                  "zeCommandListHostSynchronize");
}

Status ZEDevice::createQueue(std::unique_ptr<Queue> &Out) {
  ze_command_list_handle_t L;
  if (Status S = createList(L))
    return S;
  auto Q = std::make_unique<ZEQueue>(*this, L);
  {
    std::lock_guard<std::mutex> G(M);
    Queues.insert(Q.get());
  }
  Out = std::move(Q);
  return Status::ok();
}

Status ZEDevice::createEvent(std::unique_ptr<Event> &Out) {
  std::lock_guard<std::mutex> L(M);
  if (NextEvent == 64) {
    ze_event_pool_desc_t PD;
    PD.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
    PD.count = 64;
    ze_event_pool_handle_t Pool;
    if (Status S = zeStatus(A.zeEventPoolCreate(Ctx, &PD, 1, &Dev, &Pool),
                            "zeEventPoolCreate"))
      return S;
    void *Stamps = nullptr;
    ze_device_mem_alloc_desc_t DD;
    ze_host_mem_alloc_desc_t HD;
    if (Status S = zeStatus(A.zeMemAllocShared(Ctx, &DD, &HD, 64 * 8, 64, Dev,
                                               &Stamps),
                            "zeMemAllocShared(timestamps)")) {
      A.zeEventPoolDestroy(Pool);
      return S;
    }
    Pools.push_back(Pool);
    StampBlocks.push_back(Stamps);
    NextEvent = 0;
  }
  ze_event_desc_t ED;
  ED.index = NextEvent;
  ED.signal = ZE_EVENT_SCOPE_FLAG_HOST;
  ED.wait = ZE_EVENT_SCOPE_FLAG_HOST;
  ze_event_handle_t E;
  if (Status S = zeStatus(A.zeEventCreate(Pools.back(), &ED, &E),
                          "zeEventCreate"))
    return S;
  uint64_t *Stamp = static_cast<uint64_t *>(StampBlocks.back()) + NextEvent;
  ++NextEvent;
  Out = std::make_unique<ZEEvent>(A, E, Stamp, NsPerTick);
  return Status::ok();
}

Status ZEDevice::synchronize() {
  std::vector<ze_command_list_handle_t> Ls;
  {
    std::lock_guard<std::mutex> G(M);
    for (ZEQueue *Q : Queues)
      Ls.push_back(Q->L);
    if (Helper)
      Ls.push_back(Helper);
  }
  for (ze_command_list_handle_t L : Ls)
    if (Status S = zeStatus(A.zeCommandListHostSynchronize(L, Forever),
                            "zeCommandListHostSynchronize"))
      return S;
  drainPrintf();
  return deviceFailure();
}

void ZEDevice::drainPrintf() {
  std::vector<ZEModule *> Mods;
  {
    std::lock_guard<std::mutex> G(M);
    Mods.assign(Modules.begin(), Modules.end());
  }
  for (ZEModule *Mod : Mods) {
    std::lock_guard<std::mutex> G(Mod->M);
    if (!Mod->PrintfBuffer)
      continue;
    auto *Hdr = static_cast<uint64_t *>(Mod->PrintfBuffer);
    uint64_t Written = __atomic_load_n(Hdr, __ATOMIC_ACQUIRE);
    if (!Written)
      continue;
    const char *Recs =
        static_cast<const char *>(Mod->PrintfBuffer) + spirv_abi::PrintfHeaderSize;
    spirv_abi::forEachPrintfRecord(
        Recs, std::min(Written, Mod->PrintfCapacity), Mod->Table.Formats,
        emitDevicePrintf);
    __atomic_store_n(Hdr, 0, __ATOMIC_RELEASE);
  }
}

Status ZEDevice::deviceFailure() {
  std::lock_guard<std::mutex> G(M);
  for (ZEModule *Mod : Modules) {
    if (!Mod->Block)
      continue;
    uint32_t Word = __atomic_load_n(
        reinterpret_cast<uint32_t *>(static_cast<char *>(Mod->Block) +
                                     spirv_abi::StatusOffset),
        __ATOMIC_ACQUIRE);
    if (Word == spirv_abi::StatusAssert)
      return Status(ErrorCode::Assert,
                    "level-zero: a device-side assertion failed");
    if (Word == spirv_abi::StatusTrap)
      return Status(ErrorCode::LaunchFailure,
                    "level-zero: a kernel executed __trap()");
  }
  return Status::ok();
}

Status ZEDevice::loadModule(const std::vector<char> &Binary,
                            const container::ModuleInfo &Info,
                            std::unique_ptr<Module> &Out) {
  ze_module_desc_t MD;
  MD.inputSize = Binary.size();
  MD.pInputModule = reinterpret_cast<const uint8_t *>(Binary.data());
  MD.pBuildFlags = "";
  ze_module_handle_t H = nullptr;
  ze_module_build_log_handle_t Log = nullptr;
  ze_result_t R = A.zeModuleCreate(Ctx, Dev, &MD, &H, &Log);
  if (R != ZE_RESULT_SUCCESS) {
    std::string Text;
    size_t N = 0;
    if (Log && A.zeModuleBuildLogGetString(Log, &N, nullptr) ==
                   ZE_RESULT_SUCCESS && N > 1) {
      Text.resize(N);
      A.zeModuleBuildLogGetString(Log, &N, Text.data());
      while (!Text.empty() && Text.back() == '\0')
        Text.pop_back();
    }
    if (Log)
      A.zeModuleBuildLogDestroy(Log);
    Status S = zeStatus(R, "zeModuleCreate on " + Props.Name);
    S.Code = ErrorCode::NoBinaryForGpu;
    if (!Text.empty())
      S.Message += "; build log:\n" + Text;
    return S;
  }
  if (Log)
    A.zeModuleBuildLogDestroy(Log);
  auto Mod = std::make_unique<ZEModule>(*this, H);
  Mod->Info.Kind = Info.Kind;
  Mod->Info.Kernels = Info.Kernels;
  Mod->Info.Globals = Info.Globals;

  auto MakeKernel = [&](const char *Name, ze_kernel_handle_t &K) {
    ze_kernel_desc_t KD;
    KD.pKernelName = Name;
    return zeStatus(A.zeKernelCreate(H, &KD, &K),
                    std::string("zeKernelCreate(") + Name + ")");
  };
  // The module table.
  ze_kernel_handle_t InfoK;
  if (Status S = MakeKernel(spirv_abi::InfoKernel, InfoK))
    return S;
  std::string Text;
  for (uint64_t Cap = 16384;;) {
    void *Buf = nullptr;
    if (Status S = allocateShared(Cap, Buf)) {
      A.zeKernelDestroy(InfoK);
      return S;
    }
    A.zeKernelSetArgumentValue(InfoK, 0, sizeof Buf, &Buf);
    A.zeKernelSetArgumentValue(InfoK, 1, sizeof Cap, &Cap);
    Status S = runHelper(InfoK);
    uint64_t Len = 0;
    if (S.isOk()) {
      std::memcpy(&Len, Buf, sizeof Len);
      if (Len + 8 <= Cap)
        Text.assign(static_cast<char *>(Buf) + 8, Len);
    }
    A.zeMemFree(Ctx, Buf);
    if (S) {
      A.zeKernelDestroy(InfoK);
      return S;
    }
    if (Len + 8 <= Cap)
      break;
    Cap = Len + 8;
  }
  A.zeKernelDestroy(InfoK);
  std::string Err;
  if (!spirv_abi::parseModuleTable(Text, Mod->Table, Err))
    return Status(ErrorCode::NoBinaryForGpu, "level-zero: " + Err);
  if (Status S = allocateShared(Mod->Table.BlockBytes, Mod->Block))
    return S;
  std::memset(Mod->Block, 0, Mod->Table.BlockBytes);
  if (!Mod->Table.Formats.empty()) {
    uint64_t Cap = 1 << 20;
    if (const char *Env = getenv("HETGPU_PRINTF_BUFFER_SIZE"))
      Cap = std::max<uint64_t>(strtoull(Env, nullptr, 0), 4096);
    if (Status S = allocateShared(Cap + spirv_abi::PrintfHeaderSize,
                                  Mod->PrintfBuffer))
      return S;
    Mod->PrintfCapacity = Cap;
    uint64_t Header[2] = {0, Cap};
    std::memcpy(Mod->PrintfBuffer, Header, sizeof Header);
    uint64_t Addr = reinterpret_cast<uintptr_t>(Mod->PrintfBuffer);
    std::memcpy(static_cast<char *>(Mod->Block) + spirv_abi::PrintfBufferOffset,
                &Addr, sizeof Addr);
  }
  if (Mod->Table.UsesHeap) {
    uint64_t Size = 8 << 20;
    if (const char *Env = getenv("HETGPU_MALLOC_HEAP_SIZE"))
      Size = std::max<uint64_t>(strtoull(Env, nullptr, 0), 4096);
    ze_device_mem_alloc_desc_t DD;
    if (Status S = zeStatus(A.zeMemAllocDevice(Ctx, &DD, Size, 256, Dev,
                                               &Mod->Heap),
                            "zeMemAllocDevice(heap)"))
      return S;
    uint64_t Words[2] = {reinterpret_cast<uintptr_t>(Mod->Heap), Size};
    std::memcpy(static_cast<char *>(Mod->Block) + spirv_abi::HeapBaseOffset,
                Words, sizeof Words);
  }
  ze_kernel_handle_t InitK;
  if (Status S = MakeKernel(spirv_abi::InitKernel, InitK))
    return S;
  A.zeKernelSetArgumentValue(InitK, 0, sizeof(void *), &Mod->Block);
  Status S = runHelper(InitK);
  A.zeKernelDestroy(InitK);
  if (S)
    return S;
  {
    std::lock_guard<std::mutex> G(M);
    Modules.insert(Mod.get());
  }
  Out = std::move(Mod);
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// ZEModule
//===----------------------------------------------------------------------===//

ZEModule::~ZEModule() {
  Dev.synchronize();
  {
    std::lock_guard<std::mutex> G(Dev.M);
    Dev.Modules.erase(this);
  }
  Kernels.clear();
  if (Block)
    Dev.A.zeMemFree(Dev.Ctx, Block);
  if (PrintfBuffer)
    Dev.A.zeMemFree(Dev.Ctx, PrintfBuffer);
  if (Heap)
    Dev.A.zeMemFree(Dev.Ctx, Heap);
  Dev.A.zeModuleDestroy(H);
}

Status ZEModule::getKernel(const std::string &Name, Kernel *&Out) {
  std::lock_guard<std::mutex> G(M);
  auto It = Kernels.find(Name);
  if (It != Kernels.end()) {
    Out = It->second.get();
    return Status::ok();
  }
  auto U = Table.Unsupported.find(Name);
  if (U != Table.Unsupported.end())
    return Status(ErrorCode::NoBinaryForGpu, "level-zero: kernel " + Name +
                                                 " cannot run on " +
                                                 Dev.Props.Name + ": " +
                                                 U->second);
  const container::KernelInfo *KI = Info.findKernel(Name);
  if (!KI)
    return Status(ErrorCode::InvalidValue,
                  "level-zero: no kernel " + Name + " in the module");
  ze_kernel_desc_t KD;
  KD.pKernelName = Name.c_str();
  ze_kernel_handle_t K;
  if (Status S = zeStatus(Dev.A.zeKernelCreate(H, &KD, &K),
                          "zeKernelCreate(" + Name + ")"))
    return S;
  auto ZK = std::make_unique<ZEKernel>(Dev.A, K, *KI, Block);
  Out = ZK.get();
  Kernels[Name] = std::move(ZK);
  return Status::ok();
}

Status ZEModule::getGlobal(const std::string &Name, void *&Addr,
                           size_t &Size) {
  auto It = Table.Globals.find(Name);
  if (It == Table.Globals.end())
    return Status(ErrorCode::InvalidSymbol,
                  "level-zero: no device variable " + Name + " in the module");
  Addr = static_cast<char *>(Block) + It->second.first;
  Size = It->second.second;
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Backend
//===----------------------------------------------------------------------===//

class LevelZeroBackend final : public Backend {
public:
  const char *name() const override { return "level-zero"; }
  Status discover(std::vector<std::unique_ptr<Device>> &Out) override {
    std::string Err;
    const API *A = loadAPI(Err);
    if (!A)
      return Status(ErrorCode::NotSupported, Err);
    if (Status S = zeStatus(A->zeInit(0), "zeInit"))
      return Status(ErrorCode::NotSupported, S.Message);
    uint32_t ND = 0;
    if (Status S = zeStatus(A->zeDriverGet(&ND, nullptr), "zeDriverGet"))
      return Status(ErrorCode::NotSupported, S.Message);
    if (ND == 0)
      return Status(ErrorCode::NotSupported,
                    "no Level Zero driver is installed");
    std::vector<ze_driver_handle_t> Drivers(ND);
    A->zeDriverGet(&ND, Drivers.data());
    size_t Before = Out.size();
    std::string Skipped;
    for (ze_driver_handle_t Drv : Drivers) {
      uint32_t NDev = 0;
      if (A->zeDeviceGet(Drv, &NDev, nullptr) != ZE_RESULT_SUCCESS || !NDev)
        continue;
      std::vector<ze_device_handle_t> Devs(NDev);
      A->zeDeviceGet(Drv, &NDev, Devs.data());
      ze_context_desc_t CD;
      for (ze_device_handle_t D : Devs) {
        ze_device_properties_t P;
        if (A->zeDeviceGetProperties(D, &P) != ZE_RESULT_SUCCESS ||
            P.type != ZE_DEVICE_TYPE_GPU)
          continue;
        ze_context_handle_t Ctx;
        if (Status S = zeStatus(A->zeContextCreate(Drv, &CD, &Ctx),
                                "zeContextCreate")) {
          Skipped += " " + S.Message + ";";
          continue;
        }
        auto Dev = std::make_unique<ZEDevice>(*A, Drv, D, Ctx);
        if (Status S = Dev->init()) {
          Skipped += " " + S.Message + ";";
          continue;
        }
        Out.push_back(std::move(Dev));
      }
    }
    if (Out.size() == Before)
      return Status(ErrorCode::NotSupported,
                    "no usable GPU" +
                        (Skipped.empty() ? std::string()
                                         : " (skipped:" + Skipped + ")"));
    return Status::ok();
  }
};

} // namespace

std::unique_ptr<Backend> createLevelZeroBackend() {
  return std::make_unique<LevelZeroBackend>();
}

} // namespace rt
} // namespace hetgpu
