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
    if (C.Args.size() < KR->Info->ParamBufferSize)
      return Status(ErrorCode::InvalidValue,
                    "checkpoint refused: the arguments of " + C.Kernel +
                        " do not match its parameters");
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

