//===- Launch.cpp - The migratable launch ---------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// migratableLaunch (Migration/Launch.h): an unwatched asynchronous launch
/// when no trigger is armed, else a WatchedLaunch whose steps are
///   prepare()           drain the stream, move between launches when the
///                       after_ms trigger fired, take the state buffer and
///                       control block, pack the arguments;
///   runRound()          arm the control block and the yield flag, launch,
///                       wait;
///   countSuspended()    read the state buffer back, normalise the blocks'
///                       status words;
///   suspendAndResume()  checkpoint (takeCheckpoint), restore (a file is
///                       validated first), move (moveForResume), write the
///                       memory and state back (writeBack); the next round
///                       resumes the suspended blocks.
///
//===----------------------------------------------------------------------===//

#include "Migration/Launch.h"
#include "Core/Log.h"
#include "Core/Runtime.h"
#include "Core/UnifiedMemory.h"
#include "Migration/Checkpoint.h"
#include "Migration/InFlight.h"
#include "Migration/Migration.h"
#include "Migration/MoveContext.h"
#include "Migration/Resume.h"
#include "Migration/StateBuffers.h"
#include "Migration/Trigger.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

using namespace hetgpu;
using namespace hetgpu::rt;

container::ModuleInfo
hetgpu::rt::instrumentedModuleInfo(const container::ModuleInfo &MI) {
  container::ModuleInfo R = MI;
  for (container::KernelInfo &K : R.Kernels)
    container::appendMigrationParams(K);
  return R;
}

namespace {

using Clock = std::chrono::steady_clock;

/// No trigger armed: an ordinary asynchronous launch. The kernel reads
/// round 0 and a clear yield flag from the device's idle control block,
/// so it never touches its state buffer (the control block stands in for
/// it). The API then finds no launch to suspend and works on the drained
/// device (moveContext and idle checkpoints wait for queued work).
Status launchUnwatched(DeviceContext &Ctx, StreamObj &S, Kernel &K,
                       LaunchParams P) {
  std::lock_guard<std::recursive_mutex> Lock(Ctx.M);
  void *Ctrl = nullptr;
  if (Status St = idleControl(Ctx.Dev, *S.Q, Ctrl))
    return St;
  size_t NUser = K.info().Params.size() - container::MigrationHiddenParams;
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
  countLaunch();
  return S.Q->launch(K, P);
}

/// Writes checkpoint \p Image to \p Path, damaged as HETGPU_MIGRATE's
/// test-only fault= asks (docs/Migration.md), and reads the file back into
/// \p Loaded.
Status writeAndReadBack(const MigrationConfig &Cfg, const std::string &Path,
                        const std::vector<char> &Image,
                        std::vector<char> &Loaded) {
  std::vector<char> Out = Image;
  if (Cfg.Fault == "truncate")
    Out.resize(Out.size() / 2);
  else if (Cfg.Fault == "flip")
    Out[Out.size() - 1] ^= 0x40;
  else if (Cfg.Fault == "version")
    Out[4] = 99;
  if (Status St = writeCheckpointFile(Path, Out))
    return St;
  readCheckpointFile(Path, Loaded);
  return Status::ok();
}

/// How long the parts of a checkpoint took (the verbose line).
struct CheckpointTimes {
  double CopyMs = 0, SerMs = 0, CkptMs = 0;
};

/// A watched launch: synchronous with the host, run in rounds until no
/// block suspends.
class WatchedLaunch {
public:
  WatchedLaunch(DeviceContext &Ctx, StreamObj &S, Kernel &K, KernelRecord &KR,
                const LaunchParams &P, const std::vector<char> *Resume)
      : Cfg(migrationConfig()), RT(Runtime::get()), Ctx(Ctx), S(S), K(&K),
        KR(KR), P(P), Resume(Resume) {}
  ~WatchedLaunch() {
    if (Registered)
      InFlightTable::get().leave(Ctx, Me);
    freeBuffers();
  }
  WatchedLaunch(const WatchedLaunch &) = delete;
  WatchedLaunch &operator=(const WatchedLaunch &) = delete;

  Status run();

private:
  Status prepare();
  Status acquireBuffers() {
    return takeBuffers(Ctx.Dev, StateAlloc, State, Ctrl, Slot);
  }
  void freeBuffers() {
    if (State)
      returnBuffers(Slot);
    State = Ctrl = nullptr;
  }
  Status runRound(MigrationControl &CB, YieldFlag &YF, YieldFlag *&Flag);
  Status countSuspended(uint64_t &Suspended);
  /// The kinds of safe point verbose counts suspended blocks by (AtKind).
  enum SuspendedAt { AtBarrier, AtLoop, AtEntry, AtThreads, NumAtKinds };
  /// The kind for a block suspended at safe point \p Id.
  SuspendedAt suspendedKind(uint32_t Id) const {
    if (Id == abi::ThreadSuspendedId)
      return AtThreads;
    if (Id == abi::BlockStartId || Id >= KindOf.size())
      return AtEntry;
    switch (KindOf[Id]) {
    case container::SafePointKind::Barrier:
      return AtBarrier;
    case container::SafePointKind::ThreadLoop:
      return AtThreads;
    case container::SafePointKind::Entry:
      return AtEntry;
    default:
      return AtLoop;
    }
  }
  Status suspendAndResume(uint64_t Suspended);
  Status resumeTarget(int &MoveTo, bool &ApiImage);
  Status takeCheckpoint(bool Full, bool ApiImage, Checkpoint &C,
                        std::vector<char> &Loaded, CheckpointTimes &T);
  Status moveForResume(int MoveTo, bool Full, std::string &Moved,
                       uint64_t &MoveBytes, double &MoveMs);
  Status writeBack(const Checkpoint &R, uint64_t MoveBytes,
                   uint64_t &MovedBytes);

  const MigrationConfig &Cfg;
  Runtime &RT;
  DeviceContext &Ctx;
  StreamObj &S;
  Kernel *K; ///< the kernel as loaded where the context is now
  KernelRecord &KR;
  LaunchParams P;
  const std::vector<char> *Resume;

  uint64_t Blocks = 0, BlockBytes = 0, StateBytes = 0, StateAlloc = 0;
  /// Threads per block, the offset of a block's first thread record and
  /// the record size (where the per-thread words are), and the threads
  /// that countSuspended found suspended at per-thread safe points.
  uint64_t Threads = 0, RecordsAt = 0, RecordSize = 0, ThreadsSuspended = 0;
  /// Safe points that test the yield flag (docs/Migration.md): the loop
  /// safe points, the block barriers (those outside loop nests with a loop
  /// safe point) and the block entry (the layout's Entry point, which the
  /// instrumentation tests in every kernel).
  unsigned TestedPoints = 0;
  /// The kind of each safe point id of the layout, and how many blocks
  /// countSuspended found suspended at each kind (verbose prints them):
  /// barrier, loop latch, block entry, per thread.
  std::vector<container::SafePointKind> KindOf;
  uint64_t AtKind[NumAtKinds] = {};
  /// State buffer and control block, on the device the context is on now.
  void *State = nullptr, *Ctrl = nullptr;
  size_t Slot = ~size_t(0);
  std::vector<char> Packed; ///< the user's arguments (container offsets)
  std::vector<void *> Args;
  void *Hidden[2] = {nullptr, nullptr};
  /// Round 0 runs fresh on a cleared state buffer; later rounds resume the
  /// blocks whose (normalised) status is 1, and a block suspending in
  /// round R writes status R + 1.
  uint32_t Round = 0;
  uint32_t RoundParam = 0; ///< the kernel's round parameter: Round | watched
  Running Me;
  bool Registered = false;
  std::vector<char> Host; ///< the state buffer read back
  unsigned Suspensions = 0;
  /// The random trigger's estimate of the visits a resumed round has left,
  /// and the blocks it resumes.
  uint64_t VisitsLeft = 0, ResumedBlocks = 0;

  /// Tells the random trigger what the armed round counted (\p Suspended
  /// blocks of it yielded).
  Status observeVisits(uint64_t Suspended);
};

Status WatchedLaunch::observeVisits(uint64_t Suspended) {
  MigrationControl Seen;
  if (Status St = copyOut(*S.Q, &Seen, Ctrl, sizeof(Seen)))
    return St;
  uint64_t Known =
      randomObserve(KR.Name, Seen.Visits,
                    /*Fresh=*/!Resume && !Suspensions, Suspended != 0);
  if (Suspended) {
    VisitsLeft = Known > Seen.Visits ? Known - Seen.Visits : Suspended;
    ResumedBlocks = Suspended;
  }
  return Status::ok();
}

Status WatchedLaunch::prepare() {
  const std::string &Name = KR.Name;
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
  Blocks = uint64_t(P.Grid[0]) * P.Grid[1] * P.Grid[2];
  Threads = uint64_t(P.Block[0]) * P.Block[1] * P.Block[2];
  BlockBytes = stateBlockBytes(KI.StaticShared, P.DynamicShared, Threads,
                               KI.StateRecordSize);
  RecordSize = KI.StateRecordSize;
  RecordsAt = BlockBytes - Threads * RecordSize;
  if (Blocks && BlockBytes > UINT64_MAX / Blocks)
    return Status(ErrorCode::InvalidValue,
                  "launch of " + Name +
                      ": its state buffer would exceed "
                      "2^64 bytes");
  StateBytes = Blocks * BlockBytes;
  StateAlloc = StateBytes ? StateBytes : 16;
  for (const container::SafePointInfo &SP : KI.SafePoints) {
    TestedPoints += SP.Kind == container::SafePointKind::LoopLatch ||
                    SP.Kind == container::SafePointKind::ThreadLoop ||
                    SP.Kind == container::SafePointKind::Barrier ||
                    SP.Kind == container::SafePointKind::Entry;
    if (SP.Id < 65536) {
      if (KindOf.size() <= SP.Id)
        KindOf.resize(SP.Id + 1, container::SafePointKind::Entry);
      KindOf[SP.Id] = SP.Kind;
    }
  }
  if (Resume && Resume->size() != StateBytes)
    return Status(ErrorCode::InvalidValue,
                  "checkpoint refused: its state buffer has " +
                      std::to_string(Resume->size()) + " bytes, the launch of " +
                      Name + " needs " + std::to_string(StateBytes));

  if (Status St = acquireBuffers())
    return St;
  if (Resume) {
    if (Status St = copyIn(*S.Q, State, Resume->data(), StateBytes))
      return St;
  } else if (Status St = S.Q->memset(State, 0, StateAlloc)) {
    return St;
  }

  // The user's arguments, packed (container offsets) for checkpoints.
  Packed = std::vector<char>(KI.ParamBufferSize);
  for (size_t I = 0; I < NUser; ++I) {
    const container::ParamInfo &PI = KI.Params[I];
    if (PI.Offset + PI.Size <= Packed.size())
      memcpy(Packed.data() + PI.Offset, P.Args[I], PI.Size);
  }
  Args.assign(P.Args, P.Args + NUser);
  Hidden[0] = State;
  Hidden[1] = Ctrl;
  Round = Resume ? 1 : 0;
  Args.push_back(&Hidden[0]);
  Args.push_back(&Hidden[1]);
  Args.push_back(&RoundParam);
  P.Args = Args.data();
  // The backends see the state buffer as an ordinary argument.
  P.State = nullptr;

  if (Cfg.Mode == MigrationConfig::Trigger::AfterMs)
    afterMs().start(Cfg.AfterMs);
  countLaunch();
  Me.S = &S;
  return Status::ok();
}

/// One round: the control block armed as the trigger asks, the launch in
/// the table of launches in flight (the API may raise its flag), the
/// kernel run to its end or to its suspension. \p Flag is \p YF when the
/// host can raise it while the kernel runs.
Status WatchedLaunch::runRound(MigrationControl &CB, YieldFlag &YF,
                               YieldFlag *&Flag) {
  Hidden[0] = State;
  Hidden[1] = Ctrl;
  // The host raises the yield flag while the kernel runs (YieldFlag).
  if (Ctx.Dev->sharesArena() && Arena::get().contains(Ctrl))
    YF.Host = static_cast<volatile uint32_t *>(Ctrl);
  else if ((YF.Side = sideQueue(Ctx.Dev)))
    YF.Word = Ctrl;
  CB.DynShared = uint32_t(P.DynamicShared);
  // Random safe points: thread 0 of each block counts its visits of safe
  // points (loop safe points and block entries; every thread its visits of
  // per-thread safe points) in the control block; the
  // launch yields at visit YieldAfter (a launch that ends first just
  // finishes). visit=N yields at visit N. At most three suspensions per
  // launch keep every launch finite.
  bool Draws = Cfg.Mode == MigrationConfig::Trigger::Random ||
               Cfg.Mode == MigrationConfig::Trigger::Visit;
  if (Draws && TestedPoints && Suspensions < 3)
    CB.YieldAfter =
        Cfg.Mode == MigrationConfig::Trigger::Visit
            ? Cfg.Visit
            : randomYieldAfter(KR.Name, Blocks, Suspensions, VisitsLeft,
                               ResumedBlocks);
  // Without a to= device a pending trigger checkpoints this launch at its
  // first safe point instead.
  if (Cfg.Mode == MigrationConfig::Trigger::AfterMs && afterMs().takePending())
    CB.Yield = 1;
  if (Status St = copyIn(*S.Q, Ctrl, &CB, sizeof(CB)))
    return St;
  Flag = YF.usable() ? &YF : nullptr;
  if (Flag && Cfg.Mode == MigrationConfig::Trigger::AfterMs)
    afterMs().enter(Flag);
  InFlightTable &IF = InFlightTable::get();
  {
    std::lock_guard<std::mutex> L(IF.M);
    Me.Flag = Flag;
    IF.enter(Ctx, Me);
    if (Me.hasRequest() && !Me.Served) {
      if (Flag)
        Flag->raise();
      else
        CB.Yield = 1, copyIn(*S.Q, Ctrl, &CB, sizeof(CB));
    }
  }
  // Watched: blocks take the block-entry decision (docs/Migration.md).
  RoundParam = Round | abi::RoundWatched;
  Status St = S.Q->launch(*K, P);
  if (St.isOk())
    St = S.Q->synchronize();
  if (Flag && Cfg.Mode == MigrationConfig::Trigger::AfterMs)
    afterMs().leave();
  {
    std::lock_guard<std::mutex> L(IF.M);
    Me.Flag = nullptr;
  }
  if (St.isOk())
    St = YF.settle();
  return St;
}

/// Blocks suspended in this round have status Round + 1 (a block with
/// threads suspended at per-thread safe points too: its header says
/// abi::ThreadSuspendedId, each thread's word where it is, and the words
/// need no normalising: they carry no round); everything else
/// ran to its end (also blocks that finished after an earlier suspension
/// and still carry its status). Normalised to 1 / 0, so whatever resumes
/// from this image runs as round 1.
Status WatchedLaunch::countSuspended(uint64_t &Suspended) {
  Host.resize(StateBytes);
  if (Status St = copyOut(*S.Q, Host.data(), State, StateBytes))
    return St;
  Suspended = 0;
  ThreadsSuspended = 0;
  std::fill(std::begin(AtKind), std::end(AtKind), 0);
  for (uint64_t B = 0; B < Blocks; ++B) {
    char *H = Host.data() + B * BlockBytes;
    uint32_t Status_, Id;
    memcpy(&Status_, H, 4);
    memcpy(&Id, H + 4, 4);
    uint32_t Norm = Status_ == Round + 1;
    Suspended += Norm;
    if (Norm)
      ++AtKind[suspendedKind(Id)];
    // Threads of a block suspended per thread (verbose says how many).
    if (Norm && Id == abi::ThreadSuspendedId &&
        RecordSize >= abi::ThreadWordBytes)
      for (uint64_t T = 0; T < Threads; ++T) {
        uint32_t W;
        memcpy(&W, H + RecordsAt + T * RecordSize + abi::ThreadWordOffset, 4);
        ThreadsSuspended += W == abi::TW_Suspended;
      }
    memcpy(H, &Norm, 4);
    // The block-entry decision word is per round: the next round decides
    // afresh.
    memset(H + abi::StateEntryDecisionOffset, 0, 4);
  }
  return Status::ok();
}

/// Where to resume: an API request, else the next device of to=.
Status WatchedLaunch::resumeTarget(int &MoveTo, bool &ApiImage) {
  {
    std::lock_guard<std::mutex> L(InFlightTable::get().M);
    if (!Me.Served) {
      MoveTo = Me.MoveTo;
      ApiImage = !Me.CheckpointTo.empty() || Me.CheckpointBuf;
    }
  }
  if (MoveTo < 0 && !Cfg.To.empty())
    if (Status St = nextTarget(MoveTo))
      return St;
  return Status::ok();
}

/// Checkpoint: the state buffer and (\p Full) every allocation of the
/// device, serialised when a file or the API takes the image.
Status WatchedLaunch::takeCheckpoint(bool Full, bool ApiImage, Checkpoint &C,
                                     std::vector<char> &Loaded,
                                     CheckpointTimes &T) {
  auto T0 = Clock::now();
  C.Kernel = KR.Name;
  C.CudaDevice = uint32_t(Ctx.Index);
  C.TakenOn = Ctx.Backend;
  memcpy(C.Grid, P.Grid, sizeof(C.Grid));
  memcpy(C.Block, P.Block, sizeof(C.Block));
  C.DynShared = P.DynamicShared;
  C.Args = Packed;
  C.State = Host;
  if (Full)
    if (Status St = captureAllocations(Ctx, *S.Q, C))
      return St;
  T.CopyMs = msSince(T0);
  std::vector<char> Image;
  if (!Cfg.File.empty() || ApiImage)
    Image = serializeCheckpoint(C);
  T.SerMs = msSince(T0) - T.CopyMs;
  if (!Cfg.File.empty())
    if (Status St = writeAndReadBack(Cfg, Cfg.File, Image, Loaded))
      return St;
  if (ApiImage) {
    std::lock_guard<std::mutex> L(InFlightTable::get().M);
    if (!Me.CheckpointTo.empty())
      Me.Result = writeCheckpointFile(Me.CheckpointTo, Image);
    if (Me.CheckpointBuf)
      *Me.CheckpointBuf = Image;
  }
  T.CkptMs = msSince(T0);
  return Status::ok();
}

/// Moves the context to \p MoveTo (when that is another device) for the
/// next round; the state buffer is taken again on the device the launch
/// resumes on. A refused move resumes where the launch was.
Status WatchedLaunch::moveForResume(int MoveTo, bool Full, std::string &Moved,
                                    uint64_t &MoveBytes, double &MoveMs) {
  if (MoveTo < 0 || RT.context(MoveTo)->Home == Ctx.Dev)
    return Status::ok();
  auto TM = Clock::now();
  freeBuffers();
  Status Refusal;
  Status MS = moveForLaunch(Ctx, *RT.context(MoveTo), KR, K,
                            /*CopyData=*/!Full, Moved, MoveBytes, Refusal);
  InFlightTable &IF = InFlightTable::get();
  if (MS.isOk() && Refusal) {
    // Refused before anything changed: carry on where the launch was.
    log(LogLevel::Error, Refusal.Message + "; resuming on device " +
                             std::to_string(Ctx.Index) + " (" + Ctx.Backend +
                             ")");
    std::lock_guard<std::mutex> L(IF.M);
    Me.Result = Refusal;
  }
  if (MS.isOk())
    MS = acquireBuffers();
  if (MS) {
    std::lock_guard<std::mutex> L(IF.M);
    Me.Served = true;
    Me.Result = MS;
    return MS;
  }
  MoveMs = msSince(TM);
  return Status::ok();
}

/// A checkpoint file read back must hold the launch that was suspended:
/// its state buffer is written into that launch's.
static Status checkSameLaunch(const Checkpoint &R, const Checkpoint &C) {
  if (R.Kernel != C.Kernel || R.CudaDevice != C.CudaDevice ||
      memcmp(R.Grid, C.Grid, sizeof(R.Grid)) != 0 ||
      memcmp(R.Block, C.Block, sizeof(R.Block)) != 0 ||
      R.DynShared != C.DynShared || R.Args.size() != C.Args.size() ||
      R.State.size() != C.State.size())
    return Status(ErrorCode::InvalidValue,
                  "checkpoint refused: it holds another launch than the "
                  "suspended one of " +
                      C.Kernel);
  return Status::ok();
}

/// Writes the restored allocations and state buffer on the device the
/// launch resumes on.
Status WatchedLaunch::writeBack(const Checkpoint &R, uint64_t MoveBytes,
                                uint64_t &MovedBytes) {
  MovedBytes = R.State.size() + MoveBytes;
  for (const CheckpointAlloc &A : R.Allocs) {
    if (Status St = S.Q->memcpy(reinterpret_cast<void *>(A.Base),
                                A.Bytes.data(), A.Bytes.size(),
                                CopyKind::HostToDevice))
      return St;
    MovedBytes += A.Bytes.size();
  }
  return copyIn(*S.Q, State, R.State.data(), R.State.size());
}

Status WatchedLaunch::suspendAndResume(uint64_t Suspended) {
  int MoveTo = -1;
  bool ApiImage = false;
  if (Status St = resumeTarget(MoveTo, ApiImage))
    return St;
  // A move copies device memory itself (straight between device and
  // arena) unless a file or the API takes the whole checkpoint, which is
  // then what is written back.
  bool Full = !Cfg.File.empty() || ApiImage;
  Checkpoint C;
  std::vector<char> Loaded;
  CheckpointTimes T;
  if (Status St = takeCheckpoint(Full, ApiImage, C, Loaded, T))
    return St;

  // Restore: a file is parsed (validated) before anything is written
  // back. A file that is refused leaves the device untouched; the launch
  // then resumes from the in-memory checkpoint, which is what the file
  // should have held.
  auto T1 = Clock::now();
  Checkpoint R;
  if (!Cfg.File.empty()) {
    Status St = parseCheckpoint(Loaded, R);
    if (St.isOk())
      St = checkSameLaunch(R, C);
    if (St.isOk())
      St = checkAllocationsMatch(R, Ctx.Index);
    if (St.isOk())
      St = checkResumable(R, KR, Ctx);
    if (St) {
      log(LogLevel::Error, Cfg.File + ": " + St.Message +
                               "; resuming from the in-memory checkpoint");
      R = std::move(C);
    }
  } else {
    R = std::move(C);
  }
  std::string Moved;
  double MoveMs = 0;
  uint64_t MoveBytes = 0;
  if (Status St = moveForResume(MoveTo, Full, Moved, MoveBytes, MoveMs))
    return St;
  {
    InFlightTable &IF = InFlightTable::get();
    std::lock_guard<std::mutex> L(IF.M);
    if (Me.hasRequest())
      Me.Served = true;
    IF.CV.notify_all();
  }
  uint64_t MovedBytes = 0;
  if (Status St = writeBack(R, MoveBytes, MovedBytes))
    return St;
  double RestMs = msSince(T1);
  countMigration(MovedBytes, T.CkptMs, RestMs);
  if (Cfg.Verbose)
    fprintf(stderr,
            "hetgpu-migrate: %s suspended (%llu of %llu blocks at a safe "
            "point), %llu bytes, checkpoint %.3f ms (copy-out "
            "%.3f, serialise %.3f, file %.3f), restore %.3f ms (move %.3f), "
            "resumed on device %d: %s (%s)\n",
            KR.Name.c_str(), (unsigned long long)Suspended,
            (unsigned long long)Blocks, (unsigned long long)MovedBytes,
            T.CkptMs, T.CopyMs, T.SerMs, T.CkptMs - T.CopyMs - T.SerMs, RestMs,
            MoveMs, Ctx.Index, Ctx.Dev->properties().Name.c_str(),
            Ctx.Backend.c_str());
  if (Cfg.Verbose)
    fprintf(stderr,
            "hetgpu-migrate: %s: suspended blocks by safe point: barrier "
            "%llu, loop %llu, entry %llu, threads %llu\n",
            KR.Name.c_str(), (unsigned long long)AtKind[AtBarrier],
            (unsigned long long)AtKind[AtLoop],
            (unsigned long long)AtKind[AtEntry],
            (unsigned long long)AtKind[AtThreads]);
  if (Cfg.Verbose && ThreadsSuspended)
    fprintf(stderr,
            "hetgpu-migrate: %s: %llu threads suspended at per-thread safe "
            "points\n",
            KR.Name.c_str(), (unsigned long long)ThreadsSuspended);
  if (Cfg.Verbose && !Moved.empty())
    fprintf(stderr, "hetgpu-migrate: %s\n", Moved.c_str());
  return Status::ok();
}

Status WatchedLaunch::run() {
  if (Status St = prepare())
    return St;
  Registered = true;
  for (;;) {
    YieldFlag YF;
    MigrationControl CB = {};
    YieldFlag *Flag = nullptr;
    if (Status St = runRound(CB, YF, Flag))
      return St;
    // Nothing asked this round to yield (no trigger armed, no request, the
    // host-written flag still clear): every block ran to its end, so the
    // state buffer need not be read back.
    bool MayYield = CB.Yield ||
                    (CB.YieldAfter && CB.YieldAfter != CountVisitsOnly) ||
                    (Flag && Flag->raised());
    uint64_t Suspended = 0;
    if (StateBytes && MayYield)
      if (Status St = countSuspended(Suspended))
        return St;
    if (Cfg.Mode == MigrationConfig::Trigger::Random && CB.YieldAfter)
      if (Status St = observeVisits(Suspended))
        return St;
    if (!Suspended) {
      if (Flag && Flag->raised() && !CB.Yield &&
          Cfg.Mode == MigrationConfig::Trigger::AfterMs)
        afterMs().rearm();
      return Status::ok();
    }
    Round = 1;
    ++Suspensions;
    if (Status St = suspendAndResume(Suspended))
      return St;
  }
}

} // namespace

Status hetgpu::rt::migratableLaunch(DeviceContext &Ctx, StreamObj &S,
                                    Kernel &K0, KernelRecord &KR,
                                    LaunchParams P,
                                    const std::vector<char> *Resume) {
  const MigrationConfig &Cfg = migrationConfig();
  if (K0.info().Params.size() < container::MigrationHiddenParams)
    return Status(ErrorCode::LaunchFailure,
                  "migratable launch of " + KR.Name +
                      ": the loaded kernel has no hidden state parameters");
  if (!Resume && Cfg.Mode == MigrationConfig::Trigger::None && !Cfg.Sync)
    return launchUnwatched(Ctx, S, K0, P);
  WatchedLaunch W(Ctx, S, K0, KR, P, Resume);
  return W.run();
}
