//===- TTSimBackend.cpp - tt-sim: RISC-V many-core cores under qemu-user --===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The tt-sim device. Device DRAM is a memfd mapped at RVMC_DRAM_BASE in this
/// process and, by each core's boot code, at the same address in every core
/// process, so device pointers are equal and host-visible everywhere. A
/// module is the rvmc target's static-PIE image: loadModule relocates a copy
/// into DRAM (code, data, `__device__` variables) and writes the original
/// to a file that each core process runs. A launch writes a descriptor
/// (ABI/RVManycore.h) into DRAM and hands it to the
/// module's cores (qemu-riscv64 processes started by the module's first
/// launch and kept, TTSimCores.h), waits for all of them and then reports
/// errors and prints the printf records. Queues are host worker threads.
///
//===----------------------------------------------------------------------===//

#include "TTSim.h"
#include "TTSimCores.h"
#include "TTSimElf.h"

#include "Core/Printf.h"
#include "Core/UnifiedMemory.h"

#include "hetgpu/ABI/RVManycore.h"
#include "hetgpu/ABI/RVManycorePrintf.h"
#include "hetgpu/ABI/BlockExecutor.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <set>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace hetgpu {
namespace rt {
namespace {

using Clock = std::chrono::steady_clock;

uint64_t envNumber(const char *Name, uint64_t Default) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return Default;
  char *End = nullptr;
  unsigned long long N = std::strtoull(V, &End, 0);
  return (End && *End == 0) ? N : Default;
}

std::string findInPath(const std::string &Prog) {
  if (Prog.find('/') != std::string::npos)
    return access(Prog.c_str(), X_OK) == 0 ? Prog : "";
  const char *Path = std::getenv("PATH");
  std::string P = Path ? Path : "/usr/bin:/bin";
  size_t Start = 0;
  while (Start <= P.size()) {
    size_t End = P.find(':', Start);
    if (End == std::string::npos)
      End = P.size();
    std::string Dir = P.substr(Start, End - Start);
    if (Dir.empty())
      Dir = ".";
    std::string Full = Dir + "/" + Prog;
    if (access(Full.c_str(), X_OK) == 0)
      return Full;
    Start = End + 1;
  }
  return "";
}

std::string hex(uint64_t V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "0x%llx", (unsigned long long)V);
  return Buf;
}

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

  Status ensureMapped() {
    std::call_once(MapOnce, [this] {
      MapStatus = Arena::get().ensureMapped(/*RequireFixedBase=*/true);
      if (MapStatus)
        MapStatus = Status(ErrorCode::DriverFailure,
                           "tt-sim: cannot map device DRAM: " +
                               MapStatus.Message);
      else
        Tag = Arena::get().newTag();
    });
    return MapStatus;
  }

  int fd() const { return Arena::get().fd(); }
  uint64_t size() const { return Size; }

  /// \p ChunkTag: 0 for this device's chunks (managed memory passes the
  /// arena's managed tag).
  Status allocate(uint64_t Bytes, uint64_t &Addr, uint64_t Align = 256,
                  unsigned ChunkTag = 0) {
    if (Status S = ensureMapped())
      return S;
    Bytes = (std::max<uint64_t>(Bytes, 1) + 255) & ~uint64_t(255);
    {
      std::lock_guard<std::mutex> G(M);
      if (InUse + Bytes > Size)
        return Status(ErrorCode::OutOfMemory,
                      "tt-sim: out of device DRAM allocating " +
                          std::to_string(Bytes) +
                          " bytes (HETGPU_TTSIM_DRAM_MB)");
    }
    if (Status S = Arena::get().allocate(Bytes, Align,
                                         ChunkTag ? ChunkTag : Tag, Addr))
      return S;
    std::lock_guard<std::mutex> G(M);
    Used[Addr] = Bytes;
    InUse += Bytes;
    return Status::ok();
  }

  /// Also frees arena allocations of other devices that migrated here.
  Status release(uint64_t Addr) {
    {
      std::lock_guard<std::mutex> G(M);
      if (auto It = Used.find(Addr); It != Used.end()) {
        InUse -= It->second;
        Used.erase(It);
      }
    }
    if (!Arena::get().contains(reinterpret_cast<void *>(Addr)))
      return Status(ErrorCode::InvalidDevicePointer,
                    "tt-sim: " + hex(Addr) + " is not a device allocation");
    return Arena::get().release(Addr);
  }

  /// Bytes from the DRAM base to the end of the highest allocation, rounded
  /// to 2 MiB: what a core maps (mapping all of DRAM costs qemu time).
  uint64_t highWater() {
    uint64_t End = Arena::get().highWater();
    End = (End + (2u << 20) - 1) & ~uint64_t((2u << 20) - 1);
    return std::max<uint64_t>(std::min(End, Arena::get().size()),
                              std::min<uint64_t>(2u << 20, Arena::get().size()));
  }

  uint64_t inUse() {
    std::lock_guard<std::mutex> G(M);
    return InUse;
  }

  bool contains(const void *P, uint64_t Bytes) const {
    uint64_t A = reinterpret_cast<uint64_t>(P);
    uint64_t N = Arena::get().size();
    return A >= RVMC_DRAM_BASE && A - RVMC_DRAM_BASE <= N &&
           Bytes <= N - (A - RVMC_DRAM_BASE);
  }

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
  uint64_t Static = 0; ///< static shared bytes
  uint64_t DynOff = 0; ///< SRAM offset of dynamic shared memory
  uint64_t Spill = 0;  ///< thread states and frames of one block, bytes
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
  ~TTSimModule() override {
    Pool.reset(); // the cores end before their image goes
    if (Base)
      D.release(Base);
    if (ImageFd >= 0)
      close(ImageFd);
  }

  Status getKernel(const std::string &Name, Kernel *&Out) override {
    for (auto &K : Kernels)
      if (K->Info.Name == Name) {
        Out = K.get();
        return Status::ok();
      }
    return Status(ErrorCode::InvalidValue,
                  "tt-sim: no kernel '" + Name + "' in the module");
  }

  Status getGlobal(const std::string &Name, void *&Addr,
                   size_t &Size) override {
    const ttsim::ElfSymbol *S = Image.symbol(Name);
    if (!S || S->IsFunction)
      return Status(ErrorCode::InvalidSymbol,
                    "tt-sim: no device variable '" + Name + "' in the module");
    Addr = reinterpret_cast<void *>(Base + S->Value);
    Size = S->Size;
    return Status::ok();
  }

  Dram &D;
  std::vector<char> Bytes;
  ttsim::ElfImage Image;
  uint64_t Base = 0;
  int ImageFd = -1;
  std::vector<std::unique_ptr<TTSimKernel>> Kernels;
  std::unique_ptr<CorePool> Pool;
};

//===----------------------------------------------------------------------===//
// printf records -> text
//===----------------------------------------------------------------------===//

/// Formats one record with the runtime's printf formatter (the one every
/// in-process backend uses), after pointing each %s slot of a copy of the
/// argument buffer at the string copied into the record.
std::string formatRecord(const char *Rec) {
  rvmc_printf_rec H;
  std::memcpy(&H, Rec, sizeof(H));
  const char *Fmt = Rec + sizeof(H);
  const char *Args = Fmt + ((H.fmt_len + 1 + 7) & ~7u);
  const char *Strs = Args + ((H.args_len + 7) & ~7u);
  std::vector<char> Buf(Args, Args + H.args_len);
  Buf.resize(H.args_len + 8);
  uint32_t Off = 0;
  rvmc_fmt_piece P;
  for (uint32_t Pos = 0; rvmc_fmt_next(Fmt, Pos, &P); Pos += P.len) {
    for (uint32_t S = 0; S < P.stars; ++S)
      Off = rvmc_fmt_align(Off, 4) + 4;
    if (!P.size)
      continue;
    Off = rvmc_fmt_align(Off, P.size);
    if (P.kind == RVMC_FMT_STRING && Off + 8 <= H.args_len) {
      uint64_t S;
      std::memcpy(&S, Args + Off, 8);
      const char *Str = (S == ~0ull || S >= H.str_len) ? nullptr : Strs + S;
      std::memcpy(Buf.data() + Off, &Str, 8);
    }
    Off += P.size;
  }
  return formatDevicePrintf(Fmt, Buf.data());
}

//===----------------------------------------------------------------------===//
// Events and queues
//===----------------------------------------------------------------------===//

class TTSimEvent : public Event {
public:
  void markPending() {
    std::lock_guard<std::mutex> G(M);
    ++Pending;
  }
  void complete() {
    std::lock_guard<std::mutex> G(M);
    if (Pending)
      --Pending;
    Time = Clock::now();
    Recorded = true;
    CV.notify_all();
  }
  Status synchronize() override {
    std::unique_lock<std::mutex> L(M);
    CV.wait(L, [&] { return Pending == 0; });
    return Status::ok();
  }
  Status query() override {
    std::lock_guard<std::mutex> G(M);
    return Pending ? Status(ErrorCode::NotReady, "tt-sim: event pending")
                   : Status::ok();
  }
  Status elapsedSince(Event &StartE, float &Ms) override {
    auto &S = static_cast<TTSimEvent &>(StartE);
    Clock::time_point T0, T1;
    {
      std::lock_guard<std::mutex> G(S.M);
      if (!S.Recorded || S.Pending)
        return Status(S.Pending ? ErrorCode::NotReady : ErrorCode::InvalidValue,
                      "tt-sim: start event not complete");
      T0 = S.Time;
    }
    {
      std::lock_guard<std::mutex> G(M);
      if (!Recorded || Pending)
        return Status(Pending ? ErrorCode::NotReady : ErrorCode::InvalidValue,
                      "tt-sim: end event not complete");
      T1 = Time;
    }
    Ms = std::chrono::duration<float, std::milli>(T1 - T0).count();
    return Status::ok();
  }

private:
  std::mutex M;
  std::condition_variable CV;
  unsigned Pending = 0;
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
  void stop() {
    {
      std::lock_guard<std::mutex> G(M);
      Stop = true;
      CV.notify_all();
    }
    Worker.join();
  }

  Status memcpy(void *Dst, const void *Src, size_t Bytes,
                CopyKind Kind) override;
  Status memset(void *Dst, int Value, size_t Bytes) override;
  Status launch(Kernel &K, const LaunchParams &P) override;
  Status hostFunc(std::function<void()> Fn) override {
    return enqueue([Fn] {
      Fn();
      return Status::ok();
    });
  }
  Status record(Event &E) override {
    auto &TE = static_cast<TTSimEvent &>(E);
    TE.markPending();
    return enqueue([&TE] {
      TE.complete();
      return Status::ok();
    });
  }
  Status wait(Event &E) override {
    return enqueue([&E] { return E.synchronize(); });
  }
  Status synchronize() override;
  Status query() override;

private:
  Status enqueue(std::function<Status()> Fn) {
    std::lock_guard<std::mutex> G(M);
    Work.push_back(std::move(Fn));
    CV.notify_all();
    return Status::ok();
  }
  void run() {
    std::unique_lock<std::mutex> L(M);
    for (;;) {
      CV.wait(L, [&] { return Stop || !Work.empty(); });
      if (Work.empty() && Stop)
        return;
      auto Fn = std::move(Work.front());
      Work.pop_front();
      Busy = true;
      L.unlock();
      Status S = Fn();
      L.lock();
      Busy = false;
      if (S && !Error)
        Error = std::move(S);
      if (Work.empty())
        Done.notify_all();
    }
  }

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

  Status init() {
    Mem.configure(Cfg.DramBytes);
    Props.Name = "tt-sim RISC-V many-core (" + std::to_string(Cfg.Cores) +
                 " rv64imafd cores, qemu-riscv64)";
    Props.Vendor = "hetGPU";
    Props.Kind = BackendKind::TTSim;
    Props.Target = "rvmc";
    Props.Arch = "rv64imafd";
    Props.TotalMemory = Cfg.DramBytes;
    Props.MultiProcessorCount = Cfg.Cores;
    Props.MaxThreadsPerBlock = 1024;
    Props.SharedMemPerBlock = 48 * 1024;
    Props.SharedMemPerBlockOptin = RVMC_SRAM_SIZE;
    Props.SharedMemPerMultiprocessor = RVMC_SRAM_SIZE;
    Props.MaxThreadsPerMultiProcessor = 1024;
    Props.MaxBlocksPerMultiProcessor = 1;
    // Cores are emulated by qemu: report a clock that reflects the real
    // speed, so programs choosing the "fastest" GPU (max SMs x clock, as
    // helper_cuda.h does) do not pick the simulator over the host CPU.
    Props.ClockRateKHz = 50000;
    Props.L2CacheSize = 0;
    Props.Integrated = false;
    Props.ConcurrentKernels = true;
    Props.ManagedMemory = true;
    return Status::ok();
  }

  const DeviceProperties &properties() const override { return Props; }

  Status allocate(size_t Bytes, void *&Ptr) override {
    uint64_t A = 0;
    if (Status S = Mem.allocate(Bytes, A))
      return S;
    Ptr = reinterpret_cast<void *>(A);
    return Status::ok();
  }
  Status release(void *Ptr) override {
    if (!Ptr)
      return Status::ok();
    return Mem.release(reinterpret_cast<uint64_t>(Ptr));
  }
  Status allocateHost(size_t Bytes, void *&Ptr) override {
    Ptr = std::malloc(Bytes ? Bytes : 1);
    return Ptr ? Status::ok()
               : Status(ErrorCode::OutOfMemory, "tt-sim: host allocation");
  }
  Status releaseHost(void *Ptr) override {
    std::free(Ptr);
    return Status::ok();
  }
  /// Device DRAM is mapped at the same address in the host: managed memory
  /// is plain device memory.
  Status allocateManaged(size_t Bytes, void *&Ptr) override {
    // Chunks of their own: managed memory stays host memory when the
    // context migrates to a GPU (Core/UnifiedMemory.h).
    uint64_t A = 0;
    if (Status S = Mem.allocate(Bytes, A, 4096, Arena::get().managedTag()))
      return S;
    Ptr = reinterpret_cast<void *>(A);
    return Status::ok();
  }
  bool sharesArena() override { return Mem.ensureMapped().isOk(); }
  Status memoryInfo(size_t &Free, size_t &Total) override {
    Total = Cfg.DramBytes;
    Free = Cfg.DramBytes - Mem.inUse();
    return Status::ok();
  }

  Status loadModule(const std::vector<char> &Binary,
                    const container::ModuleInfo &Info,
                    std::unique_ptr<Module> &Out) override;

  Status createQueue(std::unique_ptr<Queue> &Out) override {
    auto Q = std::make_unique<TTSimQueue>(*this);
    std::lock_guard<std::mutex> G(M);
    Queues.insert(Q.get());
    Out = std::move(Q);
    return Status::ok();
  }
  Status createEvent(std::unique_ptr<Event> &Out) override {
    Out = std::make_unique<TTSimEvent>();
    return Status::ok();
  }
  Status synchronize() override {
    std::vector<TTSimQueue *> Qs;
    {
      std::lock_guard<std::mutex> G(M);
      Qs.assign(Queues.begin(), Queues.end());
    }
    Status First;
    for (TTSimQueue *Q : Qs)
      if (Status S = Q->synchronize(); S && First.isOk())
        First = S;
    return First.isOk() ? fault() : First;
  }
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
  Status reset() override {
    synchronize();
    std::lock_guard<std::mutex> G(FaultM);
    Fault = Status();
    return Status::ok();
  }
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

TTSimQueue::~TTSimQueue() {
  Dev.removeQueue(this);
  stop();
}

Status TTSimQueue::synchronize() {
  std::unique_lock<std::mutex> L(M);
  Done.wait(L, [&] { return Work.empty() && !Busy; });
  Status S = std::move(Error);
  Error = Status::ok();
  L.unlock();
  return S ? S : Dev.fault();
}

Status TTSimQueue::query() {
  std::unique_lock<std::mutex> L(M);
  if (!Work.empty() || Busy)
    return Status(ErrorCode::NotReady, "tt-sim: queue busy");
  Status S = std::move(Error);
  Error = Status::ok();
  L.unlock();
  return S ? S : Dev.fault();
}

Status TTSimDevice::loadModule(const std::vector<char> &Binary,
                               const container::ModuleInfo &Info,
                               std::unique_ptr<Module> &Out) {
  auto Mod = std::make_unique<TTSimModule>(Mem);
  Mod->Bytes = Binary;
  std::string Err = Mod->Image.parse(Mod->Bytes);
  if (!Err.empty())
    return Status(ErrorCode::NoBinaryForGpu,
                  "tt-sim: cannot load the module image: " + Err);
  uint64_t Base = 0;
  if (Status S = Mem.allocate(Mod->Image.span(), Base, 4096))
    return S;
  Mod->Base = Base;
  Err = Mod->Image.loadAt(reinterpret_cast<char *>(Base), Base);
  if (!Err.empty())
    return Status(ErrorCode::NoBinaryForGpu, "tt-sim: " + Err);

  for (const container::KernelInfo &KI : Info.Kernels) {
    const ttsim::ElfSymbol *S = Mod->Image.symbol("__hetgpu_block_" + KI.Name);
    if (!S || !S->IsFunction)
      return Status(ErrorCode::NoBinaryForGpu,
                    "tt-sim: the module image has no block function for "
                    "kernel '" + KI.Name + "'");
    auto ReadU64 = [&](const std::string &Name,
                       uint64_t Absent) -> uint64_t {
      uint64_t V = Absent;
      if (const ttsim::ElfSymbol *Sh = Mod->Image.symbol(Name))
        if (Sh->Size == 8 && Sh->Value + 8 <= Mod->Image.span())
          std::memcpy(&V, reinterpret_cast<void *>(Base + Sh->Value), 8);
      return V;
    };
    Mod->Kernels.push_back(std::make_unique<TTSimKernel>(
        KI, Base + S->Value, ReadU64("__hetgpu_rvmc_shared_" + KI.Name, 0),
        ReadU64("__hetgpu_rvmc_frame_" + KI.Name, NoExecutor)));
  }

  // The private copy each core process boots from: a memfd (nothing left
  // on disk when the process exits without unloading), which each core sees
  // as /dev/fd/4. HETGPU_TTSIM_KEEP_IMAGES also writes it to $TMPDIR.
  int Raw = memfd_create("hetgpu-ttsim-image", MFD_CLOEXEC);
  // Off fds 3 and 4, which the cores' dup2 calls overwrite.
  int Fd = Raw < 0 ? -1 : fcntl(Raw, F_DUPFD_CLOEXEC, 10);
  if (Raw >= 0)
    close(Raw);
  if (Fd < 0)
    return Status(ErrorCode::DriverFailure,
                  "tt-sim: cannot create the core image file: " +
                      std::string(std::strerror(errno)));
  Mod->ImageFd = Fd;
  size_t Done = 0;
  while (Done < Binary.size()) {
    ssize_t W = ::write(Fd, Binary.data() + Done, Binary.size() - Done);
    if (W <= 0)
      return Status(ErrorCode::DriverFailure,
                    "tt-sim: cannot write the core image file");
    Done += size_t(W);
  }
  if (Cfg.KeepImages) {
    const char *Tmp = std::getenv("TMPDIR");
    std::string Path = std::string(Tmp && *Tmp ? Tmp : "/tmp") +
                       "/hetgpu-ttsim-XXXXXX";
    std::vector<char> PathBuf(Path.begin(), Path.end());
    PathBuf.push_back(0);
    int KeepFd = mkstemp(PathBuf.data());
    if (KeepFd >= 0) {
      if (::write(KeepFd, Binary.data(), Binary.size()) ==
          ssize_t(Binary.size()))
        std::fprintf(stderr, "tt-sim: module image kept in %s\n",
                     PathBuf.data());
      close(KeepFd);
    }
  }
  Mod->Pool = std::make_unique<CorePool>(Cfg.Qemu, Mem.fd(), Mod->ImageFd);
  for (auto &K : Mod->Kernels) {
    K->ImageBase = Mod->Base;
    K->ImageFd = Mod->ImageFd;
    K->Tls = Mod->Image.tls();
    K->Pool = Mod->Pool.get();
  }
  Out = std::move(Mod);
  return Status::ok();
}

Status TTSimDevice::checkLaunch(const TTSimKernel &K, const LaunchParams &P,
                                LaunchLayout &Out) const {
  const container::KernelInfo &KI = K.Info;
  uint64_t Blocks = uint64_t(P.Grid[0]) * P.Grid[1] * P.Grid[2];
  uint64_t Threads = uint64_t(P.Block[0]) * P.Block[1] * P.Block[2];
  if (Blocks == 0 || Threads == 0 || Threads > Props.MaxThreadsPerBlock ||
      P.Block[0] > Props.MaxBlockDim[0] || P.Block[1] > Props.MaxBlockDim[1] ||
      P.Block[2] > Props.MaxBlockDim[2] || P.Grid[1] > Props.MaxGridDim[1] ||
      P.Grid[2] > Props.MaxGridDim[2])
    return Status(ErrorCode::InvalidConfiguration,
                  "tt-sim: invalid launch configuration for '" + KI.Name +
                      "': grid " + std::to_string(P.Grid[0]) + "x" +
                      std::to_string(P.Grid[1]) + "x" +
                      std::to_string(P.Grid[2]) + ", block " +
                      std::to_string(P.Block[0]) + "x" +
                      std::to_string(P.Block[1]) + "x" +
                      std::to_string(P.Block[2]));
  // Core SRAM holds static shared, then dynamic shared (16-byte aligned):
  // shared memory must fit. The block executor's per-thread states and
  // frames (the spill state of the SIMT->MIMD lowering) follow in SRAM when
  // they fit there too, else they go to a per-core area in device DRAM.
  Out.Static = std::max<uint64_t>(KI.StaticShared, K.ImageShared);
  Out.DynOff = (Out.Static + 15) & ~uint64_t(15);
  uint64_t Shared = (Out.DynOff + P.DynamicShared + 63) & ~uint64_t(63);
  if (Out.DynOff + P.DynamicShared > RVMC_SRAM_SIZE)
    return Status(ErrorCode::LaunchOutOfResources,
                  "tt-sim: kernel '" + KI.Name + "' needs " +
                      std::to_string(Out.DynOff + P.DynamicShared) +
                      " bytes of shared memory (" +
                      std::to_string(Out.Static) + " static + " +
                      std::to_string(P.DynamicShared) +
                      " dynamic); a core's SRAM has " +
                      std::to_string(RVMC_SRAM_SIZE));
  Out.Spill = 0;
  if (K.Frame != NoExecutor)
    Out.Spill =
        ((Threads * sizeof(hetgpu_thread_state) + 63) & ~uint64_t(63)) +
        Threads * K.Frame;
  Out.SpillInDram = Shared + Out.Spill > RVMC_SRAM_SIZE;
  return Status::ok();
}

Status TTSimDevice::runLaunch(TTSimKernel &K, const LaunchParams &P,
                              const std::vector<char> &ArgBytes) {
  const container::KernelInfo &KI = K.Info;
  LaunchLayout Lay;
  if (Status S = checkLaunch(K, P, Lay))
    return S;
  uint64_t Blocks = uint64_t(P.Grid[0]) * P.Grid[1] * P.Grid[2];
  // Descriptor, argument array and bytes, printf ring, heap: one block.
  size_t NP = KI.Params.size();
  uint64_t DescBytes = (sizeof(rvmc_launch) + 63) & ~uint64_t(63);
  uint64_t ArrBytes = (NP * 8 + 63) & ~uint64_t(63);
  uint64_t ArgAreaBytes = (ArgBytes.size() + 63) & ~uint64_t(63);
  uint64_t RingHdr = (sizeof(rvmc_ring) + 63) & ~uint64_t(63);
  uint64_t HeapHdr = (sizeof(rvmc_heap) + 63) & ~uint64_t(63);
  uint64_t Total = DescBytes + ArrBytes + ArgAreaBytes + RingHdr +
                   Cfg.PrintfBytes + HeapHdr;
  DramBlock Block(Mem);
  if (Status S = Mem.allocate(Total, Block.Addr, 4096))
    return S;
  DramBlock Heap(Mem);
  bool WantHeap = KI.Features & container::FeatMalloc;
  if (WantHeap)
    if (Status S = Mem.allocate(Cfg.HeapBytes, Heap.Addr, 4096))
      return S;
  unsigned N = unsigned(std::min<uint64_t>(Cfg.Cores, Blocks));
  // Thread states and frames that do not fit in SRAM: one area per core.
  DramBlock Spill(Mem);
  uint64_t SpillStride = (Lay.Spill + 63) & ~uint64_t(63);
  if (Lay.SpillInDram)
    if (Status S = Mem.allocate(SpillStride * N, Spill.Addr, 4096))
      return Status(S.Code, "tt-sim: kernel '" + KI.Name + "': " +
                                std::to_string(Lay.Spill) +
                                " bytes of per-thread state per core do not "
                                "fit in SRAM and not in DRAM: " + S.Message);
  char *Base = Block.as<char>();
  auto *L = reinterpret_cast<rvmc_launch *>(Base);
  uint64_t ArrAddr = Block.Addr + DescBytes;
  uint64_t ArgAddr = ArrAddr + ArrBytes;
  uint64_t RingAddr = ArgAddr + ArgAreaBytes;
  uint64_t RingData = RingAddr + RingHdr;
  uint64_t HeapAddr = RingData + Cfg.PrintfBytes;
  // The block is reused memory: clear every header the cores read.
  std::memset(Base, 0, DescBytes + ArrBytes);
  std::memset(reinterpret_cast<void *>(RingAddr), 0, RingHdr);
  std::memset(reinterpret_cast<void *>(HeapAddr), 0, HeapHdr);
  std::memcpy(reinterpret_cast<void *>(ArgAddr), ArgBytes.data(),
              ArgBytes.size());
  for (size_t I = 0; I < NP; ++I) {
    uint64_t A = ArgAddr + KI.Params[I].Offset;
    std::memcpy(reinterpret_cast<void *>(ArrAddr + I * 8), &A, 8);
  }
  auto *Ring = reinterpret_cast<rvmc_ring *>(RingAddr);
  Ring->data = RingData;
  Ring->capacity = Cfg.PrintfBytes;
  if (WantHeap) {
    auto *H = reinterpret_cast<rvmc_heap *>(HeapAddr);
    H->base = Heap.Addr;
    H->size = Cfg.HeapBytes;
    H->next = 0;
  }

  L->abi_version = RVMC_ABI_VERSION;
  L->num_cores = N;
  L->block_fn = K.BlockFn;
  L->args = ArrAddr;
  for (int I = 0; I < 3; ++I) {
    L->grid[I] = P.Grid[I];
    L->block[I] = P.Block[I];
  }
  L->num_blocks = Blocks;
  L->static_shared = Lay.Static;
  L->dynamic_offset = Lay.DynOff;
  L->dynamic_shared = P.DynamicShared;
  L->sched = Cfg.Sched;
  L->heap = WantHeap ? HeapAddr : 0;
  L->ring = RingAddr;
  L->state = 0;
  L->yield_flag = 0;
  for (unsigned C = 0; C < N; ++C) {
    L->first[C] = Blocks * C / N;
    L->end[C] = Blocks * (C + 1) / N;
  }
  L->image_base = K.ImageBase;
  L->tls_image = K.ImageBase + K.Tls.VAddr;
  L->tls_filesz = K.Tls.FileSize;
  L->tls_memsz = K.Tls.MemSize;
  L->tls_align = K.Tls.Align;
  L->spill = Spill.Addr;
  L->spill_stride = Spill.Addr ? SpillStride : 0;
  uint64_t DramSize = Mem.highWater();

  // The module's cores run it; when another stream's launch holds them (or
  // HETGPU_TTSIM_PERSISTENT=0), cores started for this launch alone.
  std::string Log;
  std::vector<int> Statuses;
  Status Start;
  std::unique_lock<std::mutex> Lock(K.Pool->M, std::defer_lock);
  if (Cfg.Persistent && Lock.try_lock()) {
    Start = K.Pool->Group.run(Block.Addr, DramSize, N, Cfg.TimeoutS,
                              Statuses, Log);
    Lock.unlock();
  } else {
    ttsim::CoreGroup Once(Cfg.Qemu, Mem.fd(), K.ImageFd, "one launch");
    Start = Once.run(Block.Addr, DramSize, N, Cfg.TimeoutS, Statuses, Log);
  }

  // printf output, in the order the records were reserved.
  uint64_t Used = std::min<uint64_t>(Ring->head, Ring->capacity);
  std::string Text;
  for (uint64_t At = 0; At + sizeof(rvmc_printf_rec) <= Used;) {
    const char *Rec = reinterpret_cast<const char *>(RingData + At);
    rvmc_printf_rec H;
    std::memcpy(&H, Rec, sizeof(H));
    if (H.size < sizeof(H) || At + H.size > Used)
      break;
    Text += formatRecord(Rec);
    At += H.size;
  }
  if (!Text.empty()) {
    std::fwrite(Text.data(), 1, Text.size(), stdout);
    std::fflush(stdout);
  }
  if (Ring->dropped)
    std::fprintf(stderr,
                 "tt-sim: %u printf records of '%s' did not fit in the %llu "
                 "byte ring (HETGPU_TTSIM_PRINTF_KB)\n",
                 Ring->dropped, KI.Name.c_str(),
                 (unsigned long long)Ring->capacity);

  if (Start)
    return Start;
  if (L->error_kind == RVMC_ERR_ASSERT || L->error_kind == RVMC_ERR_TRAP) {
    std::string Where = " (kernel '" + KI.Name + "', block " +
                        std::to_string(L->error_block) + ", core " +
                        std::to_string(L->error_core) + ")";
    std::string Text(L->error_text, strnlen(L->error_text, RVMC_ERROR_TEXT));
    std::fprintf(stderr, "%s%s\n", Text.c_str(), Where.c_str());
    return Status(L->error_kind == RVMC_ERR_ASSERT ? ErrorCode::Assert
                                                   : ErrorCode::LaunchFailure,
                  "tt-sim: " + Text + Where);
  }
  for (size_t C = 0; C < Statuses.size(); ++C) {
    int St = Statuses[C];
    std::string What;
    if (St == -1)
      What = "could not be waited for";
    else if (WIFSIGNALED(St))
      What = "was killed by signal " + std::to_string(WTERMSIG(St)) +
             " (a memory fault or stack overflow in the kernel)";
    else if (WIFEXITED(St) && WEXITSTATUS(St) == 127)
      What = "could not execute " + Cfg.Qemu;
    else if (WIFEXITED(St) && WEXITSTATUS(St) != RVMC_EXIT_OK)
      What = "exited with status " + std::to_string(WEXITSTATUS(St));
    if (What.empty())
      continue;
    std::string Msg = "tt-sim: core " + std::to_string(C) + " of the launch "
                      "of '" + KI.Name + "' " + What;
    // qemu reports guest faults on stderr ("uncaught target signal").
    if (!Log.empty())
      Msg += ": " + Log.substr(0, Log.find('\n', 0) == std::string::npos
                                      ? Log.size()
                                      : Log.find('\n', 0));
    return Status(ErrorCode::LaunchFailure, Msg);
  }
  if (!Log.empty())
    std::fwrite(Log.data(), 1, Log.size(), stderr);
  return Status::ok();
}

Status TTSimQueue::memcpy(void *Dst, const void *Src, size_t Bytes,
                          CopyKind Kind) {
  Dram &D = Dev.dram();
  bool DstDev = Kind == CopyKind::HostToDevice || Kind == CopyKind::DeviceToDevice;
  bool SrcDev = Kind == CopyKind::DeviceToHost || Kind == CopyKind::DeviceToDevice;
  if ((DstDev && !D.contains(Dst, Bytes)) || (SrcDev && !D.contains(Src, Bytes)))
    return Status(ErrorCode::InvalidValue,
                  "tt-sim: memcpy of " + std::to_string(Bytes) +
                      " bytes touches memory outside device DRAM");
  return enqueue([Dst, Src, Bytes] {
    std::memcpy(Dst, Src, Bytes);
    return Status::ok();
  });
}

Status TTSimQueue::memset(void *Dst, int Value, size_t Bytes) {
  if (!Dev.dram().contains(Dst, Bytes))
    return Status(ErrorCode::InvalidValue,
                  "tt-sim: memset of " + std::to_string(Bytes) +
                      " bytes outside device DRAM");
  return enqueue([Dst, Value, Bytes] {
    std::memset(Dst, Value, Bytes);
    return Status::ok();
  });
}

Status TTSimQueue::launch(Kernel &K, const LaunchParams &P) {
  auto &TK = static_cast<TTSimKernel &>(K);
  const container::KernelInfo &KI = TK.Info;
  LaunchLayout Lay;
  if (Status S = Dev.checkLaunch(TK, P, Lay))
    return S;
  // Capture the argument values now, as cudaLaunchKernel does.
  std::vector<char> Bytes(KI.ParamBufferSize);
  for (size_t I = 0; I < KI.Params.size(); ++I) {
    const container::ParamInfo &PI = KI.Params[I];
    if (!P.Args || !P.Args[I] || PI.Offset + PI.Size > Bytes.size())
      return Status(ErrorCode::InvalidValue,
                    "tt-sim: missing or bad argument " + std::to_string(I) +
                        " of '" + KI.Name + "'");
    std::memcpy(Bytes.data() + PI.Offset, P.Args[I], PI.Size);
  }
  LaunchParams Copy = P;
  Copy.Args = nullptr;
  TTSimDevice &D = Dev;
  return enqueue([&D, &TK, Copy, Bytes = std::move(Bytes)] {
    if (Status F = D.fault())
      return F; // a faulted device runs nothing until reset
    Status S = D.runLaunch(TK, Copy, Bytes);
    if (S.Code == ErrorCode::Assert || S.Code == ErrorCode::LaunchFailure)
      D.setFault(S);
    return S;
  });
}

class TTSimBackend : public Backend {
public:
  const char *name() const override { return "tt-sim"; }
  Status discover(std::vector<std::unique_ptr<Device>> &Out) override {
    Config C;
    C.Cores = unsigned(envNumber("HETGPU_TTSIM_CORES", 8));
    if (C.Cores == 0 || C.Cores > RVMC_MAX_CORES)
      return Status(ErrorCode::InvalidValue,
                    "tt-sim: HETGPU_TTSIM_CORES must be 1.." +
                        std::to_string(RVMC_MAX_CORES));
    C.DramBytes = envNumber("HETGPU_TTSIM_DRAM_MB", 4096) << 20;
    if (C.DramBytes == 0 || C.DramBytes > RVMC_DRAM_MAX)
      return Status(ErrorCode::InvalidValue,
                    "tt-sim: HETGPU_TTSIM_DRAM_MB out of range");
    const char *Q = std::getenv("HETGPU_TTSIM_QEMU");
    C.Qemu = findInPath(Q && *Q ? Q : "qemu-riscv64");
    if (C.Qemu.empty())
      return Status(ErrorCode::NotSupported,
                    std::string("tt-sim: ") + (Q && *Q ? Q : "qemu-riscv64") +
                        " not found (install qemu-user or set "
                        "HETGPU_TTSIM_QEMU)");
    const char *Sched = std::getenv("HETGPU_TTSIM_SCHED");
    if (Sched && std::string(Sched) == "static")
      C.Sched = RVMC_SCHED_STATIC;
    else if (Sched && *Sched && std::string(Sched) != "dynamic")
      return Status(ErrorCode::InvalidValue,
                    "tt-sim: HETGPU_TTSIM_SCHED must be static or dynamic");
    C.PrintfBytes = envNumber("HETGPU_TTSIM_PRINTF_KB", 1024) << 10;
    C.HeapBytes = envNumber("HETGPU_TTSIM_HEAP_MB", 8) << 20;
    C.TimeoutS = envNumber("HETGPU_TTSIM_TIMEOUT_S", 600);
    C.KeepImages = std::getenv("HETGPU_TTSIM_KEEP_IMAGES") != nullptr;
    C.Persistent = envNumber("HETGPU_TTSIM_PERSISTENT", 1) != 0;
    // Device DRAM sits at a fixed address: one tt-sim device per process.
    static std::mutex Once;
    std::lock_guard<std::mutex> G(Once);
    static bool Mapped = false;
    if (Mapped)
      return Status(ErrorCode::NotSupported,
                    "tt-sim: the device is already open in this process");
    auto Dev = std::make_unique<TTSimDevice>(C);
    if (Status S = Dev->init())
      return S;
    Mapped = true;
    Out.push_back(std::move(Dev));
    return Status::ok();
  }
};

} // namespace

std::unique_ptr<Backend> createTTSimBackend() {
  return std::make_unique<TTSimBackend>();
}

} // namespace rt
} // namespace hetgpu
