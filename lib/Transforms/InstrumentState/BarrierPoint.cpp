//===- BarrierPoint.cpp - Block barriers as watched safe points ----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A block barrier (`__hetgpu_barrier`, `__hetgpu_barrier_count/and/or`)
/// that Planning.cpp chose becomes a safe point of watched launches only.
/// The kernel's body is copied once (clonePlainBody, blocks suffixed
/// `.plain`): the block-entry test sends an unwatched launch (the round
/// parameter without abi::RoundWatched) to the copy, which has plain
/// barriers and no loop safe points, and a watched one to the instrumented
/// body (kernels with per-thread safe points get the copy too: their
/// per-thread test on every back edge cost an unwatched saxpy loop 1.77x on
/// the H200), where each chosen barrier is
///
/// ```
///   bar:    the control word read; br (armed && thread 0), count, sp
///   count:  the visit counted, the flag raised at the trigger's visit
///   sp:     y = barrier_or(flag); y ? save : cont     (resume lands here)
///   cont:   barrier_count/and/or as it was (a plain barrier is the
///           barrier_or alone)
/// ```
///
/// So an unwatched launch pays nothing per barrier (the entry's one test of
/// a parameter, there anyway; a test at each barrier cost the CPU device
/// 2.7x and PoCL 1.7x on a kernel with nine barriers: the SIMT -> MIMD
/// lowering and PoCL's regions split at both barriers of each test), and a
/// watched one a `bar.red.or` in place of a plain barrier (a second barrier
/// for the count/and/or forms). The layout of a barrier safe point is taken
/// before the barrier (docs/StateMetadata.md): a resumed block enters `sp`
/// with its live values reloaded and its shared memory restored, and the
/// barrier_or there orders the restore before the code after the barrier.
///
//===----------------------------------------------------------------------===//

#include "Instrumenter.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

#define DEBUG_TYPE "hetgpu-instrument-state"

STATISTIC(NumBarrierSafePoints, "Block barriers made watched safe points");
STATISTIC(NumPlainBodies, "Kernel bodies copied for unwatched launches");

namespace hetgpu {
namespace instrument {

void KernelInstrumenter::clonePlainBody(BasicBlock *Body) {
  SmallVector<BasicBlock *, 32> Orig;
  for (BasicBlock &BB : *NF)
    if (&BB != &NF->getEntryBlock())
      Orig.push_back(&BB);
  ValueToValueMapTy VM;
  SmallVector<BasicBlock *, 32> Copies;
  for (BasicBlock *BB : Orig) {
    BasicBlock *Copy = CloneBasicBlock(BB, VM, ".plain", NF);
    VM[BB] = Copy;
    Copies.push_back(Copy);
  }
  // Values of the entry block (the allocations) are shared by both bodies.
  remapInstructionsInBlocks(Copies, VM);
  PlainBody = cast<BasicBlock>(VM[Body]);
  // An unwatched launch is never asked to yield: its copy has no loop safe
  // points (as a translation that is not instrumented), and its barriers
  // and their live-value bundles are left for stripBundles.
  for (BasicBlock *Copy : Copies) {
    PlainBlocks.insert(Copy);
    for (Instruction &I : make_early_inc_range(*Copy))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (auto BI = getCalledBuiltin(*CB);
            BI && BI->ID == BuiltinID::safepoint)
          CB->eraseFromParent();
  }
  // The host target's lane-loop budget counts both bodies
  // (lib/Targets/Host/HostLaneLoops.cpp).
  M->getOrInsertNamedMetadata("hetgpu.unwatched.copies")
      ->addOperand(MDNode::get(*C, MDString::get(*C, NF->getName())));
  NumPlainBodies++;
}

/// The yield test of a barrier: as at a loop safe point (SafePoint.cpp),
/// but with one branch where that one has three (armed, thread 0, the
/// visit that raises the flag): whether thread 0 counts is one branch, and
/// the raising visit sets the flag with an atomic or of the comparison.
/// PoCL 3.1 miscompiles the work-group function of kernels with deeper
/// nests of branches before a barrier (a resumed launch crashed at its
/// entry); each branch here comes before the barrier_or.
KernelInstrumenter::YieldTest
KernelInstrumenter::emitBarrierYieldTest(SafePointPlan &P) {
  CallBase *CB = P.Call;
  unsigned Id = P.Info->Id;
  BasicBlock *Pre = CB->getParent();
  BasicBlock *SP = Pre->splitBasicBlock(CB, "hetgpu.sp." + Twine(Id));
  IRBuilder<> B(Pre->getTerminator());
  LoadInst *Both = B.CreateLoad(I64, ctrlField(B, CF_Yield),
                                /*isVolatile=*/true, "hetgpu.ctrlword");
  Value *Y0 = B.CreateTrunc(Both, I32, "hetgpu.yield");
  Value *After = B.CreateTrunc(B.CreateLShr(Both, 32), I32, "hetgpu.after");
  Value *Armed = B.CreateAnd(B.CreateICmpNE(After, B.getInt32(0)),
                             isFirstThread(B, "hetgpu.t0"), "hetgpu.counts");
  BasicBlock *Count = BasicBlock::Create(*C, "hetgpu.bar.count", NF, SP);
  Pre->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Pre);
  B.CreateCondBr(Armed, Count, SP);

  B.SetInsertPoint(Count);
  Value *Old = B.CreateAtomicRMW(AtomicRMWInst::Add, ctrlField(B, CF_Visits),
                                 B.getInt32(1), MaybeAlign(4),
                                 AtomicOrdering::Monotonic);
  Value *Hit =
      B.CreateICmpUGE(B.CreateAdd(Old, B.getInt32(1)), After, "hetgpu.hit");
  // An or of 0 leaves a flag the host raised meanwhile as it is.
  B.CreateAtomicRMW(AtomicRMWInst::Or, ctrlField(B, CF_Yield),
                    B.CreateZExt(Hit, I32), MaybeAlign(4),
                    AtomicOrdering::Monotonic);
  Value *YC = B.CreateSelect(Hit, B.getInt32(1), Y0);
  B.CreateBr(SP);

  B.SetInsertPoint(SP, SP->begin());
  PHINode *Y = B.CreatePHI(I32, 3, "hetgpu.y");
  Y->addIncoming(Y0, Pre);
  Y->addIncoming(YC, Count);
  B.SetInsertPoint(CB);
  B.SetCurrentDebugLocation(CB->getDebugLoc());
  Instruction *Any = cast<Instruction>(builtin(B, BuiltinID::barrier_or, {Y}));
  // A plain barrier is only this test; barrier_count/and/or run after it.
  Any->setName("hetgpu.bar.any");
  if (CB->getType()->isVoidTy())
    CB->eraseFromParent();
  P.Call = nullptr;
  ++NumBarrierSafePoints;
  return {SP, Y, Any, B.getCurrentDebugLocation()};
}

} // namespace instrument
} // namespace hetgpu
