//===- MigrationAPI.cpp - hetGPU's live-migration C API -------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The live-migration functions of hetgpu/hetgpu.h: whether the process is
/// migratable, statistics, checkpoint validation, moving a device
/// (hetgpuMigrateDevice), checkpoints of a stream (hetgpuCheckpoint*) and
/// restores (hetgpuRestore*). A request for a device whose launch runs in
/// another host thread is handed to that launch (Migration/InFlight.h).
/// Errors are returned as cudaError_t values, with the message kept for
/// hetgpuMigrationLastError.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/hetgpu.h"

#include "Core/CudaErrors.h"
#include "Core/Log.h"
#include "Core/Runtime.h"
#include "Migration/Checkpoint.h"
#include "Migration/InFlight.h"
#include "Migration/Migration.h"
#include "Migration/MoveContext.h"
#include "Migration/Resume.h"
#include "Migration/Trigger.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace hetgpu;
using namespace hetgpu::rt;

#define HETGPU_API extern "C" __attribute__((visibility("default")))

namespace {

thread_local std::string LastMigrationError;

int fail(const Status &S) {
  LastMigrationError = S.Message;
  if (S)
    log(LogLevel::Error, S.Message);
  return S.Code == ErrorCode::Success ? 0 : int(toCudaError(S.Code));
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
  if (InFlightTable::get().request(Ctx, S, -1, Path, Buf, R))
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
  return Path.empty() ? Status::ok() : writeCheckpointFile(Path, Image);
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
  if (Status S = readCheckpointFile(Path ? Path : "", Bytes)) {
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
  if (InFlightTable::get().request(*Ctx, nullptr, To, "", nullptr, R))
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
  if (Status S = readCheckpointFile(Path ? Path : "", Image))
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
