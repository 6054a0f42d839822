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
#include "Core/Log.h"
#include "Core/Runtime.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <random>
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
    } else if (!First && Key == "to" && parseUInt(Val, N)) {
      C.ToDevice = int(N);
    } else if (!First && Key == "file" && !Val.empty()) {
      C.File = Val;
    } else if (!First && Key == "fault" &&
               (Val == "truncate" || Val == "flip" || Val == "version")) {
      C.Fault = Val;
    } else if (!First && Key == "verbose" && Val.empty()) {
      C.Verbose = true;
    } else {
      C.Error = "HETGPU_MIGRATE='" + Spec + "': cannot parse '" + Part +
                "' (expected after_ms=N|random|on, then :seed=S :to=DEVICE "
                ":file=PATH :verbose)";
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
  for (container::KernelInfo &K : R.Kernels) {
    uint32_t Off = (K.ParamBufferSize + 7) & ~7u;
    for (int I = 0; I < 2; ++I) {
      container::ParamInfo P;
      P.Kind = container::ParamKind::Pointer;
      P.Size = 8;
      P.Align = 8;
      P.Offset = Off;
      Off += 8;
      K.Params.push_back(P);
    }
    K.ParamBufferSize = Off;
  }
  return R;
}

std::vector<char> hetgpu::rt::serializeCheckpoint(const Checkpoint &C) {
  Writer P;
  size_t Total = C.State.size() + C.Args.size() + C.Kernel.size() + 128;
  for (const CheckpointAlloc &A : C.Allocs)
    Total += A.Bytes.size() + 16;
  P.B.reserve(Total);
  P.str(C.Kernel);
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
  Writer W;
  W.B.reserve(P.B.size() + 24);
  W.u32(CheckpointMagic);
  W.u32(CheckpointVersion);
  W.u64(P.B.size());
  W.u64(checksum(P.B.data(), P.B.size()));
  W.raw(P.B.data(), P.B.size());
  return W.B;
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

/// The after_ms trigger: a host thread that sets the yield flag of the
/// launch in flight once, N ms after the first migratable launch.
struct AfterMsTrigger {
  std::mutex M;
  volatile uint32_t *Flag = nullptr; ///< the running launch's yield flag
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
        *Flag = 1;
      else
        Pending = true; // between launches: the next launch yields
    }).detach();
  }
  void enter(volatile uint32_t *F) {
    std::lock_guard<std::mutex> L(M);
    Flag = F;
    if (Pending) {
      *F = 1;
      Pending = false;
    }
  }
  bool leave() {
    std::lock_guard<std::mutex> L(M);
    Flag = nullptr;
    return Fired;
  }
};

AfterMsTrigger &afterMs() {
  static AfterMsTrigger *T = new AfterMsTrigger();
  return *T;
}

std::mt19937_64 &rng() {
  static std::mt19937_64 G(migrationConfig().Seed);
  return G;
}

Status copyIn(Queue &Q, void *Dst, const void *Src, size_t N) {
  if (Status S = Q.memcpy(Dst, Src, N, CopyKind::HostToDevice))
    return S;
  return Q.synchronize();
}
Status copyOut(Queue &Q, void *Dst, const void *Src, size_t N) {
  if (Status S = Q.memcpy(Dst, Src, N, CopyKind::DeviceToHost))
    return S;
  return Q.synchronize();
}

} // namespace

Status hetgpu::rt::migratableLaunch(DeviceContext &Ctx, StreamObj &S,
                                    Kernel &K, const std::string &Name,
                                    LaunchParams P) {
  const MigrationConfig &Cfg = migrationConfig();
  const container::KernelInfo &KI = K.info();
  if (KI.Params.size() < 2)
    return Status(ErrorCode::LaunchFailure,
                  "migratable launch of " + Name +
                      ": the loaded kernel has no hidden state parameters");
  size_t NUser = KI.Params.size() - 2;
  Queue &Q = *S.Q;
  if (Status St = Q.synchronize())
    return St;

  uint64_t Blocks = uint64_t(P.Grid[0]) * P.Grid[1] * P.Grid[2];
  uint64_t Threads = uint64_t(P.Block[0]) * P.Block[1] * P.Block[2];
  uint64_t BlockBytes =
      stateBlockBytes(KI.StaticShared, P.DynamicShared, Threads, KI.StateRecordSize);
  uint64_t StateBytes = Blocks * BlockBytes;
  unsigned BarrierPoints = 0;
  for (const container::SafePointInfo &SP : KI.SafePoints)
    BarrierPoints += SP.Kind != container::SafePointKind::Entry;

  Device &Dev = *Ctx.Dev;
  void *State = nullptr, *Ctrl = nullptr;
  if (Status St = Dev.allocate(StateBytes ? StateBytes : 16, State))
    return St;
  if (Status St = Dev.allocate(sizeof(ControlBlock), Ctrl)) {
    Dev.release(State);
    return St;
  }
  struct Release {
    Device &D;
    void *A, *B;
    ~Release() {
      D.release(A);
      D.release(B);
    }
  } Rel{Dev, State, Ctrl};
  if (Status St = Q.memset(State, 0, StateBytes ? StateBytes : 16))
    return St;

  std::vector<void *> Args(P.Args, P.Args + NUser);
  void *Hidden[2] = {State, Ctrl};
  Args.push_back(&Hidden[0]);
  Args.push_back(&Hidden[1]);
  P.Args = Args.data();
  P.State = State;

  bool Integrated = Dev.properties().Integrated;
  if (Cfg.Mode == MigrationConfig::Trigger::AfterMs && Integrated)
    afterMs().start(Cfg.AfterMs);
  {
    std::lock_guard<std::mutex> L(StatsM);
    ++Stats.Launches;
  }

  std::vector<char> Host(StateBytes);
  for (unsigned Round = 0;; ++Round) {
    ControlBlock CB{0, uint32_t(P.DynamicShared), 0, 0};
    // Random safe points: thread 0 of each block counts its barrier visits
    // in the control block; the launch yields at visit YieldAfter, drawn
    // log-uniformly in [1, 2^16] (a launch that ends first just finishes).
    // At most three migrations per launch keep every launch finite.
    if (Cfg.Mode == MigrationConfig::Trigger::Random && BarrierPoints &&
        Round < 3)
      CB.YieldAfter = 1 + uint32_t(rng()() % (uint64_t(1) << (rng()() % 17)));
    if (Status St = copyIn(Q, Ctrl, &CB, sizeof(CB)))
      return St;
    bool Watch = Cfg.Mode == MigrationConfig::Trigger::AfterMs && Integrated;
    if (Watch)
      afterMs().enter(static_cast<volatile uint32_t *>(Ctrl));
    Status St = Q.launch(K, P);
    if (St.isOk())
      St = Q.synchronize();
    if (Watch)
      afterMs().leave();
    if (St)
      return St;
    if (!StateBytes)
      return Status::ok();
    if (Status St2 = copyOut(Q, Host.data(), State, StateBytes))
      return St2;
    uint64_t Suspended = 0, NotStarted = 0;
    for (uint64_t B = 0; B < Blocks; ++B) {
      uint32_t Status_;
      memcpy(&Status_, Host.data() + B * BlockBytes, 4);
      Suspended += Status_ == 1;
      NotStarted += Status_ == 0;
    }
    if (!Suspended && !NotStarted)
      return Status::ok();

    // Checkpoint: the state buffer and every allocation of the device.
    auto T0 = std::chrono::steady_clock::now();
    Checkpoint C;
    C.Kernel = Name;
    memcpy(C.Grid, P.Grid, sizeof(C.Grid));
    memcpy(C.Block, P.Block, sizeof(C.Block));
    C.DynShared = P.DynamicShared;
    C.State = Host;
    std::vector<Allocation> Allocs;
    {
      Runtime &RT = Runtime::get();
      std::lock_guard<std::mutex> L(RT.AllocM);
      for (auto &[Base, A] : RT.Allocs)
        if (A.Device == Ctx.Index &&
            (A.Kind == AllocKind::Device || A.Kind == AllocKind::Managed))
          Allocs.push_back(A);
    }
    for (const Allocation &A : Allocs) {
      CheckpointAlloc CA;
      CA.Base = A.Base;
      CA.Bytes.resize(A.Size);
      if (Status St2 = copyOut(Q, CA.Bytes.data(),
                               reinterpret_cast<void *>(A.Base), A.Size))
        return St2;
      C.Allocs.push_back(std::move(CA));
    }
    double CopyMs = msSince(T0);
    std::vector<char> Image = serializeCheckpoint(C);
    double SerMs = msSince(T0) - CopyMs;
    std::vector<char> Loaded = Image;
    if (!Cfg.File.empty()) {
      std::ofstream OS(Cfg.File, std::ios::binary | std::ios::trunc);
      // Test-only fault injection (docs/Migration.md): damage the file.
      std::vector<char> Out = Image;
      if (Cfg.Fault == "truncate")
        Out.resize(Out.size() / 2);
      else if (Cfg.Fault == "flip")
        Out[Out.size() - 1] ^= 0x40;
      else if (Cfg.Fault == "version")
        Out[4] = 99;
      OS.write(Out.data(), Out.size());
      if (!OS)
        return Status(ErrorCode::LaunchFailure,
                      "cannot write checkpoint " + Cfg.File);
      OS.close();
      std::ifstream IS(Cfg.File, std::ios::binary | std::ios::ate);
      Loaded.resize(size_t(IS.tellg()));
      IS.seekg(0);
      IS.read(Loaded.data(), Loaded.size());
    }
    double CkptMs = msSince(T0);

    // Restore: parse (validates) before anything is written back. A file
    // that is refused leaves the device untouched; the launch then resumes
    // from the in-memory image, which is what the file should have held.
    auto T1 = std::chrono::steady_clock::now();
    Checkpoint R;
    if (Status St2 = parseCheckpoint(Loaded, R)) {
      log(LogLevel::Error, Cfg.File + ": " + St2.Message +
                               "; resuming from the in-memory checkpoint");
      if (Status St3 = parseCheckpoint(Image, R))
        return St3;
    }
    if (Cfg.ToDevice >= 0 && Cfg.ToDevice != Ctx.Index) {
      static std::once_flag Once;
      std::call_once(Once, [&] {
        log(LogLevel::Warn,
            "HETGPU_MIGRATE to=" + std::to_string(Cfg.ToDevice) +
                ": resuming on another device is not implemented yet "
                "(device addresses differ between backends); resuming on "
                "device " + std::to_string(Ctx.Index));
      });
    }
    uint64_t Moved = R.State.size();
    for (const CheckpointAlloc &A : R.Allocs) {
      if (Status St2 = copyIn(Q, reinterpret_cast<void *>(A.Base),
                              A.Bytes.data(), A.Bytes.size()))
        return St2;
      Moved += A.Bytes.size();
    }
    if (Status St2 = copyIn(Q, State, R.State.data(), R.State.size()))
      return St2;
    double RestMs = msSince(T1);
    {
      std::lock_guard<std::mutex> L(StatsM);
      ++Stats.Migrations;
      Stats.BytesMoved += Moved;
      Stats.CheckpointMs += CkptMs;
      Stats.RestoreMs += RestMs;
    }
    if (Cfg.Verbose)
      fprintf(stderr,
              "hetgpu-migrate: %s suspended (%llu blocks at a safe point, "
              "%llu not started), %llu bytes, checkpoint %.3f ms (copy-out "
              "%.3f, serialise %.3f, file %.3f), restore %.3f ms\n",
              Name.c_str(), (unsigned long long)Suspended,
              (unsigned long long)NotStarted, (unsigned long long)Moved,
              CkptMs, CopyMs, SerMs, CkptMs - CopyMs - SerMs, RestMs);
  }
}

//===--- Public API (runtime/include/hetgpu/hetgpu.h) --------------------===//

#define HETGPU_API extern "C" __attribute__((visibility("default")))

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
  std::ifstream IS(Path ? Path : "", std::ios::binary | std::ios::ate);
  if (!IS) {
    Reason = std::string("cannot open checkpoint ") + (Path ? Path : "(null)");
  } else {
    std::vector<char> Bytes(size_t(IS.tellg()));
    IS.seekg(0);
    IS.read(Bytes.data(), Bytes.size());
    Checkpoint C;
    if (Status S = parseCheckpoint(Bytes, C))
      Reason = S.Message;
  }
  if (Why)
    *Why = Reason.c_str();
  return Reason.empty() ? 0 : -1;
}
