//===- SPIRVBuiltins.cpp - hetIR builtins as OpenCL built-ins -------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Step 4 of hetgpu-lower-spirv (SPIRVLowering.h): `__hetgpu_*` builtins
/// become OpenCL built-in calls (mangled as the OpenCL C compiler mangles
/// them) or inline code; printf records (ABI/SPIRVKernel.h), fences.
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
// Step 4: builtins
//===----------------------------------------------------------------------===//

FunctionCallee SPIRVLowering::oclFunc(StringRef Name, Type *Ret,
                                      ArrayRef<Type *> Params, bool Convergent,
                                      bool ReadNone) {
  FunctionCallee FC =
      M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
  if (auto *F = dyn_cast<Function>(FC.getCallee())) {
    F->setCallingConv(CallingConv::SPIR_FUNC);
    F->addFnAttr(Attribute::NoUnwind);
    if (Convergent)
      F->addFnAttr(Attribute::Convergent);
    if (ReadNone)
      F->setDoesNotAccessMemory();
  }
  return FC;
}

Value *SPIRVLowering::workItemQuery(IRBuilder<> &B, StringRef Mangled,
                                    unsigned Dim) {
  FunctionCallee FC = oclFunc(Mangled, I64, {I32}, false, true);
  CallInst *C = B.CreateCall(FC, {B.getInt32(Dim)});
  C->setCallingConv(CallingConv::SPIR_FUNC);
  return B.CreateTrunc(C, I32);
}

Value *SPIRVLowering::linearLocalId(IRBuilder<> &B) {
  Value *X = workItemQuery(B, "_Z12get_local_idj", 0);
  Value *Y = workItemQuery(B, "_Z12get_local_idj", 1);
  Value *Z = workItemQuery(B, "_Z12get_local_idj", 2);
  Value *NX = workItemQuery(B, "_Z14get_local_sizej", 0);
  Value *NY = workItemQuery(B, "_Z14get_local_sizej", 1);
  return B.CreateAdd(X, B.CreateMul(NX, B.CreateAdd(Y, B.CreateMul(NY, Z))),
                     "hetgpu.linear.tid");
}

Value *SPIRVLowering::blockSize(IRBuilder<> &B) {
  Value *NX = workItemQuery(B, "_Z14get_local_sizej", 0);
  Value *NY = workItemQuery(B, "_Z14get_local_sizej", 1);
  Value *NZ = workItemQuery(B, "_Z14get_local_sizej", 2);
  return B.CreateMul(NX, B.CreateMul(NY, NZ), "hetgpu.block.size");
}

void SPIRVLowering::emitBarrier(IRBuilder<> &B, unsigned Flags) {
  FunctionCallee FC = oclFunc("_Z7barrierj", B.getVoidTy(), {I32}, true);
  B.CreateCall(FC, {B.getInt32(Flags)})->setCallingConv(CallingConv::SPIR_FUNC);
}

GlobalVariable *SPIRVLowering::localScratch(StringRef Name, Type *Ty) {
  if (GlobalVariable *G = M.getNamedGlobal(Name))
    return G;
  auto *G = new GlobalVariable(M, Ty, false, GlobalValue::InternalLinkage,
                               PoisonValue::get(Ty), Name, nullptr,
                               GlobalValue::NotThreadLocal, ASLocal);
  G->setAlignment(Align(8));
  return G;
}

void SPIRVLowering::emitStatusFailure(IRBuilder<> &B, Function &F,
                                      uint32_t Code) {
  Value *Status = B.CreateInBoundsGEP(I8, hiddenGlobals(F),
                                      B.getInt64(spirv_abi::StatusOffset));
  B.CreateAtomicCmpXchg(Status, B.getInt32(0), B.getInt32(Code), Align(4),
                        AtomicOrdering::Monotonic, AtomicOrdering::Monotonic);
}


/// OpenCL C mangling of a math function over float or double.
std::string mangleMath(StringRef Name, bool IsFloat, unsigned Arity) {
  std::string S = ("_Z" + Twine(Name.size()) + Name).str();
  for (unsigned I = 0; I < Arity; ++I)
    S += IsFloat ? "f" : "d";
  return S;
}

/// Argument indices of the %s conversions of \p Fmt (C printf syntax, `*`
/// widths and precisions consume arguments).
SmallVector<unsigned, 2> stringArguments(StringRef Fmt) {
  SmallVector<unsigned, 2> Out;
  unsigned Arg = 0;
  for (size_t I = 0; I < Fmt.size(); ++I) {
    if (Fmt[I] != '%')
      continue;
    if (++I < Fmt.size() && Fmt[I] == '%')
      continue;
    while (I < Fmt.size() && StringRef("-+ #0'").contains(Fmt[I]))
      ++I;
    for (int Part = 0; Part < 2; ++Part) {
      if (I < Fmt.size() && Fmt[I] == '*') {
        ++Arg;
        ++I;
      }
      while (I < Fmt.size() && isDigit(Fmt[I]))
        ++I;
      if (Part == 0 && I < Fmt.size() && Fmt[I] == '.')
        ++I;
      else
        break;
    }
    while (I < Fmt.size() && StringRef("hlLqjzt").contains(Fmt[I]))
      ++I;
    if (I < Fmt.size()) {
      if (Fmt[I] == 's')
        Out.push_back(Arg);
      ++Arg;
    }
  }
  return Out;
}

Expected<Value *> SPIRVLowering::emitPrintf(Instruction *Before, Function &F,
                                            StringRef Format, Value *Args,
                                            Type *ArgsTy, bool ToStderr) {
  const DataLayout &DL = M.getDataLayout();
  PrintfFormat PF;
  PF.Text = Format.str();
  PF.Stderr = ToStderr;
  PF.ArgsSize = ArgsTy ? DL.getTypeAllocSize(ArgsTy) : 0;
  unsigned NumArgs = 0;
  auto *ST = dyn_cast_or_null<StructType>(ArgsTy);
  if (ST)
    NumArgs = ST->getNumElements();
  else if (ArgsTy)
    NumArgs = 1;
  for (unsigned K : stringArguments(Format)) {
    if (K >= NumArgs)
      break;
    Type *ET = ST ? ST->getElementType(K) : ArgsTy;
    if (!ET->isPointerTy())
      continue;
    PF.StringOffsets.push_back(
        ST ? DL.getStructLayout(ST)->getElementOffset(K).getFixedValue() : 0);
  }
  uint32_t Id = Formats.size();
  uint64_t RecSize =
      alignTo(spirv_abi::PrintfRecordHeader + PF.ArgsSize +
                  spirv_abi::StringSlot * PF.StringOffsets.size(),
              8);
  Formats.push_back(PF);

  IRBuilder<> B(Before);
  auto *GPtr = PointerType::get(Ctx, ASGlobal);
  Value *BufAddr = B.CreateLoad(
      I64, B.CreateInBoundsGEP(I8, hiddenGlobals(F),
                               B.getInt64(spirv_abi::PrintfBufferOffset)),
      "printf.buffer");
  Value *Has = B.CreateICmpNE(BufAddr, B.getInt64(0));
  Value *Result =
      B.CreateSelect(Has, B.getInt32(NumArgs), B.getInt32(-1), "printf.result");
  Instruction *T1 = SplitBlockAndInsertIfThen(Has, Before, false);
  B.SetInsertPoint(T1);
  Value *Buf = B.CreateIntToPtr(BufAddr, GPtr);
  Value *Off = B.CreateAtomicRMW(AtomicRMWInst::Add, Buf, B.getInt64(RecSize),
                                 Align(8), AtomicOrdering::Monotonic);
  Value *Cap = B.CreateLoad(I64, B.CreateInBoundsGEP(I8, Buf, B.getInt64(8)));
  Value *Fits =
      B.CreateICmpULE(B.CreateAdd(Off, B.getInt64(RecSize)), Cap, "fits");
  Instruction *T2 = SplitBlockAndInsertIfThen(Fits, T1, false);
  B.SetInsertPoint(T2);
  Value *Rec = B.CreateInBoundsGEP(
      I8, Buf, B.CreateAdd(Off, B.getInt64(spirv_abi::PrintfHeaderSize)),
      "printf.record");
  B.CreateStore(B.getInt32(Id), Rec);
  B.CreateStore(B.getInt32(RecSize),
                B.CreateInBoundsGEP(I8, Rec, B.getInt64(4)));
  Value *ArgDst =
      B.CreateInBoundsGEP(I8, Rec, B.getInt64(spirv_abi::PrintfRecordHeader));
  if (PF.ArgsSize)
    B.CreateMemCpy(ArgDst, Align(1), Args, Align(1), PF.ArgsSize);
  for (size_t K = 0; K < PF.StringOffsets.size(); ++K) {
    B.SetInsertPoint(T2);
    Value *Src = B.CreateLoad(
        PointerType::get(Ctx, ASGeneric),
        B.CreateInBoundsGEP(I8, Args, B.getInt64(PF.StringOffsets[K])));
    Value *Dst = B.CreateInBoundsGEP(
        I8, ArgDst,
        B.getInt64(PF.ArgsSize + spirv_abi::StringSlot * K));
    B.CreateStore(B.getInt8(0), Dst);
    Instruction *T3 = SplitBlockAndInsertIfThen(
        B.CreateIsNotNull(Src), T2, false);
    BasicBlock *Pre = T3->getParent();
    BasicBlock *Exit = SplitBlock(Pre, T3);
    BasicBlock *Loop = BasicBlock::Create(Ctx, "printf.strcpy", &F, Exit);
    Pre->getTerminator()->setSuccessor(0, Loop);
    IRBuilder<> LB(Loop);
    PHINode *I = LB.CreatePHI(I64, 2);
    I->addIncoming(LB.getInt64(0), Pre);
    Value *C = LB.CreateLoad(I8, LB.CreateInBoundsGEP(I8, Src, I));
    LB.CreateStore(C, LB.CreateInBoundsGEP(I8, Dst, I));
    Value *Next = LB.CreateAdd(I, LB.getInt64(1));
    I->addIncoming(Next, Loop);
    Value *More = LB.CreateAnd(
        LB.CreateICmpNE(C, LB.getInt8(0)),
        LB.CreateICmpULT(Next, LB.getInt64(spirv_abi::StringSlot - 1)));
    LB.CreateCondBr(More, Loop, Exit);
    IRBuilder<> XB(T3);
    XB.CreateStore(XB.getInt8(0),
                   XB.CreateInBoundsGEP(
                       I8, Dst, XB.getInt64(spirv_abi::StringSlot - 1)));
  }
  return Result;
}

Value *SPIRVLowering::emitNextAfter(IRBuilder<> &B, Value *X, Value *Y) {
  Type *FT = X->getType();
  auto *IT = IntegerType::get(Ctx, FT->getPrimitiveSizeInBits());
  Value *XI = B.CreateBitCast(X, IT);
  Value *YI = B.CreateBitCast(Y, IT);
  Value *AnyNaN = B.CreateFCmpUNO(X, Y);
  Value *Equal = B.CreateFCmpOEQ(X, Y);
  Value *XZero = B.CreateFCmpOEQ(X, ConstantFP::get(FT, 0.0));
  // Smallest subnormal with y's sign.
  Value *SignMask = ConstantInt::get(IT, APInt::getSignMask(IT->getBitWidth()));
  Value *Tiny = B.CreateOr(B.CreateAnd(YI, SignMask), ConstantInt::get(IT, 1));
  // Away from zero when x and the direction agree, else toward zero.
  Value *Up = B.CreateFCmpOLT(X, Y);
  Value *XPos = B.CreateICmpSGE(XI, ConstantInt::get(IT, 0));
  Value *Grow = B.CreateICmpEQ(Up, XPos);
  Value *Step = B.CreateSelect(Grow, ConstantInt::get(IT, 1),
                               ConstantInt::getAllOnesValue(IT));
  Value *Next = B.CreateAdd(XI, Step);
  Value *R = B.CreateSelect(XZero, Tiny, Next);
  Value *RF = B.CreateBitCast(R, FT);
  RF = B.CreateSelect(Equal, Y, RF);
  return B.CreateSelect(AnyNaN, B.CreateFAdd(X, Y), RF, "nextafter");
}

void SPIRVLowering::lowerFences() {
  if (!Opts.FenceAsAtomic)
    return;
  SmallVector<FenceInst *, 8> Fences;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *FI = dyn_cast<FenceInst>(&I))
        Fences.push_back(FI);
  for (FenceInst *FI : Fences) {
    Function &F = *FI->getFunction();
    IRBuilder<> B(FI);
    Value *Word;
    if (FI->getSyncScopeID() == Ctx.getOrInsertSyncScopeID("workgroup"))
      Word = localScratch("__hetgpu_spirv_fence_word", I32);
    else
      Word = B.CreateInBoundsGEP(I8, hiddenGlobals(F),
                                 B.getInt64(spirv_abi::FenceWordOffset));
    B.CreateAtomicRMW(AtomicRMWInst::Or, Word, B.getInt32(0), Align(4),
                      AtomicOrdering::SequentiallyConsistent,
                      FI->getSyncScopeID());
    FI->eraseFromParent();
  }
}

Error SPIRVLowering::lowerBuiltins() {
  SmallVector<CallInst *, 32> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (Function *Callee = CI->getCalledFunction())
          if (Callee->getName().starts_with(BuiltinPrefix))
            Calls.push_back(CI);

  for (CallInst *CI : Calls)
    if (Error E = lowerBuiltinCall(CI))
      return E;
  return Error::success();
}

/// Lowers one call of a hetIR builtin. This stays one switch over
/// Builtins.def (about 270 lines, past the ~150 of STYLE.md): each case is a
/// few lines mapping one builtin to its OpenCL form, and read together they
/// are the mapping table of docs/targets/SPIRV.md; cases that need more
/// call helpers (emitPrintf, emitNextAfter, workItemQuery, ...).
Error SPIRVLowering::lowerBuiltinCall(CallInst *CI) {
  Function *Callee = CI->getCalledFunction();
  Function &F = *CI->getFunction();
  StringRef Name = Callee->getName();
  std::optional<BuiltinInfo> BI = lookupBuiltin(Name);
  if (!BI)
    return failure("function " + kernelOf(F) + " calls '" + Name +
                   "', which is not a hetIR builtin");
  IRBuilder<> B(CI);
  Value *R = nullptr;
  bool Handled = true;
  auto Unsupported = [&](StringRef What) {
    return failure("kernel " + kernelOf(F) + ": " + What + " ('" + Name +
                   "') is not supported by the SPIR-V target");
  };
  switch (BI->ID) {
  case BuiltinID::tid_x:
  case BuiltinID::tid_y:
  case BuiltinID::tid_z:
    R = workItemQuery(B, "_Z12get_local_idj",
                      unsigned(BI->ID) - unsigned(BuiltinID::tid_x));
    break;
  case BuiltinID::ntid_x:
  case BuiltinID::ntid_y:
  case BuiltinID::ntid_z:
    R = workItemQuery(B, "_Z14get_local_sizej",
                      unsigned(BI->ID) - unsigned(BuiltinID::ntid_x));
    break;
  case BuiltinID::ctaid_x:
  case BuiltinID::ctaid_y:
  case BuiltinID::ctaid_z:
    R = workItemQuery(B, "_Z12get_group_idj",
                      unsigned(BI->ID) - unsigned(BuiltinID::ctaid_x));
    break;
  case BuiltinID::nctaid_x:
  case BuiltinID::nctaid_y:
  case BuiltinID::nctaid_z:
    R = workItemQuery(B, "_Z14get_num_groupsj",
                      unsigned(BI->ID) - unsigned(BuiltinID::nctaid_x));
    break;
  case BuiltinID::lane_id:
    R = B.CreateAnd(linearLocalId(B), B.getInt32(31), "hetgpu.lane");
    break;
  case BuiltinID::barrier:
    emitBarrier(B, CLKLocal | CLKGlobal);
    break;
  case BuiltinID::barrier_count:
  case BuiltinID::barrier_and:
  case BuiltinID::barrier_or: {
    // A counter in local memory that only grows: every work-item reads
    // it, a barrier, the work-items that count change it, a barrier, the
    // difference is the answer. Nothing resets the counter, so two
    // barriers suffice: no work-item writes before all have read (the
    // first barrier), and a fast work-item's next read sees every write
    // of this reduction (the second). (A reset took four barriers and a
    // branch; PoCL runs a work-item loop per region between barriers, so
    // the loop safe point of a stencil loop cost 1.23x with it.)
    // barrier_or/and only ask whether any work-item counts: those store
    // the counter's old value + 1, all the same value, and nobody else
    // writes, so no atomic is needed. An atomic add per work-item made a
    // stencil's safe point (barrier_or of the yield flag) cost 1.17x on
    // PoCL, the stores 1.03x (500 iterations of a loop with barriers).
    GlobalVariable *Ctr = localScratch("__hetgpu_spirv_barrier_counter", I32);
    Value *Before = B.CreateLoad(I32, Ctr, /*isVolatile=*/true);
    emitBarrier(B, CLKLocal | CLKGlobal);
    Value *Pred = B.CreateICmpNE(CI->getArgOperand(0), B.getInt32(0));
    if (BI->ID == BuiltinID::barrier_count) {
      B.CreateAtomicRMW(AtomicRMWInst::Add, Ctr, B.CreateZExt(Pred, I32),
                        Align(4), AtomicOrdering::Monotonic);
    } else {
      Value *Counts =
          BI->ID == BuiltinID::barrier_or ? Pred : B.CreateNot(Pred);
      Instruction *Then = SplitBlockAndInsertIfThen(Counts, CI->getIterator(),
                                                    /*Unreachable=*/false);
      IRBuilder<> TB(Then);
      TB.CreateStore(TB.CreateAdd(Before, TB.getInt32(1)), Ctr,
                     /*isVolatile=*/true);
      B.SetInsertPoint(CI);
    }
    emitBarrier(B, CLKLocal);
    Value *Count =
        B.CreateSub(B.CreateLoad(I32, Ctr, /*isVolatile=*/true), Before,
                    "hetgpu.barrier.count");
    if (BI->ID == BuiltinID::barrier_count)
      R = Count;
    else if (BI->ID == BuiltinID::barrier_or)
      R = B.CreateZExt(B.CreateICmpNE(Count, B.getInt32(0)), I32);
    else
      R = B.CreateZExt(B.CreateICmpEQ(Count, B.getInt32(0)), I32);
    break;
  }
  case BuiltinID::fence_block:
    B.CreateFence(AtomicOrdering::SequentiallyConsistent,
                  Ctx.getOrInsertSyncScopeID("workgroup"));
    break;
  case BuiltinID::fence_device:
    B.CreateFence(AtomicOrdering::SequentiallyConsistent,
                  Ctx.getOrInsertSyncScopeID("device"));
    break;
  case BuiltinID::fence_system:
    B.CreateFence(AtomicOrdering::SequentiallyConsistent);
    break;
  case BuiltinID::dynamic_shared:
    R = hiddenDynShared(F);
    if (R->getType() != CI->getType())
      R = B.CreateAddrSpaceCast(R, CI->getType());
    break;
  case BuiltinID::assert_fail:
  case BuiltinID::trap: {
    if (BI->ID == BuiltinID::assert_fail) {
      // CUDA's message, printed through the printf buffer.
      Type *GenPtr = PointerType::get(Ctx, ASGeneric);
      StructType *ST = StructType::get(
          Ctx, {GenPtr, I32, GenPtr, I32, I32, I32, I32, I32, I32, GenPtr});
      IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
      AllocaInst *AI = EB.CreateAlloca(ST, ASPrivate, nullptr, "assert.args");
      Value *Vals[] = {CI->getArgOperand(1),
                       CI->getArgOperand(2),
                       CI->getArgOperand(3),
                       workItemQuery(B, "_Z12get_group_idj", 0),
                       workItemQuery(B, "_Z12get_group_idj", 1),
                       workItemQuery(B, "_Z12get_group_idj", 2),
                       workItemQuery(B, "_Z12get_local_idj", 0),
                       workItemQuery(B, "_Z12get_local_idj", 1),
                       workItemQuery(B, "_Z12get_local_idj", 2),
                       CI->getArgOperand(0)};
      for (unsigned I = 0; I < 10; ++I)
        B.CreateStore(Vals[I], B.CreateStructGEP(ST, AI, I));
      Expected<Value *> P = emitPrintf(
          CI, F,
          "%s:%d: %s: block: [%d,%d,%d], thread: [%d,%d,%d] Assertion `%s` "
          "failed.\n",
          B.CreateAddrSpaceCast(AI, GenPtr), ST, /*ToStderr=*/true);
      if (!P)
        return P.takeError();
      B.SetInsertPoint(CI);
    }
    // Record the failure for the runtime, then leave this work-item.
    emitStatusFailure(B, F,
                      BI->ID == BuiltinID::trap ? spirv_abi::StatusTrap
                                                : spirv_abi::StatusAssert);
    Instruction *Next = CI->getNextNode();
    BasicBlock *BB = CI->getParent();
    if (Next && isa<UnreachableInst>(Next)) {
      Next->eraseFromParent();
    } else {
      // Split so the rest of the block becomes dead.
      SplitBlock(BB, Next);
      BB->getTerminator()->eraseFromParent();
    }
    IRBuilder<> RB(BB);
    if (F.getReturnType()->isVoidTy())
      RB.CreateRetVoid();
    else if (F.hasFnAttribute(WarpThreadAttr))
      RB.CreateRet(ConstantInt::get(F.getReturnType(),
                                    HETGPU_SYNC_EXIT)); // the lane exits
    else
      RB.CreateRet(PoisonValue::get(F.getReturnType()));
    CI->eraseFromParent();
    return Error::success();
  }
  case BuiltinID::malloc: {
    // Bump allocation in the runtime's heap (ABI/SPIRVKernel.h).
    UsesHeap = true;
    auto At = [&](uint64_t Off) {
      return B.CreateInBoundsGEP(I8, hiddenGlobals(F), B.getInt64(Off));
    };
    Value *Size = B.CreateAnd(
        B.CreateAdd(CI->getArgOperand(0), B.getInt64(15)), B.getInt64(~15ull));
    Value *Base = B.CreateLoad(I64, At(spirv_abi::HeapBaseOffset));
    Value *Cap = B.CreateLoad(I64, At(spirv_abi::HeapSizeOffset));
    Value *Off = B.CreateAtomicRMW(AtomicRMWInst::Add,
                                   At(spirv_abi::HeapNextOffset), Size,
                                   Align(8), AtomicOrdering::Monotonic);
    Value *Ok = B.CreateAnd(
        B.CreateICmpNE(Base, B.getInt64(0)),
        B.CreateICmpULE(B.CreateAdd(Off, Size), Cap));
    Value *Addr = B.CreateSelect(Ok, B.CreateAdd(Base, Off), B.getInt64(0));
    R = B.CreateIntToPtr(Addr, PointerType::get(Ctx, ASGeneric));
    break;
  }
  case BuiltinID::free:
    // The bump heap does not reclaim (documented in ABI/SPIRVKernel.h).
    break;
  case BuiltinID::clock:
  case BuiltinID::clock64: {
    Value *C = B.CreateAtomicRMW(
        AtomicRMWInst::Add,
        B.CreateInBoundsGEP(I8, hiddenGlobals(F),
                            B.getInt64(spirv_abi::ClockOffset)),
        B.getInt64(1), Align(8), AtomicOrdering::Monotonic);
    R = BI->ID == BuiltinID::clock ? B.CreateTrunc(C, I32) : C;
    break;
  }
  case BuiltinID::globaltimer:
    return Unsupported("reading the global nanosecond timer (OpenCL has no "
                       "device timer)");
  case BuiltinID::printf: {
    auto *FG = dyn_cast<GlobalVariable>(
        CI->getArgOperand(0)->stripPointerCasts());
    auto *Data = FG && FG->hasInitializer()
                     ? dyn_cast<ConstantDataSequential>(FG->getInitializer())
                     : nullptr;
    if (!Data || !Data->isCString())
      return Unsupported("printf with a format that is not a constant "
                         "string");
    Value *Args = CI->getArgOperand(1);
    Type *ArgsTy = nullptr;
    if (!isa<ConstantPointerNull>(Args)) {
      auto *AI = dyn_cast<AllocaInst>(Args->stripPointerCasts());
      if (AI) {
        ArgsTy = AI->getAllocatedType();
      } else if (MDNode *MD = CI->getMetadata(PrintfArgsMD)) {
        // A warp-loop thread function keeps the buffer in its frame.
        ArgsTy = cast<ConstantAsMetadata>(MD->getOperand(0))
                     ->getValue()
                     ->getType();
      } else {
        return Unsupported("printf whose argument buffer is not a local "
                           "variable");
      }
    }
    Expected<Value *> P =
        emitPrintf(CI, F, Data->getAsCString(), Args, ArgsTy);
    if (!P)
      return P.takeError();
    R = *P;
    break;
  }
  default:
    Handled = false;
    break;
  }
  if (!Handled) {
    StringRef Group = BI->Group;
    if (Group == "warp")
      return Error::success(); // lowerWarpOps
    if (Group == "math" &&
        (BI->ID == BuiltinID::math_nextafterf ||
         BI->ID == BuiltinID::math_nextafter)) {
      // Exact in integer arithmetic (some OpenCL libraries are not).
      R = emitNextAfter(B, CI->getArgOperand(0), CI->getArgOperand(1));
    } else if (Group == "math") {
      StringRef Fn = Name.drop_front(MathPrefix.size());
      bool IsFloat = Callee->getReturnType()->isFloatTy();
      if (IsFloat)
        Fn = Fn.drop_back(); // sinf -> sin (overloaded in OpenCL C)
      unsigned Arity = CI->arg_size();
      SmallVector<Type *, 2> Ps(Arity, Callee->getReturnType());
      FunctionCallee FC = oclFunc(mangleMath(Fn, IsFloat, Arity),
                                  Callee->getReturnType(), Ps, false, true);
      SmallVector<Value *, 2> Args(CI->args());
      CallInst *NC = B.CreateCall(FC, Args);
      NC->setCallingConv(CallingConv::SPIR_FUNC);
      R = NC;
    } else {
      return Unsupported("builtin");
    }
  }
  if (R) {
    if (!isa<Argument>(R))
      R->takeName(CI);
    CI->replaceAllUsesWith(R);
  }
  CI->eraseFromParent();
  return Error::success();
}

} // namespace spirv
} // namespace hetgpu
