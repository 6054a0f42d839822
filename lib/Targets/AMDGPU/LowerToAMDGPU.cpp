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

STATISTIC(NumBuiltinsLowered, "Builtin calls lowered to AMDGPU");
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

namespace {

enum class ShuffleMode { Idx, Up, Down, Xor };

class AMDGPULowering {
public:
  AMDGPULowering(Module &M, const AMDGPULowerOptions &Opts)
      : M(M), Opts(Opts), Ctx(M.getContext()) {}
  void run();
  LoweringFailures Failures;

private:
  Module &M;
  const AMDGPULowerOptions &Opts;
  LLVMContext &Ctx;
  std::string Arch;
  unsigned WaveSize = 64;
  SyncScope::ID WorkgroupSS = SyncScope::System;
  SyncScope::ID AgentSS = SyncScope::System;
  SyncScope::ID WavefrontSS = SyncScope::System;

  void fail(Function *F, const Twine &Msg) { Failures.add(F, Msg); }
  void moveGenericGlobals();
  void fixSharedGlobals();
  void moveAllocas();
  void widenStoredSharedPointers();
  void lowerBuiltins();
  void lowerBuiltinCall(CallInst *CI, BuiltinID ID);
  void scopeAtomics();
  void stripLiveBundles();
  void lowerKernels();
  void setSubtargetAttributes();

  // Code generation helpers.
  Value *implicitArg(IRBuilder<> &B, unsigned Offset, Type *Ty);
  Value *waveLane(IRBuilder<> &B);
  Value *warpLane(IRBuilder<> &B) { return B.CreateAnd(waveLane(B), 31); }
  Value *ballotWarp(IRBuilder<> &B, Value *Pred);
  Value *shuffle(IRBuilder<> &B, ShuffleMode Mode, Value *V, Value *Sel,
                 Value *Width);
  Value *matchAny(CallInst *CI, Value *Mask, Value *V);
  void barrier(IRBuilder<> &B);
  Value *barrierReduce(IRBuilder<> &B, BuiltinID ID, Value *Pred);
  GlobalVariable *barrierScratch();
  GlobalVariable *dynamicShared();
};

/// True for the value of a `ptr addrspace(3)` type (scalar only).
bool isSharedPtr(Type *T) {
  return T->isPointerTy() && T->getPointerAddressSpace() == AS_Shared;
}

bool containsSharedPtr(Type *T) {
  if (isSharedPtr(T))
    return true;
  if (auto *V = dyn_cast<VectorType>(T))
    return containsSharedPtr(V->getElementType());
  if (auto *A = dyn_cast<ArrayType>(T))
    return containsSharedPtr(A->getElementType());
  if (auto *S = dyn_cast<StructType>(T))
    return any_of(S->elements(), containsSharedPtr);
  return false;
}

Value *isNonZero(IRBuilder<> &B, Value *V) {
  return B.CreateICmpNE(V, ConstantInt::get(V->getType(), 0));
}

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
// Builtins
//===----------------------------------------------------------------------===//

Value *AMDGPULowering::implicitArg(IRBuilder<> &B, unsigned Offset, Type *Ty) {
  Value *Base = B.CreateIntrinsic(Intrinsic::amdgcn_implicitarg_ptr, ArrayRef<Type *>(), ArrayRef<Value *>());
  Value *P = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, Offset);
  LoadInst *L = B.CreateAlignedLoad(Ty, P, Align(Ty->getPrimitiveSizeInBits() / 8));
  L->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(Ctx, {}));
  L->setMetadata(LLVMContext::MD_noundef, MDNode::get(Ctx, {}));
  return L;
}

Value *AMDGPULowering::waveLane(IRBuilder<> &B) {
  Value *Lo = B.CreateIntrinsic(Intrinsic::amdgcn_mbcnt_lo, {},
                                {B.getInt32(-1), B.getInt32(0)});
  if (WaveSize == 32)
    return Lo;
  return B.CreateIntrinsic(Intrinsic::amdgcn_mbcnt_hi, {}, {B.getInt32(-1), Lo});
}

/// The 32 bits of the ballot of \p Pred that belong to the thread's warp.
Value *AMDGPULowering::ballotWarp(IRBuilder<> &B, Value *Pred) {
  if (WaveSize == 32)
    return B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {B.getInt32Ty()}, {Pred});
  Value *Full =
      B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {B.getInt64Ty()}, {Pred});
  Value *Half = B.CreateZExt(B.CreateAnd(waveLane(B), 32), B.getInt64Ty());
  return B.CreateTrunc(B.CreateLShr(Full, Half), B.getInt32Ty());
}

/// PTX shfl.sync semantics with c = ((32 - Width) << 8) | (Up ? 0 : 31):
/// segment mask, clamp and "out of range reads the own value".
Value *AMDGPULowering::shuffle(IRBuilder<> &B, ShuffleMode Mode, Value *V,
                               Value *Sel, Value *Width) {
  Value *WL = waveLane(B);
  Value *Lane = B.CreateAnd(WL, 31, "lane");
  Value *SegMask = B.CreateAnd(B.CreateSub(B.getInt32(32), Width), 31);
  Value *NotSeg = B.CreateXor(SegMask, 31);
  Value *BVal = B.CreateAnd(Sel, 31);
  Value *MinLane = B.CreateAnd(Lane, SegMask);
  Value *MaxLane = Mode == ShuffleMode::Up ? MinLane : B.CreateOr(MinLane, NotSeg);
  Value *J, *InRange;
  switch (Mode) {
  case ShuffleMode::Up:
    J = B.CreateSub(Lane, BVal);
    InRange = B.CreateICmpSGE(J, MaxLane);
    break;
  case ShuffleMode::Down:
    J = B.CreateAdd(Lane, BVal);
    InRange = B.CreateICmpULE(J, MaxLane);
    break;
  case ShuffleMode::Xor:
    J = B.CreateXor(Lane, BVal);
    InRange = B.CreateICmpULE(J, MaxLane);
    break;
  case ShuffleMode::Idx:
    J = B.CreateOr(MinLane, B.CreateAnd(BVal, NotSeg));
    InRange = B.CreateICmpULE(J, MaxLane);
    break;
  }
  Value *Src = B.CreateSelect(InRange, J, Lane, "src.lane");
  if (WaveSize == 64)
    Src = B.CreateOr(Src, B.CreateAnd(WL, 32), "src.wave.lane");
  return B.CreateIntrinsic(Intrinsic::amdgcn_ds_bpermute, {},
                           {B.CreateShl(Src, 2), V});
}

/// __match_any_sync: each round the first remaining lane of the wave
/// broadcasts its value; the lanes holding it take the ballot of their
/// warp and leave the loop.
Value *AMDGPULowering::matchAny(CallInst *CI, Value *Mask, Value *V) {
  BasicBlock *Head = CI->getParent();
  BasicBlock *Exit = SplitBlock(Head, CI, static_cast<DominatorTree *>(nullptr),
                                nullptr, nullptr, "match.done");
  BasicBlock *Loop =
      BasicBlock::Create(Ctx, "match.loop", Head->getParent(), Exit);
  Head->getTerminator()->setSuccessor(0, Loop);
  IRBuilder<> B(Loop);
  Value *Leader = B.CreateIntrinsic(Intrinsic::amdgcn_readfirstlane,
                                    {B.getInt32Ty()}, {V});
  Value *Same = B.CreateICmpEQ(V, Leader);
  Value *Ballot = ballotWarp(B, Same);
  B.CreateCondBr(Same, Exit, Loop);
  B.SetInsertPoint(CI);
  PHINode *Phi = B.CreatePHI(B.getInt32Ty(), 1, "match.ballot");
  Phi->addIncoming(Ballot, Loop);
  return B.CreateAnd(Phi, Mask);
}

void AMDGPULowering::barrier(IRBuilder<> &B) {
  B.CreateFence(AtomicOrdering::Release, WorkgroupSS);
  B.CreateIntrinsic(Intrinsic::amdgcn_s_barrier, ArrayRef<Type *>(), ArrayRef<Value *>());
  B.CreateFence(AtomicOrdering::Acquire, WorkgroupSS);
}

GlobalVariable *AMDGPULowering::barrierScratch() {
  StringRef Name = "__hetgpu_amdgpu_barrier_scratch";
  if (GlobalVariable *GV = M.getGlobalVariable(Name, true))
    return GV;
  auto *I32 = Type::getInt32Ty(Ctx);
  auto *GV = new GlobalVariable(M, I32, false, GlobalValue::InternalLinkage,
                                PoisonValue::get(I32), Name, nullptr,
                                GlobalValue::NotThreadLocal, AS_Shared);
  GV->setAlignment(Align(4));
  return GV;
}

/// __syncthreads_count/and/or: zero one LDS word, barrier, every thread
/// adds its predicate (the atomic optimizer turns a wave's adds into one),
/// barrier, read. The leading barrier keeps the zeroing from racing with
/// the readers of the previous reduction.
Value *AMDGPULowering::barrierReduce(IRBuilder<> &B, BuiltinID ID, Value *Pred) {
  GlobalVariable *S = barrierScratch();
  Type *I32 = B.getInt32Ty();
  barrier(B);
  StoreInst *Zero = B.CreateAlignedStore(B.getInt32(0), S, Align(4));
  Zero->setAtomic(AtomicOrdering::Monotonic, WorkgroupSS);
  barrier(B);
  Value *Counted = ID == BuiltinID::barrier_and ? B.CreateICmpEQ(Pred, B.getInt32(0))
                                                : isNonZero(B, Pred);
  B.CreateAtomicRMW(AtomicRMWInst::Add, S, B.CreateZExt(Counted, I32),
                    Align(4), AtomicOrdering::Monotonic, WorkgroupSS);
  barrier(B);
  LoadInst *Count = B.CreateAlignedLoad(I32, S, Align(4), "barrier.count");
  Count->setAtomic(AtomicOrdering::Monotonic, WorkgroupSS);
  switch (ID) {
  case BuiltinID::barrier_count:
    return Count;
  case BuiltinID::barrier_and:
    return B.CreateZExt(B.CreateICmpEQ(Count, B.getInt32(0)), I32);
  default:
    return B.CreateZExt(isNonZero(B, Count), I32);
  }
}

/// `extern __shared__` memory: a zero-sized external LDS variable, which
/// the AMDGPU back end places after the kernel's static LDS; the runtime's
/// dynamic size is added to the group segment at launch.
GlobalVariable *AMDGPULowering::dynamicShared() {
  if (GlobalVariable *GV = M.getGlobalVariable(AMDGPUDynamicSharedName, true))
    return GV;
  auto *Ty = ArrayType::get(Type::getInt8Ty(Ctx), 0);
  auto *GV = new GlobalVariable(M, Ty, false, GlobalValue::ExternalLinkage,
                                nullptr, AMDGPUDynamicSharedName, nullptr,
                                GlobalValue::NotThreadLocal, AS_Shared);
  GV->setAlignment(Align(16));
  return GV;
}

void AMDGPULowering::lowerBuiltinCall(CallInst *CI, BuiltinID ID) {
  IRBuilder<> B(CI);
  Function *Caller = CI->getFunction();
  auto Arg = [&](unsigned I) { return CI->getArgOperand(I); };
  auto Intr = [&](Intrinsic::ID IID) -> Value * {
    return B.CreateIntrinsic(IID, ArrayRef<Type *>(), ArrayRef<Value *>());
  };
  // Code object v5 implicit arguments: hidden_block_count_{x,y,z} (u32) at
  // 0, 4, 8 and hidden_group_size_{x,y,z} (u16) at 12, 14, 16.
  auto BlockCount = [&](unsigned D) {
    return implicitArg(B, 4 * D, B.getInt32Ty());
  };
  auto GroupSize = [&](unsigned D) {
    return B.CreateZExt(implicitArg(B, 12 + 2 * D, B.getInt16Ty()),
                        B.getInt32Ty());
  };
  Value *R = nullptr;
  switch (ID) {
  case BuiltinID::tid_x: R = Intr(Intrinsic::amdgcn_workitem_id_x); break;
  case BuiltinID::tid_y: R = Intr(Intrinsic::amdgcn_workitem_id_y); break;
  case BuiltinID::tid_z: R = Intr(Intrinsic::amdgcn_workitem_id_z); break;
  case BuiltinID::ctaid_x: R = Intr(Intrinsic::amdgcn_workgroup_id_x); break;
  case BuiltinID::ctaid_y: R = Intr(Intrinsic::amdgcn_workgroup_id_y); break;
  case BuiltinID::ctaid_z: R = Intr(Intrinsic::amdgcn_workgroup_id_z); break;
  case BuiltinID::ntid_x: R = GroupSize(0); break;
  case BuiltinID::ntid_y: R = GroupSize(1); break;
  case BuiltinID::ntid_z: R = GroupSize(2); break;
  case BuiltinID::nctaid_x: R = BlockCount(0); break;
  case BuiltinID::nctaid_y: R = BlockCount(1); break;
  case BuiltinID::nctaid_z: R = BlockCount(2); break;
  case BuiltinID::lane_id: R = warpLane(B); break;

  case BuiltinID::barrier:
    barrier(B);
    break;
  case BuiltinID::barrier_count:
  case BuiltinID::barrier_and:
  case BuiltinID::barrier_or:
    R = barrierReduce(B, ID, Arg(0));
    break;

  case BuiltinID::fence_block:
    B.CreateFence(AtomicOrdering::SequentiallyConsistent, WorkgroupSS);
    break;
  case BuiltinID::fence_device:
    B.CreateFence(AtomicOrdering::SequentiallyConsistent, AgentSS);
    break;
  case BuiltinID::fence_system:
    B.CreateFence(AtomicOrdering::SequentiallyConsistent, SyncScope::System);
    break;

  // The lanes of a wavefront execute together: __syncwarp only orders
  // memory between them and keeps the compiler from moving code across.
  case BuiltinID::syncwarp:
    B.CreateFence(AtomicOrdering::Release, WavefrontSS);
    B.CreateIntrinsic(Intrinsic::amdgcn_wave_barrier, ArrayRef<Type *>(), ArrayRef<Value *>());
    B.CreateFence(AtomicOrdering::Acquire, WavefrontSS);
    break;
  case BuiltinID::shfl_idx_i32:
    R = shuffle(B, ShuffleMode::Idx, Arg(1), Arg(2), Arg(3));
    break;
  case BuiltinID::shfl_up_i32:
    R = shuffle(B, ShuffleMode::Up, Arg(1), Arg(2), Arg(3));
    break;
  case BuiltinID::shfl_down_i32:
    R = shuffle(B, ShuffleMode::Down, Arg(1), Arg(2), Arg(3));
    break;
  case BuiltinID::shfl_xor_i32:
    R = shuffle(B, ShuffleMode::Xor, Arg(1), Arg(2), Arg(3));
    break;
  // PTX: lanes outside the member mask contribute 0 to a ballot; `all`
  // holds when no member lane has a false predicate.
  case BuiltinID::vote_ballot:
    R = B.CreateAnd(ballotWarp(B, isNonZero(B, Arg(1))), Arg(0), "ballot");
    break;
  case BuiltinID::vote_any:
    R = B.CreateZExt(
        isNonZero(B, B.CreateAnd(ballotWarp(B, isNonZero(B, Arg(1))), Arg(0))),
        B.getInt32Ty());
    break;
  case BuiltinID::vote_all: {
    Value *False = ballotWarp(B, B.CreateICmpEQ(Arg(1), B.getInt32(0)));
    R = B.CreateZExt(B.CreateICmpEQ(B.CreateAnd(False, Arg(0)), B.getInt32(0)),
                     B.getInt32Ty());
    break;
  }
  case BuiltinID::activemask:
    R = ballotWarp(B, B.getTrue());
    break;
  case BuiltinID::match_any_i32:
    R = matchAny(CI, Arg(0), Arg(1));
    break;

  case BuiltinID::dynamic_shared:
    R = dynamicShared();
    break;
  case BuiltinID::malloc:
    lowerAMDGPUMalloc(CI);
    ++NumBuiltinsLowered;
    return;
  case BuiltinID::free:
    lowerAMDGPUFree(CI);
    ++NumBuiltinsLowered;
    return;

  case BuiltinID::clock:
    R = B.CreateTrunc(B.CreateIntrinsic(Intrinsic::readcyclecounter, ArrayRef<Type *>(), ArrayRef<Value *>()),
                      B.getInt32Ty());
    break;
  case BuiltinID::clock64:
    R = B.CreateIntrinsic(Intrinsic::readcyclecounter, ArrayRef<Type *>(), ArrayRef<Value *>());
    break;
  // The constant "steady" counter runs at 100 MHz on gfx9 and gfx11
  // (hipDeviceAttributeWallClockRate); %globaltimer counts nanoseconds.
  case BuiltinID::globaltimer:
    R = B.CreateMul(B.CreateIntrinsic(Intrinsic::readsteadycounter, ArrayRef<Type *>(), ArrayRef<Value *>()),
                    B.getInt64(10));
    break;

  case BuiltinID::printf:
    lowerAMDGPUPrintf(CI, [&](Function *F, const Twine &Msg) { fail(F, Msg); });
    ++NumBuiltinsLowered;
    return;
  case BuiltinID::assert_fail:
    lowerAMDGPUAssert(CI, [&](Function *F, const Twine &Msg) { fail(F, Msg); });
    ++NumBuiltinsLowered;
    return;
  case BuiltinID::trap:
    lowerAMDGPUTrap(CI);
    ++NumBuiltinsLowered;
    return;

  default:
    fail(Caller, "builtin '" + getBuiltinInfo(ID).Name +
                     "' has no AMDGPU lowering");
    return;
  }

  ++NumBuiltinsLowered;
  if (R) {
    if (R->getType() != CI->getType()) {
      fail(Caller, "call of '" + CI->getCalledFunction()->getName() +
                       "' has a type other than the builtin table's");
      return;
    }
    if (auto *I = dyn_cast<Instruction>(R); I && CI->hasName())
      I->takeName(CI);
    CI->replaceAllUsesWith(R);
  }
  CI->eraseFromParent();
}

void AMDGPULowering::lowerBuiltins() {
  SmallVector<std::pair<CallInst *, BuiltinID>, 32> Calls;
  SmallVector<Function *, 16> Decls;
  for (Function &F : M) {
    if (!F.getName().starts_with(BuiltinPrefix))
      continue;
    std::optional<BuiltinInfo> Info = lookupBuiltin(F);
    if (!Info && !F.isDeclaration())
      continue; // a library's (or this lowering's) own helper
    if (!Info) {
      for (User *U : F.users())
        if (auto *I = dyn_cast<Instruction>(U))
          fail(I->getFunction(), "'" + F.getName() + "' is not a hetIR builtin");
      continue;
    }
    if (Info->Group == "math")
      continue; // resolved by the math library (or reported there)
    if (!F.isDeclaration())
      continue; // a library's own definition
    Decls.push_back(&F);
    for (User *U : F.users()) {
      auto *CI = dyn_cast<CallInst>(U);
      if (!CI || CI->getCalledOperand() != &F) {
        if (auto *I = dyn_cast<Instruction>(U))
          fail(I->getFunction(), "builtin '" + F.getName() +
                                     "' is used other than as a direct call");
        else
          Ctx.emitError("builtin '" + F.getName() +
                        "' is used other than as a direct call");
        continue;
      }
      if (!hasBuiltinType(F, Info->ID)) {
        fail(CI->getFunction(), "call of '" + F.getName() +
                                    "' has a type other than the builtin table's");
        continue;
      }
      Calls.push_back({CI, Info->ID});
    }
  }
  for (auto &[CI, ID] : Calls)
    lowerBuiltinCall(CI, ID);
  for (Function *F : Decls)
    if (F->use_empty())
      F->eraseFromParent();
}

/// hetIR atomics carry the default (system) scope because CUDA's headers
/// make all of atomicAdd, atomicAdd_block and atomicAdd_system the same
/// IR; CUDA's unsuffixed atomics have device scope, which is AMDGPU's
/// "agent". Atomics on shared memory only need the workgroup.
void AMDGPULowering::scopeAtomics() {
  auto ScopeFor = [&](Value *Ptr) {
    return Ptr->getType()->getPointerAddressSpace() == AS_Shared ? WorkgroupSS
                                                                 : AgentSS;
  };
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
        if (RMW->getSyncScopeID() == SyncScope::System)
          RMW->setSyncScopeID(ScopeFor(RMW->getPointerOperand()));
      } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
        if (CX->getSyncScopeID() == SyncScope::System)
          CX->setSyncScopeID(ScopeFor(CX->getPointerOperand()));
      }
    }
}

void AMDGPULowering::stripLiveBundles() {
  SmallVector<std::pair<CallBase *, uint32_t>, 8> Work;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (std::optional<OperandBundleUse> OB = CB->getOperandBundle(LiveBundle))
          Work.push_back({CB, OB->getTagID()});
  for (auto &[CB, Tag] : Work) {
    CallBase *New = CallBase::removeOperandBundle(CB, Tag, CB->getIterator());
    New->takeName(CB);
    CB->replaceAllUsesWith(New);
    CB->eraseFromParent();
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

} // namespace

bool parseLowerToAMDGPUPassName(StringRef Name, AMDGPULowerOptions &O) {
  return parsePassName(Name, O);
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
