//===- SPIRVWarpOps.cpp - Warp operations on SPIR-V -----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Warp operations (SPIRVLowering.h): on 32-wide sub-groups, sub-group
/// built-ins; otherwise an emulation with local memory and barriers, exact
/// where every thread of the block reaches the operation.
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
// Warp operations
//===----------------------------------------------------------------------===//

/// Without 32-wide sub-groups: checks that every warp operation of
/// \p PerFn can be emulated; kernels where one cannot are an error, or
/// with DeferUnsupported go to Dropped and Unsupported.
Error SPIRVLowering::checkWarpEmulation(WarpCallMap &PerFn) {
  // Emulation is exact only where every thread of the block executes the
  // operation the same number of times: blocks that post-dominate the
  // kernel entry and are in no loop.
  for (auto &[F, Calls] : PerFn) {
    if (F->getCallingConv() != CallingConv::SPIR_KERNEL)
      return failure("function " + kernelOf(*F) + " uses warp operation '" +
                     Calls.front()->getCalledFunction()->getName() +
                     "' and could not be inlined into its kernel; warp "
                     "operations on a " +
                     Opts.DeviceDesc + " are emulated only in kernels");
    DominatorTree DT(*F);
    PostDominatorTree PDT(*F);
    LoopInfo LI(DT);
    std::string Why;
    for (CallInst *CI : Calls) {
      BasicBlock *BB = CI->getParent();
      if (!PDT.dominates(BB, &F->getEntryBlock()) || LI.getLoopFor(BB)) {
        Why = "kernel " + kernelOf(*F) + ": warp operation '" +
              CI->getCalledFunction()->getName().str() +
              "' is in code that not every thread of the block reaches the "
              "same number of times; a " +
              Opts.DeviceDesc +
              " can only emulate warp operations in block-convergent code";
        break;
      }
    }
    if (!Why.empty()) {
      if (!Opts.DeferUnsupported)
        return failure(Why);
      // Leave this kernel out; launching it reports Why (module table).
      Unsupported.push_back({F->getName().str(), Why});
      Dropped.insert(F);
      continue;
    }
    WarpEmulated.insert(F);
  }
  return Error::success();
}

/// Lowers the warp operation \p CI of \p F: sub-group built-ins on 32-wide
/// sub-groups, otherwise the emulation through a local scratch array of
/// type \p ScratchTy (exact in block-convergent code only, which
/// checkWarpEmulation made sure of). One switch over the warp builtins
/// (about 160 lines): the cases share the lane values and the publish/read
/// helpers defined at its top, which a split would have to pass around.
Error SPIRVLowering::lowerWarpCall(Function &F, CallInst *CI,
                                   Type *ScratchTy) {
  BuiltinID ID = getCalledBuiltin(*CI)->ID;
  IRBuilder<> B(CI);
  Value *Lin = linearLocalId(B);
  Value *Lane = B.CreateAnd(Lin, B.getInt32(31), "lane");
  Value *Base = B.CreateAnd(Lin, B.getInt32(~31u), "warp.base");
  // Lanes of this warp that exist (a partial last warp has fewer).
  Value *NLanes = B.CreateBinaryIntrinsic(
      Intrinsic::umin, B.CreateSub(blockSize(B), Base), B.getInt32(32));
  Value *Exist = B.CreateSelect(
      B.CreateICmpEQ(NLanes, B.getInt32(32)), B.getInt32(~0u),
      B.CreateSub(B.CreateShl(B.getInt32(1), NLanes), B.getInt32(1)),
      "warp.exist");

  GlobalVariable *Scratch =
      Opts.SubGroups32 ? nullptr
                       : localScratch("__hetgpu_spirv_warp_scratch",
                                      ScratchTy);
  // Publishes V (i32) for the warp; returns a reader of lane L's value.
  auto Publish = [&](Value *V) {
    emitBarrier(B, CLKLocal);
    B.CreateStore(V, B.CreateInBoundsGEP(I32, Scratch, Lin));
    emitBarrier(B, CLKLocal);
  };
  auto ReadLane = [&](Value *L) -> Value * {
    return B.CreateLoad(
        I32, B.CreateInBoundsGEP(I32, Scratch, B.CreateAdd(Base, L)));
  };
  auto SGShuffle = [&](Value *V, Value *L) -> Value * {
    FunctionCallee FC =
        oclFunc("_Z17sub_group_shuffleij", I32, {I32, I32}, true);
    CallInst *C = B.CreateCall(FC, {V, L});
    C->setCallingConv(CallingConv::SPIR_FUNC);
    return C;
  };
  auto SGBallot = [&](Value *P) -> Value * {
    auto *V4 = FixedVectorType::get(I32, 4);
    FunctionCallee FC =
        oclFunc("_Z16sub_group_balloti", V4, {I32}, true);
    CallInst *C = B.CreateCall(FC, {P});
    C->setCallingConv(CallingConv::SPIR_FUNC);
    return B.CreateExtractElement(C, uint64_t(0));
  };
  // Ballot of a 0/1 predicate over the existing lanes.
  auto Ballot = [&](Value *P01) -> Value * {
    if (Opts.SubGroups32)
      return SGBallot(P01);
    Publish(P01);
    Value *Acc = B.getInt32(0);
    for (unsigned L = 0; L < 32; ++L) {
      Value *Bit = B.CreateAnd(ReadLane(B.getInt32(L)), B.getInt32(1));
      Acc = B.CreateOr(Acc, B.CreateShl(Bit, B.getInt32(L)));
    }
    return B.CreateAnd(Acc, Exist);
  };

  Value *R = nullptr;
  switch (ID) {
  case BuiltinID::syncwarp:
    if (Opts.SubGroups32) {
      FunctionCallee FC =
          oclFunc("_Z17sub_group_barrierj", B.getVoidTy(), {I32}, true);
      B.CreateCall(FC, {B.getInt32(CLKLocal | CLKGlobal)})
          ->setCallingConv(CallingConv::SPIR_FUNC);
    } else {
      emitBarrier(B, CLKLocal | CLKGlobal);
    }
    break;
  case BuiltinID::activemask:
    R = Opts.SubGroups32 ? SGBallot(B.getInt32(1)) : Exist;
    break;
  case BuiltinID::vote_ballot:
  case BuiltinID::vote_any:
  case BuiltinID::vote_all: {
    Value *Mask = CI->getArgOperand(0);
    Value *P = B.CreateZExt(
        B.CreateICmpNE(CI->getArgOperand(1), B.getInt32(0)), I32);
    Value *Bal = B.CreateAnd(Ballot(P), Mask);
    if (ID == BuiltinID::vote_ballot)
      R = Bal;
    else if (ID == BuiltinID::vote_any)
      R = B.CreateZExt(B.CreateICmpNE(Bal, B.getInt32(0)), I32);
    else
      R = B.CreateZExt(
          B.CreateICmpEQ(Bal, B.CreateAnd(B.CreateAnd(Mask, Exist),
                                          Opts.SubGroups32
                                              ? SGBallot(B.getInt32(1))
                                              : Exist)),
          I32);
    break;
  }
  case BuiltinID::match_any_i32: {
    Value *V = CI->getArgOperand(1);
    Value *Acc = B.getInt32(0);
    if (!Opts.SubGroups32)
      Publish(V);
    for (unsigned L = 0; L < 32; ++L) {
      Value *Other = Opts.SubGroups32 ? SGShuffle(V, B.getInt32(L))
                                      : ReadLane(B.getInt32(L));
      Value *Eq = B.CreateZExt(B.CreateICmpEQ(Other, V), I32);
      Acc = B.CreateOr(Acc, B.CreateShl(Eq, B.getInt32(L)));
    }
    R = B.CreateAnd(B.CreateAnd(Acc, Exist), CI->getArgOperand(0));
    break;
  }
  case BuiltinID::shfl_idx_i32:
  case BuiltinID::shfl_up_i32:
  case BuiltinID::shfl_down_i32:
  case BuiltinID::shfl_xor_i32: {
    // CUDA semantics with a segment width W (power of two, <= 32):
    // lanes are grouped in segments of W; a source outside the
    // caller's segment yields the caller's own value.
    Value *V = CI->getArgOperand(1);
    Value *Arg = CI->getArgOperand(2);
    Value *W = CI->getArgOperand(3);
    Value *SegStart =
        B.CreateAnd(Lane, B.CreateNeg(W), "seg.start"); // lane & ~(W-1)
    Value *Src = nullptr, *Own = B.getFalse();
    switch (ID) {
    case BuiltinID::shfl_idx_i32:
      Src = B.CreateAdd(SegStart,
                        B.CreateAnd(Arg, B.CreateSub(W, B.getInt32(1))));
      break;
    case BuiltinID::shfl_up_i32:
      Src = B.CreateSub(Lane, Arg);
      Own = B.CreateICmpSLT(Src, SegStart);
      break;
    case BuiltinID::shfl_down_i32:
      Src = B.CreateAdd(Lane, Arg);
      Own = B.CreateICmpSGE(Src, B.CreateAdd(SegStart, W));
      break;
    default:
      Src = B.CreateXor(Lane, Arg);
      Own = B.CreateICmpSGE(Src, B.CreateAdd(SegStart, W));
      break;
    }
    Src = B.CreateSelect(Own, Lane, B.CreateAnd(Src, B.getInt32(31)));
    Value *Got;
    if (Opts.SubGroups32) {
      Got = SGShuffle(V, Src);
    } else {
      Publish(V);
      Got = ReadLane(Src);
    }
    R = B.CreateSelect(Own, V, Got);
    break;
  }
  default:
    return failure("kernel " + kernelOf(F) + ": warp builtin '" +
                   CI->getCalledFunction()->getName() +
                   "' is not handled by the SPIR-V target");
  }
  if (R) {
    R->takeName(CI);
    CI->replaceAllUsesWith(R);
  }
  CI->eraseFromParent();
  return Error::success();
}

Error SPIRVLowering::lowerWarpOps() {
  WarpCallMap PerFn;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (isWarpBuiltin(*CI))
          PerFn[&F].push_back(CI);
  if (PerFn.empty())
    return Error::success();

  if (!Opts.SubGroups32)
    if (Error E = checkWarpEmulation(PerFn))
      return E;

  for (Function *F : Dropped) {
    PerFn.erase(F);
    llvm::erase(Kernels, F);
    F->replaceAllUsesWith(PoisonValue::get(F->getType()));
    F->eraseFromParent();
  }
  Type *ScratchTy = ArrayType::get(I32, 1024);
  for (auto &[F, Calls] : PerFn) {
    if (Opts.SubGroups32)
      F->setMetadata("intel_reqd_sub_group_size",
                     MDNode::get(Ctx, ConstantAsMetadata::get(
                                          ConstantInt::get(I32, 32))));
    for (CallInst *CI : Calls)
      if (Error E = lowerWarpCall(*F, CI, ScratchTy))
        return E;
  }
  return Error::success();
}

} // namespace spirv
} // namespace hetgpu
