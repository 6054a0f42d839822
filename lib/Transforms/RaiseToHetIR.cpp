//===- RaiseToHetIR.cpp - Raise clang's CUDA device IR to hetIR -----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-raise` runs last in the device-side pipeline of hetgpu-cc. Its
/// input is what clang emits for CUDA device code (triple nvptx64, our
/// headers already call `__hetgpu_*` builtins); its output is hetIR:
///
///  * inline PTX (`asm`) is lowered first (hetgpu-lower-inline-ptx);
///  * kernels (ptx_kernel) get the C calling convention, the attribute
///    "hetgpu-kernel" and an entry in `!hetgpu.kernels`;
///  * device functions that contain a barrier are inlined into their callers,
///    so every safe point is in a kernel;
///  * `extern __shared__` arrays become `__hetgpu_dynamic_shared()`;
///  * `vprintf` becomes `__hetgpu_printf`, `malloc`/`free` the heap builtins;
///  * transcendental LLVM intrinsics become `__hetgpu_math_*` calls;
///  * the facts of <hetgpu/contract.h> become `!hetgpu.contract`;
///  * target attributes, NVVM module flags and annotations are dropped and
///    the module gets hetIR's triple, data layout and version.
///
/// A module that already is hetIR is left alone (the pass is idempotent).
/// `hetgpu-raise<relocatable>` (hetgpu-cc -dc) keeps device functions with
/// external linkage, since other objects may call them, and marks the module
/// `!hetgpu.relocatable` (docs/SeparateCompilation.md).
/// USAGE: hetgpu-opt -passes=hetgpu-raise in.ll -S
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Transforms/RaiseToHetIR.h"
#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/ComponentUses.h"
#include "hetgpu/IR/Contracts.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Support/Diagnostics.h"
#include "hetgpu/Transforms/LowerInlinePTX.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

#define DEBUG_TYPE "hetgpu-raise"

STATISTIC(NumKernels, "Kernels raised to hetIR");
STATISTIC(NumInlined, "Calls inlined to bring barriers into kernels");
STATISTIC(NumMathRewritten, "LLVM math intrinsics rewritten to builtins");

namespace hetgpu {
namespace {

bool isNVPTXModule(const Module &M) {
  return M.getTargetTriple().isNVPTX();
}

bool isAlreadyHetIR(const Module &M) {
  return M.getTargetTriple().str() == HetIRTriple.str() &&
         M.getNamedMetadata(VersionMD);
}

} // namespace

/// Calls to functions that (transitively) contain a safe point are inlined.
bool inlineSafePointCallees(Module &M) {
  SetVector<Function *> HasSafePoint;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (auto BI = getCalledBuiltin(*CB); BI && (BI->Flags & BF_SafePoint))
          HasSafePoint.insert(&F);
  // Propagate to callers.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function &F : M)
      if (!HasSafePoint.count(&F))
        for (Instruction &I : instructions(F))
          if (auto *CB = dyn_cast<CallBase>(&I))
            if (Function *Callee = CB->getCalledFunction())
              if (HasSafePoint.count(Callee)) {
                HasSafePoint.insert(&F);
                Changed = true;
                break;
              }
  }
  bool Ok = true;
  for (unsigned Round = 0; Round < 64; ++Round) {
    SmallVector<CallBase *, 8> Calls;
    for (Function &F : M)
      for (Instruction &I : instructions(F))
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *Callee = CB->getCalledFunction())
            if (!Callee->isDeclaration() && HasSafePoint.count(Callee))
              Calls.push_back(CB);
    if (Calls.empty())
      return Ok;
    for (CallBase *CB : Calls) {
      Function *Caller = CB->getFunction();
      Function *Callee = CB->getCalledFunction();
      if (Caller == Callee) {
        reportFailure(*Caller,
                      "recursive device function '" + Callee->getName() +
                          "' contains __syncthreads(); barriers must be "
                          "reachable without recursion",
                      CB);
        return false;
      }
      InlineFunctionInfo IFI;
      InlineResult R = InlineFunction(*CB, IFI);
      if (!R.isSuccess()) {
        reportFailure(*Caller,
                      "cannot inline '" + Callee->getName() +
                          "', which contains __syncthreads(): " +
                          R.getFailureReason(),
                      CB);
        Ok = false;
        continue;
      }
      ++NumInlined;
    }
  }
  for (Function &F : M)
    if (HasSafePoint.count(&F) && !F.isDeclaration())
      reportFailure(F, "barrier-containing call chain of '" + F.getName() +
                           "' is too deep or recursive to inline");
  return false;
}

namespace {

/// `extern __shared__` arrays: every use becomes __hetgpu_dynamic_shared().
void rewriteDynamicShared(Module &M) {
  SmallVector<GlobalVariable *, 4> Dyn;
  for (GlobalVariable &G : M.globals())
    if (G.getAddressSpace() == AS_Shared && G.isDeclaration())
      Dyn.push_back(&G);
  if (Dyn.empty())
    return;
  Function *Builtin = getOrDeclareBuiltin(M, BuiltinID::dynamic_shared);
  for (GlobalVariable *G : Dyn) {
    convertUsersOfConstantsToInstructions({G});
    DenseMap<Function *, Value *> Base;
    for (Use &U : make_early_inc_range(G->uses())) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      if (!I)
        continue;
      Function *F = I->getFunction();
      Value *&B = Base[F];
      if (!B) {
        IRBuilder<> IRB(&*F->getEntryBlock().getFirstInsertionPt());
        B = IRB.CreateCall(Builtin, {}, "dyn.shared");
      }
      U.set(B);
    }
    if (G->use_empty())
      G->eraseFromParent();
  }
}

/// Renames calls of a known external function to a builtin with the same
/// signature (vprintf -> __hetgpu_printf, malloc -> __hetgpu_malloc, ...).
void redirect(Module &M, StringRef From, BuiltinID To) {
  Function *F = M.getFunction(From);
  if (!F || !F->isDeclaration())
    return;
  Function *B = getOrDeclareBuiltin(M, To);
  if (F->getFunctionType() != B->getFunctionType()) {
    for (User *U : F->users())
      if (auto *I = dyn_cast<Instruction>(U))
        reportFailure(*I->getFunction(),
                      "call of '" + From + "' with an unexpected signature", I);
    return;
  }
  F->replaceAllUsesWith(B);
  F->eraseFromParent();
}

std::optional<BuiltinID> mathBuiltinFor(Intrinsic::ID IID, bool IsFloat) {
#define MATH(I, N)                                                             \
  case Intrinsic::I:                                                           \
    return IsFloat ? BuiltinID::math_##N##f : BuiltinID::math_##N;
  switch (IID) {
    MATH(sin, sin)
    MATH(cos, cos)
    MATH(tan, tan)
    MATH(asin, asin)
    MATH(acos, acos)
    MATH(atan, atan)
    MATH(atan2, atan2)
    MATH(sinh, sinh)
    MATH(cosh, cosh)
    MATH(tanh, tanh)
    MATH(exp, exp)
    MATH(exp2, exp2)
    MATH(exp10, exp10)
    MATH(log, log)
    MATH(log2, log2)
    MATH(log10, log10)
    MATH(pow, pow)
  default:
    return std::nullopt;
  }
#undef MATH
}

void rewriteMathIntrinsics(Module &M) {
  for (Function &F : M)
    for (Instruction &I : make_early_inc_range(instructions(F))) {
      auto *II = dyn_cast<IntrinsicInst>(&I);
      if (!II)
        continue;
      Type *Ty = II->getType();
      if (!Ty->isFloatTy() && !Ty->isDoubleTy())
        continue;
      auto ID = mathBuiltinFor(II->getIntrinsicID(), Ty->isFloatTy());
      if (!ID)
        continue;
      Function *B = getOrDeclareBuiltin(M, *ID);
      SmallVector<Value *, 2> Args(II->args());
      auto *Call = CallInst::Create(B, Args, "", II->getIterator());
      Call->takeName(II);
      II->replaceAllUsesWith(Call);
      II->eraseFromParent();
      ++NumMathRewritten;
    }
}

/// Gives every builtin declaration the attributes of the table, so later
/// optimisation (at translation time) may CSE and hoist index reads.
void normalizeBuiltinDecls(Module &M) {
  for (Function &F : M) {
    auto BI = lookupBuiltin(F);
    if (!BI || !F.isDeclaration() || !hasBuiltinType(F, BI->ID))
      continue;
    getOrDeclareBuiltin(M, BI->ID); // adds the attributes in place
    if (BI->Flags & BF_Convergent)
      continue;
    // clang marks every CUDA device call convergent; only warp and barrier
    // builtins are.
    F.removeFnAttr(Attribute::Convergent);
    for (User *U : F.users())
      if (auto *CB = dyn_cast<CallBase>(U))
        CB->removeFnAttr(Attribute::Convergent);
  }
}

} // namespace

uint32_t computeKernelFeatures(const Function &K) {
  SetVector<const Function *> Reach;
  Reach.insert(&K);
  uint32_t Feats = 0;
  using namespace container;
  for (unsigned Idx = 0; Idx < Reach.size(); ++Idx) {
    for (const Instruction &I : instructions(*Reach[Idx])) {
      if (I.getType()->isDoubleTy())
        Feats |= FeatDouble;
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        if (const Function *Callee = CB->getCalledFunction()) {
          if (!Callee->isDeclaration())
            Reach.insert(Callee);
          if (auto BI = lookupBuiltin(*Callee)) {
            StringRef G = BI->Group;
            for (unsigned B = 0; B < NumFeatures; ++B)
              if (G == featureName(B))
                Feats |= 1u << B;
          }
        }
        continue;
      }
      const Value *Ptr = nullptr;
      Type *ValTy = nullptr;
      if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
        Ptr = RMW->getPointerOperand();
        ValTy = RMW->getValOperand()->getType();
      } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
        Ptr = CX->getPointerOperand();
        ValTy = CX->getCompareOperand()->getType();
      }
      if (!Ptr)
        continue;
      const Value *Obj = getUnderlyingObjectAggressive(Ptr);
      bool Shared = Ptr->getType()->getPointerAddressSpace() == AS_Shared;
      if (auto *GV = dyn_cast<GlobalVariable>(Obj))
        Shared |= GV->getAddressSpace() == AS_Shared;
      if (auto *Call = dyn_cast<CallBase>(Obj))
        if (auto BI = getCalledBuiltin(*Call))
          Shared |= BI->ID == BuiltinID::dynamic_shared;
      Feats |= Shared ? FeatAtomicShared : FeatAtomicGlobal;
      if (ValTy->isFloatingPointTy())
        Feats |= FeatAtomicFloat;
    }
  }
  return Feats;
}

namespace {

container::KernelInfo describeKernel(Function &F) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  container::KernelInfo K;
  K.Name = F.getName().str();
  K.Demangled = demangle(K.Name);
  for (Argument &A : F.args()) {
    container::ParamInfo P;
    if (Type *BT = A.getParamByValType()) {
      P.Kind = container::ParamKind::ByVal;
      P.Size = DL.getTypeAllocSize(BT);
      P.Align = A.getParamAlign().valueOrOne().value();
      P.Align = std::max<uint32_t>(P.Align, DL.getABITypeAlign(BT).value());
    } else {
      P.Kind = A.getType()->isPointerTy() ? container::ParamKind::Pointer
                                          : container::ParamKind::Value;
      P.Size = DL.getTypeAllocSize(A.getType());
      P.Align = DL.getABITypeAlign(A.getType()).value();
    }
    K.Params.push_back(P);
  }
  K.StaticShared = computeSharedLayout(F).Size;
  K.Features = computeKernelFeatures(F);
  auto IntAttr = [&](StringRef Name) -> uint32_t {
    Attribute A = F.getFnAttribute(Name);
    unsigned V = 0;
    if (A.isStringAttribute() && !A.getValueAsString().getAsInteger(10, V))
      return V;
    return 0;
  };
  K.MaxThreads = IntAttr("nvvm.maxntid");
  K.MinBlocks = IntAttr("nvvm.minctasm");
  return K;
}

/// With -fgpu-rdc, clang renames a static `__device__` variable that host
/// code uses to `<name>__static__<cuid hash>` (so the host can register it
/// by a unique name), but uses emitted before the host use was seen keep
/// referring to `<name>`, as an external declaration. Resolve those to the
/// renamed definition.
void resolveExternalizedStatics(Module &M) {
  for (GlobalVariable &G : make_early_inc_range(M.globals())) {
    size_t Pos = G.getName().find("__static__");
    if (G.isDeclaration() || Pos == StringRef::npos)
      continue;
    GlobalVariable *Decl = M.getNamedGlobal(G.getName().take_front(Pos));
    if (!Decl || !Decl->isDeclaration() ||
        Decl->getValueType() != G.getValueType() ||
        Decl->getAddressSpace() != G.getAddressSpace())
      continue;
    Decl->replaceAllUsesWith(&G);
    Decl->eraseFromParent();
  }
}

void stripTargetAttributes(Function &F) {
  AttributeMask Drop;
  for (StringRef A : {"target-cpu", "target-features", "tune-cpu",
                      "nvvm.maxntid", "nvvm.minctasm", "nvvm.maxnreg",
                      "nvvm.reqntid", "nvvm.maxclusterrank",
                      "uniform-work-group-size"})
    Drop.addAttribute(A);
  F.removeFnAttrs(Drop);
}

} // namespace

PreservedAnalyses RaiseToHetIRPass::run(Module &M, ModuleAnalysisManager &AM) {
  if (isAlreadyHetIR(M) || !isNVPTXModule(M))
    return PreservedAnalyses::all();
  // Inline PTX first: it may contain barriers, which decide what is inlined.
  LowerInlinePTXPass().run(M, AM);
  for (const std::string &P : recordFacts(M))
    M.getContext().diagnose(
        DiagnosticInfoGeneric("hetgpu contract: " + P, DS_Error));

  SmallVector<Function *, 8> Kernels;
  for (Function &F : M)
    if (F.getCallingConv() == CallingConv::PTX_Kernel && !F.isDeclaration())
      Kernels.push_back(&F);

  // Without relocatable device code every device function is private to the
  // module: internalize them so inlined barrier helpers disappear. With it,
  // other objects may call them; the device link internalizes them.
  if (!Relocatable)
    for (Function &F : M)
      if (!F.isDeclaration() && F.getCallingConv() != CallingConv::PTX_Kernel &&
          !F.hasLocalLinkage()) {
        F.setLinkage(GlobalValue::InternalLinkage);
        F.setComdat(nullptr);
      }
  if (Relocatable)
    resolveExternalizedStatics(M);
  inlineSafePointCallees(M);
  for (Function &F : make_early_inc_range(M))
    if (!F.isDeclaration() && F.hasLocalLinkage() && F.use_empty())
      F.eraseFromParent();
  rewriteDynamicShared(M);
  redirect(M, "vprintf", BuiltinID::printf);
  redirect(M, "malloc", BuiltinID::malloc);
  redirect(M, "free", BuiltinID::free);
  rewriteMathIntrinsics(M);
  normalizeBuiltinDecls(M);
  // What the device link checks between components (docs/hetIR.md).
  if (Relocatable)
    recordComponentUses(M);

  // Kernel descriptions need the launch bounds before they are stripped.
  std::vector<container::KernelInfo> Infos;
  for (Function *K : Kernels)
    Infos.push_back(describeKernel(*K));

  for (Function &F : M) {
    stripTargetAttributes(F);
    if (F.getCallingConv() == CallingConv::PTX_Kernel)
      F.setCallingConv(CallingConv::C);
  }
  for (CallBase *CB : [&] {
         SmallVector<CallBase *, 8> V;
         for (Function *K : Kernels)
           for (User *U : K->users())
             if (auto *C = dyn_cast<CallBase>(U))
               V.push_back(C);
         return V;
       }())
    CB->setCallingConv(CallingConv::C);

  if (NamedMDNode *A = M.getNamedMetadata("nvvm.annotations"))
    M.eraseNamedMetadata(A);
  if (NamedMDNode *Flags = M.getModuleFlagsMetadata()) {
    SmallVector<MDNode *, 4> Keep;
    for (MDNode *Op : Flags->operands())
      if (Op->getNumOperands() < 2 || !isa<MDString>(Op->getOperand(1)) ||
          !cast<MDString>(Op->getOperand(1))->getString().starts_with("nvvm"))
        Keep.push_back(Op);
    Flags->clearOperands();
    for (MDNode *Op : Keep)
      Flags->addOperand(Op);
  }

  M.setTargetTriple(Triple(HetIRTriple));
  M.setDataLayout(HetIRDataLayout);
  setIRVersion(M);
  setRelocatable(M, Relocatable);
  for (unsigned I = 0; I < Kernels.size(); ++I) {
    Kernels[I]->addFnAttr(KernelAttr);
    // A template kernel instantiated in several relocatable components
    // stays one-definition (merged by the device link).
    bool ODR = Kernels[I]->hasLinkOnceLinkage() || Kernels[I]->hasWeakLinkage();
    Kernels[I]->setLinkage(Relocatable && ODR ? GlobalValue::WeakODRLinkage
                                              : GlobalValue::ExternalLinkage);
    Kernels[I]->setVisibility(GlobalValue::DefaultVisibility);
    writeKernelMetadata(*Kernels[I], Infos[I]);
    ++NumKernels;
  }
  if (Kernels.empty())
    M.getOrInsertNamedMetadata(KernelsMD);
  return PreservedAnalyses::none();
}

} // namespace hetgpu
