//===- LowerToAMDGPU.cpp - Lower hetIR to AMDGPU-flavoured LLVM IR --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements `hetgpu-lower-amdgpu` (see LowerToAMDGPU.h for the mapping).
/// The rewrite runs in this order, so that each step sees finished input:
/// triple and data layout, math library, generic globals, LDS globals,
/// allocas, shared pointers kept in memory, builtins, atomics, kernel ABI,
/// subtarget attributes.
///
/// Warp semantics: a CUDA warp is 32 lanes. On wave64 the warp of a thread
/// is the half of its wavefront selected by bit 5 of the wave lane
/// (workgroups fill wavefronts in linear thread order, so lane = linear
/// thread id % 32 as on NVIDIA). Shuffles compute PTX's source lane
/// (shfl.sync's `c` operand semantics, clamp and segment mask included)
/// within the warp and read it with ds_bpermute at (half | lane) * 4, so a
/// shuffle never crosses the half boundary. Votes and ballots take the
/// half's 32 bits of the 64-bit ballot and the member mask.
///
/// USAGE: hetgpu-opt -passes='hetgpu-lower-amdgpu<gfx942>' -S in.ll
///
//===----------------------------------------------------------------------===//

#include "LowerToAMDGPU.h"
#include "AMDGPULowering.h"
#include "AMDGPUDeviceIO.h"

#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Targets/TargetDiagnostics.h"
#include "hetgpu/Targets/DeviceMath.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#define DEBUG_TYPE "hetgpu-lower-amdgpu"

using namespace llvm;

STATISTIC(NumKernels, "Kernels given the amdgpu_kernel calling convention");
STATISTIC(NumAllocasMoved, "Allocas moved to the private address space");
STATISTIC(NumByRefParams, "Kernel parameters passed byref from the kernarg segment");

static cl::opt<std::string>
    ArchOpt("hetgpu-amdgpu-arch", cl::Hidden,
            cl::desc("AMDGPU processor for hetgpu-lower-amdgpu (gfx942)"));
static cl::opt<std::string>
    FeaturesOpt("hetgpu-amdgpu-features", cl::Hidden,
                cl::desc("Extra AMDGPU features (+wavefrontsize64)"));

namespace hetgpu {

unsigned amdgpuWaveSize(StringRef Arch, StringRef Features) {
  if (Features.contains("+wavefrontsize64"))
    return 64;
  if (Features.contains("+wavefrontsize32"))
    return 32;
  // GCN (gfx6..gfx9, including gfx90a/gfx942/gfx950) is wave64 only;
  // RDNA (gfx10+) defaults to wave32.
  if (Arch.empty())
    Arch = AMDGPUDefaultArch;
  StringRef Num = Arch.drop_front(3);
  return Arch.starts_with("gfx") && Num.size() >= 2 && Num.size() <= 3 ? 64
         : Arch.starts_with("gfx") && Num.size() >= 4                   ? 32
                                                                        : 64;
}

std::string amdgpuFeatures(StringRef Arch, StringRef Features) {
  std::string F = Features.str();
  if (!StringRef(F).contains("wavefrontsize")) {
    if (!F.empty())
      F += ",";
    F += amdgpuWaveSize(Arch, Features) == 64 ? "+wavefrontsize64"
                                              : "+wavefrontsize32";
  }
  return F;
}

namespace amdgpu {

//===----------------------------------------------------------------------===//
// Address spaces
//===----------------------------------------------------------------------===//

/// hetIR puts string literals and other generic globals in address space
/// 0, which AMDGPU cannot allocate: constants go to the constant address
/// space (4), the rest to global memory (1). Uses see a flat pointer.
void AMDGPULowering::moveGenericGlobals() {
  SmallVector<GlobalVariable *, 8> Work;
  for (GlobalVariable &GV : M.globals())
    if (GV.getAddressSpace() == AS_Generic && !GV.getName().starts_with("llvm."))
      Work.push_back(&GV);
  for (GlobalVariable *GV : Work) {
    unsigned AS = GV->isConstant() ? AS_Constant : AS_Global;
    auto *New = new GlobalVariable(
        M, GV->getValueType(), GV->isConstant(), GV->getLinkage(),
        GV->hasInitializer() ? GV->getInitializer() : nullptr, "", nullptr,
        GV->getThreadLocalMode(), AS, GV->isExternallyInitialized());
    New->copyAttributesFrom(GV);
    New->takeName(GV);
    GV->replaceAllUsesWith(ConstantExpr::getAddrSpaceCast(New, GV->getType()));
    GV->eraseFromParent();
  }
}

/// LDS cannot be initialised; hetIR's shared variables are undef or zero
/// (CUDA does not initialise __shared__ either).
void AMDGPULowering::fixSharedGlobals() {
  for (GlobalVariable &GV : M.globals()) {
    if (GV.getAddressSpace() != AS_Shared || !GV.hasInitializer())
      continue;
    if (!isa<UndefValue>(GV.getInitializer()))
      GV.setInitializer(PoisonValue::get(GV.getValueType()));
    if (GV.isThreadLocal())
      GV.setThreadLocal(false);
  }
}

/// hetIR's allocas are generic; AMDGPU's live in address space 5. The
/// alloca moves there and its users see a flat pointer (InferAddressSpaces
/// turns the accesses back into private ones at O1+).
void AMDGPULowering::moveAllocas() {
  for (Function &F : M) {
    SmallVector<AllocaInst *, 8> Work;
    for (Instruction &I : instructions(F))
      if (auto *AI = dyn_cast<AllocaInst>(&I);
          AI && AI->getAddressSpace() != AS_Private)
        Work.push_back(AI);
    for (AllocaInst *AI : Work) {
      auto *New = new AllocaInst(AI->getAllocatedType(), AS_Private,
                                 AI->getArraySize(), AI->getAlign(), "",
                                 AI->getIterator());
      New->takeName(AI);
      New->setUsedWithInAlloca(AI->isUsedWithInAlloca());
      New->copyMetadata(*AI);
      // lifetime markers must name the alloca itself.
      for (User *U : make_early_inc_range(AI->users()))
        if (auto *II = dyn_cast<IntrinsicInst>(U);
            II && (II->getIntrinsicID() == Intrinsic::lifetime_start ||
                   II->getIntrinsicID() == Intrinsic::lifetime_end)) {
          IRBuilder<> LB(II);
          if (II->getIntrinsicID() == Intrinsic::lifetime_start)
            LB.CreateLifetimeStart(New);
          else
            LB.CreateLifetimeEnd(New);
          II->eraseFromParent();
        }
      auto *Cast = new AddrSpaceCastInst(New, AI->getType(),
                                         New->getName() + ".flat",
                                         AI->getIterator());
      AI->replaceAllUsesWith(Cast);
      AI->eraseFromParent();
      ++NumAllocasMoved;
    }
    // stacksave/stackrestore are overloaded on the alloca address space.
    SmallVector<IntrinsicInst *, 4> Stack;
    for (Instruction &I : instructions(F))
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        if ((II->getIntrinsicID() == Intrinsic::stacksave ||
             II->getIntrinsicID() == Intrinsic::stackrestore) &&
            (II->getIntrinsicID() == Intrinsic::stacksave
                 ? II->getType()
                 : II->getArgOperand(0)->getType())
                    ->getPointerAddressSpace() != AS_Private)
          Stack.push_back(II);
    for (IntrinsicInst *II : Stack) {
      IRBuilder<> B(II);
      PointerType *P5 = B.getPtrTy(AS_Private);
      if (II->getIntrinsicID() == Intrinsic::stacksave) {
        Value *S = B.CreateIntrinsic(Intrinsic::stacksave, {P5}, ArrayRef<Value *>());
        II->replaceAllUsesWith(B.CreateAddrSpaceCast(S, II->getType()));
      } else {
        Value *P = B.CreateAddrSpaceCast(II->getArgOperand(0), P5);
        B.CreateIntrinsic(Intrinsic::stackrestore, {P5}, {P});
      }
      II->eraseFromParent();
    }
  }
}

/// hetIR's shared pointers are 64 bits wide, AMDGPU's LDS pointers 32: a
/// shared pointer kept in memory is stored as its 64-bit zero-extended
/// offset, so the memory layout hetIR computed (struct offsets, the state
/// layout) does not change.
void AMDGPULowering::widenStoredSharedPointers() {
  SmallVector<Instruction *, 8> Work;
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      Type *T = nullptr;
      if (auto *LI = dyn_cast<LoadInst>(&I))
        T = LI->getType();
      else if (auto *SI = dyn_cast<StoreInst>(&I))
        T = SI->getValueOperand()->getType();
      else if (auto *AI = dyn_cast<AtomicRMWInst>(&I))
        T = AI->getValOperand()->getType();
      else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
        T = CX->getNewValOperand()->getType();
      else
        continue;
      if (isSharedPtr(T) && (isa<LoadInst>(I) || isa<StoreInst>(I)))
        Work.push_back(&I);
      else if (containsSharedPtr(T))
        fail(&F, "a shared-memory pointer inside an aggregate, vector or "
                 "atomic operation kept in memory cannot be lowered (AMDGPU "
                 "LDS pointers are 32 bits wide, hetIR's 64)");
    }
  for (Instruction *I : Work) {
    IRBuilder<> B(I);
    Type *I64 = B.getInt64Ty();
    if (auto *LI = dyn_cast<LoadInst>(I)) {
      LoadInst *Wide = B.CreateAlignedLoad(I64, LI->getPointerOperand(),
                                           LI->getAlign(), LI->isVolatile());
      Wide->setAtomic(LI->getOrdering(), LI->getSyncScopeID());
      Value *P = B.CreateIntToPtr(B.CreateTrunc(Wide, B.getInt32Ty()),
                                  LI->getType());
      P->takeName(LI);
      LI->replaceAllUsesWith(P);
    } else {
      auto *SI = cast<StoreInst>(I);
      Value *Off = B.CreateZExt(
          B.CreatePtrToInt(SI->getValueOperand(), B.getInt32Ty()), I64);
      StoreInst *Wide = B.CreateAlignedStore(Off, SI->getPointerOperand(),
                                             SI->getAlign(), SI->isVolatile());
      Wide->setAtomic(SI->getOrdering(), SI->getSyncScopeID());
    }
    I->eraseFromParent();
  }
}

//===----------------------------------------------------------------------===//
// Kernel ABI
//===----------------------------------------------------------------------===//

/// True when \p F's !hetgpu.kernels entry has the key "instrumented".
static bool isMigrationInstrumented(Module &M, const Function &F) {
  NamedMDNode *KMD = M.getNamedMetadata(KernelsMD);
  if (!KMD)
    return false;
  for (const MDNode *N : KMD->operands()) {
    auto *VM = N->getNumOperands()
                   ? dyn_cast_or_null<ValueAsMetadata>(N->getOperand(0).get())
                   : nullptr;
    if (!VM || VM->getValue() != &F)
      continue;
    for (const MDOperand &Op : N->operands())
      if (auto *S = dyn_cast_or_null<MDString>(Op.get());
          S && S->getString() == "instrumented")
        return true;
  }
  return false;
}

/// Kernels take the amdgpu_kernel calling convention. The explicit kernarg
/// segment must be CUDA's parameter buffer byte for byte (the runtime packs
/// one buffer for every device): AMDGPU places each argument at its ABI
/// alignment (or its byref alignment), so aggregates (byval) and values
/// whose AMDGPU size or alignment differ from the metadata's are passed
/// byref from the kernarg segment with the metadata's alignment. A byval
/// aggregate is copied to a private alloca, which the callee may write.
void AMDGPULowering::lowerKernels() {
  Expected<std::vector<std::pair<Function *, container::KernelInfo>>> Infos =
      readKernelInfo(M);
  if (!Infos) {
    Ctx.emitError("hetgpu-lower-amdgpu: malformed kernel metadata: " +
                  toString(Infos.takeError()));
    return;
  }
  // A kernel instrumented for live migration (hetgpu-instrument-state marks
  // its !hetgpu.kernels entry "instrumented") has hidden trailing
  // parameters that the metadata's list leaves out; the runtime packs them
  // after the user's (docs/Migration.md).
  for (auto &[F, K] : *Infos)
    if (F &&
        F->arg_size() == K.Params.size() + container::MigrationHiddenParams &&
        isMigrationInstrumented(M, *F))
      container::appendMigrationParams(K);
  const DataLayout &DL = M.getDataLayout();
  std::vector<std::pair<Function *, const container::KernelInfo *>> Kernels;
  for (auto &[F, K] : *Infos)
    if (F && !F->isDeclaration())
      Kernels.push_back({F, &K});
  for (Function &F : M)
    if (!F.isDeclaration() && isKernel(F) &&
        none_of(Kernels, [&](auto &P) { return P.first == &F; }))
      Kernels.push_back({&F, nullptr});

  for (auto [F, K] : Kernels) {
    if (F->getCallingConv() == CallingConv::AMDGPU_KERNEL)
      continue; // lowered already
    if (!F->getReturnType()->isVoidTy()) {
      fail(F, "a kernel must return void");
      continue;
    }
    if (K && K->Params.size() != F->arg_size()) {
      fail(F, "kernel metadata lists " + Twine(K->Params.size()) +
                  " parameters, the function has " + Twine(F->arg_size()));
      continue;
    }
    // Decide each parameter's passing.
    SmallVector<Type *, 8> Types;
    SmallVector<bool, 8> ByRef;
    SmallVector<Type *, 8> ByRefTy;
    SmallVector<Align, 8> ByRefAlign;
    bool Changed = false;
    uint64_t CudaOffset = 0, AMDOffset = 0;
    for (Argument &A : F->args()) {
      unsigned I = A.getArgNo();
      Type *ValTy = A.hasByValAttr() ? A.getParamByValType() : A.getType();
      uint64_t AllocSize = DL.getTypeAllocSize(ValTy);
      Align MetaAlign = K ? Align(std::max<uint32_t>(K->Params[I].Align, 1))
                          : DL.getABITypeAlign(ValTy);
      uint64_t MetaSize = K ? K->Params[I].Size : AllocSize;
      if (A.hasByValAttr())
        MetaAlign = std::max(MetaAlign, A.getParamAlign().valueOrOne());
      bool Ref = A.hasByValAttr() || DL.getABITypeAlign(ValTy) != MetaAlign ||
                 AllocSize != MetaSize;
      // Both layouts: each parameter at its alignment, in order.
      CudaOffset = alignTo(CudaOffset, MetaAlign);
      AMDOffset = alignTo(AMDOffset, Ref ? MetaAlign : DL.getABITypeAlign(ValTy));
      if (AllocSize < MetaSize || CudaOffset != AMDOffset)
        fail(F, "parameter " + Twine(I) + " (" + Twine(AllocSize) +
                    " bytes) cannot be placed at CUDA's offset " +
                    Twine(CudaOffset) + " (" + Twine(MetaSize) +
                    " bytes) of the kernarg segment");
      CudaOffset += MetaSize;
      AMDOffset += AllocSize;
      ByRef.push_back(Ref);
      ByRefTy.push_back(ValTy);
      ByRefAlign.push_back(MetaAlign);
      Types.push_back(Ref ? PointerType::get(Ctx, AS_Constant) : A.getType());
      Changed |= Ref;
    }

    Function *K2 = F;
    if (Changed) {
      auto *FT = FunctionType::get(F->getReturnType(), Types, false);
      K2 = Function::Create(FT, F->getLinkage(), F->getAddressSpace(), "", &M);
      K2->copyAttributesFrom(F);
      K2->takeName(F);
      K2->setSubprogram(F->getSubprogram());
      K2->copyMetadata(F, 0);
      K2->splice(K2->begin(), F);
      IRBuilder<> B(&*K2->getEntryBlock().getFirstInsertionPt());
      for (Argument &A : F->args()) {
        unsigned I = A.getArgNo();
        Argument *NA = K2->getArg(I);
        NA->setName(A.getName());
        if (!ByRef[I]) {
          A.replaceAllUsesWith(NA);
          continue;
        }
        ++NumByRefParams;
        AttributeList AL = K2->getAttributes();
        AL = AL.removeParamAttributes(Ctx, I);
        AL = AL.addParamAttribute(
            Ctx, I, Attribute::getWithByRefType(Ctx, ByRefTy[I]));
        AL = AL.addParamAttribute(
            Ctx, I, Attribute::getWithAlignment(Ctx, ByRefAlign[I]));
        AL = AL.addParamAttribute(Ctx, I, Attribute::NoAlias);
        AL = AL.addParamAttribute(Ctx, I, Attribute::ReadOnly);
        K2->setAttributes(AL);
        if (A.hasByValAttr()) {
          // The callee owns a copy of a byval aggregate.
          AllocaInst *Copy = B.CreateAlloca(ByRefTy[I], AS_Private, nullptr,
                                            A.getName() + ".byval");
          Copy->setAlignment(ByRefAlign[I]);
          B.CreateMemCpy(Copy, ByRefAlign[I], NA, ByRefAlign[I],
                         DL.getTypeAllocSize(ByRefTy[I]));
          A.replaceAllUsesWith(B.CreateAddrSpaceCast(Copy, A.getType()));
        } else {
          A.replaceAllUsesWith(
              B.CreateAlignedLoad(ByRefTy[I], NA, ByRefAlign[I], A.getName()));
        }
      }
      // Remove the attributes of the old by-value parameters that no
      // longer apply to the new types.
      for (unsigned I = 0; I < K2->arg_size(); ++I)
        if (!ByRef[I])
          K2->removeParamAttrs(I, AttributeFuncs::typeIncompatible(
                                      K2->getArg(I)->getType(),
                                      K2->getAttributes().getParamAttrs(I)));
      F->replaceAllUsesWith(K2);
      F->eraseFromParent();
    }

    K2->setCallingConv(CallingConv::AMDGPU_KERNEL);
    K2->setVisibility(GlobalValue::ProtectedVisibility);
    ++NumKernels;
    unsigned MaxThreads = K && K->MaxThreads ? K->MaxThreads : 1024;
    K2->addFnAttr("amdgpu-flat-work-group-size",
                  "1," + std::to_string(MaxThreads));
    // CUDA grids are whole blocks: no partial work-groups.
    K2->addFnAttr("uniform-work-group-size", "true");
    if (K && K->MinBlocks && K->MaxThreads) {
      // __launch_bounds__(T, B): B blocks of ceil(T / wave) waves on the
      // four SIMDs of a compute unit.
      unsigned Waves = (K->MaxThreads + WaveSize - 1) / WaveSize * K->MinBlocks;
      unsigned PerEU = std::clamp((Waves + 3) / 4, 1u, 8u);
      K2->addFnAttr("amdgpu-waves-per-eu", std::to_string(PerEU));
    }
  }
}

/// Every function compiles for the chosen processor and wavefront size
/// (the warp lowering above depends on it).
void AMDGPULowering::setSubtargetAttributes() {
  std::string Features = amdgpuFeatures(Arch, Opts.Features);
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    F.removeFnAttr("target-cpu");
    F.removeFnAttr("target-features");
    F.removeFnAttr("tune-cpu");
    F.addFnAttr("target-cpu", Arch);
    F.addFnAttr("target-features", Features);
  }
}

void AMDGPULowering::run() {
  Arch = Opts.Arch.empty() ? std::string(AMDGPUDefaultArch) : Opts.Arch;
  WaveSize = amdgpuWaveSize(Arch, Opts.Features);
  WorkgroupSS = Ctx.getOrInsertSyncScopeID("workgroup");
  AgentSS = Ctx.getOrInsertSyncScopeID("agent");
  WavefrontSS = Ctx.getOrInsertSyncScopeID("wavefront");

  if (!StringRef(Arch).starts_with("gfx")) {
    Ctx.emitError("hetgpu-lower-amdgpu: '" + Arch +
                  "' is not an AMDGPU processor (e.g. gfx942)");
    return;
  }
  // Opts.Instrument needs nothing here: hetgpu-instrument-state already
  // rewrote the hetIR (plain hetIR with three hidden parameters).

  M.setTargetTriple(Triple(AMDGPUTriple));
  M.setDataLayout(AMDGPUDataLayout);

  // Math first: the library's functions go through the same rewrites.
  bool UsesMath = any_of(M, [](Function &F) {
    return F.isDeclaration() && !F.use_empty() &&
           F.getName().starts_with(MathPrefix);
  });
  if (UsesMath)
    if (Error E = linkDeviceMathLibrary(M)) {
      Function *User = nullptr;
      for (Function &F : M)
        if (F.getName().starts_with(MathPrefix) && F.isDeclaration())
          for (auto *U : F.users())
            if (auto *I = dyn_cast<Instruction>(U)) {
              User = I->getFunction();
              break;
            }
      std::string Msg = "math functions need hetGPU's device math library "
                        "for amdgcn: " + toString(std::move(E));
      if (User)
        fail(User, Msg);
      else
        Ctx.emitError("hetgpu-lower-amdgpu: " + Msg);
    }

  moveGenericGlobals();
  fixSharedGlobals();
  moveAllocas();
  widenStoredSharedPointers();
  lowerBuiltins();
  scopeAtomics();
  stripLiveBundles();
  lowerKernels();
  setSubtargetAttributes();
  // Device variables stay visible to hipModuleGetGlobal but must not be
  // preemptible in the code object (ld.lld -shared): the code generator
  // addresses them PC-relative, as HIP's compiler does.
  for (GlobalVariable &GV : M.globals())
    if (!GV.isDeclaration() && GV.hasExternalLinkage() &&
        GV.hasDefaultVisibility())
      GV.setVisibility(GlobalValue::ProtectedVisibility);
  // Code object v5: the implicit-argument offsets used above.
  if (!M.getModuleFlag("amdhsa_code_object_version"))
    M.addModuleFlag(Module::Error, "amdhsa_code_object_version", 500);
}

/// Parses `hetgpu-lower-amdgpu<gfx1100;wavefrontsize64>`.
bool parsePassName(StringRef Name, AMDGPULowerOptions &O) {
  if (Name == LowerToAMDGPUPass::name())
    return true;
  if (!Name.consume_front(LowerToAMDGPUPass::name()) ||
      !Name.consume_front("<") || !Name.consume_back(">"))
    return false;
  SmallVector<StringRef, 4> Parts;
  Name.split(Parts, ';', -1, false);
  for (StringRef P : Parts) {
    if (P.starts_with("gfx"))
      O.Arch = P.str();
    else if (P == "wavefrontsize64" || P == "wavefrontsize32")
      O.Features += (O.Features.empty() ? "+" : ",+") + P.str();
    else
      return false;
  }
  return true;
}

} // namespace amdgpu

using amdgpu::AMDGPULowering;

bool parseLowerToAMDGPUPassName(StringRef Name, AMDGPULowerOptions &O) {
  return amdgpu::parsePassName(Name, O);
}

Error lowerModuleToAMDGPU(Module &M, const AMDGPULowerOptions &Opts) {
  AMDGPULowering L(M, Opts);
  L.run();
  return L.Failures.toError("amdgpu");
}

LowerToAMDGPUPass::LowerToAMDGPUPass(AMDGPULowerOptions O) : Opts(std::move(O)) {}

PreservedAnalyses LowerToAMDGPUPass::run(Module &M, ModuleAnalysisManager &) {
  AMDGPULowerOptions Effective = Opts;
  if (ArchOpt.getNumOccurrences())
    Effective.Arch = ArchOpt;
  if (FeaturesOpt.getNumOccurrences())
    Effective.Features = FeaturesOpt;
  AMDGPULowering L(M, Effective);
  L.run();
  L.Failures.report(M, "hetgpu-lower-amdgpu");
  return PreservedAnalyses::none();
}

} // namespace hetgpu

