//===- BarrierPoint.cpp - Block barriers as safe points of watched launches ===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A block barrier (`__hetgpu_barrier`, `__hetgpu_barrier_count/and/or`)
/// that Planning.cpp chose becomes a safe point of watched launches only:
///
/// ```
///   pre:    br (round param < 0: abi::RoundWatched), bar, plain
///   plain:  the barrier as it was; br join           (unwatched launches)
///   bar:    the control word read and visit count (SafePoint.cpp)
///   sp:     y = barrier_or(flag); y ? save : cont     (resume lands here)
///   cont:   barrier_count/and/or as it was (a plain barrier is the
///           barrier_or alone); br join
///   join:   phi of the barrier's result
/// ```
///
/// So an unwatched launch pays one test of a kernel parameter per barrier
/// (no memory access, uniform, loop-invariant), and a watched one a
/// `bar.red.or` in place of a plain barrier (a second barrier for the
/// count/and/or forms). The layout of a barrier safe point is taken before
/// the barrier (docs/StateMetadata.md): a resumed block enters `sp` with
/// its live values reloaded and its shared memory restored, and the
/// barrier_or there orders the restore before the code after the barrier.
///
//===----------------------------------------------------------------------===//

#include "Instrumenter.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"

using namespace llvm;

#define DEBUG_TYPE "hetgpu-instrument-state"

STATISTIC(NumBarrierSafePoints, "Block barriers made watched safe points");

namespace hetgpu {
namespace instrument {

KernelInstrumenter::YieldTest
KernelInstrumenter::emitBarrierTest(SafePointPlan &P) {
  CallBase *CB = P.Call;
  unsigned Id = P.Info->Id;
  BasicBlock *Pre = CB->getParent();
  BasicBlock *Join = Pre->splitBasicBlock(std::next(CB->getIterator()),
                                          "hetgpu.bar.join." + Twine(Id));
  BasicBlock *W =
      Pre->splitBasicBlock(CB->getIterator(), "hetgpu.bar." + Twine(Id));

  // The unwatched path: the barrier as it was (without its live-value
  // bundle: nothing is saved there).
  BasicBlock *Plain =
      BasicBlock::Create(*C, "hetgpu.bar.plain." + Twine(Id), NF, Join);
  IRBuilder<> B(Plain);
  B.SetCurrentDebugLocation(CB->getDebugLoc());
  SmallVector<Value *, 1> Args(CB->args());
  CallInst *PC =
      B.CreateCall(CB->getFunctionType(), CB->getCalledOperand(), Args);
  PC->setAttributes(CB->getAttributes());
  PC->setCallingConv(CB->getCallingConv());
  B.CreateBr(Join);

  // One test of the parameter: the same in every thread and every launch
  // of the block, so no divergence and nothing a CPU thread loop cannot
  // unswitch.
  Pre->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Pre);
  B.CreateCondBr(B.CreateICmpSLT(RoundArg, B.getInt32(0), "hetgpu.watched"),
                 W, Plain);

  if (!CB->getType()->isVoidTy()) {
    PHINode *R = PHINode::Create(CB->getType(), 2, "", Join->begin());
    CB->replaceAllUsesWith(R);
    R->takeName(CB);
    R->addIncoming(CB, W); // splitBasicBlock keeps the incoming block right
    R->addIncoming(PC, Plain);
    // A later safe point that saves the result saves the join's value.
    for (SafePointPlan &Q : Plans)
      for (Value *&V : Q.Values)
        if (V == CB)
          V = R;
  }
  ++NumBarrierSafePoints;
  return emitBarrierYieldTest(P);
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
  return {SP, Y, Any, B.getCurrentDebugLocation()};
}

} // namespace instrument
} // namespace hetgpu
