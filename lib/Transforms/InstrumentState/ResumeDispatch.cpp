//===- ResumeDispatch.cpp - How a resumed launch gets back to a safe point ===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The resume side of `hetgpu-instrument-state`: the kernel's new entry
/// (a fresh launch goes straight to the body; a resumed one dispatches on
/// its block's header to the restore path of the safe point it suspended
/// at, or returns), the copies of the loop nests around resumed safe
/// points whose headers dispatch on the resumed safe point id (so the CFG
/// stays reducible), and the repair of SSA form across the new edges.
///
//===----------------------------------------------------------------------===//

#include "Instrumenter.h"

#include "hetgpu/Transforms/StateLayout.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;
using namespace hetgpu::container;

namespace hetgpu {
namespace instrument {

void KernelInstrumenter::buildEntry() {
  BasicBlock *Body = &NF->getEntryBlock();
  Body->setName("hetgpu.body");
  BasicBlock *Entry = BasicBlock::Create(*C, "hetgpu.entry", NF, Body);
  for (Instruction &I : make_early_inc_range(*Body))
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (AI->isStaticAlloca() || isa<Constant>(AI->getArraySize()))
        AI->moveBefore(*Entry, Entry->end());
  if (Function *DS =
          M->getFunction(getBuiltinInfo(BuiltinID::dynamic_shared).Name))
    UsesDynShared = !DS->use_empty();
  // Unwatched launches run a copy of the body with plain barriers and no
  // loop safe points when barriers or per-thread loops are safe points
  // (BarrierPoint.cpp): a per-thread point tests a counter on every back
  // edge of its thread's loop, which cost saxpyloop 1.77x on the H200.
  if (!GridSync && (hasBarrierPlans() || hasThreadPlans()))
    clonePlainBody(Body);

  // Threads of a kernel with per-thread safe points mark their word
  // "finished" when they run to their end (ThreadSafePoint.cpp).
  if (!GridSync && hasThreadPlans())
    markThreadsFinished();

  IRBuilder<> B(Entry);
  // <grid-sync> kernels run in rounds and are never migrated: no
  // block-entry test (their grid barriers are the safe points).
  if (GridSync && Plans.empty()) {
    B.CreateBr(Body);
    return;
  }
  // A fresh launch (round 0, a parameter) goes to the block-entry test
  // (BlockEntry.cpp: one volatile load, then the body unless the launch is
  // watched). A resumed launch of round R continues the blocks whose
  // status is R (they suspended in the previous round) at their safe point,
  // or from the block-entry test when they suspended there; every other
  // block already ran to its end and returns. Nothing is written here, so
  // no barrier orders the header reads of the block's threads. (One
  // branch, then one switch: deeper nests of branches before the first
  // barrier crash PoCL 3.1's work-group functions.)
  RetBB = BasicBlock::Create(*C, "hetgpu.return", NF);
  ReturnInst::Create(*C, RetBB);
  BasicBlock *Resume = BasicBlock::Create(*C, "hetgpu.resume", NF, Body);
  if (!GridSync)
    Round = B.CreateAnd(RoundArg, B.getInt32(~abi::RoundWatched), "hetgpu.rnd");
  Value *Fresh = B.CreateICmpEQ(Round, B.getInt32(0), "hetgpu.fresh");

  B.SetInsertPoint(Resume);
  emitAddressing(B);
  Value *Status = B.CreateLoad(I32, Header, "hetgpu.status");
  Value *SPId = B.CreateLoad(I32, byteGEP(B, Header, 4), "hetgpu.spid");
  // Safe point ids start at 1: 0 (status other than R) returns.
  SwitchInst *RS = B.CreateSwitch(
      B.CreateSelect(B.CreateICmpEQ(Status, Round), SPId, B.getInt32(0)), RetBB,
      Plans.size() + 1);
  BasicBlock *Start = GridSync ? Body : emitBlockEntry(Body);
  if (!GridSync)
    RS->addCase(B.getInt32(abi::BlockStartId), Start);
  B.SetInsertPoint(Entry);
  B.CreateCondBr(Fresh, Start, Resume);
  // A block some of whose threads suspended at per-thread safe points:
  // each thread dispatches on its own word.
  SwitchInst *TS = nullptr;
  if (!GridSync && hasThreadPlans()) {
    BasicBlock *TD = BasicBlock::Create(*C, "hetgpu.thread.resume", NF, Body);
    RS->addCase(B.getInt32(abi::ThreadSuspendedId), TD);
    TS = emitThreadDispatch(TD, Body);
  }
  for (SafePointPlan &P : Plans) {
    BasicBlock *RB =
        BasicBlock::Create(*C, "hetgpu.restore." + Twine(P.Info->Id), NF, Body);
    (P.PerThread ? TS : RS)->addCase(B.getInt32(P.Info->Id), RB);
    instrumentSafePoint(P, RB);
  }
}

/// Copies the loop nest \p L (all its blocks) for the resume paths into
/// it and returns the map from original to copied values. The copy leaves
/// to the same exits; values of the nest used outside it first go through
/// stack slots (EscapeSlots, promoted again by repairSSA), so both copies
/// feed the same uses. The copy is entered only from wireResumes' edges.
ValueToValueMapTy &KernelInstrumenter::copyLoopNest(Loop *L) {
  SmallPtrSet<BasicBlock *, 32> In(L->block_begin(), L->block_end());
  BasicBlock::iterator SlotPt = NF->getEntryBlock().begin();
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : make_early_inc_range(*BB)) {
      if (I.getType()->isVoidTy() || isa<AllocaInst>(I))
        continue;
      bool Escapes = any_of(I.uses(), [&](const Use &U) {
        auto *UI = cast<Instruction>(U.getUser());
        BasicBlock *UB = UI->getParent();
        if (auto *Phi = dyn_cast<PHINode>(UI))
          UB = Phi->getIncomingBlock(U);
        return !In.count(UB);
      });
      if (!Escapes)
        continue;
      // (Phis too: the instruction stays, the live-value lists refer to it.)
      EscapeSlots[&I] = DemoteRegToStack(I, false, SlotPt);
    }

  CopyMaps.push_back(std::make_unique<ValueToValueMapTy>());
  ValueToValueMapTy &VM = *CopyMaps.back();
  SmallVector<BasicBlock *, 32> Copies;
  for (BasicBlock *BB : L->blocks()) {
    BasicBlock *Copy = CloneBasicBlock(BB, VM, ".resume", NF);
    VM[BB] = Copy;
    Copies.push_back(Copy);
  }
  remapInstructionsInBlocks(Copies, VM);
  // Exits reached from the copy: their phis get the copied incoming values
  // (after the demotion above these are the values the phi already had, or
  // their copies).
  SmallVector<BasicBlock *, 8> Exits;
  L->getExitBlocks(Exits);
  SmallPtrSet<BasicBlock *, 8> Done;
  for (BasicBlock *Exit : Exits) {
    if (!Done.insert(Exit).second)
      continue;
    for (PHINode &Phi : Exit->phis())
      for (unsigned I = 0, E = Phi.getNumIncomingValues(); I != E; ++I) {
        BasicBlock *From = Phi.getIncomingBlock(I);
        if (!In.count(From))
          continue;
        Value *V = Phi.getIncomingValue(I);
        auto It = VM.find(V);
        Phi.addIncoming(It != VM.end() ? static_cast<Value *>(It->second) : V,
                        cast<BasicBlock>(VM[From]));
      }
  }
  // The copy's header is entered from the resume path only: its phis'
  // values from the preheader side are replaced in wireResumes.
  SmallPtrSet<BasicBlock *, 32> CopySet(Copies.begin(), Copies.end());
  BasicBlock *H = cast<BasicBlock>(VM[L->getHeader()]);
  for (PHINode &Phi : H->phis())
    for (unsigned I = Phi.getNumIncomingValues(); I-- > 0;)
      if (!CopySet.count(Phi.getIncomingBlock(I)))
        Phi.removeIncomingValue(I, /*DeletePHIIfEmpty=*/false);
  return VM;
}

/// Connects each resume path to its safe point. A safe point inside a loop
/// nest is entered in a copy of the nest (copyLoopNest) through the copy's
/// loop headers, outermost first: a jump from the entry straight into a
/// loop body would make the loop irreducible, which OpenCL compilers that
/// form work-item loops between barriers (PoCL) reject, and a dispatch in
/// the original headers would cost every iteration of every launch. Each
/// copied header gets a dispatch on the resumed safe point id (0 after the
/// safe point: one phi and one switch per iteration of the copy, which
/// only resumed blocks run).
void KernelInstrumenter::wireResumes() {
  if (ResumePaths.empty())
    return;
  BasicBlock &Entry = NF->getEntryBlock();
  ResumeId = new AllocaInst(I32, 0, "hetgpu.resumeid", Entry.begin());
  new StoreInst(ConstantInt::get(I32, 0), ResumeId,
                Entry.getTerminator()->getIterator());
  DominatorTree DT(*NF);
  LoopInfo LI(DT);
  // One copy per outermost loop with a resumed safe point.
  DenseMap<Loop *, ValueToValueMapTy *> Copied;
  for (ResumePath &RP : ResumePaths)
    if (Loop *L = LI.getLoopFor(RP.SP)) {
      Loop *Top = L->getOutermostLoop();
      if (!Copied.count(Top))
        Copied[Top] = &copyLoopNest(Top);
    }
  DenseMap<BasicBlock *, SwitchInst *> Dispatch;
  auto DispatchOf = [&](BasicBlock *H) {
    SwitchInst *&SW = Dispatch[H];
    if (!SW) {
      // After the chunk's early read of the yield flag, if the header has
      // one (instrumentSafePoint): every way through the header reads it.
      BasicBlock::iterator At = H->getFirstNonPHIIt();
      for (Instruction &I : *H)
        if (I.getMetadata(EarlyFlagMD))
          At = std::next(I.getIterator());
      BasicBlock *Run = H->splitBasicBlock(At, H->getName() + ".run");
      H->getTerminator()->eraseFromParent();
      IRBuilder<> B(H);
      SW = B.CreateSwitch(B.CreateLoad(I32, ResumeId, "hetgpu.rid"), Run);
    }
    return SW;
  };
  // A new edge into a block with phis: the phis' values on it are never
  // used (the landing block reloads every value live at the safe point).
  auto AddEdge = [](BasicBlock *From, BasicBlock *To) {
    for (PHINode &Phi : To->phis())
      Phi.addIncoming(PoisonValue::get(Phi.getType()), From);
  };
  for (ResumePath &RP : ResumePaths) {
    SmallVector<BasicBlock *, 4> Headers;
    Loop *L = LI.getLoopFor(RP.SP);
    ValueToValueMapTy *VM = L ? Copied[L->getOutermostLoop()] : nullptr;
    for (; L; L = L->getParentLoop())
      Headers.push_back(cast<BasicBlock>((*VM)[L->getHeader()]));
    std::reverse(Headers.begin(), Headers.end());
    BasicBlock *SP = VM ? cast<BasicBlock>((*VM)[RP.SP]) : RP.SP;
    if (VM) {
      // The landing block now continues in the copy.
      for (PHINode &Phi : RP.SP->phis())
        Phi.removeIncomingValue(RP.LandEnd, /*DeletePHIIfEmpty=*/false);
      RP.LandEnd->getTerminator()->replaceUsesOfWith(RP.SP, SP);
      RP.SP = SP;
      RP.Copy = VM;
    }
    RP.RestoreEnd->getTerminator()->eraseFromParent();
    IRBuilder<> B(RP.RestoreEnd);
    B.CreateStore(B.getInt32(RP.Id), ResumeId);
    BasicBlock *First = Headers.empty() ? RP.Land : Headers.front();
    B.CreateBr(First);
    AddEdge(RP.RestoreEnd, First);
    for (unsigned I = 0; I < Headers.size(); ++I) {
      BasicBlock *Next = I + 1 < Headers.size() ? Headers[I + 1] : RP.Land;
      DispatchOf(Headers[I])->addCase(B.getInt32(RP.Id), Next);
      AddEdge(Headers[I], Next);
    }
    new StoreInst(B.getInt32(0), ResumeId, SP->getFirstInsertionPt());
  }
}

/// Values the state layout left out because a resumed launch can recompute
/// them (isRecomputable) lose dominance over their uses once the resume
/// edges exist: they move to the entry block (with their operands), which
/// dominates every path. They stay plain SSA values, so no phi joins them at
/// the safe points (the CPU device recomputes such values after each sync
/// point instead of spilling them).
void KernelInstrumenter::hoistRecomputable() {
  DominatorTree DT(*NF);
  DenseMap<const Value *, bool> Cache;
  BasicBlock &Entry = NF->getEntryBlock();
  SmallPtrSet<Instruction *, 32> Hoist;
  SmallVector<Instruction *, 32> Work;
  for (BasicBlock &BB : *NF) {
    if (&BB == &Entry)
      continue;
    for (Instruction &I : BB) {
      if (I.getType()->isVoidTy() || isa<PHINode>(I))
        continue;
      if (all_of(I.uses(), [&](const Use &U) { return DT.dominates(&I, U); }))
        continue;
      if (isRecomputable(&I, Cache) && Hoist.insert(&I).second)
        Work.push_back(&I);
    }
  }
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    for (Value *Op : I->operands())
      if (auto *OI = dyn_cast<Instruction>(Op))
        if (OI->getParent() != &Entry && Hoist.insert(OI).second)
          Work.push_back(OI);
  }
  if (Hoist.empty())
    return;
  // Dominators come first in a depth-first preorder of the CFG, and a
  // block's instructions in their order: operands move before their users.
  SmallVector<Instruction *, 32> Order;
  for (BasicBlock *BB : depth_first(&Entry))
    for (Instruction &I : *BB)
      if (Hoist.count(&I))
        Order.push_back(&I);
  for (Instruction *I : Order)
    I->moveBefore(Entry.getTerminator()->getIterator());
}

void KernelInstrumenter::repairSSA() {
  // A safe point in a copied loop nest restores the copies of its values,
  // and the stack slot through which a value leaves the nest (its store
  // right after the value's definition is skipped on the resume path).
  for (ResumePath &RP : ResumePaths)
    if (RP.Copy)
      for (auto &[V, R] : RP.Reloaded) {
        if (AllocaInst *Slot = EscapeSlots.lookup(V))
          new StoreInst(R, Slot, RP.LandEnd->getTerminator()->getIterator());
        if (auto It = RP.Copy->find(V); It != RP.Copy->end())
          V = cast<Instruction>(It->second);
      }
  SetVector<Instruction *> Live;
  for (ResumePath &RP : ResumePaths)
    for (auto &[V, R] : RP.Reloaded)
      Live.insert(V);
  DenseMap<Instruction *, AllocaInst *> Slots;
  SmallVector<AllocaInst *, 16> Allocas;
  BasicBlock::iterator AllocaPt = NF->getEntryBlock().begin();
  for (Instruction *V : Live) {
    AllocaInst *A = DemoteRegToStack(*V, false, AllocaPt);
    Slots[V] = A;
    Allocas.push_back(A);
  }
  for (ResumePath &RP : ResumePaths)
    for (auto &[V, R] : RP.Reloaded)
      new StoreInst(R, Slots[V], RP.LandEnd->getTerminator()->getIterator());
  if (ResumeId)
    Allocas.push_back(ResumeId);
  for (auto &[V, Slot] : EscapeSlots)
    Allocas.push_back(Slot);
  DominatorTree DT(*NF);
  PromoteMemToReg(Allocas, DT);
}

} // namespace instrument
} // namespace hetgpu
