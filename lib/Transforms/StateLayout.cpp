//===- StateLayout.cpp - Number safe points and lay out live values -------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-state-layout` decides, once and on hetIR, what a checkpoint of a
/// kernel holds. Safe point 0 is the kernel entry (nothing is live: the
/// arguments are supplied again on resume). Safe points 1..n are the barrier
/// builtins and the `__hetgpu_safepoint` calls that
/// hetgpu-insert-loop-safepoints put on uniform loop latches (kind
/// `loop-latch`; `thread-loop` for the per-thread ones of divergent loops,
/// whose slots start after the thread's word, abi::ThreadWordBytes), in
/// layout order. At each barrier the live values are the SSA
/// values defined before it and live immediately before the call (its own
/// operands included); kernel arguments and constants are not state. They
/// are attached, in definition order, as the call's `"hetgpu.live"` operand
/// bundle, and `!hetgpu.state` records kind, type, offset, size and
/// alignment of each slot. The pass ignores existing `"hetgpu.live"`
/// operands when computing liveness, so running it twice gives the same IR.
///
/// USAGE: hetgpu-opt -passes=hetgpu-state-layout in.ll -S
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Transforms/StateLayout.h"
#include "hetgpu/ABI/Migration.h"
#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Support/Diagnostics.h"
#include "hetgpu/Transforms/InsertLoopSafePoints.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace hetgpu::container;

#define DEBUG_TYPE "hetgpu-state-layout"

STATISTIC(NumSafePoints, "Barrier safe points numbered");
STATISTIC(NumSlots, "Live-value slots laid out");

namespace hetgpu {
namespace {

using ValueSet = SmallSetVector<Instruction *, 16>;

bool isRecomputableImpl(const Value *V, DenseMap<const Value *, bool> &Cache,
                        unsigned Depth) {
  if (isa<Argument>(V) || isa<Constant>(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 24)
    return false;
  if (auto It = Cache.find(I); It != Cache.end())
    return It->second;
  bool Ok = false;
  if (auto *CB = dyn_cast<CallBase>(I)) {
    if (auto BI = getCalledBuiltin(*CB))
      Ok = (BI->Flags & BF_ReadNone) &&
           (BI->Group == "index" || BI->ID == BuiltinID::dynamic_shared) &&
           CB->arg_size() == 0;
  } else if (isa<GetElementPtrInst>(I) || isa<CastInst>(I) ||
             isa<CmpInst>(I) || isa<SelectInst>(I) || isa<FreezeInst>(I) ||
             (isa<BinaryOperator>(I) && !I->mayHaveSideEffects())) {
    Ok = true;
    // Division traps on zero (and INT_MIN / -1): only by nonzero constants.
    switch (I->getOpcode()) {
    case Instruction::UDiv:
    case Instruction::SDiv:
    case Instruction::URem:
    case Instruction::SRem: {
      auto *D = dyn_cast<ConstantInt>(I->getOperand(1));
      Ok = D && !D->isZero() && !D->isMinusOne();
      break;
    }
    default:
      break;
    }
    for (const Value *Op : I->operands())
      if (Ok && !isRecomputableImpl(Op, Cache, Depth + 1))
        Ok = false;
  }
  Cache[I] = Ok;
  return Ok;
}

bool isSafePointCall(const Instruction &I) {
  if (auto *CB = dyn_cast<CallBase>(&I))
    if (auto BI = getCalledBuiltin(*CB))
      return BI->Flags & BF_SafePoint;
  return false;
}

/// Operands of \p I that count as uses for liveness (the live bundle of a
/// safe point does not: it records liveness, it does not create it).
void forEachUse(Instruction &I, function_ref<void(Instruction *)> Fn) {
  unsigned End = I.getNumOperands();
  auto *CB = dyn_cast<CallBase>(&I);
  for (unsigned Op = 0; Op < End; ++Op) {
    if (CB && CB->isBundleOperand(Op)) {
      auto Bundle = CB->getOperandBundleForOperand(Op);
      if (Bundle.getTagName() == LiveBundle)
        continue;
    }
    if (auto *Def = dyn_cast<Instruction>(I.getOperand(Op)))
      Fn(Def);
  }
}

class Liveness {
public:
  explicit Liveness(Function &F) {
    unsigned N = 0;
    for (Instruction &I : instructions(F))
      Order[&I] = N++;
    bool Changed = true;
    while (Changed) {
      Changed = false;
      for (BasicBlock &BB : reverse(F)) {
        ValueSet Out;
        for (BasicBlock *S : successors(&BB)) {
          for (Instruction *V : In[S])
            Out.insert(V);
          for (PHINode &P : S->phis())
            if (auto *Def = dyn_cast<Instruction>(P.getIncomingValueForBlock(&BB)))
              Out.insert(Def);
        }
        ValueSet Live = Out;
        for (Instruction &I : reverse(BB)) {
          Live.remove(&I);
          if (!isa<PHINode>(I))
            forEachUse(I, [&](Instruction *D) { Live.insert(D); });
        }
        if (Out.size() != LiveOut[&BB].size() || Live.size() != In[&BB].size()) {
          Changed = true;
          LiveOut[&BB] = std::move(Out);
          In[&BB] = std::move(Live);
        }
      }
    }
  }

  /// Values live immediately before \p At, in definition order.
  SmallVector<Instruction *, 16> liveBefore(Instruction &At) {
    BasicBlock *BB = At.getParent();
    ValueSet Live = LiveOut[BB];
    for (Instruction &I : reverse(*BB)) {
      Live.remove(&I);
      forEachUse(I, [&](Instruction *D) { Live.insert(D); });
      if (&I == &At)
        break;
    }
    SmallVector<Instruction *, 16> V(Live.begin(), Live.end());
    llvm::sort(V, [&](Instruction *A, Instruction *B) {
      return Order.lookup(A) < Order.lookup(B);
    });
    return V;
  }

private:
  DenseMap<const BasicBlock *, ValueSet> In, LiveOut;
  DenseMap<const Instruction *, unsigned> Order;
};

std::string typeName(Type *T) {
  std::string S;
  raw_string_ostream OS(S);
  T->print(OS, /*IsForDebug=*/false, /*NoDetails=*/true);
  return S;
}

bool pointsToShared(const Value *V) {
  if (V->getType()->isPointerTy() &&
      V->getType()->getPointerAddressSpace() == AS_Shared)
    return true;
  const Value *Obj = getUnderlyingObject(V, 0);
  if (auto *GV = dyn_cast<GlobalVariable>(Obj))
    return GV->getAddressSpace() == AS_Shared;
  if (auto *CB = dyn_cast<CallBase>(Obj))
    if (auto BI = getCalledBuiltin(*CB))
      return BI->ID == BuiltinID::dynamic_shared;
  return false;
}

struct Layout {
  SmallVector<Value *, 16> Values;
  SafePointInfo Info;
};

/// \p Start: the first byte the slots may use (per-thread safe points keep
/// the thread's word before them).
Layout layOut(ArrayRef<Instruction *> Live, const DataLayout &DL,
              uint64_t Start = 0) {
  // Pointers into private allocations need their allocation saved too.
  SetVector<Instruction *> Vals(Live.begin(), Live.end());
  for (Instruction *V : Live)
    if (V->getType()->isPointerTy() && !isa<AllocaInst>(V))
      if (auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(V, 0)))
        Vals.insert(AI);
  SmallVector<Instruction *, 16> Sorted(Vals.begin(), Vals.end());
  // Allocations first (so private pointers can name an earlier slot), then
  // the other values, each group in definition order as given.
  std::stable_partition(Sorted.begin(), Sorted.end(),
                        [](Instruction *I) { return isa<AllocaInst>(I); });

  Layout L;
  uint64_t Off = Start;
  for (Instruction *V : Sorted) {
    SlotInfo S;
    Type *Ty = V->getType();
    if (auto *AI = dyn_cast<AllocaInst>(V)) {
      S.Kind = SlotKind::Memory;
      Ty = AI->getAllocatedType();
      S.Size = AI->getAllocationSize(DL).value_or(TypeSize::getFixed(0)).getFixedValue();
      S.Align = AI->getAlign().value();
    } else if (Ty->isPointerTy() && isa<AllocaInst>(getUnderlyingObject(V, 0))) {
      S.Kind = SlotKind::PrivatePtr;
      S.Size = 8;
      S.Align = 8;
    } else if (Ty->isPointerTy() && pointsToShared(V)) {
      S.Kind = SlotKind::SharedPtr;
      S.Size = 8;
      S.Align = 8;
    } else {
      S.Kind = SlotKind::Value;
      S.Size = DL.getTypeAllocSize(Ty);
      S.Align = DL.getABITypeAlign(Ty).value();
    }
    S.Type = typeName(Ty);
    Off = alignTo(Off, S.Align);
    S.Offset = Off;
    Off += S.Size;
    L.Values.push_back(V);
    L.Info.Slots.push_back(std::move(S));
  }
  L.Info.RecordSize = alignTo(Off, 8);
  return L;
}

void layOutKernel(Function &K) {
  const DataLayout &DL = K.getParent()->getDataLayout();
  Liveness LV(K);
  SmallVector<SafePointInfo, 8> SafePoints;
  SafePointInfo Entry;
  Entry.Id = 0;
  Entry.Kind = SafePointKind::Entry;
  SafePoints.push_back(Entry);

  SmallVector<CallBase *, 8> Calls;
  for (Instruction &I : instructions(K))
    if (isSafePointCall(I))
      Calls.push_back(cast<CallBase>(&I));

  SmallVector<std::pair<CallBase *, Layout>, 8> Plans;
  DenseMap<const Value *, bool> Recomputable;
  for (CallBase *CB : Calls) {
    // Values a resumed launch can recompute (thread-index arithmetic,
    // addresses of shared variables, ...) are not state.
    SmallVector<Instruction *, 16> Live = LV.liveBefore(*CB);
    llvm::erase_if(Live, [&](Instruction *V) {
      return isRecomputable(V, Recomputable);
    });
    bool Thread = CB->getMetadata(ThreadSafePointMD);
    Layout L = layOut(Live, DL, Thread ? abi::ThreadWordBytes : 0);
    L.Info.Id = Plans.size() + 1;
    L.Info.Kind = Thread ? SafePointKind::ThreadLoop
                  : getCalledBuiltin(*CB)->ID == BuiltinID::safepoint
                      ? SafePointKind::LoopLatch
                      : SafePointKind::Barrier;
    Plans.emplace_back(CB, std::move(L));
  }
  LLVMContext &C = K.getContext();
  // Safe-point calls that produce values (barrier_count) may be live at
  // later safe points: map them to their replacements.
  DenseMap<Value *, Value *> Replaced;
  for (auto &[CB, L] : Plans) {
    for (Value *&V : L.Values)
      if (Value *R = Replaced.lookup(V))
        V = R;
    SmallVector<OperandBundleDef, 2> Bundles;
    CB->getOperandBundlesAsDefs(Bundles);
    llvm::erase_if(Bundles, [](const OperandBundleDef &B) {
      return B.getTag() == LiveBundle;
    });
    Bundles.emplace_back(LiveBundle.str(), ArrayRef<Value *>(L.Values));
    CallBase *New = CallBase::Create(CB, Bundles, CB->getIterator());
    New->takeName(CB);
    if (MDNode *T = CB->getMetadata(ThreadSafePointMD))
      New->setMetadata(ThreadSafePointMD, T);
    New->setMetadata(SafePointMD,
                     MDNode::get(C, ConstantAsMetadata::get(ConstantInt::get(
                                        Type::getInt32Ty(C), L.Info.Id))));
    CB->replaceAllUsesWith(New);
    Replaced[CB] = New;
    CB->eraseFromParent();
    NumSlots += L.Info.Slots.size();
    ++NumSafePoints;
    SafePoints.push_back(std::move(L.Info));
  }
  writeStateMetadata(K, SafePoints);
}

} // namespace

bool isRecomputable(const Value *V, DenseMap<const Value *, bool> &Cache) {
  return isRecomputableImpl(V, Cache, 0);
}

PreservedAnalyses StateLayoutPass::run(Module &M, ModuleAnalysisManager &) {
  std::vector<Function *> Kernels = getKernels(M);
  // Safe points outside kernels cannot be laid out (hetgpu-raise inlines
  // them); report any that remain.
  for (Function &F : M) {
    if (F.isDeclaration() || isKernel(F))
      continue;
    for (Instruction &I : instructions(F))
      if (isSafePointCall(I)) {
        reportFailure(F,
                      "__syncthreads() in device function '" + F.getName() +
                          "' that was not inlined into a kernel",
                      &I);
        break;
      }
  }
  for (Function *K : Kernels)
    if (!K->isDeclaration())
      layOutKernel(*K);
  return PreservedAnalyses::none();
}

} // namespace hetgpu
