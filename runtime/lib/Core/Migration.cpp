//===- Migration.cpp - Live migration of running kernels ------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// HETGPU_MIGRATE parsing, the checkpoint format and the migratable launch
/// loop (docs/Migration.md).
///
//===----------------------------------------------------------------------===//

#include "Core/Migration.h"
#include "Core/CudaErrors.h"
#include "Core/Log.h"
#include "Core/Runtime.h"
#include "Core/UnifiedMemory.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <thread>

using namespace hetgpu;
using namespace hetgpu::rt;

namespace {

std::mutex StatsM;
MigrationStats Stats;

double msSince(std::chrono::steady_clock::time_point T0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - T0)
      .count();
}

bool parseUInt(const std::string &S, uint64_t &Out) {
  if (S.empty())
    return false;
  char *End = nullptr;
  Out = strtoull(S.c_str(), &End, 0);
  return End && *End == 0;
}

//===--- Checkpoint byte stream ------------------------------------------===//

class Writer {
public:
  std::vector<char> B;
  void u32(uint32_t V) { raw(&V, 4); }
  void u64(uint64_t V) { raw(&V, 8); }
  void raw(const void *P, size_t N) {
    const char *C = static_cast<const char *>(P);
    B.insert(B.end(), C, C + N);
  }
  void bytes(const std::vector<char> &V) {
    u64(V.size());
    raw(V.data(), V.size());
  }
  void str(const std::string &S) {
    u64(S.size());
    raw(S.data(), S.size());
  }
};

class Reader {
public:
  Reader(const char *P, size_t N) : P(P), N(N) {}
  bool Ok = true;
  uint32_t u32() {
    uint32_t V = 0;
    raw(&V, 4);
    return V;
  }
  uint64_t u64() {
    uint64_t V = 0;
    raw(&V, 8);
    return V;
  }
  void raw(void *D, size_t K) {
    if (!Ok || K > N - Off) {
      Ok = false;
      return;
    }
    memcpy(D, P + Off, K);
    Off += K;
  }
  void bytes(std::vector<char> &V) {
    uint64_t K = u64();
    if (!Ok || K > N - Off) {
      Ok = false;
      return;
    }
    V.assign(P + Off, P + Off + K);
    Off += K;
  }
  void str(std::string &S) {
    std::vector<char> V;
    bytes(V);
    S.assign(V.begin(), V.end());
  }
  bool atEnd() const { return Off == N; }

private:
  const char *P;
  size_t N;
  size_t Off = 0;
};

/// Checkpoint checksum: FNV-1a-64 over little-endian 64-bit words (then the
/// tail bytes); 8x fewer multiplies than byte-wise FNV on large images.
uint64_t checksum(const char *P, size_t N) {
  uint64_t H = 0xcbf29ce484222325ull;
  size_t I = 0;
  for (; I + 8 <= N; I += 8) {
    uint64_t W;
    memcpy(&W, P + I, 8);
    H = (H ^ W) * 0x100000001b3ull;
  }
  for (; I < N; ++I)
    H = (H ^ static_cast<unsigned char>(P[I])) * 0x100000001b3ull;
  return H;
}

} // namespace

MigrationConfig hetgpu::rt::parseMigrationSpec(const std::string &Spec) {
  MigrationConfig C;
  std::stringstream SS(Spec);
  std::string Part;
  bool First = true;
  while (std::getline(SS, Part, ':')) {
    std::string Key = Part, Val;
    if (size_t Eq = Part.find('='); Eq != std::string::npos) {
      Key = Part.substr(0, Eq);
      Val = Part.substr(Eq + 1);
    }
    uint64_t N = 0;
    if (First && Key == "random" && Val.empty()) {
      C.Mode = MigrationConfig::Trigger::Random;
    } else if (First && Key == "on" && Val.empty()) {
      C.Mode = MigrationConfig::Trigger::None;
    } else if (First && Key == "after_ms" && parseUInt(Val, N)) {
      C.Mode = MigrationConfig::Trigger::AfterMs;
      C.AfterMs = unsigned(N);
    } else if (!First && Key == "seed" && parseUInt(Val, N)) {
      C.Seed = N;
    } else if (!First && Key == "to" && !Val.empty()) {
      std::stringstream TS(Val);
      std::string D;
      while (std::getline(TS, D, ','))
        if (!D.empty())
          C.To.push_back(D);
    } else if (!First && Key == "file" && !Val.empty()) {
      C.File = Val;
    } else if (!First && Key == "fault" &&
               (Val == "truncate" || Val == "flip" || Val == "version")) {
      C.Fault = Val;
    } else if (!First && Key == "verbose" && Val.empty()) {
      C.Verbose = true;
    } else if (!First && Key == "sync" && Val.empty()) {
      C.Sync = true;
    } else {
      C.Error = "HETGPU_MIGRATE='" + Spec + "': cannot parse '" + Part +
                "' (expected after_ms=N|random|on, then :seed=S :to=DEVICE "
                ":file=PATH :verbose :sync; to= takes device names or indices, "
                "comma-separated)";
      return C;
    }
    First = false;
  }
  if (First) {
    C.Error = "HETGPU_MIGRATE is empty";
    return C;
  }
  C.Enabled = true;
  return C;
}

const MigrationConfig &hetgpu::rt::migrationConfig() {
  static const MigrationConfig C = [] {
    const char *E = getenv("HETGPU_MIGRATE");
    if (!E)
      return MigrationConfig();
    MigrationConfig R = parseMigrationSpec(E);
    if (!R.Error.empty())
      log(LogLevel::Error, R.Error + "; live migration is disabled");
    return R;
  }();
  return C;
}

container::ModuleInfo
hetgpu::rt::instrumentedModuleInfo(const container::ModuleInfo &MI) {
  container::ModuleInfo R = MI;
  for (container::KernelInfo &K : R.Kernels)
    container::appendMigrationParams(K);
  return R;
}

std::vector<char> hetgpu::rt::serializeCheckpoint(const Checkpoint &C) {
  // One buffer: the header's size and checksum are filled in at the end.
  Writer P;
  size_t Total = C.State.size() + C.Args.size() + C.Kernel.size() + 160;
  for (const CheckpointAlloc &A : C.Allocs)
    Total += A.Bytes.size() + 16;
  P.B.reserve(Total);
  P.u32(CheckpointMagic);
  P.u32(CheckpointVersion);
  P.u64(0);
  P.u64(0);
  P.str(C.Kernel);
  P.u32(C.CudaDevice);
  P.str(C.TakenOn);
  for (uint32_t V : C.Grid)
    P.u32(V);
  for (uint32_t V : C.Block)
    P.u32(V);
  P.u64(C.DynShared);
  P.bytes(C.Args);
  P.bytes(C.State);
  P.u64(C.Allocs.size());
  for (const CheckpointAlloc &A : C.Allocs) {
    P.u64(A.Base);
    P.bytes(A.Bytes);
  }
  uint64_t Size = P.B.size() - 24, Sum = checksum(P.B.data() + 24, Size);
  memcpy(P.B.data() + 8, &Size, 8);
  memcpy(P.B.data() + 16, &Sum, 8);
  return std::move(P.B);
}

Status hetgpu::rt::parseCheckpoint(const std::vector<char> &Bytes,
                                   Checkpoint &Out) {
  auto Bad = [](const std::string &Why) {
    return Status(ErrorCode::InvalidValue, "checkpoint refused: " + Why);
  };
  Reader H(Bytes.data(), Bytes.size());
  uint32_t Magic = H.u32(), Version = H.u32();
  uint64_t Size = H.u64(), Sum = H.u64();
  if (!H.Ok)
    return Bad("truncated header (" + std::to_string(Bytes.size()) + " bytes)");
  if (Magic != CheckpointMagic)
    return Bad("not a hetGPU checkpoint (bad magic)");
  if (Version != CheckpointVersion)
    return Bad("format version " + std::to_string(Version) +
               ", this runtime reads version " +
               std::to_string(CheckpointVersion));
  if (Bytes.size() - 24 != Size)
    return Bad("payload is " + std::to_string(Bytes.size() - 24) +
               " bytes, the header says " + std::to_string(Size) +
               " (truncated file?)");
  const char *P = Bytes.data() + 24;
  if (checksum(P, Size) != Sum)
    return Bad("checksum mismatch (corrupted file)");
  Reader R(P, Size);
  Checkpoint C;
  R.str(C.Kernel);
  C.CudaDevice = R.u32();
  R.str(C.TakenOn);
  for (uint32_t &V : C.Grid)
    V = R.u32();
  for (uint32_t &V : C.Block)
    V = R.u32();
  C.DynShared = R.u64();
  R.bytes(C.Args);
  R.bytes(C.State);
  uint64_t N = R.u64();
  for (uint64_t I = 0; R.Ok && I < N; ++I) {
    CheckpointAlloc A;
    A.Base = R.u64();
    R.bytes(A.Bytes);
    C.Allocs.push_back(std::move(A));
  }
  if (!R.Ok || !R.atEnd())
    return Bad("malformed payload");
  Out = std::move(C);
  return Status::ok();
}

MigrationStats hetgpu::rt::migrationStats() {
  std::lock_guard<std::mutex> L(StatsM);
  return Stats;
}

namespace {

/// The yield flag of a watched launch, raised by the host while the kernel
/// runs: a plain store when the control block is host memory (devices that
/// share the arena), else a one-byte memset on a second queue of the device
/// (the launch's own queue is busy with the kernel; NVIDIA streams are
/// non-blocking, so the copy engine writes the word while the kernel runs,
/// and the kernel's volatile load sees it at its next loop safe point).
struct YieldFlag {
  volatile uint32_t *Host = nullptr;
  Queue *Side = nullptr;
  void *Word = nullptr;
  std::mutex M;
  bool Raised = false;

  bool usable() const { return Host || Side; }
  void raise() {
    std::lock_guard<std::mutex> L(M);
    Raised = true;
    if (Host)
      *Host = 1;
    else if (Side)
      if (Status S = Side->memset(Word, 1, 1)) // the flag was 0: now 1
        log(LogLevel::Error, "live migration: cannot raise the yield flag of "
                             "the running launch: " +
                                 S.Message);
  }
  bool raised() {
    std::lock_guard<std::mutex> L(M);
    return Raised;
  }
  /// After the launch: a memset still queued must not reach the next
  /// launch's control block.
  Status settle() {
    std::lock_guard<std::mutex> L(M);
    return Side && Raised ? Side->synchronize() : Status::ok();
  }
};

/// A second queue per device for YieldFlag (created on first use).
struct SideQueue {
  std::shared_ptr<Device> Dev;
  std::unique_ptr<Queue> Q;
};
std::mutex SideM;
std::vector<SideQueue> SideQueues;

Queue *sideQueue(const std::shared_ptr<Device> &Dev) {
  std::lock_guard<std::mutex> L(SideM);
  for (SideQueue &E : SideQueues)
    if (E.Dev == Dev)
      return E.Q.get();
  std::unique_ptr<Queue> Q;
  if (Dev->createQueue(Q))
    return nullptr;
  SideQueues.push_back({Dev, std::move(Q)});
  return SideQueues.back().Q.get();
}

/// The after_ms trigger: a host thread that raises the yield flag of the
/// launch in flight once, N ms after the first migratable launch; between
/// launches the next launch yields at its first safe point.
struct AfterMsTrigger {
  std::mutex M;
  YieldFlag *Flag = nullptr; ///< the running launch's yield flag
  bool Started = false, Fired = false, Pending = false;

  void start(unsigned Ms) {
    std::lock_guard<std::mutex> L(M);
    if (Started)
      return;
    Started = true;
    std::thread([this, Ms] {
      std::this_thread::sleep_for(std::chrono::milliseconds(Ms));
      std::lock_guard<std::mutex> L(M);
      Fired = true;
      if (Flag)
        Flag->raise();
      else
        Pending = true;
      if (migrationConfig().Verbose)
        fprintf(stderr, "hetgpu-migrate: after_ms: yield flag raised %s\n",
                Flag ? "while a launch runs" : "between launches");
    }).detach();
  }
  /// The flag was set while a launch ran but every block had passed its
  /// last safe point: the next launch yields instead.
  void rearm() {
    std::lock_guard<std::mutex> L(M);
    Pending = true;
  }
  /// Whether the trigger fired between launches (consumed).
  bool takePending() {
    std::lock_guard<std::mutex> L(M);
    bool P = Pending;
    Pending = false;
    return P;
  }
  /// \p F: the yield flag of the launch now running, when the host can
  /// raise it while the kernel runs.
  void enter(YieldFlag *F) {
    std::lock_guard<std::mutex> L(M);
    Flag = F;
  }
  void leave() {
    std::lock_guard<std::mutex> L(M);
    Flag = nullptr;
  }
};

AfterMsTrigger &afterMs() {
  static AfterMsTrigger *T = new AfterMsTrigger();
  return *T;
}

/// Requests of the public API (hetgpuMigrateDevice, hetgpuCheckpoint) for a
/// launch in flight on another host thread.
struct Running {
  StreamObj *S = nullptr;
  YieldFlag *Flag = nullptr; ///< raisable while the launch runs, or null
  int MoveTo = -1;                   ///< context to move to
  std::string CheckpointTo;          ///< file to write the checkpoint to
  std::vector<char> *CheckpointBuf = nullptr;
  bool Served = false;
  Status Result;
};
std::mutex RunM;
std::condition_variable RunCV;
std::map<DeviceContext *, Running *> InFlight;

/// State buffers and control blocks kept per device between migratable
/// launches: allocating them per launch (device memory mapped at arena
/// addresses on a GPU) cost more than most kernels.
struct PooledBuffers {
  std::shared_ptr<Device> Dev;
  void *State = nullptr;
  uint64_t Bytes = 0;
  void *Ctrl = nullptr;
  bool Busy = false;
};
std::mutex PoolM;
std::vector<PooledBuffers> Pool;

/// Takes a free entry of \p Dev with at least \p Bytes of state buffer
/// (growing or creating one); \p Slot is its index.
Status takeBuffers(const std::shared_ptr<Device> &Dev, uint64_t Bytes,
                   void *&State, void *&Ctrl, size_t &Slot) {
  std::lock_guard<std::mutex> L(PoolM);
  size_t Pick = Pool.size();
  for (size_t I = 0; I < Pool.size(); ++I)
    if (Pool[I].Dev == Dev && !Pool[I].Busy &&
        (Pick == Pool.size() || Pool[I].Bytes >= Bytes))
      Pick = I;
  if (Pick == Pool.size()) {
    Pool.push_back(PooledBuffers());
    Pool.back().Dev = Dev;
  }
  PooledBuffers &E = Pool[Pick];
  if (E.Bytes < Bytes) {
    if (E.State)
      Dev->release(E.State);
    E.State = nullptr;
    E.Bytes = 0;
    if (Status St = Dev->allocate(Bytes, E.State))
      return St;
    E.Bytes = Bytes;
  }
  if (!E.Ctrl)
    if (Status St = Dev->allocate(sizeof(MigrationControl), E.Ctrl))
      return St;
  E.Busy = true;
  State = E.State;
  Ctrl = E.Ctrl;
  Slot = Pick;
  return Status::ok();
}

/// The control block of unwatched launches, one per device: all zero (round
/// 0, no yield flag, no trigger), never written after it is cleared, so
/// every asynchronous launch may share it.
struct IdleControl {
  std::shared_ptr<Device> Dev;
  void *Ctrl = nullptr;
};
std::vector<IdleControl> IdleCtrls;

Status idleControl(const std::shared_ptr<Device> &Dev, Queue &Q, void *&Out) {
  std::lock_guard<std::mutex> L(PoolM);
  for (IdleControl &E : IdleCtrls)
    if (E.Dev == Dev) {
      Out = E.Ctrl;
      return Status::ok();
    }
  void *Ctrl = nullptr;
  if (Status St = Dev->allocate(sizeof(MigrationControl), Ctrl))
    return St;
  MigrationControl Zero = {};
  if (Status St = Q.memcpy(Ctrl, &Zero, sizeof Zero, CopyKind::HostToDevice))
    return St;
  if (Status St = Q.synchronize())
    return St;
  IdleCtrls.push_back({Dev, Ctrl});
  Out = Ctrl;
  return Status::ok();
}

void returnBuffers(size_t Slot) {
  std::lock_guard<std::mutex> L(PoolM);
  if (Slot < Pool.size())
    Pool[Slot].Busy = false;
}

std::mt19937_64 &rng() {
  static std::mt19937_64 G(migrationConfig().Seed);
  return G;
}

Status copyIn(Queue &Q, void *Dst, const void *Src, size_t N) {
  if (!N)
    return Status::ok();
  if (Status S = Q.memcpy(Dst, Src, N, CopyKind::HostToDevice))
    return S;
  return Q.synchronize();
}
Status copyOut(Queue &Q, void *Dst, const void *Src, size_t N) {
  if (!N)
    return Status::ok();
  if (Status S = Q.memcpy(Dst, Src, N, CopyKind::DeviceToHost))
    return S;
  return Q.synchronize();
}

std::string hexAddr(uint64_t V) {
  char B[32];
  snprintf(B, sizeof B, "0x%llx", (unsigned long long)V);
  return B;
}

/// The device and module allocations of CUDA device \p Index.
std::vector<Allocation> contextAllocations(int Index) {
  std::vector<Allocation> R;
  Runtime &RT = Runtime::get();
  std::lock_guard<std::mutex> L(RT.AllocM);
  for (auto &[Base, A] : RT.Allocs)
    if (A.Device == Index &&
        (A.Kind == AllocKind::Device || A.Kind == AllocKind::Managed))
      R.push_back(A);
  return R;
}

Status writeFile(const std::string &Path, const std::vector<char> &Bytes) {
  std::ofstream OS(Path, std::ios::binary | std::ios::trunc);
  OS.write(Bytes.data(), Bytes.size());
  OS.close();
  if (!OS)
    return Status(ErrorCode::InvalidValue, "cannot write checkpoint " + Path);
  return Status::ok();
}

Status readFile(const std::string &Path, std::vector<char> &Bytes) {
  std::ifstream IS(Path, std::ios::binary | std::ios::ate);
  if (!IS)
    return Status(ErrorCode::InvalidValue, "cannot open checkpoint " + Path);
  Bytes.resize(size_t(IS.tellg()));
  IS.seekg(0);
  IS.read(Bytes.data(), Bytes.size());
  return Status::ok();
}

/// Copies the bytes of every allocation of \p Ctx into \p C.
Status captureAllocations(DeviceContext &Ctx, Queue &Q, Checkpoint &C) {
  for (const Allocation &A : contextAllocations(Ctx.Index)) {
    CheckpointAlloc CA;
    CA.Base = A.Base;
    CA.Bytes.resize(A.Size);
    if (Status S = copyOut(Q, CA.Bytes.data(),
                           reinterpret_cast<void *>(A.Base), A.Size))
      return S;
    C.Allocs.push_back(std::move(CA));
  }
  return Status::ok();
}

/// Refuses a checkpoint whose allocations are not live allocations of the
/// same size on CUDA device \p Index (nothing is written then).
Status checkAllocationsMatch(const Checkpoint &C, int Index) {
  std::map<uintptr_t, size_t> Live;
  for (const Allocation &A : contextAllocations(Index))
    Live[A.Base] = A.Size;
  for (const CheckpointAlloc &CA : C.Allocs) {
    auto It = Live.find(CA.Base);
    if (It == Live.end() || It->second != CA.Bytes.size())
      return Status(ErrorCode::InvalidValue,
                    "checkpoint refused: its allocation at " +
                        hexAddr(CA.Base) + " (" +
                        std::to_string(CA.Bytes.size()) +
                        " bytes) is not a live allocation of that size on "
                        "device " +
                        std::to_string(Index));
  }
  return Status::ok();
}

} // namespace

//===--- Moving a context between devices ---------------------------------===//

Status hetgpu::rt::moveContext(DeviceContext &Ctx, DeviceContext &To,
                               bool CopyData, std::string *Summary,
                               uint64_t *BytesCopied) {
  Runtime &RT = Runtime::get();
  std::lock_guard<std::recursive_mutex> Lock(Ctx.M);
  std::shared_ptr<Device> Src = Ctx.Dev, Dst = To.Home;
  if (Src == Dst)
    return Status::ok();
  const std::string SrcName = Src->properties().Name,
                    DstName = Dst->properties().Name;
  auto Refuse = [&](const std::string &Why) {
    return Status(ErrorCode::NotSupported,
                  "cannot migrate device " + std::to_string(Ctx.Index) +
                      " from " + SrcName + " to " + DstName + ": " + Why);
  };
  // Work queued before the move finishes on the source; its results move
  // with the memory.
  if (Status S = Src->synchronize())
    return S;

  // The plan, checked before anything changes.
  std::vector<Allocation> All = contextAllocations(Ctx.Index), Allocs,
                          Managed;
  for (const Allocation &A : All)
    (A.Kind == AllocKind::Managed ? Managed : Allocs).push_back(A);
  Arena &AR = Arena::get();
  bool SrcShares = Src->sharesArena(), DstShares = Dst->sharesArena();
  bool Copy = !(SrcShares && DstShares);
  if (Copy && !DstShares)
    if (Status S = Dst->attachArenaRange(nullptr, 0))
      return Refuse(S.Message);
  if (Copy && !SrcShares)
    if (Status S = Src->detachArenaRange(nullptr, 0))
      return Refuse(S.Message);
  if (!Managed.empty())
    if (Status S = Dst->attachHostRange(nullptr, 0))
      return Refuse(S.Message);
  std::set<uint64_t> Moving;
  for (const Allocation &A : All) {
    if (!AR.contains(reinterpret_cast<void *>(A.Base)) ||
        AR.allocationSize(A.Base) == 0)
      return Refuse("the allocation at " + hexAddr(A.Base) + " (" +
                    std::to_string(A.Size) +
                    " bytes) is not in the unified address space (" +
                    std::string("the device did not allocate it from "
                                "the arena") +
                    ")");
    Moving.insert(A.Base);
  }
  // Chunks lent to a device with memory of its own must hold nothing else.
  if (Copy && !DstShares)
    for (const Allocation &A : Allocs) {
      uint64_t Off = A.Base - AR.base(), First, Last;
      Arena::chunkRange(Off, A.Size, First, Last);
      for (uint64_t Ch = First; Ch <= Last; ++Ch)
        for (auto &[B, N] :
             AR.overlapping(AR.base() + Ch * Arena::ChunkBytes,
                            Arena::ChunkBytes))
          if (!Moving.count(B))
            return Refuse("the arena chunk of the allocation at " +
                          hexAddr(A.Base) + " also holds " + hexAddr(B) +
                          " (" + std::to_string(N) +
                          " bytes) of another device");
    }

  std::unique_ptr<Queue> SQ;
  if (Status S = Src->createQueue(SQ))
    return S;
  // `__device__` variables of the loaded modules.
  struct SavedModule {
    BinaryRecord *Bin;
    int Index;
    std::vector<std::pair<std::string, std::vector<char>>> Vars;
  };
  std::vector<SavedModule> Mods;
  for (auto &[Key, LM] : Ctx.Modules) {
    if (!LM.M)
      continue;
    SavedModule SM{const_cast<BinaryRecord *>(Key.first), Key.second, {}};
    for (const container::GlobalInfo &G :
         Key.first->C.Modules[Key.second].Globals) {
      void *Addr = nullptr;
      size_t Size = 0;
      if (LM.M->getGlobal(G.Name, Addr, Size) || !Addr)
        continue;
      std::vector<char> Bytes(Size);
      if (Status S = copyOut(*SQ, Bytes.data(), Addr, Size))
        return S;
      SM.Vars.push_back({G.Name, std::move(Bytes)});
    }
    Mods.push_back(std::move(SM));
  }
  // Between host memory and a device with its own memory the bytes go
  // straight between the device and the arena file, through a second host
  // mapping of it (Arena::alias): one copy at link speed. Otherwise (two
  // devices with memory of their own) through host buffers.
  bool Direct = Copy && CopyData && SrcShares != DstShares;
  // Between two devices with memory of their own (GPU -> GPU) the backend
  // may move each allocation itself, device to device (peer-to-peer).
  bool Peer = Copy && CopyData && !SrcShares && !DstShares &&
              Src->transferArenaRange(*Dst, nullptr, 0).isOk();
  std::vector<std::vector<char>> Data;
  uint64_t Bytes = 0;
  if (Copy && CopyData && !Direct && !Peer)
    for (const Allocation &A : Allocs) {
      Data.emplace_back(A.Size);
      if (Status S = copyOut(*SQ, Data.back().data(),
                             reinterpret_cast<void *>(A.Base), A.Size))
        return S;
      Bytes += A.Size;
    }
  std::unique_ptr<Queue> DQ;
  if (Status S = Dst->createQueue(DQ))
    return S;

  // From here on the context changes device.
  Ctx.Modules.clear();
  // Managed memory is host memory of the arena everywhere: it only changes
  // which device's kernels may reach it.
  for (const Allocation &A : Managed) {
    void *P = reinterpret_cast<void *>(A.Base);
    if (Status S = Src->detachHostRange(P))
      return S;
    if (Status S = Dst->attachHostRange(P, AR.allocationSize(A.Base)))
      return S;
  }
  if (Copy)
    for (const Allocation &A : Allocs) {
      void *P = reinterpret_cast<void *>(A.Base);
      if (Peer) {
        if (Status S = Src->transferArenaRange(*Dst, P, A.Size))
          return S;
        Bytes += A.Size;
        continue;
      }
      void *MapBase = nullptr;
      size_t MapLen = 0;
      void *Alias = nullptr;
      if (Direct) {
        Alias = AR.alias(A.Base, A.Size, MapBase, MapLen);
        if (!Alias)
          return Status(ErrorCode::OutOfMemory,
                        "migration: cannot map the arena bytes of " +
                            hexAddr(A.Base));
      }
      Status S;
      if (!SrcShares) {
        if (Direct) // device -> file bytes, then the host maps them there
          S = copyOut(*SQ, Alias, P, A.Size);
        if (S.isOk())
          S = Src->detachArenaRange(P, A.Size);
      }
      if (S.isOk() && !DstShares) {
        S = Dst->attachArenaRange(P, A.Size);
        if (S.isOk() && Direct) { // file bytes -> device, then drop them
          S = copyIn(*DQ, P, Alias, A.Size);
          AR.discard(A.Base, A.Size);
        }
      }
      Arena::unalias(MapBase, MapLen);
      if (S)
        return S;
      if (Direct)
        Bytes += A.Size;
    }
  SQ.reset();
  Ctx.Dev = Dst;
  Ctx.Backend = To.HomeBackend;
  std::vector<StreamObj *> Streams(Ctx.Streams.begin(), Ctx.Streams.end());
  if (Ctx.NullStream)
    Streams.push_back(Ctx.NullStream.get());
  for (StreamObj *S : Streams) {
    S->Q.reset();
    S->Marker.reset();
    if (Status St = Dst->createQueue(S->Q))
      return St;
    if (Status St = Dst->createEvent(S->Marker))
      return St;
  }
  {
    std::lock_guard<std::mutex> L(RT.HandleM);
    for (EventObj *E : RT.LiveEvents) {
      if (E->Ctx != &Ctx)
        continue;
      E->E.reset();
      if (Status S = Dst->createEvent(E->E))
        return S;
      // A recorded event is complete (the source drained); so is its
      // replacement, recorded on an idle queue.
      if (E->Recorded)
        if (Status S = DQ->record(*E->E))
          return S;
    }
  }
  for (size_t I = 0; I < Data.size(); ++I)
    if (Status S = copyIn(*DQ, reinterpret_cast<void *>(Allocs[I].Base),
                          Data[I].data(), Data[I].size()))
      return S;
  for (SavedModule &SM : Mods) {
    LoadedModule *LM = nullptr;
    if (cudaError_t E = RT.loadModuleOf(Ctx, *SM.Bin, SM.Index, LM))
      return Status(ErrorCode::NoBinaryForGpu,
                    "migration to " + DstName + ": cannot load a module (" +
                        std::string(cudaErrorNameOrNull(E)) + ")");
    for (auto &[Name, V] : SM.Vars) {
      void *Addr = nullptr;
      size_t Size = 0;
      if (LM->M->getGlobal(Name, Addr, Size) || !Addr)
        continue;
      if (Status S = copyIn(*DQ, Addr, V.data(), std::min(Size, V.size())))
        return S;
      Bytes += V.size();
    }
  }
  if (Status S = DQ->synchronize())
    return S;
  if (BytesCopied)
    *BytesCopied = Bytes;
  if (Summary)
    *Summary = "device " + std::to_string(Ctx.Index) + " moved from " +
               SrcName + " to " + DstName + " (" + To.HomeBackend + "), " +
               std::to_string(Allocs.size()) + " allocations " +
               (Peer   ? "moved device to device"
                : Copy ? "copied"
                       : "kept in place (shared arena)") +
               ", " +
               std::to_string(Managed.size()) +
               " managed allocations kept in host memory, " +
               std::to_string(Mods.size()) + " modules reloaded";
  return Status::ok();
}

//===--- The migratable launch --------------------------------------------===//

namespace {

/// The next device of HETGPU_MIGRATE's to= list (one per migration, in turn).
Status nextTarget(int &To) {
  const MigrationConfig &Cfg = migrationConfig();
  uint64_t N;
  {
    std::lock_guard<std::mutex> L(StatsM);
    N = Stats.Migrations;
  }
  const std::string &T = Cfg.To[N % Cfg.To.size()];
  To = Runtime::get().findContext(T);
  if (To < 0)
    return Status(ErrorCode::InvalidValue,
                  "HETGPU_MIGRATE to=" + T +
                      ": no such device (names: a backend HETGPU_DEVICE "
                      "accepts, or an index)");
  return Status::ok();
}

/// Moves \p Ctx to \p TC for a launch of \p KR. The target must be able to
/// load the kernel (translated and loaded in its own context, cached)
/// before anything moves. Refused before anything changed (the target
/// cannot load the kernel, or moveContext refuses): ok, with the reason in
/// \p Refusal and \p Ctx where it was. An error when the move failed midway
/// or the kernel cannot be loaded where \p Ctx is now; else \p K is that
/// kernel.
Status moveForLaunch(DeviceContext &Ctx, DeviceContext &TC, KernelRecord &KR,
                     Kernel *&K, bool CopyData, std::string &Moved,
                     uint64_t &Bytes, Status &Refusal) {
  Runtime &RT = Runtime::get();
  Kernel *Probe = nullptr;
  if (TC.Home == TC.Dev && RT.getKernel(TC, KR, Probe) != cudaSuccess) {
    Refusal = Status(ErrorCode::NotSupported,
                     "cannot migrate device " + std::to_string(Ctx.Index) +
                         " to " + TC.Home->properties().Name + ": " + KR.Name +
                         " cannot be loaded there (see the error above)");
    return Status::ok();
  }
  std::shared_ptr<Device> Before = Ctx.Dev;
  if (Status St = moveContext(Ctx, TC, CopyData, &Moved, &Bytes)) {
    if (Ctx.Dev != Before)
      return St;
    Refusal = St;
    return Status::ok();
  }
  if (RT.getKernel(Ctx, KR, K) != cudaSuccess)
    return Status(ErrorCode::NoBinaryForGpu, "migration: " + KR.Name +
                                                 " cannot be loaded on " +
                                                 Ctx.Dev->properties().Name);
  return Status::ok();
}

/// Moves \p Ctx to the next to= device before a launch of \p KR (the
/// after_ms trigger fired while no kernel ran); \p K becomes the kernel
/// loaded there. A refused move leaves the launch where it is (logged).
Status moveBetweenLaunches(DeviceContext &Ctx, KernelRecord &KR, Kernel *&K) {
  Runtime &RT = Runtime::get();
  int MoveTo;
  if (Status St = nextTarget(MoveTo))
    return St;
  DeviceContext &TC = *RT.context(MoveTo);
  if (TC.Home == Ctx.Dev)
    return Status::ok();
  auto T0 = std::chrono::steady_clock::now();
  std::string Moved;
  uint64_t Bytes = 0;
  Status Refusal;
  if (Status St = moveForLaunch(Ctx, TC, KR, K, /*CopyData=*/true, Moved, Bytes,
                                Refusal))
    return St;
  if (Refusal) {
    log(LogLevel::Error, Refusal.Message + "; launching " + KR.Name +
                             " on device " + std::to_string(Ctx.Index) + " (" +
                             Ctx.Backend + ")");
    return Status::ok();
  }
  double Ms = msSince(T0);
  {
    std::lock_guard<std::mutex> L(StatsM);
    ++Stats.Migrations;
    Stats.BytesMoved += Bytes;
    Stats.RestoreMs += Ms;
  }
  if (migrationConfig().Verbose)
    fprintf(stderr,
            "hetgpu-migrate: before launching %s (between launches), %llu "
            "bytes in %.3f ms: %s\n",
            KR.Name.c_str(), (unsigned long long)Bytes, Ms, Moved.c_str());
  return Status::ok();
}

} // namespace

Status hetgpu::rt::migratableLaunch(DeviceContext &Ctx, StreamObj &S,
                                    Kernel &K0, KernelRecord &KR,
                                    LaunchParams P,
                                    const std::vector<char> *Resume) {
  const MigrationConfig &Cfg = migrationConfig();
  Runtime &RT = Runtime::get();
  Kernel *K = &K0;
  const std::string &Name = KR.Name;
  if (K0.info().Params.size() < container::MigrationHiddenParams)
    return Status(ErrorCode::LaunchFailure,
                  "migratable launch of " + Name +
                      ": the loaded kernel has no hidden state parameters");

  // No trigger armed: an ordinary asynchronous launch. The kernel reads
  // round 0 and a clear yield flag from the device's idle control block,
  // so it never touches its state buffer (the control block stands in for
  // it). The API then finds no launch to suspend and works on the drained
  // device (moveContext and idle checkpoints wait for queued work).
  if (!Resume && Cfg.Mode == MigrationConfig::Trigger::None && !Cfg.Sync) {
    std::lock_guard<std::recursive_mutex> Lock(Ctx.M);
    void *Ctrl = nullptr;
    if (Status St = idleControl(Ctx.Dev, *S.Q, Ctrl))
      return St;
    size_t NUser = K0.info().Params.size() - container::MigrationHiddenParams;
    void *Hidden[2] = {Ctrl, Ctrl};
    uint32_t Round0 = 0;
    void *Small[16];
    std::vector<void *> Big;
    void **Args = Small;
    if (NUser + container::MigrationHiddenParams > 16) {
      Big.resize(NUser + container::MigrationHiddenParams);
      Args = Big.data();
    }
    std::copy(P.Args, P.Args + NUser, Args);
    Args[NUser] = &Hidden[0];
    Args[NUser + 1] = &Hidden[1];
    Args[NUser + 2] = &Round0;
    P.Args = Args;
    P.State = nullptr;
    {
      std::lock_guard<std::mutex> L(StatsM);
      ++Stats.Launches;
    }
    return S.Q->launch(*K, P);
  }

  if (Status St = S.Q->synchronize())
    return St;
  // The after_ms trigger fired while no kernel ran (or after every block of
  // the last launch had passed its last safe point): the device moves now,
  // between launches, where there is no kernel state to carry.
  if (Cfg.Mode == MigrationConfig::Trigger::AfterMs && !Resume &&
      !Cfg.To.empty() && afterMs().takePending()) {
    if (Status St = moveBetweenLaunches(Ctx, KR, K))
      return St;
  }

  const container::KernelInfo KI = K->info();
  size_t NUser = KI.Params.size() - container::MigrationHiddenParams;

  uint64_t Blocks = uint64_t(P.Grid[0]) * P.Grid[1] * P.Grid[2];
  uint64_t Threads = uint64_t(P.Block[0]) * P.Block[1] * P.Block[2];
  uint64_t BlockBytes = stateBlockBytes(KI.StaticShared, P.DynamicShared,
                                        Threads, KI.StateRecordSize);
  uint64_t StateBytes = Blocks * BlockBytes;
  uint64_t StateAlloc = StateBytes ? StateBytes : 16;
  // Only loop safe points test the yield flag (docs/Migration.md).
  unsigned TestedPoints = 0;
  for (const container::SafePointInfo &SP : KI.SafePoints)
    TestedPoints += SP.Kind == container::SafePointKind::LoopLatch;
  if (Resume && Resume->size() != StateBytes)
    return Status(ErrorCode::InvalidValue,
                  "checkpoint refused: its state buffer has " +
                      std::to_string(Resume->size()) + " bytes, the launch of " +
                      Name + " needs " + std::to_string(StateBytes));

  // State buffer and control block, on the device the context is on now.
  void *State = nullptr, *Ctrl = nullptr;
  size_t Slot = ~size_t(0);
  auto Free = [&] {
    if (State)
      returnBuffers(Slot);
    State = Ctrl = nullptr;
  };
  struct Guard {
    std::function<void()> F;
    ~Guard() { F(); }
  } G{Free};
  auto Acquire = [&]() -> Status {
    return takeBuffers(Ctx.Dev, StateAlloc, State, Ctrl, Slot);
  };
  if (Status St = Acquire())
    return St;
  if (Resume) {
    if (Status St = copyIn(*S.Q, State, Resume->data(), StateBytes))
      return St;
  } else if (Status St = S.Q->memset(State, 0, StateAlloc)) {
    return St;
  }

  // The user's arguments, packed (container offsets) for checkpoints.
  std::vector<char> Packed(KI.ParamBufferSize);
  for (size_t I = 0; I < NUser; ++I) {
    const container::ParamInfo &PI = KI.Params[I];
    if (PI.Offset + PI.Size <= Packed.size())
      memcpy(Packed.data() + PI.Offset, P.Args[I], PI.Size);
  }
  std::vector<void *> Args(P.Args, P.Args + NUser);
  void *Hidden[2] = {State, Ctrl};
  // Round 0 runs fresh on a cleared state buffer; later rounds resume the
  // blocks whose (normalised) status is 1, and a block suspending in round R
  // writes status R + 1.
  uint32_t Round = Resume ? 1 : 0;
  Args.push_back(&Hidden[0]);
  Args.push_back(&Hidden[1]);
  Args.push_back(&Round);
  P.Args = Args.data();
  // The backends see the state buffer as an ordinary argument.
  P.State = nullptr;

  if (Cfg.Mode == MigrationConfig::Trigger::AfterMs)
    afterMs().start(Cfg.AfterMs);
  {
    std::lock_guard<std::mutex> L(StatsM);
    ++Stats.Launches;
  }
  Running Me;
  Me.S = &S;
  struct Unregister {
    DeviceContext &Ctx;
    Running &Me;
    ~Unregister() {
      std::lock_guard<std::mutex> L(RunM);
      auto It = InFlight.find(&Ctx);
      if (It != InFlight.end() && It->second == &Me)
        InFlight.erase(It);
      RunCV.notify_all();
    }
  } Unreg{Ctx, Me};

  std::vector<char> Host; // the state buffer read back, when it may hold news
  unsigned Suspensions = 0;
  for (;;) {
    Hidden[0] = State;
    Hidden[1] = Ctrl;
    // The host raises the yield flag while the kernel runs (YieldFlag).
    YieldFlag YF;
    if (Ctx.Dev->sharesArena() && Arena::get().contains(Ctrl))
      YF.Host = static_cast<volatile uint32_t *>(Ctrl);
    else if ((YF.Side = sideQueue(Ctx.Dev)))
      YF.Word = Ctrl;
    MigrationControl CB = {};
    CB.DynShared = uint32_t(P.DynamicShared);
    // Random safe points: thread 0 of each block counts its visits of loop
    // safe points in the control block; the launch yields at visit
    // YieldAfter, drawn log-uniformly in [1, 2^11] (a launch that ends
    // first just finishes).
    // At most three suspensions per launch keep every launch finite.
    if (Cfg.Mode == MigrationConfig::Trigger::Random && TestedPoints &&
        Suspensions < 3)
      CB.YieldAfter = 1 + uint32_t(rng()() % (uint64_t(1) << (rng()() % 12)));
    // Without a to= device a pending trigger checkpoints this launch at its
    // first safe point instead.
    if (Cfg.Mode == MigrationConfig::Trigger::AfterMs && afterMs().takePending())
      CB.Yield = 1;
    if (Status St = copyIn(*S.Q, Ctrl, &CB, sizeof(CB)))
      return St;
    YieldFlag *Flag = YF.usable() ? &YF : nullptr;
    if (Flag && Cfg.Mode == MigrationConfig::Trigger::AfterMs)
      afterMs().enter(Flag);
    {
      std::lock_guard<std::mutex> L(RunM);
      Me.Flag = Flag;
      InFlight[&Ctx] = &Me;
      if ((Me.MoveTo >= 0 || !Me.CheckpointTo.empty() || Me.CheckpointBuf) &&
          !Me.Served) {
        if (Flag)
          Flag->raise();
        else
          CB.Yield = 1, copyIn(*S.Q, Ctrl, &CB, sizeof(CB));
      }
    }
    Status St = S.Q->launch(*K, P);
    if (St.isOk())
      St = S.Q->synchronize();
    if (Flag && Cfg.Mode == MigrationConfig::Trigger::AfterMs)
      afterMs().leave();
    {
      std::lock_guard<std::mutex> L(RunM);
      Me.Flag = nullptr;
    }
    if (St.isOk())
      St = YF.settle();
    if (St)
      return St;
    // Nothing asked this round to yield (no trigger armed, no request, the
    // host-written flag still clear): every block ran to its end, so the
    // state buffer need not be read back.
    bool MayYield = CB.Yield || CB.YieldAfter || (Flag && Flag->raised());
    if (!StateBytes || !MayYield)
      return Status::ok();
    Host.resize(StateBytes);
    if (Status St2 = copyOut(*S.Q, Host.data(), State, StateBytes))
      return St2;
    // Blocks suspended in this round have status Round + 1; everything else
    // ran to its end (also blocks that finished after an earlier suspension
    // and still carry its status). Normalised to 1 / 0, so whatever resumes
    // from this image runs as round 1.
    uint64_t Suspended = 0;
    for (uint64_t B = 0; B < Blocks; ++B) {
      char *H = Host.data() + B * BlockBytes;
      uint32_t Status_;
      memcpy(&Status_, H, 4);
      uint32_t Norm = Status_ == Round + 1;
      Suspended += Norm;
      memcpy(H, &Norm, 4);
    }
    if (!Suspended) {
      if (Flag && Flag->raised() && !CB.Yield &&
          Cfg.Mode == MigrationConfig::Trigger::AfterMs)
        afterMs().rearm();
      return Status::ok();
    }
    Round = 1;
    ++Suspensions;

    // Where to resume: an API request, else the next device of to=.
    int MoveTo = -1;
    bool ApiImage = false;
    {
      std::lock_guard<std::mutex> L(RunM);
      if (!Me.Served) {
        MoveTo = Me.MoveTo;
        ApiImage = !Me.CheckpointTo.empty() || Me.CheckpointBuf;
      }
    }
    if (MoveTo < 0 && !Cfg.To.empty())
      if (Status St2 = nextTarget(MoveTo))
        return St2;
    bool Moves = MoveTo >= 0 && RT.context(MoveTo)->Home != Ctx.Dev;
    // Between devices that share the arena's host memory the allocations
    // stay where they are: only the state buffer moves, unless a file or
    // the API wants the whole checkpoint.
    bool InPlace = !Moves || (Ctx.Dev->sharesArena() &&
                              RT.context(MoveTo)->Home->sharesArena());
    // A move copies device memory itself (straight between device and
    // arena) unless a file or the API takes the whole checkpoint, which is
    // then what is written back.
    bool Full = !Cfg.File.empty() || ApiImage;
    (void)InPlace;

    // Checkpoint: the state buffer and every allocation of the device.
    auto T0 = std::chrono::steady_clock::now();
    Checkpoint C;
    C.Kernel = Name;
    C.CudaDevice = uint32_t(Ctx.Index);
    C.TakenOn = Ctx.Backend;
    memcpy(C.Grid, P.Grid, sizeof(C.Grid));
    memcpy(C.Block, P.Block, sizeof(C.Block));
    C.DynShared = P.DynamicShared;
    C.Args = Packed;
    C.State = Host;
    if (Full)
      if (Status St2 = captureAllocations(Ctx, *S.Q, C))
        return St2;
    double CopyMs = msSince(T0);
    std::vector<char> Image;
    if (!Cfg.File.empty() || ApiImage)
      Image = serializeCheckpoint(C);
    double SerMs = msSince(T0) - CopyMs;
    std::vector<char> Loaded;
    if (!Cfg.File.empty()) {
      // Test-only fault injection (docs/Migration.md): damage the file.
      std::vector<char> Out = Image;
      if (Cfg.Fault == "truncate")
        Out.resize(Out.size() / 2);
      else if (Cfg.Fault == "flip")
        Out[Out.size() - 1] ^= 0x40;
      else if (Cfg.Fault == "version")
        Out[4] = 99;
      if (Status St2 = writeFile(Cfg.File, Out))
        return St2;
      readFile(Cfg.File, Loaded);
    }
    if (ApiImage) {
      std::lock_guard<std::mutex> L(RunM);
      if (!Me.CheckpointTo.empty())
        Me.Result = writeFile(Me.CheckpointTo, Image);
      if (Me.CheckpointBuf)
        *Me.CheckpointBuf = Image;
    }
    double CkptMs = msSince(T0);

    // Restore: a file is parsed (validated) before anything is written
    // back. A file that is refused leaves the device untouched; the launch
    // then resumes from the in-memory checkpoint, which is what the file
    // should have held.
    auto T1 = std::chrono::steady_clock::now();
    Checkpoint R;
    if (!Cfg.File.empty()) {
      if (Status St2 = parseCheckpoint(Loaded, R)) {
        log(LogLevel::Error, Cfg.File + ": " + St2.Message +
                                 "; resuming from the in-memory checkpoint");
        R = std::move(C);
      }
    } else {
      R = std::move(C);
    }
    std::string Moved;
    double MoveMs = 0;
    uint64_t MoveBytes = 0;
    if (MoveTo >= 0 && RT.context(MoveTo)->Home != Ctx.Dev) {
      auto TM = std::chrono::steady_clock::now();
      // The state buffer is taken again on the device the launch resumes on.
      Free();
      Status Refusal;
      Status MS = moveForLaunch(Ctx, *RT.context(MoveTo), KR, K,
                                /*CopyData=*/!Full, Moved, MoveBytes, Refusal);
      if (MS.isOk() && Refusal) {
        // Refused before anything changed: carry on where the launch was.
        log(LogLevel::Error, Refusal.Message + "; resuming on device " +
                                 std::to_string(Ctx.Index) + " (" +
                                 Ctx.Backend + ")");
        std::lock_guard<std::mutex> L(RunM);
        Me.Result = Refusal;
      }
      if (MS.isOk())
        MS = Acquire();
      if (MS) {
        std::lock_guard<std::mutex> L(RunM);
        Me.Served = true;
        Me.Result = MS;
        return MS;
      }
      MoveMs = msSince(TM);
    }
    {
      std::lock_guard<std::mutex> L(RunM);
      if (Me.MoveTo >= 0 || !Me.CheckpointTo.empty() || Me.CheckpointBuf)
        Me.Served = true;
      RunCV.notify_all();
    }
    uint64_t MovedBytes = R.State.size() + MoveBytes;
    for (const CheckpointAlloc &A : R.Allocs) {
      if (Status St2 = S.Q->memcpy(reinterpret_cast<void *>(A.Base),
                                   A.Bytes.data(), A.Bytes.size(),
                                   CopyKind::HostToDevice))
        return St2;
      MovedBytes += A.Bytes.size();
    }
    if (Status St2 = copyIn(*S.Q, State, R.State.data(), R.State.size()))
      return St2;
    double RestMs = msSince(T1);
    {
      std::lock_guard<std::mutex> L(StatsM);
      ++Stats.Migrations;
      Stats.BytesMoved += MovedBytes;
      Stats.CheckpointMs += CkptMs;
      Stats.RestoreMs += RestMs;
    }
    if (Cfg.Verbose)
      fprintf(stderr,
              "hetgpu-migrate: %s suspended (%llu of %llu blocks at a safe "
              "point), %llu bytes, checkpoint %.3f ms (copy-out "
              "%.3f, serialise %.3f, file %.3f), restore %.3f ms (move %.3f), "
              "resumed on device %d: %s (%s)\n",
              Name.c_str(), (unsigned long long)Suspended,
              (unsigned long long)Blocks, (unsigned long long)MovedBytes,
              CkptMs, CopyMs, SerMs, CkptMs - CopyMs - SerMs, RestMs, MoveMs,
              Ctx.Index, Ctx.Dev->properties().Name.c_str(),
              Ctx.Backend.c_str());
    if (Cfg.Verbose && !Moved.empty())
      fprintf(stderr, "hetgpu-migrate: %s\n", Moved.c_str());
  }
}

//===--- Public API (runtime/include/hetgpu/hetgpu.h) --------------------===//

#define HETGPU_API extern "C" __attribute__((visibility("default")))

namespace {

thread_local std::string LastMigrationError;

int fail(const Status &S) {
  LastMigrationError = S.Message;
  if (S)
    log(LogLevel::Error, S.Message);
  return S.Code == ErrorCode::Success ? 0 : int(toCudaError(S.Code));
}

/// Hands a request to the launch running on \p Ctx (on \p S when given) in
/// another host thread and waits until it is served. False when no launch
/// runs there (or it ended before serving): the caller acts itself.
bool requestFromLaunch(DeviceContext &Ctx, StreamObj *S, int MoveTo,
                       const std::string &Path, std::vector<char> *Buf,
                       Status &Result) {
  std::unique_lock<std::mutex> L(RunM);
  auto It = InFlight.find(&Ctx);
  if (It == InFlight.end() || (S && It->second->S != S))
    return false;
  Running *R = It->second;
  R->MoveTo = MoveTo;
  R->CheckpointTo = Path;
  R->CheckpointBuf = Buf;
  R->Served = false;
  R->Result = Status::ok();
  if (R->Flag)
    R->Flag->raise();
  RunCV.wait(L, [&] {
    auto I = InFlight.find(&Ctx);
    return I == InFlight.end() || I->second != R || R->Served;
  });
  auto I = InFlight.find(&Ctx);
  if (I == InFlight.end() || I->second != R)
    return false;
  Result = R->Result;
  R->MoveTo = -1;
  R->CheckpointTo.clear();
  R->CheckpointBuf = nullptr;
  return true;
}

Status streamOf(void *Stream, StreamObj *&S) {
  if (cudaError_t E = Runtime::get().resolveStream(
          static_cast<cudaStream_t>(Stream), S))
    return Status(ErrorCode::InvalidValue,
                  std::string("hetgpu: invalid stream (") +
                      cudaErrorNameOrNull(E) + ")");
  return Status::ok();
}

Status checkpointStream(void *Stream, const std::string &Path,
                        std::vector<char> *Buf) {
  if (!migrationEnabled())
    return Status(ErrorCode::NotSupported,
                  "hetgpu: checkpoints need a migratable process "
                  "(HETGPU_MIGRATE, e.g. HETGPU_MIGRATE=on)");
  StreamObj *S;
  if (Status St = streamOf(Stream, S))
    return St;
  DeviceContext &Ctx = *S->Ctx;
  Status R;
  if (requestFromLaunch(Ctx, S, -1, Path, Buf, R))
    return R;
  // No watched launch runs on the stream: the device's memory alone, once
  // every queued kernel of the device (asynchronous launches included) has
  // finished.
  std::lock_guard<std::recursive_mutex> Lock(Ctx.M);
  if (Status St = Ctx.Dev->synchronize())
    return St;
  Checkpoint C;
  C.CudaDevice = uint32_t(Ctx.Index);
  C.TakenOn = Ctx.Backend;
  if (Status St = captureAllocations(Ctx, *S->Q, C))
    return St;
  std::vector<char> Image = serializeCheckpoint(C);
  if (Buf)
    *Buf = Image;
  return Path.empty() ? Status::ok() : writeFile(Path, Image);
}

Status restoreImage(const std::vector<char> &Image, const char *Target) {
  if (!migrationEnabled())
    return Status(ErrorCode::NotSupported,
                  "hetgpu: restoring needs a migratable process "
                  "(HETGPU_MIGRATE, e.g. HETGPU_MIGRATE=on)");
  Runtime &RT = Runtime::get();
  if (RT.init() != cudaSuccess)
    return Status(ErrorCode::NotSupported, "hetgpu: no device");
  Checkpoint C;
  if (Status St = parseCheckpoint(Image, C))
    return St;
  DeviceContext *Ctx = RT.context(int(C.CudaDevice));
  if (!Ctx || int(C.CudaDevice) >= RT.deviceCount())
    return Status(ErrorCode::InvalidValue,
                  "checkpoint refused: it belongs to device " +
                      std::to_string(C.CudaDevice) +
                      ", which this process does not have");
  if (Status St = checkAllocationsMatch(C, Ctx->Index))
    return St;
  KernelRecord *KR = nullptr;
  if (!C.Kernel.empty()) {
    std::lock_guard<std::mutex> L(RT.RegM);
    for (auto &[Stub, Rec] : RT.Kernels)
      if (Rec.Name == C.Kernel)
        KR = &Rec;
    if (!KR || !KR->Info)
      return Status(ErrorCode::InvalidValue,
                    "checkpoint refused: kernel " + C.Kernel +
                        " is not registered in this program");
    if (C.Args.size() < KR->Info->ParamBufferSize)
      return Status(ErrorCode::InvalidValue,
                    "checkpoint refused: the arguments of " + C.Kernel +
                        " do not match its parameters");
  }
  if (Target && *Target) {
    int To = RT.findContext(Target);
    if (To < 0)
      return Status(ErrorCode::InvalidValue,
                    std::string("hetgpu: no device '") + Target + "'");
    if (Status St = moveContext(*Ctx, *RT.context(To), /*CopyData=*/false))
      return St;
  }
  StreamObj *S;
  if (Status St = streamOf(nullptr, S))
    return St;
  if (S->Ctx != Ctx)
    return Status(ErrorCode::InvalidValue,
                  "hetgpu: restore device " + std::to_string(Ctx->Index) +
                      " while it is the current device (cudaSetDevice)");
  for (const CheckpointAlloc &A : C.Allocs)
    if (Status St = copyIn(*S->Q, reinterpret_cast<void *>(A.Base),
                           A.Bytes.data(), A.Bytes.size()))
      return St;
  if (!KR)
    return Status::ok();
  Kernel *Kn = nullptr;
  if (RT.getKernel(*Ctx, *KR, Kn) != cudaSuccess)
    return Status(ErrorCode::NoBinaryForGpu,
                  "hetgpu: cannot load " + C.Kernel + " on device " +
                      std::to_string(Ctx->Index));
  LaunchParams P;
  memcpy(P.Grid, C.Grid, sizeof(P.Grid));
  memcpy(P.Block, C.Block, sizeof(P.Block));
  P.DynamicShared = C.DynShared;
  std::vector<void *> Args;
  for (const container::ParamInfo &PI : KR->Info->Params)
    Args.push_back(const_cast<char *>(C.Args.data()) + PI.Offset);
  P.Args = Args.data();
  return migratableLaunch(*Ctx, *S, *Kn, *KR, P, &C.State);
}

} // namespace

HETGPU_API int hetgpuMigrationEnabled(void) { return migrationEnabled(); }

HETGPU_API void hetgpuMigrationGetStats(unsigned long long *Launches,
                                        unsigned long long *Migrations,
                                        unsigned long long *BytesMoved,
                                        double *CheckpointMs,
                                        double *RestoreMs) {
  MigrationStats S = migrationStats();
  if (Launches)
    *Launches = S.Launches;
  if (Migrations)
    *Migrations = S.Migrations;
  if (BytesMoved)
    *BytesMoved = S.BytesMoved;
  if (CheckpointMs)
    *CheckpointMs = S.CheckpointMs;
  if (RestoreMs)
    *RestoreMs = S.RestoreMs;
}

HETGPU_API int hetgpuCheckpointValidate(const char *Path, const char **Why) {
  static thread_local std::string Reason;
  Reason.clear();
  std::vector<char> Bytes;
  if (Status S = readFile(Path ? Path : "", Bytes)) {
    Reason = S.Message;
  } else {
    Checkpoint C;
    if (Status S = parseCheckpoint(Bytes, C))
      Reason = S.Message;
  }
  if (Why)
    *Why = Reason.c_str();
  return Reason.empty() ? 0 : -1;
}

HETGPU_API int hetgpuMigrateDevice(int Device, const char *Target) {
  LastMigrationError.clear();
  if (!migrationEnabled())
    return fail(Status(ErrorCode::NotSupported,
                       "hetgpuMigrateDevice needs a migratable process "
                       "(HETGPU_MIGRATE, e.g. HETGPU_MIGRATE=on)"));
  Runtime &RT = Runtime::get();
  if (RT.init() != cudaSuccess)
    return fail(Status(ErrorCode::NotSupported, "hetgpu: no device"));
  DeviceContext *Ctx =
      Device < RT.deviceCount() ? RT.context(Device) : nullptr;
  int To = RT.findContext(Target ? Target : "");
  if (!Ctx || To < 0)
    return fail(Status(ErrorCode::InvalidValue,
                       "hetgpuMigrateDevice(" + std::to_string(Device) +
                           ", " + (Target ? Target : "(null)") +
                           "): no such device"));
  Status R;
  if (requestFromLaunch(*Ctx, nullptr, To, "", nullptr, R))
    return fail(R);
  auto T0 = std::chrono::steady_clock::now();
  std::string Summary;
  R = moveContext(*Ctx, *RT.context(To), /*CopyData=*/true, &Summary);
  if (R.isOk() && migrationConfig().Verbose)
    fprintf(stderr, "hetgpu-migrate: %s in %.3f ms\n", Summary.c_str(),
            msSince(T0));
  return fail(R);
}

HETGPU_API int hetgpuCheckpoint(void *Stream, const char *Path) {
  LastMigrationError.clear();
  if (!Path || !*Path)
    return fail(Status(ErrorCode::InvalidValue, "hetgpuCheckpoint: no path"));
  return fail(checkpointStream(Stream, Path, nullptr));
}

HETGPU_API int hetgpuCheckpointToBuffer(void *Stream, void **Buffer,
                                        size_t *Size) {
  LastMigrationError.clear();
  if (!Buffer || !Size)
    return fail(Status(ErrorCode::InvalidValue,
                       "hetgpuCheckpointToBuffer: null output"));
  std::vector<char> Image;
  if (int E = fail(checkpointStream(Stream, "", &Image)))
    return E;
  *Buffer = malloc(Image.size());
  if (!*Buffer)
    return fail(Status(ErrorCode::OutOfMemory, "hetgpuCheckpointToBuffer"));
  memcpy(*Buffer, Image.data(), Image.size());
  *Size = Image.size();
  return 0;
}

HETGPU_API int hetgpuRestore(const char *Path, const char *Target) {
  LastMigrationError.clear();
  std::vector<char> Image;
  if (Status S = readFile(Path ? Path : "", Image))
    return fail(S);
  return fail(restoreImage(Image, Target));
}

HETGPU_API int hetgpuRestoreFromBuffer(const void *Buffer, size_t Size,
                                       const char *Target) {
  LastMigrationError.clear();
  if (!Buffer)
    return fail(Status(ErrorCode::InvalidValue, "hetgpuRestoreFromBuffer"));
  const char *B = static_cast<const char *>(Buffer);
  return fail(restoreImage(std::vector<char>(B, B + Size), Target));
}

HETGPU_API const char *hetgpuMigrationLastError(void) {
  return LastMigrationError.c_str();
}

void hetgpu::rt::releaseMigrationBuffers(Device &D) {
  std::lock_guard<std::mutex> L(PoolM);
  for (size_t I = 0; I < Pool.size();) {
    PooledBuffers &E = Pool[I];
    if (E.Dev.get() != &D || E.Busy) {
      ++I;
      continue;
    }
    if (E.State)
      D.release(E.State);
    if (E.Ctrl)
      D.release(E.Ctrl);
    Pool.erase(Pool.begin() + I);
  }
  for (size_t I = 0; I < IdleCtrls.size();) {
    if (IdleCtrls[I].Dev.get() != &D) {
      ++I;
      continue;
    }
    D.release(IdleCtrls[I].Ctrl);
    IdleCtrls.erase(IdleCtrls.begin() + I);
  }
}
