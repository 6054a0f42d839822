//===- CPUBackend.cpp - The host CPU as a hetGPU device -------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs translations of the host lowering target (shared objects that
/// follow include/hetgpu/ABI/BlockABI.h) on the host: this file holds the
/// device's properties and memory and the backend. Device memory is host
/// memory, tracked so that invalid frees are detected, or memory of the
/// process-wide arena when the process is migratable. Modules are in
/// CPUModule.cpp, queues and events in CPUQueue.cpp, launches in
/// CPULaunch.cpp.
///
//===----------------------------------------------------------------------===//

#include "Backends/CPU/CPU.h"
#include "Backends/CPU/CPUDevice.h"

#include "Core/Log.h"
#include "Core/UnifiedMemory.h"

#include <algorithm>
#include <fstream>
#include <thread>
#include <unistd.h>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::cpu;

namespace {

std::string cpuModelName() {
  std::ifstream In("/proc/cpuinfo");
  std::string Line;
  while (std::getline(In, Line))
    if (Line.rfind("model name", 0) == 0) {
      size_t C = Line.find(':');
      if (C != std::string::npos) {
        std::string S = Line.substr(C + 1);
        S.erase(0, S.find_first_not_of(" \t"));
        return S;
      }
    }
#if defined(__x86_64__)
  return "x86-64";
#elif defined(__aarch64__)
  return "AArch64";
#else
  return "host";
#endif
}

unsigned workerCount() {
  if (const char *E = getenv("HETGPU_CPU_THREADS")) {
    int N = atoi(E);
    if (N > 0)
      return static_cast<unsigned>(std::min(N, 1024));
  }
  unsigned N = std::thread::hardware_concurrency();
  return N ? N : 1;
}

} // namespace

size_t cpu::workerStackBytes() {
  size_t Stack = size_t(64) << 20;
  if (const char *E = getenv("HETGPU_CPU_STACK_MB"))
    if (atoi(E) > 0)
      Stack = size_t(atoi(E)) << 20;
  return Stack;
}

CPUDevice::CPUDevice() {
  unsigned N = workerCount();
  Props.Name = "Host CPU (" + cpuModelName() + ", " + std::to_string(N) +
               (N == 1 ? " thread)" : " threads)");
  Props.Vendor = "host";
  Props.Kind = BackendKind::CPU;
  Props.Target = "host";
  Props.Arch = "native";
  long Pages = sysconf(_SC_PHYS_PAGES), PageSize = sysconf(_SC_PAGESIZE);
  Props.TotalMemory = Pages > 0 && PageSize > 0
                          ? uint64_t(Pages) * uint64_t(PageSize)
                          : (uint64_t(8) << 30);
  Props.MultiProcessorCount = N;
  Props.SharedMemPerBlock = 48 * 1024;
  Props.SharedMemPerBlockOptin = 227 * 1024;
  Props.SharedMemPerMultiprocessor = 228 * 1024;
  Props.Integrated = true;
  Props.ComputeMajor = 8;
  Props.ComputeMinor = 0;
  Workers = N;
}

Status CPUDevice::release(void *Ptr) {
  // Arena memory (a migratable process) may have been allocated by another
  // device whose allocations moved here (Core/UnifiedMemory.h).
  if (Arena::get().contains(Ptr))
    return Arena::get().release(reinterpret_cast<uint64_t>(Ptr));
  return untrack(Ptr, DeviceAllocs);
}

Status CPUDevice::allocateManaged(size_t Bytes, void *&Ptr) {
  if (useArena()) {
    // Chunks of their own: managed memory stays host memory when the
    // context migrates to a GPU (Core/UnifiedMemory.h).
    uint64_t A = 0;
    if (Status S =
            Arena::get().allocate(Bytes, 4096, Arena::get().managedTag(), A))
      return S;
    Ptr = reinterpret_cast<void *>(A);
    return Status::ok();
  }
  return allocate(Bytes, Ptr);
}

Status CPUDevice::memoryInfo(size_t &Free, size_t &Total) {
  Total = Props.TotalMemory;
  long Pages = sysconf(_SC_AVPHYS_PAGES), PageSize = sysconf(_SC_PAGESIZE);
  Free =
      Pages > 0 && PageSize > 0 ? size_t(Pages) * size_t(PageSize) : Total / 2;
  return Status::ok();
}

bool CPUDevice::useArena() {
  std::call_once(ArenaOnce, [this] {
    if (!arenaWanted())
      return;
    if (Status S = Arena::get().ensureMapped()) {
      log(LogLevel::Warn, "cpu: " + S.Message +
                              "; device memory is not movable to other "
                              "devices");
      return;
    }
    ArenaTag = Arena::get().newTag();
    InArena = true;
  });
  return InArena;
}

Status CPUDevice::track(size_t Bytes, void *&Ptr,
                        std::map<void *, size_t> &Table) {
  if (&Table == &DeviceAllocs && useArena()) {
    uint64_t A = 0;
    if (Status S = Arena::get().allocate(Bytes, 256, ArenaTag, A))
      return S;
    Ptr = reinterpret_cast<void *>(A);
    return Status::ok();
  }
  size_t Rounded = (std::max<size_t>(Bytes, 1) + 255) / 256 * 256;
  Ptr = aligned_alloc(256, Rounded);
  if (!Ptr)
    return Status(ErrorCode::OutOfMemory,
                  "cannot allocate " + std::to_string(Bytes) + " bytes");
  std::lock_guard<std::mutex> Lock(AllocM);
  Table[Ptr] = Bytes;
  return Status::ok();
}

Status CPUDevice::untrack(void *Ptr, std::map<void *, size_t> &Table) {
  {
    std::lock_guard<std::mutex> Lock(AllocM);
    if (!Table.erase(Ptr))
      return Status(ErrorCode::InvalidDevicePointer,
                    "pointer was not allocated by this device");
  }
  free(Ptr);
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// The backend
//===----------------------------------------------------------------------===//

namespace {

class CPUBackend : public Backend {
public:
  const char *name() const override { return "cpu"; }
  Status discover(std::vector<std::unique_ptr<Device>> &Out) override {
    Out.push_back(std::make_unique<CPUDevice>());
    return Status::ok();
  }
};

} // namespace

namespace hetgpu {
namespace rt {
std::unique_ptr<Backend> createCPUBackend() {
  return std::make_unique<CPUBackend>();
}
} // namespace rt
} // namespace hetgpu
