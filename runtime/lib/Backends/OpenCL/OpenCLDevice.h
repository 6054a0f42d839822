//===- OpenCLDevice.h - The OpenCL backend's classes ------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The device, queue, event, module and kernel classes of the OpenCL
/// backend (private to runtime/lib/Backends/OpenCL): discovery in
/// OpenCLBackend.cpp, device properties and memory in OpenCLDevice.cpp,
/// queues and events in OpenCLQueue.cpp, modules and kernels in
/// OpenCLModule.cpp.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_OPENCL_OPENCLDEVICE_H
#define HETGPU_RUNTIME_BACKENDS_OPENCL_OPENCLDEVICE_H

#include "Backends/OpenCL/OpenCLApi.h"
#include "Backends/SPIRV/SPIRVModule.h"
#include "Core/Device.h"

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace hetgpu {
namespace rt {
namespace cl {

/// A Status for an OpenCL result: the operation \p What failed with \p E.
Status clStatus(cl_int E, const std::string &What);

/// A string device property (trailing NULs and blanks dropped), or "".
std::string deviceString(const API &A, cl_device_id D, cl_device_info I);

template <typename T>
T deviceValue(const API &A, cl_device_id D, cl_device_info I, T Default) {
  T V{};
  if (A.clGetDeviceInfo(D, I, sizeof(T), &V, nullptr) != CL_SUCCESS)
    return Default;
  return V;
}

class CLDevice;

class CLKernel final : public Kernel {
public:
  CLKernel(const API &A, cl_kernel K, const container::KernelInfo &Info,
           void *Globals, bool WarpLoop, uint64_t StaticShared,
           uint64_t WarpBytes)
      : A(A), K(K), Info(Info), Globals(Globals), WarpLoop(WarpLoop),
        StaticShared(StaticShared), WarpBytes(WarpBytes) {}
  ~CLKernel() override { A.clReleaseKernel(K); }
  const container::KernelInfo &info() const override { return Info; }

  const API &A;
  cl_kernel K;
  container::KernelInfo Info;
  void *Globals;
  /// One work-item per warp (ABI/SPIRVKernel.h): block size arguments,
  /// warp states and static shared memory in the dynamic buffer.
  bool WarpLoop;
  uint64_t StaticShared, WarpBytes;
  /// clSetKernelArg + enqueue must not interleave between threads.
  std::mutex M;
};

/// A program built from hetGPU SPIR-V; the module table, globals block,
/// printf buffer and heap are SPIRVModule's (memory is SVM).
class CLModule final : public SPIRVModule {
public:
  CLModule(CLDevice &D, cl_program P, const container::ModuleInfo &Info);
  ~CLModule() override;

  CLDevice &Dev;
  cl_program Program;

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
  /// Runs the helper kernel \p Name with one pointer and, when \p Cap is
  /// given, a size argument.
  Status runHelperKernel(const char *Name, void *Ptr, const uint64_t *Cap);
};

class CLEvent final : public Event {
public:
  explicit CLEvent(const API &A) : A(A) {}
  ~CLEvent() override {
    if (E)
      A.clReleaseEvent(E);
  }
  Status synchronize() override;
  Status query() override;
  Status elapsedSince(Event &Start, float &Ms) override;
  /// Replaces the recorded marker.
  void set(cl_event New) {
    std::lock_guard<std::mutex> L(M);
    if (E)
      A.clReleaseEvent(E);
    E = New;
  }
  cl_event get() {
    std::lock_guard<std::mutex> L(M);
    return E;
  }

private:
  const API &A;
  cl_event E = nullptr;
  std::mutex M;
};

class CLQueue;

class CLDevice final : public Device {
public:
  CLDevice(const API &A, cl_platform_id P, cl_device_id D, cl_context Ctx,
           bool FineGrain, bool UseIL)
      : A(A), Platform(P), Dev(D), Ctx(Ctx), FineGrain(FineGrain),
        UseIL(UseIL) {}
  ~CLDevice() override {
    if (Internal)
      A.clReleaseCommandQueue(Internal);
    A.clReleaseContext(Ctx);
  }

  const DeviceProperties &properties() const override { return Props; }

  Status allocate(size_t Bytes, void *&Ptr) override;
  Status release(void *Ptr) override;
  bool sharesArena() override { return useArena(); }
  /// Whether device memory comes from the arena: the process is migratable
  /// and the device reports fine-grain system SVM or passes probeArena().
  bool useArena();
  Status probeArena();
  Status allocateHost(size_t Bytes, void *&Ptr) override;
  Status releaseHost(void *Ptr) override {
    free(Ptr);
    return Status::ok();
  }
  Status allocateManaged(size_t Bytes, void *&Ptr) override;
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
  Status createEvent(std::unique_ptr<Event> &Out) override {
    Out = std::make_unique<CLEvent>(A);
    return Status::ok();
  }
  Status synchronize() override;
  Status reset() override;

  /// A device-side assert/trap recorded in any module's globals block.
  Status deviceFailure();
  /// Prints the device printf records of every module, then empties the
  /// buffers. Called once the device's work is done.
  void drainPrintf();
  /// Host <-> SVM copies outside the user's queues.
  Status copySVM(void *Dst, const void *Src, size_t Bytes);

  Status init();
  Status internalQueue(cl_command_queue &Q);
  /// Runs \p K with one work-item on the internal queue and waits.
  Status runHelper(cl_kernel K, const std::string &What);

  const API &A;
  cl_platform_id Platform;
  cl_device_id Dev;
  cl_context Ctx;
  bool FineGrain;
  bool UseIL;
  DeviceProperties Props;
  std::mutex M;
  std::map<void *, size_t> Allocations;
  size_t Used = 0;
  std::set<CLQueue *> Queues;
  std::set<CLModule *> Modules;
  std::mutex InternalM; ///< guards Internal (not M: used under M)
  cl_command_queue Internal = nullptr;
  std::once_flag ArenaOnce;
  bool InArena = false;
  unsigned ArenaTag = 0;
};

class CLQueue final : public Queue {
public:
  CLQueue(CLDevice &D, cl_command_queue Q) : D(D), A(D.A), Q(Q) {}
  ~CLQueue() override;

  Status memcpy(void *Dst, const void *Src, size_t Bytes,
                CopyKind Kind) override;
  Status memset(void *Dst, int Value, size_t Bytes) override;
  Status launch(Kernel &Kn, const LaunchParams &P) override;
  Status hostFunc(std::function<void()> Fn) override;
  Status record(Event &E) override;
  Status wait(Event &E) override;
  Status synchronize() override;
  Status query() override;

  /// The last command enqueued (owned), for query().
  void setLast(cl_event Ev) {
    std::lock_guard<std::mutex> L(LastM);
    if (Last)
      A.clReleaseEvent(Last);
    Last = Ev;
  }

  /// The scratch area of warp-loop kernels launched here whose group
  /// records do not fit in local memory (ABI/SPIRVKernel.h), at least
  /// \p Bytes; its flags are cleared by a command on this queue.
  Status scratch(uint64_t Bytes, uint64_t Slots, void *&Out);

  CLDevice &D;
  const API &A;
  cl_command_queue Q;
  std::mutex LastM;
  cl_event Last = nullptr;
  std::mutex ScratchM;
  void *Scratch = nullptr;
  uint64_t ScratchBytes = 0;
};

} // namespace cl
} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_OPENCL_OPENCLDEVICE_H
