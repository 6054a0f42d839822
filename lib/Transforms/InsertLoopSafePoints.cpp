//===- InsertLoopSafePoints.cpp - Safe points on block-uniform loops ------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-insert-loop-safepoints` gives long loops a place where a block
/// may be suspended (docs/LoopSafePoints.md). These are the only safe points
/// inside a kernel that the instrumentation tests: a yield test at every
/// barrier cost barrier-dense kernels 20-90% on the H200 (docs/Migration.md).
/// A safe point must be reached by every thread of the block together, so
/// only block-uniform loops qualify:
///
/// * every conditional branch or switch in a block from which the loop
///   header is reachable (which includes every branch of the loop itself)
///   has a block-uniform condition, so all threads arrive at the header
///   along the same path and leave the loop after the same iteration; or
///   the loop contains a barrier that dominates every latch (every thread
///   passes it in every iteration, so by CUDA's rules all threads run the
///   same iterations);
/// * block-uniform values are constants, globals, kernel arguments, the
///   block/grid index builtins (ctaid, nctaid, ntid), pure math builtins of
///   uniform operands, and arithmetic, compares, casts, selects, GEPs and
///   phis of uniform values. Thread and lane ids, loads, atomics, allocas,
///   warp operations and calls of other functions are divergent;
/// * the loop calls no safe point and no non-builtin function, and a loop
///   without a barrier no warp builtin.
///
/// In a nest with barriers, every loop that contains a barrier and counts
/// `i + S` (a constant step) against a loop-invariant bound runs in chunks
/// of 32 iterations with the safe point between two chunks (chunkLoop: no
/// branch added to an iteration). Otherwise the outermost such loop of a
/// nest gets an i32 counter (reset when the nest is entered): in a nest
/// without barriers every back edge increments it, in a nest with barriers
/// the back edges of the other loops that contain a barrier do; when the
/// counter's low bits (LoopSafePointPeriodLog2, or
/// BarrierLoopSafePointPeriodLog2 for a nest with barriers) are zero the
/// back edge runs through a block that calls `__hetgpu_safepoint()`.
/// hetgpu-state-layout makes that call a `loop-latch` safe point,
/// hetgpu-instrument-state a yield test; a translation that is not
/// instrumented erases it (stripSafePoints) and the counter folds away (so
/// does the test of a loop fully unrolled with fewer iterations than the
/// period).
///
/// A loop that is not block-uniform (a grid-stride loop, a data-dependent
/// while loop, a loop after `if (tid >= n) return;`) gets a per-thread safe
/// point instead when nothing that needs the block or the warp together is
/// reachable from its header (no barrier, warp operation, grid sync, safe
/// point or call of a non-builtin function in the loop or after it) and the
/// kernel uses no shared memory (a thread that suspends alone cannot save
/// shared memory other threads still change). Its nest gets the same
/// counter, every LoopSafePointPeriodLog2 back edges a `__hetgpu_safepoint()`
/// call marked `!hetgpu.thread.safepoint`: hetgpu-state-layout makes it a
/// `thread-loop` safe point, hetgpu-instrument-state a test that only the
/// thread reaching it takes (docs/Migration.md, "Per-thread safe points").
/// Each refusal is a missed-optimisation remark naming the loop and the
/// reason (`-pass-remarks-missed=hetgpu-insert-loop-safepoints`).
///
/// USAGE: hetgpu-opt -passes=hetgpu-insert-loop-safepoints in.ll -S
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Transforms/InsertLoopSafePoints.h"
#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#include <optional>

using namespace llvm;

#define DEBUG_TYPE "hetgpu-insert-loop-safepoints"

STATISTIC(NumUniformLoops, "Loop nests given a safe-point counter");
STATISTIC(NumThreadLoops, "Divergent loop nests given a per-thread counter");
STATISTIC(NumLoopSafePoints, "Loop safe points inserted (one per back edge)");
STATISTIC(NumStripped, "Loop safe points erased (translation not instrumented)");

namespace hetgpu {
namespace {

/// Block-uniform values of one kernel: everything not reached from a
/// divergent source through the def-use graph.
class Uniformity {
public:
  explicit Uniformity(Function &K) {
    SmallVector<Instruction *, 32> Work;
    for (Instruction &I : instructions(K))
      if (isDivergentSource(I) && Divergent.insert(&I).second)
        Work.push_back(&I);
    while (!Work.empty()) {
      Instruction *I = Work.pop_back_val();
      for (User *U : I->users())
        if (auto *UI = dyn_cast<Instruction>(U))
          if (!UI->getType()->isVoidTy() && Divergent.insert(UI).second)
            Work.push_back(UI);
    }
  }

  bool isUniform(const Value *V) const {
    if (auto *I = dyn_cast<Instruction>(V))
      return !Divergent.contains(I);
    return isa<Constant>(V) || isa<Argument>(V);
  }

private:
  DenseSet<const Instruction *> Divergent;

  static bool isDivergentSource(const Instruction &I) {
    if (auto *CB = dyn_cast<CallBase>(&I)) {
      // Pure intrinsics (min, max, abs, ...) of uniform operands.
      if (isa<IntrinsicInst>(CB))
        return !CB->doesNotAccessMemory() || CB->isConvergent();
      auto BI = getCalledBuiltin(*CB);
      if (!BI)
        return true;
      switch (BI->ID) {
      case BuiltinID::tid_x:
      case BuiltinID::tid_y:
      case BuiltinID::tid_z:
      case BuiltinID::lane_id:
        return true;
      default:
        break;
      }
      // Block and grid sizes and ids; pure math of uniform operands.
      return !(BI->Group == "index" || BI->Group == "math");
    }
    if (isa<LoadInst>(I) || isa<AtomicRMWInst>(I) ||
        isa<AtomicCmpXchgInst>(I) || isa<AllocaInst>(I) || isa<VAArgInst>(I))
      return true;
    // Landing pads and friends have no place in hetIR; be safe.
    return I.isEHPad();
  }
};

class KernelInserter {
public:
  explicit KernelInserter(Function &K) : K(K), DT(K), LI(DT), U(K) {}
  bool run();

private:
  Function &K;
  DominatorTree DT;
  LoopInfo LI;
  Uniformity U;
  DenseMap<const Loop *, bool> Eligible;

  bool isEligible(const Loop *L);
  bool isThreadEligible(const Loop *L);
  bool usesSharedMemory();
  std::optional<bool> SharedUse;
  bool hasUniformControl(const Loop *L, StringRef &Why,
                         bool OutsideOnly = false);
  bool leavesUniformly(BasicBlock *BB, StringRef &Why);
  bool hasForbiddenCall(const Loop *L, StringRef &Why);
  bool barrierDominatesLatches(const Loop *L);
  bool chunkLoop(Loop *L, uint32_t Period, FunctionCallee SafePoint);
};

static bool isOne(const Value *V) {
  auto *CI = dyn_cast<ConstantInt>(V);
  return CI && CI->isOne();
}

/// A barrier of any kind (not a loop safe point).
static bool isBarrierCall(const Instruction &I) {
  auto *CB = dyn_cast<CallBase>(&I);
  if (!CB)
    return false;
  auto BI = getCalledBuiltin(*CB);
  return BI && (BI->Flags & BF_SafePoint) && BI->ID != BuiltinID::safepoint;
}

static bool containsBarrier(const Loop *L) {
  for (BasicBlock *BB : L->blocks())
    if (any_of(*BB, isBarrierCall))
      return true;
  return false;
}

bool KernelInserter::hasForbiddenCall(const Loop *L, StringRef &Why) {
  bool Barrier = containsBarrier(L);
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || isa<IntrinsicInst>(CB))
        continue;
      auto BI = getCalledBuiltin(*CB);
      if (!BI) {
        Why = "calls a function";
        return true;
      }
      if (BI->ID == BuiltinID::safepoint) {
        Why = "has a safe point";
        return true;
      }
      // A barrier in the loop means the whole block runs it together, warp
      // operations included.
      if (BI->Group == "warp" && !Barrier) {
        Why = "has a warp operation";
        return true;
      }
    }
  return false;
}

bool KernelInserter::barrierDominatesLatches(const Loop *L) {
  SmallVector<BasicBlock *, 4> Latches;
  L->getLoopLatches(Latches);
  SmallVector<BasicBlock *, 8> BarrierBlocks;
  for (BasicBlock *BB : L->blocks())
    if (any_of(*BB, isBarrierCall))
      BarrierBlocks.push_back(BB);
  return !Latches.empty() && all_of(Latches, [&](BasicBlock *Latch) {
    return any_of(BarrierBlocks,
                  [&](BasicBlock *BB) { return DT.dominates(BB, Latch); });
  });
}

/// Whether \p BB leaves on a block-uniform condition (else \p Why says so).
bool KernelInserter::leavesUniformly(BasicBlock *BB, StringRef &Why) {
  Instruction *T = BB->getTerminator();
  if (auto *Br = dyn_cast<BranchInst>(T)) {
    if (Br->isConditional() && !U.isUniform(Br->getCondition())) {
      Why = "is reached or left through a divergent branch";
      return false;
    }
  } else if (auto *SW = dyn_cast<SwitchInst>(T)) {
    if (!U.isUniform(SW->getCondition())) {
      Why = "is reached or left through a divergent switch";
      return false;
    }
  } else if (!isa<ReturnInst>(T) && !isa<UnreachableInst>(T)) {
    Why = "is reached through an unsupported terminator";
    return false;
  }
  return true;
}

bool KernelInserter::hasUniformControl(const Loop *L, StringRef &Why,
                                       bool OutsideOnly) {
  // Every block from which the header is reachable (OutsideOnly: those
  // outside the loop; the loop's own blocks only lead to their
  // predecessors).
  SmallPtrSet<BasicBlock *, 32> Seen;
  SmallVector<BasicBlock *, 32> Work{L->getHeader()};
  Seen.insert(L->getHeader());
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (!(OutsideOnly && L->contains(BB)) && !leavesUniformly(BB, Why))
      return false;
    for (BasicBlock *P : predecessors(BB))
      if (Seen.insert(P).second)
        Work.push_back(P);
  }
  return true;
}

bool KernelInserter::isEligible(const Loop *L) {
  if (auto It = Eligible.find(L); It != Eligible.end())
    return It->second;
  StringRef Why;
  // Threads that left before the loop (an early return) must not be
  // suspended with it, so the way into the loop is uniform either way.
  bool Ok = !hasForbiddenCall(L, Why) &&
            (barrierDominatesLatches(L)
                 ? hasUniformControl(L, Why, /*OutsideOnly=*/true)
                 : hasUniformControl(L, Why));
  if (Ok) {
    SmallVector<BasicBlock *, 4> Latches;
    L->getLoopLatches(Latches);
    for (BasicBlock *Latch : Latches)
      if (!isa<BranchInst>(Latch->getTerminator())) {
        Why = "has a latch that does not end in a branch";
        Ok = false;
      }
  }
  LLVM_DEBUG(dbgs() << DEBUG_TYPE ": loop " << L->getHeader()->getName()
                    << " in " << K.getName() << ": "
                    << (Ok ? StringRef("uniform") : Why) << "\n");
  Eligible[L] = Ok;
  return Ok;
}

/// Whether the kernel touches shared memory (a static shared variable of
/// its layout, or the dynamic shared base).
bool KernelInserter::usesSharedMemory() {
  if (SharedUse)
    return *SharedUse;
  bool Uses = !computeSharedLayout(K).Vars.empty();
  for (Instruction &I : instructions(K))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (auto BI = getCalledBuiltin(*CB);
          BI && BI->ID == BuiltinID::dynamic_shared)
        Uses = true;
  SharedUse = Uses;
  return Uses;
}

/// A loop that is not block-uniform takes a per-thread safe point when every
/// thread may stop in it alone: nothing reachable from its header (the loop
/// and everything after it) waits for other threads, and no shared memory
/// needs saving (see the file comment).
bool KernelInserter::isThreadEligible(const Loop *L) {
  // A missed-optimisation remark says why (-pass-remarks-missed=DEBUG_TYPE,
  // also in release builds).
  auto Refuse = [&](StringRef W) {
    OptimizationRemarkEmitter ORE(&K);
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, "NoThreadSafePoint",
                                      L->getStartLoc(), L->getHeader())
             << "loop " << L->getHeader()->getName() << " in kernel "
             << K.getName() << " gets no per-thread safe point: " << W;
    });
    return false;
  };
  if (usesSharedMemory())
    return Refuse("the kernel uses shared memory");
  SmallPtrSet<BasicBlock *, 32> Seen{L->getHeader()};
  SmallVector<BasicBlock *, 32> Work{L->getHeader()};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    Instruction *T = BB->getTerminator();
    if (!isa<BranchInst>(T) && !isa<SwitchInst>(T) && !isa<ReturnInst>(T) &&
        !isa<UnreachableInst>(T))
      return Refuse("an unsupported terminator is reachable from it");
    for (Instruction &I : *BB) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (isa<IntrinsicInst>(CB)) {
        if (CB->isConvergent())
          return Refuse("a convergent intrinsic is reachable from it");
        continue;
      }
      auto BI = getCalledBuiltin(*CB);
      if (!BI)
        return Refuse("a call of a function is reachable from it");
      if (BI->Flags & BF_Convergent)
        return Refuse("a barrier, warp operation, grid sync or safe point "
                      "is reachable from it");
    }
    for (BasicBlock *S : successors(BB))
      if (Seen.insert(S).second)
        Work.push_back(S);
  }
  SmallVector<BasicBlock *, 4> Latches;
  L->getLoopLatches(Latches);
  for (BasicBlock *Latch : Latches)
    if (!isa<BranchInst>(Latch->getTerminator()))
      return Refuse("a latch does not end in a branch");
  LLVM_DEBUG(dbgs() << DEBUG_TYPE ": loop " << L->getHeader()->getName()
                    << " in " << K.getName() << ": per-thread safe point\n");
  return true;
}

/// A loop with a barrier whose latch decides the exit on its induction
/// variable (`%i.next = add %i, S` compared slt (nsw) / ult (nuw) / ne
/// (S = 1) with a bound that does not change in the loop) runs in chunks of
/// Period iterations, the safe point between two chunks:
///
///   OH:     %c = phi [0, preheader], [%c.next, SP]      chunk number
///           %base = start + %c * Period * S
///           %len = iterations left from %base, at most Period (1 when
///                  %base is past the bound: a do-while's first iteration)
///           (the loop's other header values: phis of their start and latch)
///   H:      %j = phi [0, OH], [%j.next, Latch]           the IV's phi, reused
///           %i = %base + %j * S                          the IV's uses
///   ...     the loop, unchanged but for the latch:
///   Latch:  %j.next = %j + 1 ; br (%j.next != %len), H, Chunk
///   Chunk:  br (%i.next <pred> %bound), SP, E
///   SP:     call @__hetgpu_safepoint() ; %c.next = %c + 1 ; br OH
///
/// No barrier depends on a branch inside the loop: OpenCL compilers that run
/// a work-item loop per region between barriers (PoCL) made the back-edge
/// counter's conditional safe point cost every iteration (a stencil loop
/// 1.25x). Both header counters count from 0 by 1, the shape such compilers
/// recognise as the same in every work-item (PoCL's uniformity analysis
/// knows a loop's canonical induction variable and nothing else about
/// phis: a chunk start carried in a phi made it keep the IV, the chunk
/// limit and their compares per work-item, 1.22x). %len >= 1 as the chunk
/// is entered only while the loop goes on. stripSafePoints undoes it. False
/// (nothing changed) for loops of another shape.
bool KernelInserter::chunkLoop(Loop *L, uint32_t Period,
                               FunctionCallee SafePoint) {
  BasicBlock *H = L->getHeader(), *Latch = L->getLoopLatch();
  auto *Br = Latch ? dyn_cast<BranchInst>(Latch->getTerminator()) : nullptr;
  if (!Br || !Br->isConditional())
    return false;
  unsigned HIdx = Br->getSuccessor(0) == H ? 0 : 1;
  BasicBlock *E = Br->getSuccessor(1 - HIdx);
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (Br->getSuccessor(HIdx) != H || L->contains(E) || E->isEHPad() || !Cmp ||
      !Cmp->hasOneUse())
    return false;
  // "Stay in the loop while X <Pred> Bound", X = IV + Step.
  Value *X = Cmp->getOperand(0), *Bound = Cmp->getOperand(1);
  CmpInst::Predicate Pred = Cmp->getPredicate();
  if (!L->isLoopInvariant(Bound)) {
    std::swap(X, Bound);
    Pred = CmpInst::getSwappedPredicate(Pred);
  }
  if (HIdx == 1)
    Pred = CmpInst::getInversePredicate(Pred);
  auto *Next = dyn_cast<BinaryOperator>(X);
  auto *StepC = Next && Next->getOpcode() == Instruction::Add
                    ? dyn_cast<ConstantInt>(Next->getOperand(1))
                    : nullptr;
  if (!L->isLoopInvariant(Bound) || !StepC || StepC->isNegative() ||
      StepC->isZero() || StepC->getValue().ugt(1u << 16))
    return false;
  uint64_t StepV = StepC->getZExtValue();
  // `<` needs an increment that cannot wrap (no-wrap flag of the
  // compare's signedness): the loop then leaves at the first iteration
  // whose next value is not below the bound, which is where the last chunk
  // ends. `!=` (step 1) leaves exactly when it reaches the bound.
  bool NoWrap = (Pred == CmpInst::ICMP_SLT && Next->hasNoSignedWrap()) ||
                (Pred == CmpInst::ICMP_ULT && Next->hasNoUnsignedWrap()) ||
                (Pred == CmpInst::ICMP_NE && StepV == 1);
  if (!NoWrap)
    return false;
  auto *IV = dyn_cast<PHINode>(Next->getOperand(0));
  if (!IV || IV->getParent() != H ||
      IV->getIncomingValueForBlock(Latch) != Next)
    return false;
  SmallVector<BasicBlock *, 4> Outside;
  for (BasicBlock *P : predecessors(H))
    if (!L->contains(P))
      Outside.push_back(P);
  if (Outside.empty())
    return false;

  // The start must be one value for every way in (so the chunk base is
  // start + c * Period).
  Value *Start = IV->getIncomingValueForBlock(Outside.front());
  for (BasicBlock *P : Outside)
    if (IV->getIncomingValueForBlock(P) != Start)
      return false;

  LLVMContext &C = K.getContext();
  BasicBlock *OH = SplitBlockPredecessors(H, Outside, ".chunk");
  if (!OH)
    return false;
  OH->setName("hetgpu.loopsp.chunk");
  BasicBlock *Chunk = BasicBlock::Create(C, "hetgpu.loopsp.end", &K, E);
  BasicBlock *SP = BasicBlock::Create(C, "hetgpu.loopsp", &K, E);
  // What H gets from the latch also reaches it through SP and OH (but the
  // IV, which restarts at 0 in every chunk).
  for (PHINode &P : H->phis()) {
    if (&P == IV)
      continue;
    Value *FromOH = P.getIncomingValueForBlock(OH);
    auto *OP = dyn_cast<PHINode>(FromOH);
    if (!OP || OP->getParent() != OH) {
      OP = PHINode::Create(P.getType(), Outside.size() + 1,
                           P.getName() + ".chunk", OH->getFirstNonPHIIt());
      for (BasicBlock *Pred : predecessors(OH))
        OP->addIncoming(FromOH, Pred);
      P.setIncomingValueForBlock(OH, OP);
    }
    OP->addIncoming(P.getIncomingValueForBlock(Latch), SP);
  }
  for (PHINode &P : E->phis())
    for (unsigned I = 0; I < P.getNumIncomingValues(); ++I)
      if (P.getIncomingBlock(I) == Latch)
        P.setIncomingBlock(I, Chunk);
  Type *T = IV->getType();
  Constant *Zero = ConstantInt::get(T, 0), *One = ConstantInt::get(T, 1);
  Constant *P = ConstantInt::get(T, Period), *S = ConstantInt::get(T, StepV);
  // OH: the chunk number and the chunk's start and length (iterations):
  // Period while the bound lies further, else up to the bound; 1 when the
  // loop is entered at or past its bound (a do-while), whose test then
  // leaves after that iteration.
  PHINode *Num =
      PHINode::Create(T, Outside.size() + 1, "hetgpu.chunk.num", OH->begin());
  IRBuilder<> B(OH->getTerminator());
  Value *Base = B.CreateAdd(
      Start, B.CreateMul(Num, ConstantInt::get(T, uint64_t(Period) * StepV)),
      "hetgpu.chunk.base");
  Value *Left = B.CreateSub(Bound, Base);
  Value *Len;
  if (Pred == CmpInst::ICMP_NE) {
    // 0 left means 2^N iterations (the IV wraps around to the bound).
    Len = B.CreateSelect(B.CreateICmpULT(B.CreateSub(Left, One), P), Left, P,
                         "hetgpu.chunk.len");
  } else {
    Value *Iters =
        StepV == 1 ? Left
                   : B.CreateAdd(B.CreateUDiv(B.CreateSub(Left, One), S), One);
    Value *Chunk = B.CreateSelect(B.CreateICmpULT(Iters, P), Iters, P);
    Len = B.CreateSelect(B.CreateICmp(Pred, Base, Bound), Chunk, One,
                         "hetgpu.chunk.len");
  }
  // H: the IV's phi counts the chunk's iterations; its uses see
  // base + j * step.
  Value *Scaled = IV;
  if (StepV != 1)
    Scaled = BinaryOperator::CreateMul(IV, S, "hetgpu.chunk.off",
                                       H->getFirstNonPHIIt());
  auto *I = BinaryOperator::CreateAdd(Base, Base, "", H->getFirstNonPHIIt());
  if (auto *SI = dyn_cast<Instruction>(Scaled); SI && SI != IV)
    I->moveAfter(SI);
  I->takeName(IV);
  IV->setName("hetgpu.chunk.j");
  IV->replaceAllUsesWith(I);
  I->setOperand(1, Scaled);
  if (Scaled != IV)
    cast<Instruction>(Scaled)->setOperand(0, IV);
  IV->setIncomingValueForBlock(OH, Zero);
  B.SetInsertPoint(Br);
  Value *JNext = B.CreateAdd(IV, One, "hetgpu.chunk.j.next");
  IV->setIncomingValueForBlock(Latch, JNext);
  Value *InChunk = B.CreateICmpNE(JNext, Len, "hetgpu.chunk.more");
  B.CreateCondBr(InChunk, H, Chunk);
  Br->eraseFromParent();
  // Chunk: the loop's own test, now with the continuing side first.
  if (HIdx == 1)
    Cmp->setPredicate(Cmp->getInversePredicate());
  Cmp->moveBefore(*Chunk, Chunk->end());
  BranchInst::Create(SP, E, Cmp, Chunk);
  B.SetInsertPoint(SP);
  B.CreateCall(SafePoint); // convergent: the declaration says so
  Value *NumNext = B.CreateAdd(Num, One, "hetgpu.chunk.num.next");
  B.CreateBr(OH);
  for (BasicBlock *P : predecessors(OH))
    Num->addIncoming(P == SP ? NumNext : Zero, P);
  ++NumLoopSafePoints;
  return true;
}

bool KernelInserter::run() {
  // Outermost eligible loops: every loop inside one is eligible too (the
  // blocks reaching an inner header are the outer loop's and those reaching
  // the outer header), and shares its counter.
  // Outermost divergent loops whose threads may stop alone get a per-thread
  // counter for their nest (Thread).
  SmallVector<std::pair<Loop *, bool>, 8> Roots;
  SmallVector<Loop *, 16> Work(LI.begin(), LI.end());
  while (!Work.empty()) {
    Loop *L = Work.pop_back_val();
    if (isEligible(L))
      Roots.push_back({L, false});
    else if (isThreadEligible(L))
      Roots.push_back({L, true});
    else
      Work.append(L->begin(), L->end());
  }
  if (Roots.empty())
    return false;

  LLVMContext &C = K.getContext();
  Type *I32 = Type::getInt32Ty(C);
  Module &M = *K.getParent();
  FunctionCallee SafePoint = getOrDeclareBuiltin(M, BuiltinID::safepoint);
  BasicBlock &Entry = K.getEntryBlock();
  SmallVector<AllocaInst *, 8> Counters;
  // Edges to instrument, collected before the CFG changes.
  struct BackEdge {
    BasicBlock *Latch, *Header;
    AllocaInst *Counter;
    uint32_t Mask; ///< the safe point is due when (counter & Mask) == 0
    bool Thread;   ///< a per-thread safe point (ThreadSafePointMD)
  };
  SmallVector<BackEdge, 16> Edges;
  for (auto [Root, Thread] : Roots) {
    // The nest's counter, made when a back edge needs it (chunked loops do
    // not); it is reset on the edges into the nest as they were before any
    // loop of the nest was chunked.
    SmallVector<BasicBlock *, 4> Entries;
    for (BasicBlock *P : predecessors(Root->getHeader()))
      if (!Root->contains(P))
        Entries.push_back(P);
    AllocaInst *Ctr = nullptr;
    auto Counter = [&] {
      if (Ctr)
        return Ctr;
      Ctr = new AllocaInst(I32, M.getDataLayout().getAllocaAddrSpace(),
                           "hetgpu.loopctr", Entry.getFirstInsertionPt());
      new StoreInst(ConstantInt::get(I32, 0), Ctr,
                    Entry.getTerminator()->getIterator());
      for (BasicBlock *P : Entries)
        new StoreInst(ConstantInt::get(I32, 0), Ctr,
                      P->getTerminator()->getIterator());
      Counters.push_back(Ctr);
      return Ctr;
    };
    // In a nest with barriers only the loops with a barrier count: the
    // others run between two barriers of one iteration.
    bool Barriers = !Thread && containsBarrier(Root);
    uint32_t Mask = (1u << (Barriers ? BarrierLoopSafePointPeriodLog2
                                     : LoopSafePointPeriodLog2)) -
                    1;
    SmallVector<Loop *, 8> Nest{Root};
    for (unsigned I = 0; I < Nest.size(); ++I) {
      Nest.append(Nest[I]->begin(), Nest[I]->end());
      if (Barriers && !containsBarrier(Nest[I]))
        continue;
      if (Barriers && chunkLoop(Nest[I], Mask + 1, SafePoint))
        continue;
      SmallVector<BasicBlock *, 4> Latches;
      Nest[I]->getLoopLatches(Latches);
      for (BasicBlock *Latch : Latches)
        Edges.push_back({Latch, Nest[I]->getHeader(), Counter(), Mask, Thread});
    }
    ++(Thread ? NumThreadLoops : NumUniformLoops);
  }

  for (BackEdge &E : Edges) {
    // A latch may branch to its header along two edges of one terminator;
    // split each of them.
    Instruction *T = E.Latch->getTerminator();
    for (unsigned S = 0; S < T->getNumSuccessors(); ++S) {
      if (T->getSuccessor(S) != E.Header)
        continue;
      DebugLoc DL = T->getDebugLoc();
      BasicBlock *Count = SplitEdge(E.Latch, E.Header);
      Count->setName("hetgpu.loopsp.count");
      BasicBlock *Tail = SplitBlock(Count, Count->getTerminator());
      Tail->setName("hetgpu.loopsp.next");
      BasicBlock *SP = BasicBlock::Create(C, "hetgpu.loopsp", &K, Tail);
      IRBuilder<> B(Count->getTerminator());
      B.SetCurrentDebugLocation(DL);
      Value *N = B.CreateAdd(B.CreateLoad(I32, E.Counter), B.getInt32(1),
                             "hetgpu.loopctr.next");
      B.CreateStore(N, E.Counter);
      Value *Due = B.CreateICmpEQ(B.CreateAnd(N, B.getInt32(E.Mask)),
                                  B.getInt32(0), "hetgpu.loopsp.due");
      Count->getTerminator()->eraseFromParent();
      B.SetInsertPoint(Count);
      B.CreateCondBr(Due, SP, Tail);
      B.SetInsertPoint(SP);
      CallInst *Call = B.CreateCall(SafePoint); // convergent (declaration)
      if (E.Thread)
        Call->setMetadata(ThreadSafePointMD, MDNode::get(C, {}));
      B.CreateBr(Tail);
      ++NumLoopSafePoints;
      // SplitEdge may have moved the terminator into a new block.
      T = E.Latch->getTerminator();
    }
  }
  DominatorTree NewDT(K);
  PromoteMemToReg(Counters, NewDT);
  return true;
}

} // namespace

PreservedAnalyses InsertLoopSafePointsPass::run(Module &M,
                                                ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function *K : getKernels(M))
    if (!K->isDeclaration())
      Changed |= KernelInserter(*K).run();
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

/// Whether \p V is `add \p P, 1`.
static bool isIncrementOf(Value *V, Value *P) {
  auto *A = dyn_cast<BinaryOperator>(V);
  return A && A->getOpcode() == Instruction::Add && A->getOperand(0) == P &&
         isOne(A->getOperand(1));
}

/// Undoes chunkLoop once the safe point call is gone from \p SP: the IV's
/// phi starts at the loop's start and steps by the loop's own increment
/// again, the latch branches on the loop's own compare, and the chunk
/// number, base and length, the outer header's extra incoming values and
/// the two blocks go away.
static bool unchunkLoop(BasicBlock *SP) {
  auto *SBr = dyn_cast<BranchInst>(SP->getTerminator());
  BasicBlock *Chunk = SP->getSinglePredecessor();
  if (!SBr || SBr->isConditional() || SP->size() != 2 || !Chunk)
    return false;
  BasicBlock *OH = SBr->getSuccessor(0);
  auto *CBr = dyn_cast<BranchInst>(Chunk->getTerminator());
  BasicBlock *Latch = Chunk->getSinglePredecessor();
  if (!CBr || !CBr->isConditional() || CBr->getSuccessor(0) != SP || !Latch)
    return false;
  auto *Cmp = dyn_cast<ICmpInst>(CBr->getCondition());
  auto *LBr = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!Cmp || Cmp->getParent() != Chunk || !LBr || !LBr->isConditional() ||
      LBr->getSuccessor(1) != Chunk ||
      OH->getSingleSuccessor() != LBr->getSuccessor(0))
    return false;
  BasicBlock *H = LBr->getSuccessor(0), *E = CBr->getSuccessor(1);
  // The IV's phi j (0 from OH, j + 1 from the latch), its uses' base + j,
  // base = start + num * Period, and the loop's own increment (in the
  // compare, now of base + j).
  PHINode *J = nullptr;
  BinaryOperator *I = nullptr, *Off = nullptr; // Off: j * step
  for (PHINode &P : H->phis()) {
    auto *Z = dyn_cast<ConstantInt>(P.getIncomingValueForBlock(OH));
    if (!Z || !Z->isZero() ||
        !isIncrementOf(P.getIncomingValueForBlock(Latch), &P))
      continue;
    for (User *U : P.users()) {
      auto *A = dyn_cast<BinaryOperator>(U);
      if (!A || A->getParent() != H)
        continue;
      if (A->getOpcode() == Instruction::Mul && A->getOperand(0) == &P &&
          A->hasOneUse()) {
        Off = A;
        A = dyn_cast<BinaryOperator>(A->user_back());
      }
      if (A && A->getOpcode() == Instruction::Add &&
          A->getOperand(1) == (Off ? static_cast<Value *>(Off) : &P) &&
          A->getParent() == H)
        I = A;
    }
    J = &P;
    break;
  }
  auto *Base = I ? dyn_cast<BinaryOperator>(I->getOperand(0)) : nullptr;
  if (!J || !Base || Base->getOpcode() != Instruction::Add)
    return false;
  Value *Next = nullptr;
  for (Value *Op : Cmp->operands())
    if (auto *A = dyn_cast<BinaryOperator>(Op);
        A && A->getOpcode() == Instruction::Add && A->getOperand(0) == I &&
        isa<ConstantInt>(A->getOperand(1)))
      Next = Op;
  if (!Next)
    return false;
  Value *InChunk = LBr->getCondition();
  Cmp->moveBefore(LBr->getIterator());
  BranchInst::Create(H, E, Cmp, LBr->getIterator());
  LBr->eraseFromParent();
  J->setIncomingValueForBlock(OH, Base->getOperand(0));
  J->setIncomingValueForBlock(Latch, Next);
  I->replaceAllUsesWith(J);
  J->takeName(I);
  I->eraseFromParent();
  if (Off)
    Off->eraseFromParent();
  for (PHINode &P : E->phis())
    for (unsigned Idx = 0; Idx < P.getNumIncomingValues(); ++Idx)
      if (P.getIncomingBlock(Idx) == Chunk)
        P.setIncomingBlock(Idx, Latch);
  for (PHINode &P : OH->phis())
    P.removeIncomingValue(SP, /*DeletePHIIfEmpty=*/false);
  SP->eraseFromParent();
  Chunk->eraseFromParent();
  RecursivelyDeleteTriviallyDeadInstructions(InChunk);
  return true;
}

bool stripSafePoints(Module &M) {
  Function *F = M.getFunction(getBuiltinInfo(BuiltinID::safepoint).Name);
  if (!F)
    return false;
  SmallVector<CallBase *, 8> Calls;
  for (User *U : F->users())
    if (auto *CB = dyn_cast<CallBase>(U))
      Calls.push_back(CB);
  for (CallBase *CB : Calls) {
    BasicBlock *BB = CB->getParent();
    CB->eraseFromParent();
    ++NumStripped;
    if (unchunkLoop(BB))
      continue;
    // The guard block is now empty: its predecessor's branch to it folds,
    // and the counter test becomes dead.
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br || !Br->isUnconditional() || &BB->front() != Br)
      continue;
    BasicBlock *Next = Br->getSuccessor(0);
    BasicBlock *Pred = BB->getSinglePredecessor();
    auto *PBr = Pred ? dyn_cast<BranchInst>(Pred->getTerminator()) : nullptr;
    if (!PBr || !PBr->isConditional() || !is_contained(successors(Pred), Next) ||
        !Next->phis().empty())
      continue;
    Value *Cond = PBr->getCondition();
    BranchInst::Create(Next, PBr->getIterator());
    PBr->eraseFromParent();
    BB->eraseFromParent();
    RecursivelyDeleteTriviallyDeadInstructions(Cond);
  }
  if (F->use_empty())
    F->eraseFromParent();
  return !Calls.empty();
}

} // namespace hetgpu
