//===- Trigger.h - When a launch yields and where it resumes ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// HETGPU_MIGRATE (parsed once) and the triggers it arms: `after_ms=N` (a
/// host timer that raises the yield flag of the launch in flight),
/// `random` (each round yields at a random visit of a loop safe point),
/// `visit=N` (each round yields at visit N of a safe point, counted by
/// thread 0 of each block: deterministic for tests), `on` (instrumented, no
/// trigger: only the API migrates). The yield flag
/// of a running launch is raised by the host (YieldFlag); to= names the
/// devices launches resume on, one per migration in turn (nextTarget).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_MIGRATION_TRIGGER_H
#define HETGPU_RUNTIME_MIGRATION_TRIGGER_H

#include "Core/Device.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace hetgpu {
namespace rt {

/// What HETGPU_MIGRATE asked for.
struct MigrationConfig {
  enum class Trigger { None, AfterMs, Random, Visit };
  bool Enabled = false;
  Trigger Mode = Trigger::None;
  unsigned AfterMs = 0;
  uint64_t Seed = 0;
  uint32_t Visit = 0; ///< visit=N: the safe-point visit each round yields at
  /// Devices to resume on (HETGPU_DEVICE-style names or indices), one per
  /// suspension in turn; empty: resume on the launching device.
  std::vector<std::string> To;
  std::string File;       ///< checkpoint file (empty: in memory)
  bool Verbose = false;   ///< one stderr line per migration
  /// Every launch is watched (synchronous with the host), so the API can
  /// suspend a launch running in another thread. Without it, launches of a
  /// process with no trigger armed (`on`) are asynchronous.
  bool Sync = false;
  std::string Fault;      ///< test only: damage the file (truncate|flip|version)
  std::string Error;      ///< parse error (migration then stays disabled)
};

/// Parses a HETGPU_MIGRATE value: `after_ms=N:to=D`, `random:seed=S:to=D`,
/// `on` (instrumented, no trigger), with optional `:file=PATH` and `:verbose`.
MigrationConfig parseMigrationSpec(const std::string &Spec);
const MigrationConfig &migrationConfig();
inline bool migrationEnabled() { return migrationConfig().Enabled; }

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
  void raise();
  bool raised();
  /// After the launch: a memset still queued must not reach the next
  /// launch's control block.
  Status settle();
};

/// A second queue of \p Dev for YieldFlag (created on first use), or null.
Queue *sideQueue(const std::shared_ptr<Device> &Dev);

/// The after_ms trigger: a host thread that raises the yield flag of the
/// launch in flight once, N ms after the first migratable launch; between
/// launches the next launch yields at its first safe point.
class AfterMsTrigger {
public:
  /// Starts the timer (once per process).
  void start(unsigned Ms);
  /// The flag was set while a launch ran but every block had passed its
  /// last safe point: the next launch yields instead.
  void rearm();
  /// Whether the trigger fired between launches (consumed).
  bool takePending();
  /// \p F: the yield flag of the launch now running, when the host can
  /// raise it while the kernel runs.
  void enter(YieldFlag *F);
  void leave();

private:
  std::mutex M;
  YieldFlag *Flag = nullptr; ///< the running launch's yield flag
  bool Started = false, Fired = false, Pending = false;
};
AfterMsTrigger &afterMs();

/// The `random` trigger's yield_after for a round that only counts its
/// safe-point visits (never reached: the count wraps first).
constexpr uint32_t CountVisitsOnly = UINT32_MAX;

/// The `random` trigger's draw for one round of a launch of \p Kernel with
/// \p Blocks blocks: the safe-point visit at which it yields, or
/// CountVisitsOnly (docs/Migration.md, "The random trigger"). A resumed
/// round (the launch suspended \p Suspensions times) has an estimated
/// \p Left visits to come past the first \p Skip (the block entries of
/// the \p Skip blocks it resumes).
uint32_t randomYieldAfter(const std::string &Kernel, uint64_t Blocks,
                          unsigned Suspensions, uint64_t Left, uint64_t Skip);

/// What an armed round of \p Kernel counted: \p Visits safe-point visits,
/// \p Suspended whether it yielded; a \p Fresh round that ran to its end
/// sets the kernel's visit estimate. Returns that estimate (0: none yet).
uint64_t randomObserve(const std::string &Kernel, uint32_t Visits, bool Fresh,
                       bool Suspended);

/// The next device of HETGPU_MIGRATE's to= list (one per migration, in turn).
Status nextTarget(int &To);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_MIGRATION_TRIGGER_H
