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
/// The outermost such loop of a nest gets an i32 counter (reset when the
/// nest is entered). In a nest without barriers every back edge increments
/// it; in a nest with barriers the back edges of the loops that contain a
/// barrier do. When the counter's low bits (LoopSafePointPeriodLog2, or
/// BarrierLoopSafePointPeriodLog2 for a nest with barriers) are zero the
/// back edge runs through a block that calls `__hetgpu_safepoint()`.
/// hetgpu-state-layout makes that call a `loop-latch` safe point,
/// hetgpu-instrument-state a yield test; a translation that is not
/// instrumented erases it (stripSafePoints) and the counter folds away (so
/// does the test of a loop fully unrolled with fewer iterations than the
/// period).
///
/// Grid-stride loops (bounds from threadIdx) are not uniform and get
/// nothing: suspending those needs per-thread safe points (not done).
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

using namespace llvm;

#define DEBUG_TYPE "hetgpu-insert-loop-safepoints"

STATISTIC(NumUniformLoops, "Loop nests given a safe-point counter");
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
  bool hasUniformControl(const Loop *L, StringRef &Why,
                         bool OutsideOnly = false);
  bool hasForbiddenCall(const Loop *L, StringRef &Why);
  bool barrierDominatesLatches(const Loop *L);
};

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

bool KernelInserter::hasUniformControl(const Loop *L, StringRef &Why,
                                       bool OutsideOnly) {
  // Every block from which the header is reachable (OutsideOnly: those
  // outside the loop).
  SmallPtrSet<BasicBlock *, 32> Seen;
  SmallVector<BasicBlock *, 32> Work{L->getHeader()};
  Seen.insert(L->getHeader());
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    Instruction *T = BB->getTerminator();
    if (OutsideOnly && L->contains(BB)) {
      // Only the header's predecessors matter from inside.
    } else if (auto *Br = dyn_cast<BranchInst>(T)) {
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

bool KernelInserter::run() {
  // Outermost eligible loops: every loop inside one is eligible too (the
  // blocks reaching an inner header are the outer loop's and those reaching
  // the outer header), and shares its counter.
  SmallVector<Loop *, 8> Roots;
  SmallVector<Loop *, 16> Work(LI.begin(), LI.end());
  while (!Work.empty()) {
    Loop *L = Work.pop_back_val();
    if (isEligible(L))
      Roots.push_back(L);
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
  };
  SmallVector<BackEdge, 16> Edges;
  for (Loop *Root : Roots) {
    auto *Ctr = new AllocaInst(I32, M.getDataLayout().getAllocaAddrSpace(),
                               "hetgpu.loopctr", Entry.getFirstInsertionPt());
    new StoreInst(ConstantInt::get(I32, 0), Ctr,
                  Entry.getTerminator()->getIterator());
    // Reset whenever the nest is entered.
    for (BasicBlock *P : predecessors(Root->getHeader()))
      if (!Root->contains(P))
        new StoreInst(ConstantInt::get(I32, 0), Ctr,
                      P->getTerminator()->getIterator());
    Counters.push_back(Ctr);
    // In a nest with barriers only the loops with a barrier count: the
    // others run between two barriers of one iteration.
    bool Barriers = containsBarrier(Root);
    uint32_t Mask = (1u << (Barriers ? BarrierLoopSafePointPeriodLog2
                                     : LoopSafePointPeriodLog2)) -
                    1;
    SmallVector<Loop *, 8> Nest{Root};
    for (unsigned I = 0; I < Nest.size(); ++I) {
      Nest.append(Nest[I]->begin(), Nest[I]->end());
      if (Barriers && !containsBarrier(Nest[I]))
        continue;
      SmallVector<BasicBlock *, 4> Latches;
      Nest[I]->getLoopLatches(Latches);
      for (BasicBlock *Latch : Latches)
        Edges.push_back({Latch, Nest[I]->getHeader(), Ctr, Mask});
    }
    ++NumUniformLoops;
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
      B.CreateCall(SafePoint); // convergent: the declaration says so
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
