//===- WrapSharedAddresses.cpp - Shared memory's 32-bit window ------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// See WrapSharedAddresses.h. An access's address is followed back through
/// GEPs and address-space casts (instructions or constant expressions) to
/// its base; when the base is a shared variable or `__hetgpu_dynamic_shared`
/// and some GEP on the way has a variable index, the access gets
/// `gep i8, base, and(ptrtoint(addr) - ptrtoint(base), 0xffffffff)`. Bases
/// reached through phis, selects or memory are left alone (the offset is
/// then not known to be one from a shared base).
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Transforms/WrapSharedAddresses.h"

#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace hetgpu {
namespace {

/// Whether \p V is a block's shared memory itself.
bool isSharedBase(const Value *V) {
  if (auto *G = dyn_cast<GlobalVariable>(V))
    return G->getAddressSpace() == AS_Shared;
  if (auto *CB = dyn_cast<CallBase>(V))
    if (auto BI = getCalledBuiltin(*CB))
      return BI->ID == BuiltinID::dynamic_shared;
  return false;
}

/// The address chain of one access: its base, the GEP instructions on the
/// way, and whether an index on the way is not a constant.
struct Chain {
  Value *Base = nullptr;
  SmallVector<GetElementPtrInst *, 4> GEPs;
  bool VariableOffset = false;
};

Chain traceToBase(Value *Ptr) {
  Chain C;
  Value *V = Ptr;
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    if (isSharedBase(V)) {
      C.Base = V;
      return C;
    }
    if (auto *GEP = dyn_cast<GEPOperator>(V)) {
      if (!GEP->hasAllConstantIndices())
        C.VariableOffset = true;
      if (auto *I = dyn_cast<GetElementPtrInst>(V))
        C.GEPs.push_back(I);
      V = GEP->getPointerOperand();
      continue;
    }
    if (auto *ASC = dyn_cast<AddrSpaceCastOperator>(V)) {
      V = ASC->getPointerOperand();
      continue;
    }
    break;
  }
  C.Base = nullptr;
  return C;
}

unsigned pointerOperandIndex(Instruction &I) {
  if (isa<LoadInst>(I))
    return LoadInst::getPointerOperandIndex();
  if (isa<StoreInst>(I))
    return StoreInst::getPointerOperandIndex();
  if (isa<AtomicRMWInst>(I))
    return AtomicRMWInst::getPointerOperandIndex();
  if (isa<AtomicCmpXchgInst>(I))
    return AtomicCmpXchgInst::getPointerOperandIndex();
  return ~0u;
}

} // namespace

bool wrapSharedAddresses(Module &M) {
  bool Changed = false;
  const DataLayout &DL = M.getDataLayout();
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    SmallVector<std::pair<Instruction *, Chain>, 16> Work;
    for (Instruction &I : instructions(F)) {
      unsigned Op = pointerOperandIndex(I);
      if (Op == ~0u)
        continue;
      Chain C = traceToBase(I.getOperand(Op));
      if (C.Base && C.VariableOffset)
        Work.push_back({&I, std::move(C)});
    }
    for (auto &[I, C] : Work) {
      unsigned Op = pointerOperandIndex(*I);
      Value *Ptr = I->getOperand(Op);
      for (GetElementPtrInst *GEP : C.GEPs)
        GEP->setNoWrapFlags(GEPNoWrapFlags::none());
      IRBuilder<> B(I);
      Type *IntPtr = DL.getIntPtrType(Ptr->getType());
      // The base as the access's address space sees it.
      Value *Base = C.Base;
      if (Base->getType() != Ptr->getType())
        Base = B.CreateAddrSpaceCast(Base, Ptr->getType());
      Value *Off = B.CreateSub(B.CreatePtrToInt(Ptr, IntPtr),
                               B.CreatePtrToInt(Base, IntPtr), "shared.off");
      if (IntPtr->getIntegerBitWidth() > 32)
        Off = B.CreateAnd(Off, ConstantInt::get(IntPtr, 0xffffffffull),
                          "shared.off32");
      Value *Wrapped = B.CreateGEP(B.getInt8Ty(), Base, Off, "shared.addr");
      I->setOperand(Op, Wrapped);
      Changed = true;
    }
  }
  return Changed;
}

} // namespace hetgpu
