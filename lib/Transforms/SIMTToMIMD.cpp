//===- SIMTToMIMD.cpp - Lower SIMT kernels to per-block CPU code ----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-simt-to-mimd` (see SIMTToMIMD.h). For each kernel K:
///
/// 1. Device functions that use thread-context builtins (indices, shared
///    memory, barriers, warp operations, services) are inlined into K.
/// 2. K's body moves into a thread function whose first block ("setup")
///    computes everything that is constant for a thread: parameters, thread
///    and block indices, shared-memory addresses, the frame pointer.
/// 3. Without sync points, `__hetgpu_block_K` is a z/y/x loop calling the
///    (always-inlined) thread function, which LLVM can vectorise.
/// 4. With sync points (barriers and warp operations), each sync call is
///    replaced by: store the values live across it into the thread's frame,
///    store the operation and its operands into the thread state, return its
///    id. A new block per sync point reloads them and continues; the setup
///    block dispatches on ts->resume. SSA form is repaired with SSAUpdater.
///    Values live across a barrier go to the offsets of the barrier's
///    `"hetgpu.live"` bundle in `!hetgpu.state` (the record the checkpoint
///    code uses); anything else live gets a slot after the record.
///    Allocations live across a sync point move into the frame.
///    `__hetgpu_block_K` calls the block executor (ABI/BlockExecutor.h).
///
/// The steps live in SIMTToMIMD/, one per file (Lowering.h lists them):
/// ContextFunctions.cpp (1), ThreadFunction.cpp and ContextBuiltins.cpp
/// (2), BlockFunction.cpp (3, and the block function of 4), Resumable.cpp,
/// Liveness.cpp and SyncPoints.cpp (4). This file is the driver: per
/// kernel, the steps in order, then the clean-up of what the kernels no
/// longer use.
///
/// USAGE: hetgpu-opt -passes=hetgpu-simt-to-mimd in.ll -S
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Transforms/SIMTToMIMD.h"
#include "SIMTToMIMD/Lowering.h"

#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Support/Diagnostics.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace hetgpu::container;

#define DEBUG_TYPE "hetgpu-simt-to-mimd"

STATISTIC(NumLoopKernels, "Kernels lowered to a plain thread loop");
STATISTIC(NumResumableKernels,
          "Kernels lowered to a resumable thread function");
STATISTIC(NumVolatileSyncs,
          "Warp regrouping points before volatile shared accesses");
STATISTIC(NumExchangeSyncs,
          "Warp regrouping points before unordered shared exchanges");

namespace hetgpu {
namespace simt {

void Lowering::finish() {
  // Device functions that were inlined everywhere are dead now.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Function *F : ContextFns)
      if (F->getParent() && !F->isDeclaration() && F->use_empty() &&
          !isKernel(*F)) {
        F->eraseFromParent();
        ContextFns.remove(F);
        Changed = true;
        break;
      }
  }
  for (Function *F : ContextFns)
    if (!isKernel(*F))
      Fail.add(*F, "device function '" + F->getName() +
                       "' uses thread-context builtins but is not called "
                       "from a kernel it could be inlined into");
  for (GlobalVariable &G : make_early_inc_range(M.globals()))
    if (G.getAddressSpace() == AS_Shared) {
      G.removeDeadConstantUsers();
      if (G.use_empty())
        G.eraseFromParent();
    }
  for (Function &F : make_early_inc_range(M))
    if (F.isDeclaration() && F.use_empty() && lookupBuiltin(F))
      F.eraseFromParent();
}

bool Lowering::lowerKernel(Function &K) {
  SharedLayout SL = computeSharedLayout(K);
  SmallPtrSet<CallInst *, 8> KernelBarriers;
  for (Instruction &I : instructions(K))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (CI->getOperandBundle(LiveBundle))
        KernelBarriers.insert(CI);
  if (!inlineContextCalls(K))
    return false;
  copyWrittenByVal(K);
  NumVolatileSyncs += addVolatileWarpSyncPoints(K);
  NumExchangeSyncs += addSharedExchangeSyncPoints(K);
  bool HasSync = false;
  for (Instruction &I : instructions(K))
    if (syncKindOf(I)) {
      HasSync = true;
      break;
    }
  Env E;
  Function *T = makeThreadFunction(K, HasSync, E);
  if (!lowerBuiltins(K, E, SL))
    return false;
  if (!HasSync) {
    // Static allocations to the entry block, so inlining keeps them static.
    BasicBlock *OldEntry = E.Setup->getTerminator()->getSuccessor(0);
    for (Instruction &I : make_early_inc_range(*OldEntry))
      if (auto *AI = dyn_cast<AllocaInst>(&I))
        if (isa<ConstantInt>(AI->getArraySize()))
          AI->moveBefore(E.Setup->getFirstInsertionPt());
    buildLoopBlockFunction(K, *T);
    ++NumLoopKernels;
  } else {
    auto It = Infos.find(&K);
    uint64_t FrameSize = 0;
    if (!makeResumable(K, E, It == Infos.end() ? nullptr : &It->second,
                       KernelBarriers, FrameSize))
      return false;
    buildExecBlockFunction(K, *T, FrameSize);
    ++NumResumableKernels;
  }
  ContextFns.remove(&K);
  K.eraseFromParent();
  return true;
}

bool Lowering::run() {
  SmallVector<Function *, 8> Kernels;
  for (Function &F : M)
    if (isKernel(F) && !F.isDeclaration())
      Kernels.push_back(&F);
  if (Kernels.empty())
    return true;

  if (M.getNamedMetadata(StateMD) || M.getNamedMetadata(KernelsMD)) {
    auto InfosOr = readKernelInfo(M);
    if (!InfosOr) {
      Fail.add(*Kernels.front(), toString(InfosOr.takeError()));
      return false;
    }
    for (auto &[F, KI] : *InfosOr)
      Infos[F] = std::move(KI);
  }
  if (!computeContextFunctions())
    return false;

  for (Function *K : Kernels)
    if (!lowerKernel(*K))
      return false;
  finish();
  return Fail.empty();
}

} // namespace simt

using simt::Failures;
using simt::Lowering;

Error lowerSIMTToMIMD(Module &M) {
  Failures Fail;
  Lowering L(M, Fail);
  L.run();
  Error Err = Error::success();
  for (auto &[F, Msg] : Fail.List)
    Err = joinErrors(std::move(Err),
                     createStringError(inconvertibleErrorCode(), Msg));
  return Err;
}

PreservedAnalyses SIMTToMIMDPass::run(Module &M, ModuleAnalysisManager &) {
  Failures Fail;
  Lowering L(M, Fail);
  bool HadKernels = llvm::any_of(
      M, [](Function &F) { return isKernel(F) && !F.isDeclaration(); });
  L.run();
  for (auto &[F, Msg] : Fail.List)
    reportFailure(*F, Msg);
  return HadKernels ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace hetgpu
