//===- CPUBackend.cpp - The host CPU as a hetGPU device -------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs translations of the "host" lowering target (shared objects that
/// follow include/hetgpu/ABI/BlockABI.h): the object is dlopen'ed from an in-memory
/// file, each kernel's `__hetgpu_block_<K>` runs one block, and the blocks
/// of a grid are spread over a thread pool whose workers each own a
/// shared-memory buffer. Streams are in-order queues with one host thread
/// each, asynchronous to the caller. Device memory is host memory, tracked
/// so that invalid frees are detected. Device-side printf, assert, trap,
/// malloc and clocks are services the runtime gives translated code.
///
//===----------------------------------------------------------------------===//

#include "Backends/CPU/ThreadPool.h"
#include "Core/ArgPack.h"
#include "Core/Device.h"
#include "Core/Log.h"
#include "Core/Printf.h"
#include "Core/UnifiedMemory.h"
#include "hetgpu/ABI/BlockABI.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <dlfcn.h>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>

using namespace hetgpu;
using namespace hetgpu::rt;

namespace {

using Clock = std::chrono::steady_clock;

//===----------------------------------------------------------------------===//
// Launch state and the services of ABI/BlockABI.h
//===----------------------------------------------------------------------===//

/// What one launch shares between its workers.
struct LaunchState {
  std::atomic<bool> Failed{false};
  std::mutex M;
  Status Error;
  const std::string *KernelName = nullptr;

  void fail(ErrorCode C, std::string Message) {
    std::lock_guard<std::mutex> Lock(M);
    if (Error.isOk())
      Error = Status(C, std::move(Message));
    Failed = true;
  }
};

/// Per-worker state: its shared memory, the block it runs, the jump buffer
/// the noreturn services leave the block through.
struct Worker {
  char *Shared = nullptr;
  size_t SharedSize = 0;
  jmp_buf Jmp;
  hetgpu_host_services Services;
  hetgpu_block_ctx Ctx;
  LaunchState *Launch = nullptr;

  ~Worker() { free(Shared); }
  void ensureShared(size_t Bytes) {
    if (Bytes <= SharedSize)
      return;
    free(Shared);
    SharedSize = (Bytes + 4095) / 4096 * 4096;
    Shared = static_cast<char *>(aligned_alloc(64, SharedSize));
  }
};

Worker &workerOf(void *RT) { return *static_cast<Worker *>(RT); }

int servicePrintf(void *, const char *Format, const void *Args) {
  return devicePrintf(Format, Args);
}

[[noreturn]] void serviceAssert(void *RT, const char *Message,
                                const char *File, uint32_t Line,
                                const char *Function) {
  Worker &W = workerOf(RT);
  const uint32_t *B = W.Ctx.block_idx;
  // CUDA's format. ABI/BlockABI.h does not pass the thread index to the
  // service, so the thread part names the block only.
  char Buf[1024];
  snprintf(Buf, sizeof(Buf),
           "%s:%u: %s: block: [%u,%u,%u], thread: [?,?,?] Assertion `%s` "
           "failed.\n",
           File ? File : "?", Line, Function ? Function : "?", B[0], B[1],
           B[2], Message ? Message : "?");
  fflush(stdout);
  fputs(Buf, stderr);
  fflush(stderr);
  W.Launch->fail(ErrorCode::Assert,
                 "device-side assert in kernel " + *W.Launch->KernelName +
                     ": " + std::string(Buf, strlen(Buf) - 1));
  longjmp(W.Jmp, 1);
}

[[noreturn]] void serviceTrap(void *RT) {
  Worker &W = workerOf(RT);
  const uint32_t *B = W.Ctx.block_idx;
  W.Launch->fail(ErrorCode::LaunchFailure,
                 "kernel " + *W.Launch->KernelName + " trapped in block [" +
                     std::to_string(B[0]) + "," + std::to_string(B[1]) + "," +
                     std::to_string(B[2]) + "]");
  longjmp(W.Jmp, 1);
}

void *serviceMalloc(void *, uint64_t Size) { return malloc(Size); }
void serviceFree(void *, void *P) { free(P); }

uint64_t serviceClock64(void *) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          Clock::now().time_since_epoch())
          .count());
}

uint64_t serviceGlobalTimer(void *) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count());
}

/// Runs one block; returns false when a service left it by longjmp.
/// Kept small and separate so nothing lives across setjmp.
__attribute__((noinline)) bool runBlock(Worker &W, hetgpu_block_fn Fn,
                                        void **Args) {
  if (setjmp(W.Jmp) != 0)
    return false;
  Fn(Args, &W.Ctx);
  return true;
}

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

class CPUKernel : public Kernel {
public:
  CPUKernel(container::KernelInfo Info, hetgpu_block_fn Fn)
      : Info(std::move(Info)), Fn(Fn) {}
  const container::KernelInfo &info() const override { return Info; }
  container::KernelInfo Info;
  hetgpu_block_fn Fn;
};

class CPUModule : public Module {
public:
  CPUModule(void *Handle, int FD, const container::ModuleInfo &MI)
      : Handle(Handle), FD(FD), Kernels(MI.Kernels), Globals(MI.Globals) {}
  ~CPUModule() override {
    if (Handle)
      dlclose(Handle);
    if (FD >= 0)
      close(FD);
  }

  Status getKernel(const std::string &Name, Kernel *&Out) override {
    std::lock_guard<std::mutex> Lock(M);
    auto It = Loaded.find(Name);
    if (It != Loaded.end()) {
      Out = It->second.get();
      return Status::ok();
    }
    const container::KernelInfo *Info = nullptr;
    for (const container::KernelInfo &K : Kernels)
      if (K.Name == Name)
        Info = &K;
    if (!Info)
      return Status(ErrorCode::InvalidValue,
                    "kernel " + Name + " is not in the module");
    std::string Sym = "__hetgpu_block_" + Name;
    void *F = dlsym(Handle, Sym.c_str());
    if (!F)
      return Status(ErrorCode::InvalidValue,
                    "the translated module does not export " + Sym);
    auto K = std::make_unique<CPUKernel>(*Info,
                                         reinterpret_cast<hetgpu_block_fn>(F));
    Out = K.get();
    Loaded[Name] = std::move(K);
    return Status::ok();
  }

  Status getGlobal(const std::string &Name, void *&Addr,
                   size_t &Size) override {
    Addr = dlsym(Handle, Name.c_str());
    if (!Addr)
      return Status(ErrorCode::InvalidSymbol,
                    "the translated module does not export variable " + Name);
    Size = 0;
    for (const container::GlobalInfo &G : Globals)
      if (G.Name == Name)
        Size = G.Size;
    return Status::ok();
  }

private:
  void *Handle;
  int FD;
  std::vector<container::KernelInfo> Kernels;
  std::vector<container::GlobalInfo> Globals;
  std::mutex M;
  std::map<std::string, std::unique_ptr<CPUKernel>> Loaded;
};

//===----------------------------------------------------------------------===//
// Events and queues
//===----------------------------------------------------------------------===//

/// The state of a CPU event, shared with the queue tasks that signal or
/// wait for it, so a task never outlives it (cudaEventDestroy right after
/// cudaStreamWaitEvent is common).
struct EventState {
  std::mutex M;
  std::condition_variable CV;
  uint64_t Recorded = 0;  ///< generation of the latest record
  uint64_t Completed = 0; ///< generation reached by the queue
  Clock::time_point Time;

  uint64_t markRecorded() {
    std::lock_guard<std::mutex> Lock(M);
    return ++Recorded;
  }
  uint64_t recorded() {
    std::lock_guard<std::mutex> Lock(M);
    return Recorded;
  }
  void complete(uint64_t Gen) {
    {
      std::lock_guard<std::mutex> Lock(M);
      if (Gen > Completed) {
        Completed = Gen;
        Time = Clock::now();
      }
    }
    CV.notify_all();
  }
  void waitFor(uint64_t Gen) {
    std::unique_lock<std::mutex> Lock(M);
    CV.wait(Lock, [&] { return Completed >= Gen; });
  }
};

class CPUEvent : public Event {
public:
  std::shared_ptr<EventState> S = std::make_shared<EventState>();

  Status synchronize() override {
    S->waitFor(S->recorded());
    return Status::ok();
  }
  Status query() override {
    std::lock_guard<std::mutex> Lock(S->M);
    return S->Completed >= S->Recorded
               ? Status::ok()
               : Status(ErrorCode::NotReady, "not ready");
  }
  Status elapsedSince(Event &StartE, float &Ms) override {
    EventState &Start = *static_cast<CPUEvent &>(StartE).S;
    Clock::time_point A, B;
    {
      std::lock_guard<std::mutex> Lock(Start.M);
      if (Start.Completed < Start.Recorded || !Start.Completed)
        return Status(ErrorCode::NotReady, "start event not complete");
      A = Start.Time;
    }
    {
      std::lock_guard<std::mutex> Lock(S->M);
      if (S->Completed < S->Recorded || !S->Completed)
        return Status(ErrorCode::NotReady, "event not complete");
      B = S->Time;
    }
    Ms = std::chrono::duration<float, std::milli>(B - A).count();
    return Status::ok();
  }
};

class CPUDevice;

class CPUQueue : public Queue {
public:
  explicit CPUQueue(CPUDevice &Dev);
  ~CPUQueue() override;

  Status memcpy(void *Dst, const void *Src, size_t Bytes,
                CopyKind) override {
    push([=] {
      ::memmove(Dst, Src, Bytes);
      return Status::ok();
    });
    return Status::ok();
  }
  Status memset(void *Dst, int Value, size_t Bytes) override {
    push([=] {
      ::memset(Dst, Value, Bytes);
      return Status::ok();
    });
    return Status::ok();
  }
  Status launch(Kernel &K, const LaunchParams &P) override;
  Status hostFunc(std::function<void()> Fn) override {
    push(
        [Fn = std::move(Fn)] {
          Fn();
          return Status::ok();
        },
        /*Always=*/true);
    return Status::ok();
  }
  Status record(Event &E) override {
    std::shared_ptr<EventState> Ev = static_cast<CPUEvent &>(E).S;
    uint64_t Gen = Ev->markRecorded();
    push(
        [Ev, Gen] {
          Ev->complete(Gen);
          return Status::ok();
        },
        /*Always=*/true);
    return Status::ok();
  }
  Status wait(Event &E) override {
    std::shared_ptr<EventState> Ev = static_cast<CPUEvent &>(E).S;
    uint64_t Gen = Ev->recorded();
    push(
        [Ev, Gen] {
          Ev->waitFor(Gen);
          return Status::ok();
        },
        /*Always=*/true);
    return Status::ok();
  }
  Status synchronize() override;
  Status query() override;

private:
  struct Task {
    std::function<Status()> Fn;
    bool Always;
  };
  void push(std::function<Status()> Fn, bool Always = false) {
    {
      std::lock_guard<std::mutex> Lock(M);
      Tasks.push_back({std::move(Fn), Always});
    }
    WorkCV.notify_one();
  }
  void loop();

  CPUDevice &Dev;
  std::mutex M;
  std::condition_variable WorkCV, IdleCV;
  std::deque<Task> Tasks;
  bool Running = false;
  bool Stop = false;
  Status Error;         ///< first error not yet reported
  bool Poisoned = false; ///< a launch failed: skip later work
  pthread_t Thread;
};

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

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

/// `__constant__` data may be placed in a read-only segment of the host
/// translation, but cudaMemcpyToSymbol writes it: make the pages of every
/// variable of the module writable (never touching executable mappings).
void makeGlobalsWritable(void *Handle, const container::ModuleInfo &Info) {
  struct Range {
    uintptr_t Lo, Hi;
    bool Writable, Exec;
  };
  std::vector<Range> Maps;
  std::ifstream In("/proc/self/maps");
  std::string Line;
  while (std::getline(In, Line)) {
    unsigned long Lo, Hi;
    char Perms[8] = {};
    if (sscanf(Line.c_str(), "%lx-%lx %7s", &Lo, &Hi, Perms) == 3)
      Maps.push_back({Lo, Hi, Perms[1] == 'w', Perms[2] == 'x'});
  }
  long Page = sysconf(_SC_PAGESIZE);
  for (const container::GlobalInfo &G : Info.Globals) {
    auto Addr = reinterpret_cast<uintptr_t>(dlsym(Handle, G.Name.c_str()));
    if (!Addr || !G.Size)
      continue;
    uintptr_t Lo = Addr & ~uintptr_t(Page - 1);
    uintptr_t Hi = (Addr + G.Size + Page - 1) & ~uintptr_t(Page - 1);
    bool NeedsWrite = false, Exec = false;
    for (const Range &R : Maps)
      if (R.Lo < Hi && Lo < R.Hi) {
        NeedsWrite |= !R.Writable;
        Exec |= R.Exec;
      }
    if (!NeedsWrite)
      continue;
    if (Exec || mprotect(reinterpret_cast<void *>(Lo), Hi - Lo,
                         PROT_READ | PROT_WRITE) != 0)
      log(LogLevel::Warn, "variable " + G.Name +
                              " of a host translation is read-only: "
                              "cudaMemcpyToSymbol to it will fault");
  }
}

size_t workerStackBytes() {
  size_t Stack = size_t(64) << 20;
  if (const char *E = getenv("HETGPU_CPU_STACK_MB"))
    if (atoi(E) > 0)
      Stack = size_t(atoi(E)) << 20;
  return Stack;
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

class CPUDevice : public Device {
public:
  CPUDevice() {
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

  const DeviceProperties &properties() const override { return Props; }

  Status allocate(size_t Bytes, void *&Ptr) override {
    return track(Bytes, Ptr, DeviceAllocs);
  }
  Status release(void *Ptr) override {
    // Arena memory (a migratable process) may have been allocated by another
    // device whose allocations moved here (Core/UnifiedMemory.h).
    if (Arena::get().contains(Ptr))
      return Arena::get().release(reinterpret_cast<uint64_t>(Ptr));
    return untrack(Ptr, DeviceAllocs);
  }
  bool sharesArena() override { return useArena(); }
  Status allocateHost(size_t Bytes, void *&Ptr) override {
    return track(Bytes, Ptr, HostAllocs);
  }
  Status releaseHost(void *Ptr) override { return untrack(Ptr, HostAllocs); }
  Status allocateManaged(size_t Bytes, void *&Ptr) override {
    if (useArena()) {
      // Chunks of their own: managed memory stays host memory when the
      // context migrates to a GPU (Core/UnifiedMemory.h).
      uint64_t A = 0;
      if (Status S = Arena::get().allocate(Bytes, 4096,
                                           Arena::get().managedTag(), A))
        return S;
      Ptr = reinterpret_cast<void *>(A);
      return Status::ok();
    }
    return allocate(Bytes, Ptr);
  }
  Status memoryInfo(size_t &Free, size_t &Total) override {
    Total = Props.TotalMemory;
    long Pages = sysconf(_SC_AVPHYS_PAGES), PageSize = sysconf(_SC_PAGESIZE);
    Free = Pages > 0 && PageSize > 0 ? size_t(Pages) * size_t(PageSize)
                                     : Total / 2;
    return Status::ok();
  }

  Status loadModule(const std::vector<char> &Binary,
                    const container::ModuleInfo &Info,
                    std::unique_ptr<Module> &Out) override {
    int FD = memfd_create("hetgpu-host-module", MFD_CLOEXEC);
    if (FD < 0)
      return Status(ErrorCode::DriverFailure,
                    std::string("memfd_create failed: ") + strerror(errno));
    size_t Done = 0;
    while (Done < Binary.size()) {
      ssize_t W = write(FD, Binary.data() + Done, Binary.size() - Done);
      if (W <= 0) {
        close(FD);
        return Status(ErrorCode::DriverFailure,
                      "cannot write the translated module to memory");
      }
      Done += static_cast<size_t>(W);
    }
    std::string Path = "/proc/self/fd/" + std::to_string(FD);
    // The descriptor stays open while the module is loaded: glibc knows
    // loaded objects by path, and a reused descriptor number would make the
    // next module's path equal to this one's. RTLD_DEEPBIND: the module's
    // own `__device__` variables win over equally named host symbols.
    void *H = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!H) {
      close(FD);
      const char *E = dlerror();
      return Status(ErrorCode::NoBinaryForGpu,
                    std::string("cannot load the host translation: ") +
                        (E ? E : "dlopen failed"));
    }
    auto *V = static_cast<const uint32_t *>(
        dlsym(H, "__hetgpu_host_abi_version"));
    if (!V || *V != HETGPU_HOST_ABI_VERSION) {
      dlclose(H);
      close(FD);
      return Status(ErrorCode::NoBinaryForGpu,
                    V ? "host translation has ABI version " +
                            std::to_string(*V) + ", expected " +
                            std::to_string(HETGPU_HOST_ABI_VERSION)
                      : std::string("host translation does not export "
                                    "__hetgpu_host_abi_version"));
    }
    makeGlobalsWritable(H, Info);
    Out = std::make_unique<CPUModule>(H, FD, Info);
    return Status::ok();
  }

  Status createQueue(std::unique_ptr<Queue> &Out) override {
    auto Q = std::make_unique<CPUQueue>(*this);
    {
      std::lock_guard<std::mutex> Lock(QM);
      Queues.insert(Q.get());
    }
    Out = std::move(Q);
    return Status::ok();
  }
  Status createEvent(std::unique_ptr<Event> &Out) override {
    Out = std::make_unique<CPUEvent>();
    return Status::ok();
  }
  Status synchronize() override {
    // Queues may be destroyed by other host threads meanwhile: hold QM so
    // none leaves the set (a queue's destructor waits here) while we use it.
    std::lock_guard<std::mutex> Lock(QM);
    Status First;
    for (CPUQueue *Q : Queues) {
      Status S = Q->synchronize();
      if (S && First.isOk())
        First = S;
    }
    return First;
  }

  /// A kernel fault is the device's: every queue reports it (Core makes it
  /// sticky) until reset().
  void setFault(const Status &S) {
    std::lock_guard<std::mutex> Lock(FaultM);
    if (Fault.isOk())
      Fault = S;
  }
  Status fault() {
    std::lock_guard<std::mutex> Lock(FaultM);
    return Fault;
  }
  Status reset() override {
    synchronize();
    std::lock_guard<std::mutex> Lock(FaultM);
    Fault = Status();
    return Status::ok();
  }

  void removeQueue(CPUQueue *Q) {
    std::lock_guard<std::mutex> Lock(QM);
    Queues.erase(Q);
  }

  /// Runs a whole grid on the pool; returns the launch's error.
  Status runGrid(CPUKernel &K, const LaunchParams &P, ArgPack &Args);

private:
  /// Device memory comes from the process-wide arena when the process is
  /// migratable (one address layout with the other devices).
  bool useArena() {
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

  Status track(size_t Bytes, void *&Ptr, std::map<void *, size_t> &Table) {
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
  Status untrack(void *Ptr, std::map<void *, size_t> &Table) {
    {
      std::lock_guard<std::mutex> Lock(AllocM);
      if (!Table.erase(Ptr))
        return Status(ErrorCode::InvalidDevicePointer,
                      "pointer was not allocated by this device");
    }
    free(Ptr);
    return Status::ok();
  }

  DeviceProperties Props;
  unsigned Workers;
  std::once_flag ArenaOnce;
  bool InArena = false;
  unsigned ArenaTag = 0;
  std::mutex AllocM;
  std::map<void *, size_t> DeviceAllocs, HostAllocs;
  std::mutex QM;
  std::set<CPUQueue *> Queues;
  std::mutex FaultM;
  Status Fault;
  std::once_flag PoolOnce;
  std::mutex GridM;
  std::unique_ptr<ThreadPool> Pool;
  std::vector<Worker> WorkerStates;
};

Status CPUDevice::runGrid(CPUKernel &K, const LaunchParams &P, ArgPack &Args) {
  std::call_once(PoolOnce, [this] {
    // The queue thread that runs a grid takes blocks too: Workers threads
    // in all.
    Pool = std::make_unique<ThreadPool>(Workers - 1, workerStackBytes());
    // One more state for grids run by the calling queue thread itself.
    WorkerStates = std::vector<Worker>(Pool->size() + 1);
  });
  // The worker states are the device's: one grid at a time (the pool runs
  // one loop at a time anyway).
  std::lock_guard<std::mutex> GridLock(GridM);
  const container::KernelInfo &Info = K.info();
  uint64_t StaticAligned = (Info.StaticShared + 15) / 16 * 16;
  uint64_t SharedBytes = StaticAligned + P.DynamicShared;
  LaunchState L;
  L.KernelName = &Info.Name;
  for (Worker &W : WorkerStates) {
    W.ensureShared(std::max<uint64_t>(SharedBytes, 16));
    if (!W.Shared)
      return Status(ErrorCode::OutOfMemory, "cannot allocate shared memory");
    W.Launch = &L;
    W.Services = {&W,           &servicePrintf, &serviceAssert,
                  &serviceTrap, &serviceMalloc, &serviceFree,
                  &serviceClock64, &serviceGlobalTimer};
    hetgpu_block_ctx &C = W.Ctx;
    memset(&C, 0, sizeof(C));
    for (int I = 0; I < 3; ++I) {
      C.grid_dim[I] = P.Grid[I];
      C.block_dim[I] = P.Block[I];
    }
    C.shared = W.Shared;
    C.dynamic_shared_offset = StaticAligned;
    C.dynamic_shared_size = P.DynamicShared;
    C.services = &W.Services;
    C.state = nullptr;
    C.yield_flag = nullptr;
  }
  uint64_t GX = P.Grid[0], GY = P.Grid[1];
  uint64_t NumBlocks = GX * GY * P.Grid[2];
  hetgpu_block_fn Fn = K.Fn;
  void **A = Args.args();
  auto Body = [&](uint64_t B, unsigned WId) {
    if (L.Failed.load(std::memory_order_relaxed))
      return;
    Worker &W = WorkerStates[WId];
    W.Ctx.block_idx[0] = static_cast<uint32_t>(B % GX);
    W.Ctx.block_idx[1] = static_cast<uint32_t>((B / GX) % GY);
    W.Ctx.block_idx[2] = static_cast<uint32_t>(B / (GX * GY));
    runBlock(W, Fn, A);
  };
  Pool->parallelFor(NumBlocks, Body);
  std::lock_guard<std::mutex> Lock(L.M);
  return L.Error;
}

//===----------------------------------------------------------------------===//
// Queue implementation
//===----------------------------------------------------------------------===//

CPUQueue::CPUQueue(CPUDevice &Dev) : Dev(Dev) {
  // The queue thread runs single-block grids itself: same stack as the
  // pool's workers.
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  pthread_attr_setstacksize(&Attr, workerStackBytes());
  int RC = pthread_create(
      &Thread, &Attr,
      [](void *Self) -> void * {
        static_cast<CPUQueue *>(Self)->loop();
        return nullptr;
      },
      this);
  pthread_attr_destroy(&Attr);
  if (RC != 0)
    throw std::runtime_error("cannot start a stream thread");
}

CPUQueue::~CPUQueue() {
  {
    std::unique_lock<std::mutex> Lock(M);
    IdleCV.wait(Lock, [&] { return Tasks.empty() && !Running; });
    Stop = true;
  }
  WorkCV.notify_all();
  pthread_join(Thread, nullptr);
  Dev.removeQueue(this);
}

void CPUQueue::loop() {
  for (;;) {
    Task T;
    {
      std::unique_lock<std::mutex> Lock(M);
      WorkCV.wait(Lock, [&] { return Stop || !Tasks.empty(); });
      if (Stop && Tasks.empty())
        return;
      T = std::move(Tasks.front());
      Tasks.pop_front();
      Running = true;
      if (Poisoned && !T.Always)
        T.Fn = nullptr;
    }
    Status S = T.Fn ? T.Fn() : Status();
    {
      std::lock_guard<std::mutex> Lock(M);
      Running = false;
      if (S) {
        if (Error.isOk())
          Error = S;
        if (S.Code == ErrorCode::LaunchFailure || S.Code == ErrorCode::Assert) {
          Poisoned = true;
          Dev.setFault(S);
        }
      }
      if (Tasks.empty())
        IdleCV.notify_all();
    }
  }
}

Status CPUQueue::synchronize() {
  std::unique_lock<std::mutex> Lock(M);
  IdleCV.wait(Lock, [&] { return Tasks.empty() && !Running; });
  Status S = Error;
  Error = Status();
  Poisoned = false;
  Lock.unlock();
  return S ? S : Dev.fault();
}

Status CPUQueue::query() {
  std::unique_lock<std::mutex> Lock(M);
  if (!Tasks.empty() || Running)
    return Status(ErrorCode::NotReady, "stream busy");
  Status S = Error;
  Error = Status();
  Lock.unlock();
  return S ? S : Dev.fault();
}

Status CPUQueue::launch(Kernel &K, const LaunchParams &P) {
  auto &CK = static_cast<CPUKernel &>(K);
  auto Args = std::make_shared<ArgPack>(CK.info(), P.Args);
  LaunchParams Copy = P;
  Copy.Args = nullptr;
  push([this, &CK, Copy, Args] { return Dev.runGrid(CK, Copy, *Args); });
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// The backend
//===----------------------------------------------------------------------===//

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
