//===- ComponentUses.cpp - What a device-link component's code assumes ----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Derives, per function of a relocatable component, the bytes of the
/// dynamic shared segment it addresses (from the constant offsets of the
/// accesses based on `__hetgpu_dynamic_shared()`) and the first warp
/// operation that names the full mask, and records them as function
/// metadata (hetgpu/IR/ComponentUses.h).
///
//===----------------------------------------------------------------------===//

#include "hetgpu/IR/ComponentUses.h"
#include "hetgpu/IR/Builtins.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace hetgpu {
namespace {

/// Widens \p R to cover [Begin, End) (End none = to the segment's end).
void cover(std::optional<SegmentRange> &R, uint64_t Begin,
           std::optional<uint64_t> End) {
  if (!R) {
    R = SegmentRange{Begin, End};
    return;
  }
  R->Begin = std::min(R->Begin, Begin);
  if (!R->End || !End)
    R->End = std::nullopt;
  else
    R->End = std::max(*R->End, *End);
}

/// The least value of an index (indices are taken as non-negative): the
/// constants added to it.
int64_t leastIndex(const Value *V) {
  if (auto *C = dyn_cast<ConstantInt>(V))
    return C->getSExtValue();
  if (isa<ZExtInst>(V) || isa<SExtInst>(V))
    return leastIndex(cast<Instruction>(V)->getOperand(0));
  if (auto *B = dyn_cast<BinaryOperator>(V))
    if (B->getOpcode() == Instruction::Add ||
        (B->getOpcode() == Instruction::Or &&
         cast<PossiblyDisjointInst>(B)->isDisjoint()))
      return std::max<int64_t>(0, leastIndex(B->getOperand(0)) +
                                      leastIndex(B->getOperand(1)));
  return 0;
}

/// The bytes the uses of \p Base (the segment's base in \p F) address.
/// An offset that is not constant makes the range open: it runs from the
/// least value of the offset (indices taken as non-negative) to the end.
std::optional<SegmentRange> addressedRange(const CallBase &Base) {
  const DataLayout &DL = Base.getModule()->getDataLayout();
  struct Item {
    const Value *V;
    uint64_t Off;
    bool Known;
  };
  std::optional<SegmentRange> R;
  SmallVector<Item, 16> Work = {{&Base, 0, true}};
  SmallPtrSet<const Value *, 16> Seen;
  auto Access = [&](const Item &It, Type *Ty) {
    cover(R, It.Off,
          It.Known ? std::optional<uint64_t>(It.Off + DL.getTypeStoreSize(Ty))
                   : std::nullopt);
  };
  while (!Work.empty()) {
    Item It = Work.pop_back_val();
    if (!Seen.insert(It.V).second) {
      cover(R, 0, std::nullopt); // a cycle through a phi: give up
      continue;
    }
    for (const User *U : It.V->users()) {
      if (auto *GEP = dyn_cast<GEPOperator>(U)) {
        unsigned Bits = DL.getIndexTypeSizeInBits(GEP->getType());
        SmallMapVector<Value *, APInt, 4> Vars;
        APInt Const(Bits, 0);
        if (!GEP->collectOffset(DL, Bits, Vars, Const)) {
          cover(R, 0, std::nullopt);
          continue;
        }
        // The least offset, with every variable index at its least value.
        int64_t Least = Const.getSExtValue();
        for (auto &[V, Scale] : Vars)
          Least += leastIndex(V) * Scale.getSExtValue();
        Least = std::max<int64_t>(Least, -int64_t(It.Off));
        Work.push_back({U, It.Off + Least, It.Known && Vars.empty()});
      } else if (isa<AddrSpaceCastOperator>(U) || isa<BitCastOperator>(U)) {
        Work.push_back({U, It.Off, It.Known});
      } else if (auto *L = dyn_cast<LoadInst>(U)) {
        Access(It, L->getType());
      } else if (auto *S = dyn_cast<StoreInst>(U);
                 S && S->getPointerOperand() == It.V) {
        Access(It, S->getValueOperand()->getType());
      } else if (auto *A = dyn_cast<AtomicRMWInst>(U)) {
        Access(It, A->getValOperand()->getType());
      } else if (auto *X = dyn_cast<AtomicCmpXchgInst>(U)) {
        Access(It, X->getNewValOperand()->getType());
      } else {
        // Stored, passed to a call, merged in a phi or select: any byte
        // from here on.
        cover(R, It.Off, std::nullopt);
      }
    }
  }
  return R;
}

/// A warp builtin whose mask operand is 0xffffffff.
std::optional<StringRef> fullMaskOperation(const Instruction &I) {
  auto *CB = dyn_cast<CallBase>(&I);
  auto BI = CB ? getCalledBuiltin(*CB) : std::nullopt;
  if (!BI || BI->Group != "warp" || CB->arg_size() == 0)
    return std::nullopt;
  auto *Mask = dyn_cast<ConstantInt>(CB->getArgOperand(0));
  if (!Mask || Mask->getBitWidth() != 32 || !Mask->isAllOnesValue())
    return std::nullopt;
  return BI->Name.drop_front(BuiltinPrefix.size());
}

} // namespace

void recordComponentUses(Module &M) {
  LLVMContext &C = M.getContext();
  Type *I64 = Type::getInt64Ty(C);
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    std::optional<SegmentRange> Dyn;
    std::optional<StringRef> Warp;
    for (const Instruction &I : instructions(F)) {
      if (!Warp)
        Warp = fullMaskOperation(I);
      auto *CB = dyn_cast<CallBase>(&I);
      auto BI = CB ? getCalledBuiltin(*CB) : std::nullopt;
      if (BI && BI->ID == BuiltinID::dynamic_shared)
        if (auto R = addressedRange(*CB))
          cover(Dyn, R->Begin, R->End);
    }
    if (Dyn)
      F.setMetadata(
          DynamicSharedMD,
          MDNode::get(
              C, {ConstantAsMetadata::get(ConstantInt::get(I64, Dyn->Begin)),
                  ConstantAsMetadata::get(ConstantInt::get(
                      I64, Dyn->End ? int64_t(*Dyn->End) : int64_t(-1)))}));
    if (Warp)
      F.setMetadata(FullWarpsMD, MDNode::get(C, MDString::get(C, *Warp)));
  }
}

std::optional<SegmentRange> dynamicSharedRange(const Function &F) {
  const MDNode *N = F.getMetadata(DynamicSharedMD);
  if (!N || N->getNumOperands() != 2)
    return std::nullopt;
  auto *B = mdconst::dyn_extract<ConstantInt>(N->getOperand(0));
  auto *E = mdconst::dyn_extract<ConstantInt>(N->getOperand(1));
  if (!B || !E)
    return std::nullopt;
  SegmentRange R;
  R.Begin = B->getZExtValue();
  if (!E->isMinusOne())
    R.End = E->getZExtValue();
  return R;
}

std::optional<StringRef> fullWarpOperation(const Function &F) {
  const MDNode *N = F.getMetadata(FullWarpsMD);
  if (!N || N->getNumOperands() != 1)
    return std::nullopt;
  if (auto *S = dyn_cast<MDString>(N->getOperand(0)))
    return S->getString();
  return std::nullopt;
}

} // namespace hetgpu
