//===- SPIRVTypes.cpp - SPIR-V address spaces, globals block --------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Steps 2 and 3 of hetgpu-lower-spirv (SPIRVLowering.h): every function
/// and global cloned with SPIR-V address spaces and the kernel ABI of
/// ABI/SPIRVKernel.h; `__device__`/`__constant__` variables placed in the
/// globals block.
///
//===----------------------------------------------------------------------===//

#include "SPIRVLowering.h"

#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Targets/ExpandIntrinsics.h"
#include "hetgpu/Targets/TargetDiagnostics.h"
#include "hetgpu/Transforms/SIMTToMIMD.h"
#include "hetgpu/ABI/BlockExecutor.h"
// The block context the SIMT->MIMD thread functions read (plain C).
#include "hetgpu/ABI/BlockABI.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <cstddef>
#include <map>


#define DEBUG_TYPE "hetgpu-lower-spirv"

using namespace llvm;

namespace hetgpu {
namespace spirv {

//===----------------------------------------------------------------------===//
// Step 2 and 3: clone with SPIR-V types, globals block
//===----------------------------------------------------------------------===//

/// The SPIR-V counterpart of \p G (local memory, a program-scope constant,
/// or a placeholder for its place in the globals block), recorded in
/// \p VMap as seen through G's remapped address space.
Expected<GlobalVariable *> SPIRVLowering::cloneGlobal(GlobalVariable &Old,
                                                      ValueToValueMapTy &VMap) {
  GlobalVariable *G = &Old;
  unsigned AS = G->getAddressSpace();
  Type *VT = TM.remapType(G->getValueType());
  if (!mapAddrSpace(AS))
    return failure("variable '" + G->getName() + "' is in address space " +
                   Twine(AS) + ", which hetIR does not define");
  GlobalVariable *NG;
  if (AS == 3) {
    NG = new GlobalVariable(M, VT, false, GlobalValue::InternalLinkage,
                            PoisonValue::get(VT), G->getName() + ".spirv",
                            nullptr, GlobalValue::NotThreadLocal, ASLocal);
  } else if (G->isConstant() && G->hasLocalLinkage()) {
    // Read-only data nobody outside can name: a program-scope constant.
    NG = new GlobalVariable(M, VT, true, GlobalValue::InternalLinkage,
                            nullptr, G->getName() + ".spirv", nullptr,
                            GlobalValue::NotThreadLocal, ASGlobal);
  } else {
    // A variable the host may read or write: lives in the globals block.
    BlockVar BV;
    BV.Name = G->getName().str();
    BV.ValueTy = VT;
    const DataLayout &DL = M.getDataLayout();
    BV.Size = DL.getTypeAllocSize(G->getValueType());
    uint64_t Al = std::max<uint64_t>(
        G->getAlign().valueOrOne().value(),
        DL.getABITypeAlign(G->getValueType()).value());
    BlockAlign = std::max(BlockAlign, Al);
    BV.Offset = alignTo(BlockSize, Al);
    BlockSize = BV.Offset + BV.Size;
    NG = new GlobalVariable(M, VT, false, GlobalValue::ExternalLinkage,
                            nullptr, "__hetgpu_spirv_placeholder." + BV.Name,
                            nullptr, GlobalValue::NotThreadLocal, ASGlobal);
    BV.Placeholder = NG;
    BlockVars.push_back(BV);
  }
  NG->setAlignment(G->getAlign());
  // Uses see the global through its hetIR address space, remapped (a
  // generic string literal becomes a generic pointer to global memory).
  auto *Want = cast<PointerType>(TM.remapType(G->getType()));
  if (Want != NG->getType())
    VMap[G] = ConstantExpr::getAddrSpaceCast(NG, Want);
  else
    VMap[G] = NG;
  return NG;
}

/// Clones the body of \p OldF into its SPIR-V declaration \p NewF (through
/// \p VMap and the type remapper), with the attributes still valid.
void SPIRVLowering::cloneBody(Function &OldF, Function &NewF,
                              ValueToValueMapTy &VMap) {
  BasicBlock *Pre = BasicBlock::Create(Ctx, "hetgpu.entry", &NewF);
  IRBuilder<> B(Pre);
  for (Argument &A : OldF.args()) {
    Argument *NA = NewF.getArg(A.getArgNo());
    NA->setName(A.getName());
    Type *Want = TM.remapType(A.getType());
    if (NA->getType() != Want)
      VMap[&A] = B.CreateAddrSpaceCast(NA, Want, A.getName() + ".gen");
    else
      VMap[&A] = NA;
  }
  NewF.getArg(NewF.arg_size() - 2)->setName("hetgpu.dynshared");
  NewF.getArg(NewF.arg_size() - 1)->setName("hetgpu.globals");
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(&NewF, &OldF, VMap, CloneFunctionChangeType::GlobalChanges,
                    Returns, "", nullptr, &TM);
  // Parameter attributes: only those valid for the new types.
  AttributeList OldAL = OldF.getAttributes();
  NewF.setAttributes(AttributeList());
  NewF.setCallingConv(OldF.hasFnAttribute(KernelAttr) ? CallingConv::SPIR_KERNEL
                                                  : CallingConv::SPIR_FUNC);
  for (Attribute A : OldAL.getFnAttrs())
    NewF.addFnAttr(A);
  // The hidden parameters are accessed through: memory effects computed
  // for the hetIR function (e.g. argmem: none) no longer hold.
  NewF.removeFnAttr(Attribute::Memory);
  for (Argument &A : OldF.args()) {
    Argument *NA = NewF.getArg(A.getArgNo());
    if (A.hasByValAttr()) {
      NA->addAttr(Attribute::getWithByValType(
          Ctx, TM.remapType(A.getParamByValType())));
      if (MaybeAlign Al = A.getParamAlign())
        NA->addAttr(Attribute::getWithAlignment(Ctx, *Al));
    } else if (NA->getType()->isPointerTy()) {
      if (A.hasNoAliasAttr())
        NA->addAttr(Attribute::NoAlias);
    }
  }
  B.CreateBr(&*std::next(NewF.begin()));
  MergeBlockIntoPredecessor(&*std::next(NewF.begin()));
}

/// Fixes up the body of \p NF, the SPIR-V clone of \p F: casts the type
/// mapping made trivial go, allocas move to private memory, and calls of
/// defined functions pass the hidden parameters on.
Error SPIRVLowering::fixUpClonedBody(Function &F, Function &NF) {
  for (Instruction &I : make_early_inc_range(instructions(NF))) {
    // Casts that the mapping made trivial (constant -> global).
    if (auto *ASC = dyn_cast<AddrSpaceCastInst>(&I)) {
      if (ASC->getSrcTy() == ASC->getDestTy()) {
        ASC->replaceAllUsesWith(ASC->getOperand(0));
        ASC->eraseFromParent();
      }
      continue;
    }
    // Allocas live in private memory; the rest of the code sees them
    // through generic pointers, as in hetIR.
    if (auto *AI = dyn_cast<AllocaInst>(&I)) {
      if (AI->getAddressSpace() == ASPrivate)
        continue;
      IRBuilder<> B(AI);
      auto *NA = B.CreateAlloca(AI->getAllocatedType(), ASPrivate,
                                AI->getArraySize());
      NA->takeName(AI);
      NA->setAlignment(AI->getAlign());
      Value *Cast = B.CreateAddrSpaceCast(NA, AI->getType());
      SmallVector<Use *, 8> Uses;
      for (Use &U : AI->uses())
        Uses.push_back(&U);
      for (Use *U : Uses)
        U->set(Cast);
      AI->eraseFromParent();
      continue;
    }
    // Calls to defined functions pass the hidden parameters on.
    if (auto *CB = dyn_cast<CallBase>(&I)) {
      // The call still has the callee's hetIR type (the clone has the
      // hidden parameters more): not getCalledFunction().
      auto *Callee = dyn_cast<Function>(CB->getCalledOperand());
      if (!Callee) {
        if (!isa<InlineAsm>(CB->getCalledOperand()))
          return failure("function " + kernelOf(F) +
                         " makes an indirect call: not supported in "
                         "SPIR-V (OpenCL)");
        return failure("function " + kernelOf(F) +
                       " contains inline assembly");
      }
      if (Callee->isDeclaration())
        continue;
      if (!isa<CallInst>(CB))
        return failure("function " + kernelOf(F) +
                       " uses invoke: exceptions are not supported");
      SmallVector<Value *, 8> Args(CB->args());
      IRBuilder<> HB(CB);
      Args.push_back(HB.CreateAddrSpaceCast(hiddenDynShared(NF),
                                            PointerType::get(Ctx, ASGeneric)));
      Args.push_back(hiddenGlobals(NF));
      IRBuilder<> B(CB);
      CallInst *NC = B.CreateCall(Callee, Args);
      NC->setCallingConv(CallingConv::SPIR_FUNC);
      NC->takeName(CB);
      for (unsigned A = 0; A < CB->arg_size(); ++A)
        if (CB->getParamAttributes(A).hasAttribute(Attribute::ByVal))
          NC->addParamAttr(A, Attribute::getWithByValType(
                                  Ctx, CB->getParamByValType(A)));
      CB->replaceAllUsesWith(NC);
      CB->eraseFromParent();
      continue;
    }
  }
  return Error::success();
}

Error SPIRVLowering::cloneWithSPIRVTypes() {
  // llvm.used and friends name the old values and mean nothing to OpenCL.
  for (StringRef N : {"llvm.used", "llvm.compiler.used"})
    if (GlobalVariable *G = M.getNamedGlobal(N))
      G->eraseFromParent();

  // Constant expressions over globals become instructions first, so that the
  // globals can be replaced by per-function values later.
  SmallVector<Constant *, 16> GVs;
  for (GlobalVariable &G : M.globals())
    GVs.push_back(&G);
  for (Function &F : M)
    GVs.push_back(&F);
  convertUsersOfConstantsToInstructions(GVs);

  SmallVector<Function *, 16> OldFuncs;
  for (Function &F : M)
    OldFuncs.push_back(&F);
  SmallVector<GlobalVariable *, 16> OldGlobals;
  for (GlobalVariable &G : M.globals())
    if (!G.getName().starts_with("llvm."))
      OldGlobals.push_back(&G);

  ValueToValueMapTy VMap;
  std::vector<std::pair<GlobalVariable *, GlobalVariable *>> GlobalPairs;

  // Globals.
  for (GlobalVariable *G : OldGlobals) {
    Expected<GlobalVariable *> NG = cloneGlobal(*G, VMap);
    if (!NG)
      return NG.takeError();
    GlobalPairs.push_back({G, *NG});
  }

  // Function declarations and definitions.
  std::vector<std::pair<Function *, Function *>> FuncPairs;
  for (Function *F : OldFuncs) {
    if (F->isIntrinsic()) {
      SmallVector<Type *, 4> Tys;
      FunctionType *NFT = cast<FunctionType>(TM.remapType(F->getFunctionType()));
      if (NFT == F->getFunctionType())
        continue; // nothing to remap
      if (!Intrinsic::getIntrinsicSignature(F->getIntrinsicID(), NFT, Tys))
        return failure("intrinsic '" + F->getName() +
                       "' cannot be re-declared for SPIR-V address spaces");
      VMap[F] = Intrinsic::getOrInsertDeclaration(&M, F->getIntrinsicID(), Tys);
      continue;
    }
    FunctionType *OFT = F->getFunctionType();
    bool IsKernel = F->hasFnAttribute(KernelAttr);
    SmallVector<Type *, 8> Ps;
    for (Argument &A : F->args()) {
      Type *T = TM.remapType(A.getType());
      if (!F->isDeclaration() && A.getType()->isPointerTy()) {
        if (A.hasByValAttr())
          T = PointerType::get(Ctx, ASPrivate);
        else if (IsKernel && T->getPointerAddressSpace() == ASGeneric)
          T = PointerType::get(Ctx, ASGlobal);
      }
      Ps.push_back(T);
    }
    if (!F->isDeclaration()) {
      // Device functions take the dynamic shared memory as a generic
      // pointer: OpenCL compilers inline every function with a local
      // pointer parameter into the kernel (PoCL does), which the warp-loop
      // form's thread functions must not be.
      Ps.push_back(PointerType::get(Ctx, IsKernel ? ASLocal : ASGeneric));
      Ps.push_back(PointerType::get(Ctx, ASGlobal));
    }
    auto *NFT = FunctionType::get(TM.remapType(OFT->getReturnType()), Ps,
                                  OFT->isVarArg());
    Function *NF = Function::Create(NFT, F->getLinkage(), 0,
                                    F->getName() + ".spirv", &M);
    NF->setCallingConv(IsKernel ? CallingConv::SPIR_KERNEL
                                : CallingConv::SPIR_FUNC);
    VMap[F] = NF;
    FuncPairs.push_back({F, NF});
  }
  if (TM.BadAS)
    return failure("a pointer in address space " + Twine(*TM.BadAS) +
                   ", which hetIR does not define, cannot be lowered");

  // Initializers.
  for (auto &[G, NG] : GlobalPairs) {
    if (!G->hasInitializer() || G->getAddressSpace() == 3)
      continue;
    Constant *Init = MapValue(G->getInitializer(), VMap, RF_None, &TM);
    if (NG->getName().starts_with("__hetgpu_spirv_placeholder.")) {
      for (BlockVar &BV : BlockVars)
        if (BV.Placeholder == NG && !Init->isNullValue())
          BV.Init = Init;
    } else {
      NG->setInitializer(Init);
    }
  }

  // Bodies.
  for (auto &[F, NF] : FuncPairs)
    if (!F->isDeclaration())
      cloneBody(*F, *NF, VMap);

  // Fix-ups on the new bodies.
  for (auto &[F, NF] : FuncPairs)
    if (!NF->isDeclaration())
      if (Error E = fixUpClonedBody(*F, *NF))
        return E;

  // Calls to kernels from device code (dynamic parallelism) cannot work.
  for (auto &[F, NF] : FuncPairs)
    if (F->hasFnAttribute(KernelAttr))
      for (User *U : NF->users())
        if (auto *CB = dyn_cast<CallBase>(U))
          return failure("kernel " + kernelOf(*F) + " is called from " +
                         kernelOf(*CB->getFunction()) +
                         ": device-side launches are not supported in SPIR-V");

  // Retire the hetIR functions and globals; the new ones take their names.
  for (auto &[F, NF] : FuncPairs)
    F->dropAllReferences();
  for (Function *F : OldFuncs)
    if (F->isIntrinsic() && VMap.count(F))
      F->dropAllReferences();
  for (auto &[G, NG] : GlobalPairs)
    if (G->hasInitializer())
      G->setInitializer(nullptr);
  for (auto &[F, NF] : FuncPairs) {
    NF->takeName(F);
    if (F->hasFnAttribute(KernelAttr))
      Kernels.push_back(NF);
  }
  for (auto &[G, NG] : GlobalPairs) {
    if (!NG->getName().starts_with("__hetgpu_spirv_placeholder."))
      NG->takeName(G);
  }
  for (auto &[F, NF] : FuncPairs) {
    F->removeDeadConstantUsers();
    F->replaceAllUsesWith(PoisonValue::get(F->getType()));
    F->eraseFromParent();
  }
  for (Function *F : OldFuncs) {
    if (F->isIntrinsic() && VMap.count(F) && VMap[F] != F) {
      F->removeDeadConstantUsers();
      if (F->use_empty())
        F->eraseFromParent();
    }
  }
  for (auto &[G, NG] : GlobalPairs) {
    G->removeDeadConstantUsers();
    G->replaceAllUsesWith(PoisonValue::get(G->getType()));
    G->eraseFromParent();
  }
  return Error::success();
}

Error SPIRVLowering::placeBlockVars() {
  for (BlockVar &BV : BlockVars) {
    GlobalVariable *PG = BV.Placeholder;
    convertUsersOfConstantsToInstructions({PG});
    DenseMap<Function *, Value *> Addr;
    SmallVector<Use *, 16> Uses;
    for (Use &U : PG->uses())
      Uses.push_back(&U);
    for (Use *U : Uses) {
      auto *I = dyn_cast<Instruction>(U->getUser());
      if (!I)
        return failure("the initializer of a variable takes the address of '" +
                       BV.Name +
                       "': device-variable addresses in initializers are "
                       "not supported by the SPIR-V target");
      Function *F = I->getFunction();
      Value *&A = Addr[F];
      if (!A) {
        IRBuilder<> B(&*F->getEntryBlock().getFirstInsertionPt());
        A = B.CreateInBoundsGEP(I8, hiddenGlobals(*F), B.getInt64(BV.Offset),
                                BV.Name);
      }
      U->set(A);
    }
    for (BlockVar &Other : BlockVars)
      if (Other.Init)
        for (const Use &U : Other.Init->operands())
          if (U.get() == PG)
            return failure("the initializer of '" + Other.Name +
                           "' takes the address of '" + BV.Name +
                           "': not supported by the SPIR-V target");
  }
  for (BlockVar &BV : BlockVars) {
    BV.Placeholder->removeDeadConstantUsers();
    if (BV.Placeholder->use_empty())
      BV.Placeholder->eraseFromParent();
    BV.Placeholder = nullptr;
  }
  return Error::success();
}

} // namespace spirv
} // namespace hetgpu
