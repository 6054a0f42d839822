//===- HIPDevice.h - The HIP backend's classes ------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The device, queue, event, module and kernel classes of the HIP backend
/// (private to runtime/lib/Backends/HIP): discovery and device memory in
/// HIPBackend.cpp, code objects and their printf buffers in HIPModule.cpp,
/// streams and events in HIPQueue.cpp.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_HIP_HIPDEVICE_H
#define HETGPU_RUNTIME_BACKENDS_HIP_HIPDEVICE_H

#include "Backends/HIP/HipRuntime.h"
#include "Core/Device.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace hetgpu {
namespace rt {
namespace hip {

/// The ErrorCode of a HIP result.
ErrorCode mapResult(hipError_t R);

/// Status of HIP call \p What that returned \p E.
Status check(const Runtime &R, hipError_t E, const std::string &What);

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

  Status allocate(size_t Bytes, void *&Ptr) override;
  Status release(void *Ptr) override;
  Status allocateHost(size_t Bytes, void *&Ptr) override;
  Status releaseHost(void *Ptr) override;
  Status memoryInfo(size_t &Free, size_t &Total) override;
  Status allocateManaged(size_t Bytes, void *&Ptr) override;

  Status loadModule(const std::vector<char> &Binary,
                    const container::ModuleInfo &Info,
                    std::unique_ptr<Module> &Out) override;

  Status createQueue(std::unique_ptr<Queue> &Out) override;
  Status createEvent(std::unique_ptr<Event> &Out) override;
  Status synchronize() override;

  /// Drains every module's printf buffer (after a synchronisation).
  Status drainAll();
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

class HIPEvent final : public Event {
public:
  HIPEvent(HIPDevice &Dev, hipEvent_t E) : Ev(E), Dev(Dev) {}
  ~HIPEvent() override;
  Status synchronize() override;
  Status query() override;
  Status elapsedSince(Event &Start, float &Ms) override;
  hipEvent_t Ev;

private:
  HIPDevice &Dev;
};

class HIPQueue final : public Queue {
public:
  HIPQueue(HIPDevice &Dev, hipStream_t S) : Dev(Dev), R(Dev.R), Stream(S) {}
  ~HIPQueue() override;

  Status memcpy(void *Dst, const void *Src, size_t Bytes,
                CopyKind Kind) override;
  Status memset(void *Dst, int Value, size_t Bytes) override;

  Status launch(Kernel &K, const LaunchParams &P) override;

  Status hostFunc(std::function<void()> Fn) override;
  Status record(Event &E) override;
  Status wait(Event &E) override;
  Status synchronize() override;
  Status query() override;

private:
  HIPDevice &Dev;
  const Runtime &R;
  hipStream_t Stream;
};

} // namespace hip
} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_HIP_HIPDEVICE_H
