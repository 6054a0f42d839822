//===- ThreadSafePoint.cpp - Per-thread safe points of divergent loops ----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The per-thread safe points of `hetgpu-instrument-state` (kind
/// ThreadLoop: `__hetgpu_safepoint()` calls that hetgpu-insert-loop-
/// safepoints put on the back edges of divergent loops in kernels without
/// barriers, warp operations or shared memory from the loop on,
/// docs/Migration.md "Per-thread safe points"):
///
/// * the test: the thread reads the control word {Yield, YieldAfter} (one
///   volatile load), counts its visit when the random trigger is armed (every
///   thread counts: there is no block-uniform point to count at) and decides
///   alone, no barrier;
/// * the save path: the thread stores its live values in its own record
///   (slots after the thread's word), its word becomes {TW_Suspended, id},
///   the block header {R + 1, abi::ThreadSuspendedId} (every suspending
///   thread stores the same words), and the thread returns;
/// * "finished" marks: in a watched launch every thread that runs to its
///   end stores {TW_Finished, 0} in its word;
/// * the dispatch of a resumed block whose header says ThreadSuspendedId:
///   each thread reads its word and resumes at its safe point (the resume
///   path of SafePoint.cpp and ResumeDispatch.cpp), returns when it had
///   finished, or runs the body from its start when it has no word (which
///   a thread of such a block only lacks if it never reached a return).
///
/// Threads of such kernels never wait for each other, so resuming each one
/// where it stopped is exact.
///
//===----------------------------------------------------------------------===//

#include "Instrumenter.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"

using namespace llvm;

#define DEBUG_TYPE "hetgpu-instrument-state"

STATISTIC(NumThreadSafePoints, "Per-thread safe points instrumented");

namespace hetgpu {
namespace instrument {

/// Splits the safe point's block before the call and replaces the call by
/// the thread's own decision (a freeze of the flag as this thread saw it,
/// or 1 when its visit raised it).
KernelInstrumenter::YieldTest
KernelInstrumenter::emitThreadYieldTest(SafePointPlan &P) {
  CallBase *CB = P.Call;
  unsigned Id = P.Info->Id;
  BasicBlock *Pre = CB->getParent();
  BasicBlock *SP = Pre->splitBasicBlock(CB, "hetgpu.tsp." + Twine(Id));

  IRBuilder<> B(Pre->getTerminator());
  LoadInst *Both = B.CreateLoad(I64, ctrlField(B, CF_Yield),
                                /*isVolatile=*/true, "hetgpu.ctrlword");
  Value *Y0 = B.CreateTrunc(Both, I32, "hetgpu.yield");
  Value *After = B.CreateTrunc(B.CreateLShr(Both, 32), I32, "hetgpu.after");
  BasicBlock *CountBB = BasicBlock::Create(*C, "hetgpu.tcount", NF, SP);
  BasicBlock *SetBB = BasicBlock::Create(*C, "hetgpu.tcount.set", NF, SP);
  Pre->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Pre);
  B.CreateCondBr(B.CreateICmpNE(After, B.getInt32(0)), CountBB, SP);
  emitVisitCount(B, CountBB, SetBB, SP, After);

  B.SetInsertPoint(SP, SP->begin());
  PHINode *Y = B.CreatePHI(I32, 4, "hetgpu.y");
  Y->addIncoming(Y0, Pre);
  Y->addIncoming(Y0, CountBB);
  Y->addIncoming(B.getInt32(1), SetBB);
  B.SetInsertPoint(CB);
  auto *Mine = cast<Instruction>(B.CreateFreeze(Y, "hetgpu.thread.yield"));
  CB->eraseFromParent();
  P.Call = nullptr;
  ++NumThreadSafePoints;
  return {SP, Y, Mine, B.getCurrentDebugLocation()};
}

/// When this thread's test says yield: its values into its record, its
/// word {TW_Suspended, id}, the header {R + 1, ThreadSuspendedId}, return.
void KernelInstrumenter::emitThreadSavePath(SafePointPlan &P,
                                            const YieldTest &YT) {
  unsigned Id = P.Info->Id;
  IRBuilder<> B(*C);
  branchToSave(Id, YT, "hetgpu.tsave", B);
  emitSave(B, P);
  B.CreateStore(B.getInt64(uint64_t(Id) << 32 | abi::TW_Suspended),
                threadWord(B));
  Value *H = castTo(B, Header, AS_Global);
  B.CreateStore(B.getInt32(abi::ThreadSuspendedId), byteGEP(B, H, 4));
  B.CreateStore(B.CreateAdd(Round, B.getInt32(1)), H);
  B.CreateRetVoid();
}

/// Before every return of the body: in a watched launch (abi::RoundWatched,
/// a parameter) the thread's word becomes {TW_Finished, 0}, so a resumed
/// block does not run it again. Unwatched launches pass the idle control
/// block, never written, and skip the store.
void KernelInstrumenter::markThreadsFinished() {
  SmallVector<ReturnInst *, 4> Rets;
  for (Instruction &I : instructions(*NF))
    if (auto *R = dyn_cast<ReturnInst>(&I))
      if (!PlainBlocks.count(R->getParent())) // unwatched: nothing to mark
        Rets.push_back(R);
  for (ReturnInst *R : Rets) {
    BasicBlock *BB = R->getParent();
    BasicBlock *Tail = BB->splitBasicBlock(R, "hetgpu.finish.ret");
    BasicBlock *Mark = BasicBlock::Create(*C, "hetgpu.finish", NF, Tail);
    BB->getTerminator()->eraseFromParent();
    IRBuilder<> B(BB);
    B.SetCurrentDebugLocation(R->getDebugLoc());
    B.CreateCondBr(B.CreateICmpSLT(RoundArg, B.getInt32(0), "hetgpu.watched"),
                   Mark, Tail);
    B.SetInsertPoint(Mark);
    emitAddressing(B);
    B.CreateStore(B.getInt64(abi::TW_Finished), threadWord(B));
    B.CreateBr(Tail);
  }
}

/// The resumed thread's dispatch in \p BB: suspended -> the case of its safe
/// point (added by buildEntry), no word -> \p Body (not the block-entry
/// test: a block suspended per thread must not also be suspended at its
/// entry, whose header would hide the other threads' words), finished ->
/// return.
SwitchInst *KernelInstrumenter::emitThreadDispatch(BasicBlock *BB,
                                                   BasicBlock *Body) {
  IRBuilder<> B(BB);
  emitAddressing(B);
  Value *W = B.CreateLoad(I64, threadWord(B), "hetgpu.tword");
  Value *St = B.CreateTrunc(W, I32, "hetgpu.tstate");
  Value *Id = B.CreateTrunc(B.CreateLShr(W, 32), I32, "hetgpu.tid.sp");
  Value *NotRun = B.CreateSelect(B.CreateICmpEQ(St, B.getInt32(abi::TW_None)),
                                 B.getInt32(abi::BlockStartId), B.getInt32(0));
  Value *Sel = B.CreateSelect(B.CreateICmpEQ(St, B.getInt32(abi::TW_Suspended)),
                              Id, NotRun, "hetgpu.tresume");
  SwitchInst *SW = B.CreateSwitch(Sel, RetBB, 4);
  SW->addCase(B.getInt32(abi::BlockStartId), Body);
  return SW;
}

} // namespace instrument
} // namespace hetgpu
