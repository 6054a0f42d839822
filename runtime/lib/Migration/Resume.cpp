//===- Resume.cpp - Resuming from a checkpoint image ----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// restoreImage (Migration/Resume.h): validate, move, write the memory back,
/// resume the launch through migratableLaunch.
///
//===----------------------------------------------------------------------===//

#include "Migration/Resume.h"
#include "Core/Runtime.h"
#include "Migration/Checkpoint.h"
#include "Migration/Launch.h"
#include "Migration/Migration.h"
#include "Migration/MoveContext.h"
#include "Migration/Trigger.h"

#include <cstring>
#include <mutex>
#include <string>

using namespace hetgpu;
using namespace hetgpu::rt;

/// A pointer argument is null, inside an allocation (or a variable) or
/// just past one's end.
static bool pointsIntoMemory(uint64_t V) {
  if (!V)
    return true;
  Runtime &RT = Runtime::get();
  Allocation A;
  auto In = [&](uint64_t P) {
    return RT.lookupRange(reinterpret_cast<const void *>(P), 1, A) ==
           Runtime::RangeState::Inside;
  };
  return In(V) || In(V - 1);
}

Status hetgpu::rt::checkResumable(const Checkpoint &C, const KernelRecord &KR,
                                  DeviceContext &Ctx) {
  auto Bad = [&](const std::string &Why) {
    return Status(ErrorCode::InvalidValue,
                  "checkpoint refused: " + Why + " (kernel " + C.Kernel + ")");
  };
  const container::KernelInfo &K = *KR.Info;
  // The packed arguments are those of the instrumented kernel (its hidden
  // parameters' bytes are rewritten when it resumes).
  container::KernelInfo Instrumented = K;
  container::appendMigrationParams(Instrumented);
  if (C.Args.size() != Instrumented.ParamBufferSize)
    return Bad("its arguments take " + std::to_string(C.Args.size()) +
               " bytes, the kernel's parameters " +
               std::to_string(Instrumented.ParamBufferSize));
  const DeviceProperties &P = Ctx.Dev->properties();
  uint64_t Threads = uint64_t(C.Block[0]) * C.Block[1] * C.Block[2];
  bool ShapeOK = Threads <= P.MaxThreadsPerBlock &&
                 (!K.MaxThreads || Threads <= K.MaxThreads);
  for (int I = 0; I < 3; ++I)
    ShapeOK = ShapeOK && C.Block[I] <= uint64_t(P.MaxBlockDim[I]) &&
              C.Grid[I] <= uint64_t(P.MaxGridDim[I]);
  if (!ShapeOK)
    return Bad("its launch shape is outside what device " +
               std::to_string(Ctx.Index) + " runs");
  uint64_t Limit = KR.MaxDynamicShared >= 0
                       ? uint64_t(KR.MaxDynamicShared)
                       : (P.SharedMemPerBlock > K.StaticShared
                              ? P.SharedMemPerBlock - K.StaticShared
                              : 0);
  if (C.DynShared > Limit)
    return Bad("dynamic shared size " + std::to_string(C.DynShared) +
               " exceeds the device's " + std::to_string(Limit) + " bytes");
  for (size_t I = 0; I < K.Params.size(); ++I) {
    if (K.Params[I].Kind != container::ParamKind::Pointer)
      continue;
    uint64_t V;
    memcpy(&V, C.Args.data() + K.Params[I].Offset, 8);
    if (!pointsIntoMemory(V))
      return Bad("pointer argument " + std::to_string(I) + " (" + hexAddr(V) +
                 ") points into no allocation");
  }
  return Status::ok();
}

Status hetgpu::rt::restoreImage(const std::vector<char> &Image,
                                const char *Target) {
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
    if (Status St = checkResumable(C, *KR, *Ctx))
      return St;
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

