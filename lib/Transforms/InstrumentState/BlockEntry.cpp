//===- BlockEntry.cpp - The block-entry safe point ------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The block-entry safe point of `hetgpu-instrument-state` (safe point id
/// abi::BlockStartId): a block that starts after the yield flag was raised
/// writes {R + 1, BlockStartId} in its header and returns without running
/// anything; the resumed launch runs it from the start. Every kernel (but
/// `<grid-sync>` ones) gets it, so every launch of more than one block can
/// be suspended between blocks.
///
/// The decision is block-uniform without a barrier: in an unwatched launch
/// (the round parameter without abi::RoundWatched) the thread runs the body
/// and nothing else happens. In a watched one every thread reads the
/// control word {Yield, YieldAfter} (one volatile load), thread 0 counts
/// the visit (the random trigger, as at loop safe points) and the block
/// agrees on the decision with one compare
/// and swap on its header's decision word: the first thread of the block
/// to get there stores `(R + 1) << 1 | yield` as it saw the flag, the others
/// find that value and follow it. So threads that read the flag before and
/// after the host raised it never split the block, with or without
/// barriers or warp operations in the kernel, and no barrier is added (one
/// would make a barrier-free kernel a resumable one on the CPU device).
///
//===----------------------------------------------------------------------===//

#include "Instrumenter.h"

#include "llvm/IR/Constants.h"

using namespace llvm;

namespace hetgpu {
namespace instrument {

BasicBlock *KernelInstrumenter::emitBlockEntry(BasicBlock *Body) {
  BasicBlock *Start = BasicBlock::Create(*C, "hetgpu.start", NF, Body);
  BasicBlock *Decide = BasicBlock::Create(*C, "hetgpu.start.count", NF, Body);
  BasicBlock *Count = BasicBlock::Create(*C, "hetgpu.start.visit", NF, Body);
  BasicBlock *Set = BasicBlock::Create(*C, "hetgpu.start.set", NF, Body);
  BasicBlock *Agree = BasicBlock::Create(*C, "hetgpu.start.agree", NF, Body);
  BasicBlock *Suspend =
      BasicBlock::Create(*C, "hetgpu.start.suspend", NF, Body);

  // Only a watched launch (abi::RoundWatched in the round parameter: no
  // memory access, so the CPU device's thread loop is unswitched on it and
  // stays vectorisable) reads the control block here.
  IRBuilder<> B(Start);
  // (With barrier or per-thread safe points, to the copy of the body with
  // plain barriers and no loop safe points, BarrierPoint.cpp.)
  B.CreateCondBr(B.CreateICmpSLT(RoundArg, B.getInt32(0), "hetgpu.watched"),
                 Decide, PlainBody ? PlainBody : Body);

  // Thread 0 counts the visit when the random trigger is armed.
  B.SetInsertPoint(Decide);
  LoadInst *Word = B.CreateLoad(I64, ctrlField(B, CF_Yield),
                                /*isVolatile=*/true, "hetgpu.start.word");
  Value *Y0 = B.CreateTrunc(Word, I32, "hetgpu.start.yield");
  Value *After =
      B.CreateTrunc(B.CreateLShr(Word, 32), I32, "hetgpu.start.after");
  Value *T0 = isFirstThread(B, "hetgpu.start.t0");
  B.CreateCondBr(B.CreateAnd(T0, B.CreateICmpNE(After, B.getInt32(0))), Count,
                 Agree);
  emitVisitCount(B, Count, Set, Agree, After);

  // The block agrees: the first thread's view of the flag wins. A value
  // of an earlier round (or 0) is replaced once by an exchange; a thread
  // whose exchange fails gets the winner's value (only this round's threads
  // write the word), and one that reads this round's tag takes it.
  B.SetInsertPoint(Agree);
  PHINode *Y = B.CreatePHI(I32, 3, "hetgpu.start.y");
  Y->addIncoming(Y0, Decide);
  Y->addIncoming(Y0, Count);
  Y->addIncoming(B.getInt32(1), Set);
  emitAddressing(B);
  Value *Word8 =
      castTo(B, byteGEP(B, Header, abi::StateEntryDecisionOffset), AS_Global);
  Value *Tag = B.CreateShl(B.CreateAdd(Round, B.getInt32(1)), 1);
  Value *Mine =
      B.CreateOr(Tag, B.CreateZExt(B.CreateICmpNE(Y, B.getInt32(0)), I32),
                 "hetgpu.start.mine");
  Value *Cur =
      B.CreateLoad(I32, Word8, /*isVolatile=*/true, "hetgpu.start.cur");
  Value *Fresh =
      B.CreateICmpNE(B.CreateLShr(Cur, 1), B.CreateAdd(Round, B.getInt32(1)),
                     "hetgpu.start.fresh");
  // Once the word holds this round's tag the thread just follows it (no
  // exchange: most threads of a block get here after the first).
  BasicBlock *Agreed = B.GetInsertBlock();
  BasicBlock *Swap = BasicBlock::Create(*C, "hetgpu.start.swap", NF, Suspend);
  BasicBlock *Decided =
      BasicBlock::Create(*C, "hetgpu.start.decided", NF, Suspend);
  B.CreateCondBr(Fresh, Swap, Decided);
  B.SetInsertPoint(Swap);
  Value *Pair = B.CreateAtomicCmpXchg(Word8, Cur, Mine, MaybeAlign(4),
                                      AtomicOrdering::Monotonic,
                                      AtomicOrdering::Monotonic);
  Value *Won = B.CreateExtractValue(Pair, 1, "hetgpu.start.won");
  Value *Seen = B.CreateExtractValue(Pair, 0);
  Value *Swapped = B.CreateSelect(Won, Mine, Seen);
  B.CreateBr(Decided);
  B.SetInsertPoint(Decided);
  PHINode *Decision = B.CreatePHI(I32, 2, "hetgpu.start.decision");
  Decision->addIncoming(Cur, Agreed);
  Decision->addIncoming(Swapped, Swap);
  B.CreateCondBr(
      B.CreateICmpNE(B.CreateAnd(Decision, B.getInt32(1)), B.getInt32(0)),
      Suspend, Body);

  // Suspended before running anything: status R + 1 at BlockStartId (every
  // thread stores the same words).
  B.SetInsertPoint(Suspend);
  Value *H = castTo(B, Header, AS_Global);
  B.CreateStore(B.getInt32(abi::BlockStartId), byteGEP(B, H, 4));
  B.CreateStore(B.CreateAdd(Round, B.getInt32(1)), H);
  B.CreateRetVoid();
  return Start;
}

} // namespace instrument
} // namespace hetgpu
