//===- Liveness.cpp - Values live across sync points ----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Live-value analysis for `hetgpu-simt-to-mimd`: a backward data-flow over
/// the thread function's SSA values (those of the setup block excluded,
/// since every entry recomputes them) that says what is live right after a
/// sync point, hence what the resumable form stores into the thread's frame;
/// and the escape test that decides whether a pointer reloaded from memory
/// may point into any allocation.
///
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "llvm/IR/CFG.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace hetgpu {
namespace simt {

Liveness::Liveness(Function &F, const BasicBlock *Setup) {
  for (BasicBlock &BB : F) {
    if (&BB == Setup)
      continue;
    for (Instruction &I : BB) {
      Index[&I] = Values.size();
      Values.push_back(&I);
    }
  }
  unsigned N = Values.size();
  for (BasicBlock &BB : F) {
    In[&BB] = BitVector(N);
    Out[&BB] = BitVector(N);
  }
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (BasicBlock &BB : reverse(F)) {
      BitVector O(N);
      for (BasicBlock *S : successors(&BB)) {
        O |= In[S];
        for (PHINode &P : S->phis())
          mark(P.getIncomingValueForBlock(&BB), O);
      }
      BitVector L = O;
      for (Instruction &I : reverse(BB))
        step(I, L);
      if (O != Out[&BB] || L != In[&BB]) {
        Out[&BB] = std::move(O);
        In[&BB] = std::move(L);
        Changed = true;
      }
    }
  }
}

SmallVector<Instruction *, 16> Liveness::liveAfter(Instruction &At) {
  BasicBlock *BB = At.getParent();
  BitVector L = Out[BB];
  for (Instruction &I : reverse(*BB)) {
    if (&I == &At)
      break;
    step(I, L);
  }
  if (auto It = Index.find(&At); It != Index.end())
    L.reset(It->second);
  SmallVector<Instruction *, 16> R;
  for (unsigned B : L.set_bits())
    R.push_back(Values[B]);
  return R;
}

void Liveness::mark(Value *V, BitVector &L) {
  if (auto *I = dyn_cast<Instruction>(V))
    if (auto It = Index.find(I); It != Index.end())
      L.set(It->second);
}

void Liveness::step(Instruction &I, BitVector &L) {
  if (auto It = Index.find(&I); It != Index.end())
    L.reset(It->second);
  if (isa<PHINode>(I))
    return;
  if (auto *CB = dyn_cast<CallBase>(&I)) {
    for (Value *A : CB->args())
      mark(A, L);
    mark(CB->getCalledOperand(), L);
    return;
  }
  for (Value *Op : I.operands())
    mark(Op, L);
}

bool allocaEscapes(Instruction *Root) {
  SmallVector<Value *, 8> Work{Root};
  SmallPtrSet<Value *, 16> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (User *U : V->users()) {
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
              SelectInst>(U)) {
        Work.push_back(U);
      } else if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getValueOperand() == V)
          return true;
      } else if (auto *II = dyn_cast<IntrinsicInst>(U)) {
        if (!II->isLifetimeStartOrEnd() && !isa<MemIntrinsic>(II))
          return true;
      } else if (auto *CB = dyn_cast<CallBase>(U)) {
        // Liveness bundles record the pointer; they do not keep it.
        bool OnlyBundle = true;
        for (const Use &Op : CB->operands())
          if (Op.get() == V && !CB->isBundleOperand(Op.getOperandNo()))
            OnlyBundle = false;
        if (!OnlyBundle)
          return true;
      } else if (isa<PtrToIntInst, ReturnInst>(U)) {
        return true;
      } else if (auto *AI = dyn_cast<AtomicCmpXchgInst>(U)) {
        if (AI->getNewValOperand() == V || AI->getCompareOperand() == V)
          return true;
      } else if (auto *RMW = dyn_cast<AtomicRMWInst>(U)) {
        if (RMW->getValOperand() == V)
          return true;
      }
    }
  }
  return false;
}

} // namespace simt
} // namespace hetgpu
