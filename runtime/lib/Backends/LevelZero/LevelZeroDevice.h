//===- LevelZeroDevice.h - The Level Zero backend's classes -----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The device, queue, event, module and kernel classes of the Level Zero
/// backend (private to runtime/lib/Backends/LevelZero): discovery in
/// LevelZeroBackend.cpp, device properties, memory, command lists and
/// events in LevelZeroDevice.cpp, queues and events in LevelZeroQueue.cpp,
/// modules and kernels in LevelZeroModule.cpp.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_LEVELZERO_LEVELZERODEVICE_H
#define HETGPU_RUNTIME_BACKENDS_LEVELZERO_LEVELZERODEVICE_H

#include "Backends/LevelZero/LevelZeroApi.h"
#include "Backends/SPIRV/SPIRVModule.h"
#include "Core/Device.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace hetgpu {
namespace rt {
namespace ze {

constexpr uint64_t Forever = UINT64_MAX;

/// A Status for a Level Zero result: the operation \p What failed with \p R.
Status zeStatus(ze_result_t R, const std::string &What);

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

/// A module built with zeModuleCreate; the module table, globals block,
/// printf buffer and heap are SPIRVModule's (shared USM, the heap device
/// USM).
class ZEModule final : public SPIRVModule {
public:
  ZEModule(ZEDevice &D, ze_module_handle_t H,
           const container::ModuleInfo &Info);
  ~ZEModule() override;

  ZEDevice &Dev;
  ze_module_handle_t H;

private:
  Status allocateMemory(Use U, size_t Bytes, void *&Ptr) override;
  void freeMemory(Use U, void *Ptr) override;
  Status copyIn(void *Dst, const void *Src, size_t Bytes) override;
  Status copyOut(void *Dst, const void *Src, size_t Bytes) override;
  Status runInfoKernel(void *Buf, uint64_t Cap) override;
  Status runInitKernel(void *Block) override;
  Status createKernel(const std::string &Name,
                      const container::KernelInfo &Info,
                      std::unique_ptr<Kernel> &Out) override;
  /// Creates the helper kernel \p Name, sets one pointer and, when \p Cap
  /// is given, a size argument, runs it and waits.
  Status runHelperKernel(const char *Name, void *Ptr, const uint64_t *Cap);
};

class ZEEvent final : public Event {
public:
  ZEEvent(const API &A, ze_event_handle_t E, uint64_t *Stamp, double NsPerTick)
      : A(A), E(E), Stamp(Stamp), NsPerTick(NsPerTick) {}
  ~ZEEvent() override { A.zeEventDestroy(E); }
  Status synchronize() override;
  Status query() override;
  Status elapsedSince(Event &Start, float &Ms) override;

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
  ~ZEDevice() override;

  Status init();
  const DeviceProperties &properties() const override { return Props; }

  Status allocate(size_t Bytes, void *&Ptr) override;
  Status allocateShared(size_t Bytes, void *&Ptr);
  Status allocateManaged(size_t Bytes, void *&Ptr) override;
  Status release(void *Ptr) override;
  Status allocateHost(size_t Bytes, void *&Ptr) override;
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
      if (Status S = Mod->clearFailure())
        return S;
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
  ~ZEQueue() override;
  Status memcpy(void *Dst, const void *Src, size_t Bytes,
                CopyKind Kind) override;
  Status memset(void *Dst, int Value, size_t Bytes) override;
  Status launch(Kernel &Kn, const LaunchParams &P) override;
  Status hostFunc(std::function<void()> Fn) override;
  Status record(Event &Ev) override;
  Status wait(Event &Ev) override;
  Status synchronize() override;
  Status query() override;

  ZEDevice &D;
  const API &A;
  ze_command_list_handle_t L;
};

} // namespace ze
} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_LEVELZERO_LEVELZERODEVICE_H
