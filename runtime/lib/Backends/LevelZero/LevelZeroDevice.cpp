//===- LevelZeroDevice.cpp - Level Zero device properties and memory ------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A ZEDevice: its properties, its memory (device, shared and host USM),
/// the immediate command lists of queues and of the helper kernels, event
/// pools with timestamp slots, synchronisation and the device-side failure
/// status.
///
//===----------------------------------------------------------------------===//

#include "Backends/LevelZero/LevelZeroDevice.h"
#include "Core/Log.h"

#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::ze;

//===----------------------------------------------------------------------===//
// ZEDevice
//===----------------------------------------------------------------------===//

Status ZEDevice::init() {
  ze_device_properties_t P;
  if (Status S =
          zeStatus(A.zeDeviceGetProperties(Dev, &P), "zeDeviceGetProperties"))
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
  if (Status S =
          zeStatus(A.zeKernelSetGroupSize(K, 1, 1, 1), "zeKernelSetGroupSize"))
    return S;
  ze_group_count_t GC;
  if (Status S = zeStatus(
          A.zeCommandListAppendLaunchKernel(L, K, &GC, nullptr, 0, nullptr),
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
    if (Status S = zeStatus(
            A.zeMemAllocShared(Ctx, &DD, &HD, 64 * 8, 64, Dev, &Stamps),
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
  if (Status S =
          zeStatus(A.zeEventCreate(Pools.back(), &ED, &E), "zeEventCreate"))
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
  for (ZEModule *Mod : Mods)
    Mod->drainPrintf();
}

Status ZEDevice::deviceFailure() {
  std::lock_guard<std::mutex> G(M);
  for (ZEModule *Mod : Modules)
    if (Status S = Mod->failure())
      return S;
  return Status::ok();
}

ZEDevice::~ZEDevice() {
  if (Helper)
    A.zeCommandListDestroy(Helper);
  for (ze_event_pool_handle_t P : Pools)
    A.zeEventPoolDestroy(P);
  if (StampMem)
    A.zeMemFree(Ctx, StampMem);
  A.zeContextDestroy(Ctx);
}

Status ZEDevice::allocate(size_t Bytes, void *&Ptr) {
  ze_device_mem_alloc_desc_t DD;
  if (Status S =
          zeStatus(A.zeMemAllocDevice(Ctx, &DD, std::max<size_t>(Bytes, 1), 256,
                                      Dev, &Ptr),
                   "zeMemAllocDevice(" + std::to_string(Bytes) + ")"))
    return S;
  std::lock_guard<std::mutex> L(M);
  Allocations[Ptr] = Bytes;
  Used += Bytes;
  return Status::ok();
}

Status ZEDevice::allocateShared(size_t Bytes, void *&Ptr) {
  ze_device_mem_alloc_desc_t DD;
  ze_host_mem_alloc_desc_t HD;
  return zeStatus(A.zeMemAllocShared(Ctx, &DD, &HD, std::max<size_t>(Bytes, 1),
                                     256, Dev, &Ptr),
                  "zeMemAllocShared(" + std::to_string(Bytes) + ")");
}

Status ZEDevice::allocateManaged(size_t Bytes, void *&Ptr) {
  if (Status S = allocateShared(Bytes, Ptr))
    return S;
  std::lock_guard<std::mutex> L(M);
  Allocations[Ptr] = Bytes;
  Used += Bytes;
  return Status::ok();
}

Status ZEDevice::release(void *Ptr) {
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

Status ZEDevice::allocateHost(size_t Bytes, void *&Ptr) {
  ze_host_mem_alloc_desc_t HD;
  return zeStatus(
      A.zeMemAllocHost(Ctx, &HD, std::max<size_t>(Bytes, 1), 64, &Ptr),
      "zeMemAllocHost");
}
