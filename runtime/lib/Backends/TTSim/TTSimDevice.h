//===- TTSimDevice.h - The tt-sim backend's classes -------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The device, queue, event, module and kernel classes of the tt-sim
/// backend (private to runtime/lib/Backends/TTSim) and its device DRAM:
/// discovery in TTSimBackend.cpp, DRAM in TTSimDram.cpp, modules in
/// TTSimModule.cpp, launches in TTSimLaunch.cpp, queues and events in
/// TTSimQueue.cpp; the cores are TTSimCores.h, the images TTSimElf.h.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_TTSIM_TTSIMDEVICE_H
#define HETGPU_RUNTIME_BACKENDS_TTSIM_TTSIMDEVICE_H

#include "Backends/TTSim/TTSimCores.h"
#include "Backends/TTSim/TTSimElf.h"
#include "Core/Device.h"
#include "Core/UnifiedMemory.h"

#include "hetgpu/ABI/RVManycore.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace hetgpu {
namespace rt {
namespace ttsim {

using Clock = std::chrono::steady_clock;

/// "0x..." for messages.
std::string hex(uint64_t V);

//===----------------------------------------------------------------------===//
// Device DRAM: the process-wide device memory arena (Core/UnifiedMemory.h), a
// memfd at RVMC_DRAM_BASE shared with the other devices' memory, so device
// pointers keep their meaning when a context migrates to or from tt-sim.
// HETGPU_TTSIM_DRAM_MB is this device's quota in it.
//===----------------------------------------------------------------------===//

class Dram {
public:
  /// Remembers the quota; the arena is mapped on first use, so a process
  /// that only discovers tt-sim (hetgpu-info, a CPU run) does not take the
  /// fixed address range.
  void configure(uint64_t Bytes) { Size = Bytes; }

  Status ensureMapped();

  int fd() const { return Arena::get().fd(); }
  uint64_t size() const { return Size; }

  /// \p ChunkTag: 0 for this device's chunks (managed memory passes the
  /// arena's managed tag).
  Status allocate(uint64_t Bytes, uint64_t &Addr, uint64_t Align = 256,
                  unsigned ChunkTag = 0);

  /// Also frees arena allocations of other devices that migrated here.
  Status release(uint64_t Addr);

  /// Bytes from the DRAM base to the end of the highest allocation, rounded
  /// to 2 MiB: what a core maps (mapping all of DRAM costs qemu time).
  uint64_t highWater();

  uint64_t inUse();

  bool contains(const void *P, uint64_t Bytes) const;

private:
  uint64_t Size = 0;
  uint64_t InUse = 0;
  unsigned Tag = 0;
  std::once_flag MapOnce;
  Status MapStatus;
  std::mutex M;
  std::map<uint64_t, uint64_t> Used; // address -> bytes (this device's)
};

/// A DRAM allocation released at scope exit.
struct DramBlock {
  Dram &D;
  uint64_t Addr = 0;
  explicit DramBlock(Dram &D) : D(D) {}
  ~DramBlock() {
    if (Addr)
      D.release(Addr);
  }
  template <typename T> T *as() const { return reinterpret_cast<T *>(Addr); }
};

struct Config {
  unsigned Cores = 8;
  uint64_t DramBytes = 4096ull << 20;
  std::string Qemu;
  unsigned Sched = RVMC_SCHED_DYNAMIC;
  uint64_t PrintfBytes = 1024ull << 10;
  uint64_t HeapBytes = 8ull << 20;
  uint64_t TimeoutS = 600;
  bool KeepImages = false;
  bool Persistent = true; ///< keep a module's cores across launches
};

/// Where a launch's shared memory and the block executor's per-thread state
/// go (TTSimDevice::checkLaunch).
struct LaunchLayout {
  uint64_t Static = 0;      ///< static shared bytes
  uint64_t DynOff = 0;      ///< SRAM offset of dynamic shared memory
  uint64_t Spill = 0;       ///< thread states and frames of one block, bytes
  bool SpillInDram = false; ///< Spill does not fit in SRAM after the shared
};

/// The cores of a module, and the lock a launch holds while it uses them.
struct CorePool {
  CorePool(std::string Qemu, int DramFd, int ImageFd)
      : Group(std::move(Qemu), DramFd, ImageFd) {}
  std::mutex M;
  ttsim::CoreGroup Group;
};

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

/// TTSimKernel::Frame of a kernel that the block executor does not run.
constexpr uint64_t NoExecutor = ~uint64_t(0);

class TTSimKernel : public Kernel {
public:
  TTSimKernel(container::KernelInfo Info, uint64_t BlockFn,
              uint64_t ImageShared, uint64_t Frame)
      : Info(std::move(Info)), BlockFn(BlockFn), ImageShared(ImageShared),
        Frame(Frame) {}
  uint64_t ImageBase = 0; ///< DRAM address of the module image
  int ImageFd = -1;       ///< memfd of the image each core boots from
  ttsim::ElfImage::TlsInfo Tls;
  CorePool *Pool = nullptr; ///< the module's persistent cores
  const container::KernelInfo &info() const override { return Info; }
  container::KernelInfo Info;
  uint64_t BlockFn;     ///< DRAM address of __hetgpu_block_<name>
  uint64_t ImageShared; ///< static shared bytes the image reports, or 0
  uint64_t Frame;       ///< executor frame bytes per thread, or NoExecutor
};

class TTSimModule : public Module {
public:
  TTSimModule(Dram &D) : D(D) {}
  ~TTSimModule() override;

  Status getKernel(const std::string &Name, Kernel *&Out) override;

  Status getGlobal(const std::string &Name, void *&Addr, size_t &Size) override;

  Dram &D;
  std::vector<char> Bytes;
  ttsim::ElfImage Image;
  uint64_t Base = 0;
  int ImageFd = -1;
  std::vector<std::unique_ptr<TTSimKernel>> Kernels;
  std::unique_ptr<CorePool> Pool;
};

//===----------------------------------------------------------------------===//
// Events and queues
//===----------------------------------------------------------------------===//

/// Each record is a ticket; a wait, a query or a synchronize concerns the
/// latest record made before it (CUDA's semantics), so a record queued
/// after a wait does not hold that wait up.
class TTSimEvent : public Event {
public:
  /// A new record; its ticket.
  uint64_t markPending() {
    std::lock_guard<std::mutex> G(M);
    Outstanding.insert(++Issued);
    return Issued;
  }
  void complete(uint64_t Ticket) {
    std::lock_guard<std::mutex> G(M);
    Outstanding.erase(Ticket);
    if (Ticket >= Latest) {
      Latest = Ticket;
      Time = Clock::now();
    }
    Recorded = true;
    CV.notify_all();
  }
  /// The ticket of the latest record (0: none).
  uint64_t latest() {
    std::lock_guard<std::mutex> G(M);
    return Issued;
  }
  /// Blocks until record \p Ticket is complete.
  void waitFor(uint64_t Ticket) {
    std::unique_lock<std::mutex> L(M);
    CV.wait(L, [&] { return !Outstanding.count(Ticket); });
  }
  Status synchronize() override;
  Status query() override;
  Status elapsedSince(Event &StartE, float &Ms) override;

private:
  bool pendingLocked() const { return Outstanding.count(Issued) != 0; }
  std::mutex M;
  std::condition_variable CV;
  std::set<uint64_t> Outstanding; ///< tickets not complete yet
  uint64_t Issued = 0, Latest = 0;
  bool Recorded = false;
  Clock::time_point Time;
};

class TTSimDevice;

class TTSimQueue : public Queue {
public:
  explicit TTSimQueue(TTSimDevice &Dev) : Dev(Dev) {
    Worker = std::thread([this] { run(); });
  }
  ~TTSimQueue() override;
  void stop();

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
  Status enqueue(std::function<Status()> Fn);
  void run();

  TTSimDevice &Dev;
  std::mutex M;
  std::condition_variable CV, Done;
  std::deque<std::function<Status()>> Work;
  bool Busy = false, Stop = false;
  Status Error;
  std::thread Worker;
};

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

class TTSimDevice : public Device {
public:
  TTSimDevice(Config C) : Cfg(std::move(C)) {}

  Status init();

  const DeviceProperties &properties() const override { return Props; }

  Status allocate(size_t Bytes, void *&Ptr) override;
  Status release(void *Ptr) override;
  Status allocateHost(size_t Bytes, void *&Ptr) override;
  Status releaseHost(void *Ptr) override;
  /// Device DRAM is mapped at the same address in the host: managed memory
  /// is plain device memory.
  Status allocateManaged(size_t Bytes, void *&Ptr) override;
  bool sharesArena() override { return Mem.ensureMapped().isOk(); }
  Status memoryInfo(size_t &Free, size_t &Total) override;

  Status loadModule(const std::vector<char> &Binary,
                    const container::ModuleInfo &Info,
                    std::unique_ptr<Module> &Out) override;

  Status createQueue(std::unique_ptr<Queue> &Out) override;
  Status createEvent(std::unique_ptr<Event> &Out) override;
  Status synchronize() override;
  /// A kernel fault (assert, trap, crash) is the device's: every queue
  /// reports it until reset(), as on a GPU.
  void setFault(const Status &S) {
    std::lock_guard<std::mutex> G(FaultM);
    if (Fault.isOk())
      Fault = S;
  }
  Status fault() {
    std::lock_guard<std::mutex> G(FaultM);
    return Fault;
  }
  Status reset() override;
  void removeQueue(TTSimQueue *Q) {
    std::lock_guard<std::mutex> G(M);
    Queues.erase(Q);
  }

  /// Validates a launch's configuration and places its shared memory and
  /// per-thread state (synchronous errors, as CUDA reports them at launch
  /// time).
  Status checkLaunch(const TTSimKernel &K, const LaunchParams &P,
                     LaunchLayout &Out) const;
  /// Runs one launch to completion (called on a queue's worker thread).
  Status runLaunch(TTSimKernel &K, const LaunchParams &P,
                   const std::vector<char> &ArgBytes);

  Dram &dram() { return Mem; }

private:
  Config Cfg;
  Dram Mem;
  DeviceProperties Props;
  std::mutex M;
  std::set<TTSimQueue *> Queues;
  std::mutex FaultM;
  Status Fault;
};

} // namespace ttsim
} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_TTSIM_TTSIMDEVICE_H
