//===- Migration.cpp - Live migration: shared pieces ----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The statistics of live migration and the helpers every component of
/// runtime/lib/Migration/ uses (Migration/Migration.h).
///
//===----------------------------------------------------------------------===//

#include "Migration/Migration.h"
#include "Core/CudaErrors.h"

#include <cstdio>
#include <mutex>

using namespace hetgpu;
using namespace hetgpu::rt;

namespace {
std::mutex StatsM;
MigrationStats Stats;
} // namespace

MigrationStats hetgpu::rt::migrationStats() {
  std::lock_guard<std::mutex> L(StatsM);
  return Stats;
}

void hetgpu::rt::countLaunch() {
  std::lock_guard<std::mutex> L(StatsM);
  ++Stats.Launches;
}

void hetgpu::rt::countMigration(uint64_t Bytes, double CheckpointMs,
                                double RestoreMs) {
  std::lock_guard<std::mutex> L(StatsM);
  ++Stats.Migrations;
  Stats.BytesMoved += Bytes;
  Stats.CheckpointMs += CheckpointMs;
  Stats.RestoreMs += RestoreMs;
}

uint64_t hetgpu::rt::migrationCount() {
  std::lock_guard<std::mutex> L(StatsM);
  return Stats.Migrations;
}

Status hetgpu::rt::copyIn(Queue &Q, void *Dst, const void *Src, size_t N) {
  if (!N)
    return Status::ok();
  if (Status S = Q.memcpy(Dst, Src, N, CopyKind::HostToDevice))
    return S;
  return Q.synchronize();
}

Status hetgpu::rt::copyOut(Queue &Q, void *Dst, const void *Src, size_t N) {
  if (!N)
    return Status::ok();
  if (Status S = Q.memcpy(Dst, Src, N, CopyKind::DeviceToHost))
    return S;
  return Q.synchronize();
}

std::vector<Allocation> hetgpu::rt::contextAllocations(int Index) {
  std::vector<Allocation> R;
  Runtime &RT = Runtime::get();
  std::lock_guard<std::mutex> L(RT.AllocM);
  for (auto &[Base, A] : RT.Allocs)
    if (A.Device == Index &&
        (A.Kind == AllocKind::Device || A.Kind == AllocKind::Managed))
      R.push_back(A);
  return R;
}

Status hetgpu::rt::streamOf(void *Stream, StreamObj *&S) {
  if (cudaError_t E = Runtime::get().resolveStream(
          static_cast<cudaStream_t>(Stream), S))
    return Status(ErrorCode::InvalidValue,
                  std::string("hetgpu: invalid stream (") +
                      cudaErrorNameOrNull(E) + ")");
  return Status::ok();
}

std::string hetgpu::rt::hexAddr(uint64_t V) {
  char B[32];
  snprintf(B, sizeof B, "0x%llx", (unsigned long long)V);
  return B;
}

double hetgpu::rt::msSince(std::chrono::steady_clock::time_point T0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - T0)
      .count();
}
