//===- InFlight.h - Requests to a running migratable launch -----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The watched launches in flight, one per CUDA device, and the requests
/// the public API (hetgpuMigrateDevice, hetgpuCheckpoint) hands them from
/// another host thread: move to a device, write a checkpoint to a file or a
/// buffer. The launch raises its yield flag, serves the request at its
/// next suspension and wakes the requester.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_MIGRATION_INFLIGHT_H
#define HETGPU_RUNTIME_MIGRATION_INFLIGHT_H

#include "Core/Device.h"

#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace hetgpu {
namespace rt {

struct DeviceContext;
struct StreamObj;
struct YieldFlag;

/// A watched launch as the API sees it. Fields are guarded by
/// InFlightTable::M.
struct Running {
  StreamObj *S = nullptr;
  YieldFlag *Flag = nullptr; ///< raisable while the launch runs, or null
  int MoveTo = -1;                   ///< context to move to
  std::string CheckpointTo;          ///< file to write the checkpoint to
  std::vector<char> *CheckpointBuf = nullptr;
  bool Served = false;
  Status Result;

  /// Whether a request is set (served or not).
  bool hasRequest() const {
    return MoveTo >= 0 || !CheckpointTo.empty() || CheckpointBuf;
  }
};

/// The launches in flight (the process has one table).
class InFlightTable {
public:
  static InFlightTable &get();

  std::mutex M;
  std::condition_variable CV;

  /// Makes \p Me the launch in flight on \p Ctx. Call with M held.
  void enter(DeviceContext &Ctx, Running &Me) { Launches[&Ctx] = &Me; }
  /// Removes \p Me (when it is still the launch of \p Ctx) and wakes the
  /// requesters. Takes M.
  void leave(DeviceContext &Ctx, Running &Me);

  /// Hands a request to the launch running on \p Ctx (on \p S when given)
  /// and waits until it is served. False when no launch runs there (or it
  /// ended before serving): the caller acts itself.
  bool request(DeviceContext &Ctx, StreamObj *S, int MoveTo,
               const std::string &Path, std::vector<char> *Buf,
               Status &Result);

private:
  std::map<DeviceContext *, Running *> Launches;
};

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_MIGRATION_INFLIGHT_H
