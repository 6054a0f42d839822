//===- Trigger.cpp - When and where a migratable launch goes --------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// HETGPU_MIGRATE parsing, the yield flag, the after_ms timer, the random
/// trigger's draws and the walk over the to= devices (Migration/Trigger.h).
///
//===----------------------------------------------------------------------===//

#include "Migration/Trigger.h"
#include "Core/Log.h"
#include "Core/Runtime.h"
#include "Migration/Migration.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <sstream>
#include <thread>

using namespace hetgpu;
using namespace hetgpu::rt;

namespace {

bool parseUInt(const std::string &S, uint64_t &Out) {
  if (S.empty())
    return false;
  char *End = nullptr;
  Out = strtoull(S.c_str(), &End, 0);
  return End && *End == 0;
}

} // namespace

//===--- HETGPU_MIGRATE ---------------------------------------------------===//

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
    } else if (First && Key == "visit" && parseUInt(Val, N) && N > 0 &&
               N <= UINT32_MAX) {
      C.Mode = MigrationConfig::Trigger::Visit;
      C.Visit = uint32_t(N);
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
                "' (expected after_ms=N|random|visit=N (N >= 1)|on, then "
                ":seed=S :to=DEVICE "
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
    // :verbose ends a process that exits normally with its counts
    // (utils/run-migration-soak.py tells programs that launch nothing).
    if (R.Verbose)
      atexit([] {
        MigrationStats S = migrationStats();
        fprintf(stderr, "hetgpu-migrate: exit: launches=%llu migrations=%llu\n",
                (unsigned long long)S.Launches,
                (unsigned long long)S.Migrations);
      });
    return R;
  }();
  return C;
}

//===--- The yield flag ---------------------------------------------------===//

void YieldFlag::raise() {
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

bool YieldFlag::raised() {
  std::lock_guard<std::mutex> L(M);
  return Raised;
}

Status YieldFlag::settle() {
  std::lock_guard<std::mutex> L(M);
  return Side && Raised ? Side->synchronize() : Status::ok();
}

namespace {
/// A second queue per device for YieldFlag.
struct SideQueue {
  std::shared_ptr<Device> Dev;
  std::unique_ptr<Queue> Q;
};
std::mutex SideM;
std::vector<SideQueue> SideQueues;
} // namespace

Queue *hetgpu::rt::sideQueue(const std::shared_ptr<Device> &Dev) {
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

//===--- after_ms ---------------------------------------------------------===//

void AfterMsTrigger::start(unsigned Ms) {
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

void AfterMsTrigger::rearm() {
  std::lock_guard<std::mutex> L(M);
  Pending = true;
}

bool AfterMsTrigger::takePending() {
  std::lock_guard<std::mutex> L(M);
  bool P = Pending;
  Pending = false;
  return P;
}

void AfterMsTrigger::enter(YieldFlag *F) {
  std::lock_guard<std::mutex> L(M);
  Flag = F;
  // The timer fired after this launch had looked for a pending trigger
  // and before its flag was known here: it yields at its first safe point.
  if (Pending && F) {
    Pending = false;
    F->raise();
  }
}

void AfterMsTrigger::leave() {
  std::lock_guard<std::mutex> L(M);
  Flag = nullptr;
}

AfterMsTrigger &hetgpu::rt::afterMs() {
  static AfterMsTrigger *T = new AfterMsTrigger();
  return *T;
}

//===--- random, to= ------------------------------------------------------===//

namespace {
std::mt19937_64 &rng() {
  static std::mt19937_64 G(migrationConfig().Seed);
  return G;
}
} // namespace

namespace {
/// What the random trigger knows of one kernel: its fresh rounds so far
/// and the visits of the last one that ran to its end.
struct KernelDraws {
  uint64_t Launches = 0;
  uint64_t Visits = 0;
  bool Suspended = false; ///< a round of the kernel yielded
};
struct RandomState {
  std::mutex M;
  std::map<std::string, KernelDraws> Kernels;
};
RandomState &randomState() {
  static RandomState *R = new RandomState();
  return *R;
}
/// Uniform in [1, N] (N >= 1).
uint32_t uniformVisit(uint64_t N) {
  N = std::min<uint64_t>(std::max<uint64_t>(N, 1), CountVisitsOnly - 1);
  return 1 + uint32_t(rng()() % N);
}
} // namespace

// The draw (docs/Migration.md, "The random trigger"): until a round of a
// kernel has yielded, its fresh rounds are armed at a visit they are sure
// to reach (the kernel's known visits, else one per block: thread 0 counts
// every block's entry), so every kernel that is launched is suspended at
// least once. Later the n-th fresh round of a kernel is armed
// with probability 1/(n + 2), at a visit uniform over the kernel's known
// visits, or, before they are known, over [1, blocks x 2^k] with k uniform
// in [0, 10] (deep visits of long loops too). A resumed round is armed with
// probability 1/2 over the visits left, past the block entries of the
// blocks it resumes (those are visited first, and a draw there would only
// suspend them again at their entry). Unarmed rounds count their visits.
uint32_t hetgpu::rt::randomYieldAfter(const std::string &Kernel,
                                      uint64_t Blocks, unsigned Suspensions,
                                      uint64_t Left, uint64_t Skip) {
  RandomState &R = randomState();
  std::lock_guard<std::mutex> L(R.M);
  KernelDraws &D = R.Kernels[Kernel];
  Blocks = std::max<uint64_t>(Blocks, 1);
  if (Suspensions) {
    if (rng()() % 2)
      return CountVisitsOnly;
    uint64_t V = uniformVisit(D.Visits ? Left : Left << (rng()() % 8));
    return uint32_t(std::min<uint64_t>(V + Skip, CountVisitsOnly - 1));
  }
  uint64_t N = D.Launches++;
  if (!D.Suspended)
    return uniformVisit(D.Visits ? D.Visits : Blocks);
  if (rng()() % (N + 2))
    return CountVisitsOnly;
  if (D.Visits)
    return uniformVisit(D.Visits);
  unsigned K = unsigned(rng()() % 11);
  return uniformVisit(Blocks > (UINT64_MAX >> K) ? UINT64_MAX : Blocks << K);
}

uint64_t hetgpu::rt::randomObserve(const std::string &Kernel, uint32_t Visits,
                                   bool Fresh, bool Suspended) {
  RandomState &R = randomState();
  std::lock_guard<std::mutex> L(R.M);
  KernelDraws &D = R.Kernels[Kernel];
  if (Suspended)
    D.Suspended = true;
  else if (Fresh)
    D.Visits = Visits;
  return D.Visits;
}

Status hetgpu::rt::nextTarget(int &To) {
  const MigrationConfig &Cfg = migrationConfig();
  uint64_t N = migrationCount();
  const std::string &T = Cfg.To[N % Cfg.To.size()];
  To = Runtime::get().findContext(T);
  if (To < 0)
    return Status(ErrorCode::InvalidValue,
                  "HETGPU_MIGRATE to=" + T +
                      ": no such device (names: a backend HETGPU_DEVICE "
                      "accepts, or an index)");
  return Status::ok();
}
