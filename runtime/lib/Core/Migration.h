//===- Migration.h - Live migration of running kernels ----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Checkpoint/restore of launches translated with the
/// `hetgpu-instrument-state` pass (docs/Migration.md). When migration is
/// enabled (HETGPU_MIGRATE, read once) every module is translated with
/// HETGPU_TRANSLATE_INSTRUMENT, every kernel takes three hidden trailing
/// arguments (state buffer, control block, round) and launches go through
/// migratableLaunch(), which suspends the kernel at a safe point when the
/// trigger fires, writes a checkpoint (versioned, checksummed), restores it
/// and resumes the launch on the chosen device.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_CORE_MIGRATION_H
#define HETGPU_RUNTIME_CORE_MIGRATION_H

#include "Core/Device.h"
#include "hetgpu/ABI/Migration.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hetgpu {
namespace rt {

struct DeviceContext;
struct KernelRecord;
struct StreamObj;

/// What HETGPU_MIGRATE asked for.
struct MigrationConfig {
  enum class Trigger { None, AfterMs, Random };
  bool Enabled = false;
  Trigger Mode = Trigger::None;
  unsigned AfterMs = 0;
  uint64_t Seed = 0;
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

/// The control block and state buffer layout the instrumented kernels use.
using abi::MigrationControl;
using abi::stateBlockBytes;

/// \p MI as loaded when instrumented: the hidden parameters appended to
/// every kernel (the container keeps the user's list).
container::ModuleInfo instrumentedModuleInfo(const container::ModuleInfo &MI);

/// One device allocation captured in a checkpoint.
struct CheckpointAlloc {
  uint64_t Base = 0;
  std::vector<char> Bytes;
};

/// A suspended launch, or (Kernel empty) a device's memory alone: what a
/// checkpoint file holds.
struct Checkpoint {
  std::string Kernel;
  uint32_t CudaDevice = 0;  ///< the CUDA device number it belongs to
  std::string TakenOn;      ///< backend it was taken on (information)
  uint32_t Grid[3] = {1, 1, 1};
  uint32_t Block[3] = {1, 1, 1};
  uint64_t DynShared = 0;
  std::vector<char> Args;       ///< packed user arguments (container offsets)
  std::vector<char> State;      ///< the launch's state buffer
  std::vector<CheckpointAlloc> Allocs;
};

inline constexpr uint32_t CheckpointMagic = 0x4b434748; // "HGCK"
inline constexpr uint32_t CheckpointVersion = 3;

std::vector<char> serializeCheckpoint(const Checkpoint &C);
/// Refuses a truncated, corrupted or other-version image with a message.
Status parseCheckpoint(const std::vector<char> &Bytes, Checkpoint &Out);

/// Counters for tests and the benchmark.
struct MigrationStats {
  uint64_t Launches = 0, Migrations = 0, BytesMoved = 0;
  double CheckpointMs = 0, RestoreMs = 0;
};
MigrationStats migrationStats();

/// Frees the state buffers and control blocks kept for \p D between
/// migratable launches (cudaDeviceReset).
void releaseMigrationBuffers(Device &D);

/// Runs \p P of kernel \p K (registered as \p KR) on stream \p S as a
/// migratable launch. While no trigger is armed (`HETGPU_MIGRATE=on`
/// without `:sync`) it is asynchronous like any launch and costs nothing
/// but the kernel's instrumentation; otherwise it is watched: synchronous
/// with respect to the host, suspended when the trigger fires, checkpointed,
/// moved and resumed. \p Resume, when given, is the state buffer of a
/// suspended launch to continue from (block headers normalised: status 1 =
/// suspended, 0 = ran to its end).
Status migratableLaunch(DeviceContext &Ctx, StreamObj &S, Kernel &K,
                        KernelRecord &KR, LaunchParams P,
                        const std::vector<char> *Resume = nullptr);

/// Moves CUDA device \p Ctx onto the home device of context \p To: every
/// allocation at unchanged addresses (copied only where one side has memory
/// of its own), the `__device__` variables of its loaded modules (modules
/// are loaded again, translated for the target), its streams and events.
/// Pending work is finished on the source first. With \p CopyData false
/// the caller writes the allocations' bytes afterwards (a checkpoint
/// restore). Everything is checked before anything changes: memory that is
/// not in the unified address space is refused by name.
Status moveContext(DeviceContext &Ctx, DeviceContext &To, bool CopyData,
                   std::string *Summary = nullptr,
                   uint64_t *BytesCopied = nullptr);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_CORE_MIGRATION_H
