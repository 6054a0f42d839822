//===- Migration.h - Live migration: shared pieces --------------*- C++ -*-===//
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
/// runtime/lib/Migration/ depends on Core only; Core reaches it through
/// Core/MigrationService.h (implemented and registered by Service.cpp).
/// Components, one header each:
///
///   Trigger.h         HETGPU_MIGRATE parsing; when a launch yields (the
///                     after_ms timer, random safe points, the yield flag)
///                     and where it resumes (to=)
///   Checkpoint.h      the checkpoint format (serialize/parse, files) and
///                     the capture of a device's allocations
///   StateBuffers.h    state buffers and control blocks kept per device
///   MoveContext.h     the move: a CUDA device's memory, variables, streams
///                     and events onto another physical device
///   InFlight.h        requests of the public API to a running launch
///   Launch.h          the migratable launch (watched or not)
///   Resume.h          resuming a launch from a checkpoint image
///   MigrationAPI.cpp  the hetgpu* C API (hetgpu/hetgpu.h)
///   Service.cpp       Core's MigrationService, registered at load
///
/// This header holds what they share: the statistics and the blocking
/// copies between host and device.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_MIGRATION_MIGRATION_H
#define HETGPU_RUNTIME_MIGRATION_MIGRATION_H

#include "Core/Device.h"
#include "Core/Runtime.h"
#include "hetgpu/ABI/Migration.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace hetgpu {
namespace rt {

/// The control block and state buffer layout the instrumented kernels use.
using abi::MigrationControl;
using abi::stateBlockBytes;

/// Counters for tests and the benchmark.
struct MigrationStats {
  uint64_t Launches = 0, Migrations = 0, BytesMoved = 0;
  double CheckpointMs = 0, RestoreMs = 0;
};
MigrationStats migrationStats();
/// One more migratable launch.
void countLaunch();
/// One more migration, of \p Bytes, with its checkpoint and restore times.
void countMigration(uint64_t Bytes, double CheckpointMs, double RestoreMs);
/// Migrations so far (the to= list is walked in turn).
uint64_t migrationCount();

/// Blocking copies on \p Q (nothing for \p N = 0).
Status copyIn(Queue &Q, void *Dst, const void *Src, size_t N);
Status copyOut(Queue &Q, void *Dst, const void *Src, size_t N);

/// The device and managed allocations of CUDA device \p Index.
std::vector<Allocation> contextAllocations(int Index);

/// Resolves a cudaStream_t of the API (null: the current device's default
/// stream) as Runtime::resolveStream does, as a Status.
Status streamOf(void *Stream, StreamObj *&S);

/// "0x..." for messages.
std::string hexAddr(uint64_t V);

/// Milliseconds since \p T0.
double msSince(std::chrono::steady_clock::time_point T0);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_MIGRATION_MIGRATION_H
