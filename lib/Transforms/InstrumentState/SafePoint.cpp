//===- SafePoint.cpp - Yield test, save and resume at a loop safe point ---===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// What `hetgpu-instrument-state` puts at one loop safe point
/// (`__hetgpu_safepoint`) or block barrier (of watched launches,
/// BarrierPoint.cpp), or, with `<grid-sync>`, at one grid barrier
/// (`__hetgpu_grid_sync`: the test always says yield on the way in):
///
/// * the read of the control word {Yield, YieldAfter}: at the safe point,
///   or, in a chunked loop, early, when the chunk starts (the chunked-loop
///   flag read), and the visit count of the random trigger;
/// * the yield test, a block-uniform `__hetgpu_barrier_or` of the flag in
///   place of the call;
/// * the save path: every thread stores its live values and its share of
///   the shared memory, the block header becomes {R + 1, id}, return;
/// * the resume path: shared memory copied back, then a landing block that
///   reloads the live values and re-enters the safe point (wired to the
///   entry by ResumeDispatch.cpp).
///
//===----------------------------------------------------------------------===//

#include "Instrumenter.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"

using namespace llvm;
using namespace hetgpu::container;

#define DEBUG_TYPE "hetgpu-instrument-state"

STATISTIC(NumInstrumentedSafePoints, "Safe points given save/restore code");

namespace hetgpu {
namespace instrument {

void KernelInstrumenter::instrumentSafePoint(SafePointPlan &P,
                                             BasicBlock *RestoreBB) {
  if (P.PerThread) {
    YieldTest YT = emitThreadYieldTest(P);
    emitThreadSavePath(P, YT);
    emitResumePath(P, YT, RestoreBB);
    ++NumInstrumentedSafePoints;
    return;
  }
  YieldTest YT = GridSync    ? emitGridSyncTest(P)
                 : P.Barrier ? emitBarrierYieldTest(P)
                             : emitYieldTest(P);
  emitSavePath(P, YT);
  emitResumePath(P, YT, RestoreBB);
  ++NumInstrumentedSafePoints;
}

/// Every thread reads {Yield, YieldAfter} with one volatile 64-bit load of
/// the same word (no branch, so no divergence in warp 0 on a GPU), and the
/// barrier_or makes the decision block-uniform even if the threads saw the
/// flag change. Volatile because the host may raise the flag while the
/// kernel runs (host memory, or a copy on another queue into device
/// memory: a GPU's L1 is not coherent with that); at one test per loop
/// safe point it costs nothing measurable. A block that raises the flag
/// (the random trigger) yields itself; blocks that see it later, or not at
/// all, still run correctly (to their end, or to a later safe point). Only
/// when the random trigger is armed (YieldAfter != 0, the same for every
/// thread) does thread 0 count the visit.
/// Between two chunks of a loop (InsertLoopSafePoints' chunkLoop, the
/// safe point's block goes back to the chunk header) the word is read when
/// the chunk starts: its latency (a GPU's L2, a few hundred ns on the H200,
/// in every block) overlaps the chunk's iterations instead of standing
/// between two of them (the stencil of bench/migration/overhead.cu: 1.06 on
/// the H200 with the read at the safe point). The flag is then seen one
/// chunk later at most.
/// (wireResumes keeps such a read ahead of a copied header's dispatch, so
/// a block resumed deeper in the nest still passes it.)
LoadInst *KernelInstrumenter::readControlWord(SafePointPlan &P,
                                              BasicBlock *Pre) {
  IRBuilder<> B(Pre->getTerminator());
  bool Early = P.ChunkHeader;
  if (Early)
    B.SetInsertPoint(P.ChunkHeader->getFirstNonPHIIt());
  LoadInst *Both = B.CreateLoad(I64, ctrlField(B, CF_Yield),
                                /*isVolatile=*/true, "hetgpu.ctrlword");
  if (Early)
    Both->setMetadata(EarlyFlagMD, MDNode::get(*C, {}));
  return Both;
}

/// Splits the safe point's block before the call, counts the visit when
/// the random trigger is armed, and replaces the call by the barrier_or of
/// the yield flag.
KernelInstrumenter::YieldTest
KernelInstrumenter::emitYieldTest(SafePointPlan &P) {
  CallBase *CB = P.Call;
  unsigned Id = P.Info->Id;
  BasicBlock *Pre = CB->getParent();
  BasicBlock *SP = Pre->splitBasicBlock(CB, "hetgpu.sp." + Twine(Id));

  LoadInst *Both = readControlWord(P, Pre);
  IRBuilder<> B(Pre->getTerminator());
  Value *Y0 = B.CreateTrunc(Both, I32, "hetgpu.yield");
  Value *After = B.CreateTrunc(B.CreateLShr(Both, 32), I32, "hetgpu.after");
  BasicBlock *TestBB = BasicBlock::Create(*C, "hetgpu.count.test", NF, SP);
  BasicBlock *CountBB = BasicBlock::Create(*C, "hetgpu.count", NF, SP);
  BasicBlock *SetBB = BasicBlock::Create(*C, "hetgpu.count.set", NF, SP);
  Pre->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Pre);
  B.CreateCondBr(B.CreateICmpNE(After, B.getInt32(0)), TestBB, SP);
  // The thread test uses the index builtins, so no value of the entry
  // block stays live across the barrier.
  B.SetInsertPoint(TestBB);
  Value *T0 = isFirstThread(B, "hetgpu.t0");
  B.CreateCondBr(T0, CountBB, SP);
  emitVisitCount(B, CountBB, SetBB, SP, After);

  // The yield test: a barrier_or of the flag in place of the call.
  B.SetInsertPoint(SP, SP->begin());
  PHINode *Y = B.CreatePHI(I32, 5, "hetgpu.y");
  Y->addIncoming(Y0, Pre);
  Y->addIncoming(Y0, TestBB);
  Y->addIncoming(Y0, CountBB);
  Y->addIncoming(B.getInt32(1), SetBB);
  B.SetInsertPoint(CB);
  Instruction *Any = cast<Instruction>(builtin(B, BuiltinID::barrier_or, {Y}));
  // A loop safe point (__hetgpu_safepoint) is only this test.
  Any->takeName(CB);
  CB->eraseFromParent();
  P.Call = nullptr;
  return {SP, Y, Any, B.getCurrentDebugLocation()};
}

/// A grid barrier (`<grid-sync>`): every block suspends there, so a round
/// ends only when all blocks have reached it (or finished). The test is a
/// barrier_or of 1 on the way in (the block barrier the grid barrier
/// implies, before the shared memory is saved) and of 0 from the resume
/// landing (the block barrier after the shared memory is restored).
KernelInstrumenter::YieldTest
KernelInstrumenter::emitGridSyncTest(SafePointPlan &P) {
  CallBase *CB = P.Call;
  BasicBlock *Pre = CB->getParent();
  BasicBlock *SP = Pre->splitBasicBlock(CB, "hetgpu.sp." + Twine(P.Info->Id));
  IRBuilder<> B(SP, SP->begin());
  PHINode *Y = B.CreatePHI(I32, 2, "hetgpu.y");
  Y->addIncoming(B.getInt32(1), Pre);
  B.SetInsertPoint(CB);
  Instruction *Any = cast<Instruction>(builtin(B, BuiltinID::barrier_or, {Y}));
  Any->setName("hetgpu.grid.arrived");
  CB->eraseFromParent();
  P.Call = nullptr;
  return {SP, Y, Any, B.getCurrentDebugLocation()};
}

void KernelInstrumenter::branchToSave(unsigned Id, const YieldTest &YT,
                                      StringRef Prefix, IRBuilder<> &B) {
  BasicBlock *SP = YT.SP;
  BasicBlock *Cont = SP->splitBasicBlock(std::next(YT.Any->getIterator()),
                                         "hetgpu.cont." + Twine(Id));
  BasicBlock *Save = BasicBlock::Create(*C, Prefix + "." + Twine(Id), NF, Cont);
  SP->getTerminator()->eraseFromParent();
  B.SetInsertPoint(SP);
  B.SetCurrentDebugLocation(YT.Loc);
  B.CreateCondBr(B.CreateICmpNE(YT.Any, B.getInt32(0)), Save, Cont);
  B.SetInsertPoint(Save);
  emitAddressing(B);
}

/// When the test says yield: save and return, the block suspended.
void KernelInstrumenter::emitSavePath(SafePointPlan &P, const YieldTest &YT) {
  unsigned Id = P.Info->Id;
  IRBuilder<> B(*C);
  branchToSave(Id, YT, "hetgpu.save", B);
  emitSave(B, P);
  emitSharedCopy(B, /*ToBuffer=*/true);
  B.CreateStore(B.getInt32(Id), byteGEP(B, Header, 4));
  // Suspended in round R: status R + 1, what round R + 1 resumes.
  B.CreateStore(B.CreateAdd(Round, B.getInt32(1)), Header);
  B.CreateRetVoid();
}

/// Resume: the shared memory is copied back in \p RestoreBB; the live values
/// are reloaded in a landing block right before the safe point, which the
/// resume path reaches through the headers of the loops around the safe
/// point (wireResumes), so the CFG stays reducible.
void KernelInstrumenter::emitResumePath(SafePointPlan &P, const YieldTest &YT,
                                        BasicBlock *RestoreBB) {
  unsigned Id = P.Info->Id;
  IRBuilder<> B(RestoreBB);
  B.SetCurrentDebugLocation(YT.Loc);
  emitAddressing(B);
  // A per-thread safe point's kernel has no shared memory.
  if (!P.PerThread)
    emitSharedCopy(B, /*ToBuffer=*/false);
  BasicBlock *RestoreEnd = B.GetInsertBlock();
  new UnreachableInst(*C, RestoreEnd); // replaced by wireResumes
  BasicBlock *Land =
      BasicBlock::Create(*C, "hetgpu.land." + Twine(Id), NF, YT.SP);
  B.SetInsertPoint(Land);
  emitAddressing(B);
  ResumePath RP{RestoreEnd, Land, nullptr, YT.SP, Id};
  emitRestore(B, P, RP.Reloaded);
  RP.LandEnd = B.GetInsertBlock();
  B.CreateBr(YT.SP);
  YT.Y->addIncoming(B.getInt32(0), RP.LandEnd);
  ResumePaths.push_back(std::move(RP));
}

} // namespace instrument
} // namespace hetgpu
