//===- SPIRVAtomics.cpp - Atomics and intrinsics SPIR-V lacks -------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Step 5 of hetgpu-lower-spirv (SPIRVLowering.h): atomics the SPIR-V
/// backend cannot select become compare-exchange loops; intrinsics it cannot
/// legalise (frexp, lrint/lround to another width) are expanded.
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
// Step 5: atomics
//===----------------------------------------------------------------------===//

Error SPIRVLowering::expandAtomics() {
  SmallVector<AtomicRMWInst *, 8> Work;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
        Type *T = RMW->getValOperand()->getType();
        bool Native = T->isIntegerTy(32) || T->isIntegerTy(64);
        switch (RMW->getOperation()) {
        case AtomicRMWInst::UIncWrap:
        case AtomicRMWInst::UDecWrap:
        case AtomicRMWInst::USubCond:
        case AtomicRMWInst::USubSat:
        case AtomicRMWInst::Nand:
          Native = false;
          break;
        default:
          break;
        }
        if (!Native)
          Work.push_back(RMW);
      }
  const DataLayout &DL = M.getDataLayout();
  for (AtomicRMWInst *RMW : Work) {
    Type *T = RMW->getValOperand()->getType();
    unsigned Bits = DL.getTypeSizeInBits(T);
    if (Bits != 32 && Bits != 64)
      return failure("function " + kernelOf(*RMW->getFunction()) +
                     ": a " + Twine(Bits) +
                     "-bit atomic read-modify-write is not supported by the "
                     "SPIR-V target (32 and 64 bits are)");
    IntegerType *IT = IntegerType::get(Ctx, Bits);
    Value *Ptr = RMW->getPointerOperand();
    BasicBlock *Before = RMW->getParent();
    BasicBlock *After = SplitBlock(Before, RMW);
    BasicBlock *Loop = BasicBlock::Create(Ctx, "atomic.cas", RMW->getFunction(),
                                          After);
    Before->getTerminator()->setSuccessor(0, Loop);
    IRBuilder<> B(Before->getTerminator());
    Value *Init = B.CreateLoad(IT, Ptr, "atomic.init");
    B.SetInsertPoint(Loop);
    PHINode *Cur = B.CreatePHI(IT, 2, "atomic.cur");
    Cur->addIncoming(Init, Before);
    Value *CurV = T == IT ? (Value *)Cur
                          : (T->isPointerTy() ? B.CreateIntToPtr(Cur, T)
                                              : B.CreateBitCast(Cur, T));
    Value *NewV = buildAtomicRMWValue(RMW->getOperation(), B, CurV,
                                      RMW->getValOperand());
    Value *NewI = T == IT ? NewV
                          : (T->isPointerTy() ? B.CreatePtrToInt(NewV, IT)
                                              : B.CreateBitCast(NewV, IT));
    AtomicOrdering Ord = RMW->getOrdering();
    auto *CX = B.CreateAtomicCmpXchg(
        Ptr, Cur, NewI, RMW->getAlign(), Ord,
        AtomicCmpXchgInst::getStrongestFailureOrdering(Ord),
        RMW->getSyncScopeID());
    Value *Seen = B.CreateExtractValue(CX, 0);
    Value *Ok = B.CreateExtractValue(CX, 1);
    Cur->addIncoming(Seen, Loop);
    B.CreateCondBr(Ok, After, Loop);
    RMW->replaceAllUsesWith(CurV);
    RMW->eraseFromParent();
  }
  return Error::success();
}

/// `llvm.frexp` in integer arithmetic (exact; LLVM 22's SPIR-V backend
/// crashes selecting it with a constant operand): { mantissa in [0.5, 1)
/// with x's sign, exponent }; zero, infinities and NaN give (x, 0).
Value *SPIRVLowering::emitFrexp(IRBuilder<> &B, Value *X, Type *ResTy) {
  Type *FT = X->getType();
  Type *ET = cast<StructType>(ResTy)->getElementType(1);
  bool IsDouble = FT->isDoubleTy();
  unsigned Bits = IsDouble ? 64 : 32, Mant = IsDouble ? 52 : 23;
  uint64_t Bias = IsDouble ? 1022 : 126, ExpMask = IsDouble ? 0x7ff : 0xff;
  auto *IT = IntegerType::get(Ctx, Bits);
  // Subnormals are scaled into the normal range first.
  Value *Abs = B.CreateUnaryIntrinsic(Intrinsic::fabs, X);
  Value *Tiny = B.CreateFCmpOLT(
      Abs, ConstantFP::get(FT, IsDouble ? 0x1p-1022 : 0x1p-126));
  Value *Scaled = B.CreateSelect(
      Tiny, B.CreateFMul(X, ConstantFP::get(FT, IsDouble ? 0x1p54 : 0x1p25)),
      X);
  Value *Adjust =
      B.CreateSelect(Tiny, B.getInt32(IsDouble ? 54 : 25), B.getInt32(0));
  Value *I = B.CreateBitCast(Scaled, IT);
  Value *E = B.CreateTrunc(
      B.CreateAnd(B.CreateLShr(I, Mant), ConstantInt::get(IT, ExpMask)), I32);
  Value *Exp = B.CreateSub(B.CreateSub(E, B.getInt32(Bias)), Adjust);
  Value *MBits = B.CreateOr(
      B.CreateAnd(I, ConstantInt::get(IT, ~(ExpMask << Mant))),
      ConstantInt::get(IT, Bias << Mant));
  Value *M = B.CreateBitCast(MBits, FT);
  // Zero, infinity, NaN: x itself and exponent 0.
  Value *Special = B.CreateOr(
      B.CreateFCmpOEQ(X, ConstantFP::get(FT, 0.0)),
      B.CreateFCmpUEQ(Abs, ConstantFP::getInfinity(FT)));
  Special = B.CreateOr(Special, B.CreateFCmpUNO(X, X));
  M = B.CreateSelect(Special, X, M);
  Exp = B.CreateSelect(Special, B.getInt32(0), Exp);
  Value *R = PoisonValue::get(ResTy);
  R = B.CreateInsertValue(R, M, 0);
  return B.CreateInsertValue(R, B.CreateSExtOrTrunc(Exp, ET), 1);
}

/// Intrinsics LLVM's SPIR-V backend cannot legalise: `llvm.lrint` /
/// `llvm.llrint` / `llvm.lround` / `llvm.llround` to an integer of another
/// width than the operand (CUDA's lrintf, llrintf, lroundf: float to 64
/// bits). They become rint/round (OpenCL.std) and a conversion; out-of-range
/// inputs are undefined in C as in CUDA.
void SPIRVLowering::expandIntrinsics() {
  SmallVector<IntrinsicInst *, 8> Work;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        switch (II->getIntrinsicID()) {
        case Intrinsic::lrint:
        case Intrinsic::llrint:
        case Intrinsic::lround:
        case Intrinsic::llround:
        case Intrinsic::frexp:
          Work.push_back(II);
          break;
        default:
          break;
        }
  for (IntrinsicInst *II : Work) {
    IRBuilder<> B(II);
    Value *X = II->getArgOperand(0);
    if (II->getIntrinsicID() == Intrinsic::frexp) {
      Value *R = emitFrexp(B, X, II->getType());
      R->takeName(II);
      II->replaceAllUsesWith(R);
      II->eraseFromParent();
      continue;
    }
    expandIntegerRounding(*II);
  }
}

} // namespace spirv
} // namespace hetgpu
