//===- AMDGPUBuiltins.cpp - hetIR builtins on AMDGPU ----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The builtin step of hetgpu-lower-amdgpu (AMDGPULowering.h): every
/// `__hetgpu_*` call becomes AMDGPU intrinsics, implicit kernel arguments
/// or device-library calls (AMDGPUDeviceIO.h); warp operations work on the
/// 32-lane half of a wave64 wavefront (see LowerToAMDGPU.cpp); atomics get
/// AMDGPU sync scopes.
///
//===----------------------------------------------------------------------===//

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

STATISTIC(NumBuiltinsLowered, "Builtin calls lowered to AMDGPU");

namespace hetgpu {
namespace amdgpu {

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

/// Lowers one call of a hetIR builtin. This stays one switch over
/// Builtins.def (about 150 lines, at the limit of STYLE.md): each case is a
/// few lines mapping one builtin to AMDGPU intrinsics, implicit arguments or
/// a device-library call, and read together they are the mapping table of
/// docs/targets/AMDGPU.md; longer cases call the helpers above.
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

} // namespace amdgpu
} // namespace hetgpu
