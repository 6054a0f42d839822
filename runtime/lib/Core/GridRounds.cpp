//===- GridRounds.cpp - Grid barriers in rounds of a launch ---------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements Core/GridRounds.h. One launch: a state buffer (a 16-byte
/// header per block, then its shared memory and its threads' records:
/// include/hetgpu/ABI/Migration.h) cleared, and after it a control block
/// whose only word the kernel reads is the dynamic shared size (the yield
/// flag stays clear: grid barriers suspend unconditionally, loop safe
/// points are gone). Round R runs the kernel with round parameter R; a
/// block suspending at a grid barrier writes status R + 1, so round R + 1
/// resumes exactly those, and the loop ends after a round in which none
/// suspended. Each round reads the state buffer back for the status words.
///
//===----------------------------------------------------------------------===//

#include "Core/GridRounds.h"
#include "Core/KernelMemCheck.h"
#include "Core/Log.h"
#include "Core/Runtime.h"

#include "hetgpu/ABI/Migration.h"

#include <cstring>
#include <vector>

using namespace hetgpu;
using namespace hetgpu::rt;

bool hetgpu::rt::runsGridSyncInRounds(const DeviceProperties &P) {
  return P.Target == "spirv" && !memCheckEnabled();
}

container::ModuleInfo
hetgpu::rt::gridRoundsModuleInfo(const DeviceProperties &P,
                                 const container::ModuleInfo &MI,
                                 bool AllInstrumented) {
  container::ModuleInfo R = MI;
  for (container::KernelInfo &K : R.Kernels)
    if (AllInstrumented || gridRoundsKernel(P, K))
      container::appendMigrationParams(K);
  return R;
}

namespace {

/// The launch's device memory: the state buffer, then the control block.
struct RoundBuffers {
  Device &Dev;
  void *Base = nullptr;
  explicit RoundBuffers(Device &D) : Dev(D) {}
  ~RoundBuffers() {
    if (Base)
      Dev.release(Base);
  }
};

Status readBack(Queue &Q, void *Dst, const void *Src, size_t N) {
  if (Status S = Q.memcpy(Dst, Src, N, CopyKind::DeviceToHost))
    return S;
  return Q.synchronize();
}

} // namespace

Status hetgpu::rt::gridRoundsLaunch(DeviceContext &Ctx, StreamObj &S, Kernel &K,
                                    LaunchParams P) {
  const container::KernelInfo &KI = K.info();
  if (KI.Params.size() < container::MigrationHiddenParams)
    return Status(ErrorCode::LaunchFailure,
                  "grid-barrier launch of " + KI.Name +
                      ": the loaded kernel has no hidden state parameters");
  size_t NUser = KI.Params.size() - container::MigrationHiddenParams;
  uint64_t Blocks = uint64_t(P.Grid[0]) * P.Grid[1] * P.Grid[2];
  uint64_t Threads = uint64_t(P.Block[0]) * P.Block[1] * P.Block[2];
  uint64_t BlockBytes = abi::stateBlockBytes(KI.StaticShared, P.DynamicShared,
                                             Threads, KI.StateRecordSize);
  uint64_t StateBytes = (Blocks * BlockBytes + 15) & ~uint64_t(15);
  RoundBuffers Buf(*Ctx.Dev);
  if (Status St = Ctx.Dev->allocate(StateBytes + sizeof(abi::MigrationControl),
                                    Buf.Base))
    return St;
  void *State = Buf.Base;
  void *Ctrl = static_cast<char *>(Buf.Base) + StateBytes;
  abi::MigrationControl CB = {};
  CB.DynShared = uint32_t(P.DynamicShared);
  Queue &Q = *S.Q;
  if (Status St = Q.memset(State, 0, StateBytes))
    return St;
  if (Status St = Q.memcpy(Ctrl, &CB, sizeof CB, CopyKind::HostToDevice))
    return St;

  std::vector<void *> Args(P.Args, P.Args + NUser);
  void *Hidden[2] = {State, Ctrl};
  uint32_t Round = 0;
  Args.push_back(&Hidden[0]);
  Args.push_back(&Hidden[1]);
  Args.push_back(&Round);
  P.Args = Args.data();
  P.State = nullptr;
  std::vector<char> Host(Blocks * BlockBytes);
  for (;; ++Round) {
    if (Status St = Q.launch(K, P))
      return St;
    // The copy waits for the round on the queue.
    if (Status St = readBack(Q, Host.data(), State, Host.size()))
      return St;
    uint64_t Suspended = 0;
    for (uint64_t B = 0; B < Blocks; ++B) {
      uint32_t Status_;
      std::memcpy(&Status_, Host.data() + B * BlockBytes, 4);
      Suspended += Status_ == Round + 1;
    }
    if (logEnabled(LogLevel::Debug))
      log(LogLevel::Debug, KI.Name + ": round " + std::to_string(Round) +
                               " ended with " + std::to_string(Suspended) +
                               " of " + std::to_string(Blocks) +
                               " blocks at a grid barrier");
    if (!Suspended)
      return Status::ok();
  }
}
