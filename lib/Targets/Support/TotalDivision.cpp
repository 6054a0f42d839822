//===- TotalDivision.cpp - Integer division as NVIDIA GPUs compute it -----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// makeDivisionTotal() of hetgpu/Targets/TotalDivision.h: each division
/// becomes a select of a safe divisor (1 where the divisor is 0, or -1 with
/// a dividend of INT_MIN), the division by it, and a select of the GPU's
/// result for the cases the safe divisor replaced.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Targets/TotalDivision.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace {

bool rewrite(BinaryOperator &I) {
  Instruction::BinaryOps Op = I.getOpcode();
  Value *X = I.getOperand(0), *D = I.getOperand(1);
  bool Signed = Op == Instruction::SDiv || Op == Instruction::SRem;
  bool Rem = Op == Instruction::URem || Op == Instruction::SRem;
  // A constant divisor other than 0 (and -1 when signed) cannot trap.
  if (auto *C = dyn_cast<Constant>(D))
    if (!C->containsUndefOrPoisonElement() && !match(C, m_Zero()) &&
        !C->containsConstantExpression() &&
        (!Signed || !match(C, m_AllOnes())) && isa<ConstantInt>(C))
      return false;
  Type *Ty = I.getType();
  unsigned Bits = Ty->getScalarSizeInBits();
  IRBuilder<> B(&I);
  Value *Zero = Constant::getNullValue(Ty);
  Value *One = ConstantInt::get(Ty, 1);
  Value *AllOnes = Constant::getAllOnesValue(Ty);
  D = B.CreateFreeze(D);
  Value *DivByZero = B.CreateICmpEQ(D, Zero, "div.zero");
  Value *Bad = DivByZero;
  Value *Overflow = nullptr;
  if (Signed) {
    X = B.CreateFreeze(X);
    Value *Min = ConstantInt::get(Ty, APInt::getSignedMinValue(Bits));
    Overflow = B.CreateAnd(B.CreateICmpEQ(X, Min), B.CreateICmpEQ(D, AllOnes),
                           "div.ovf");
    Bad = B.CreateOr(DivByZero, Overflow);
  }
  Value *Safe = B.CreateSelect(Bad, One, D, "div.safe");
  Value *R = B.CreateBinOp(Op, X, Safe);
  // INT_MIN / -1 became INT_MIN / 1 == INT_MIN and INT_MIN % 1 == 0, the
  // GPU's results; only a division by zero needs a value of its own.
  Value *ByZero;
  if (Rem) {
    ByZero = X;
  } else if (Bits == 64) {
    // The GPU's 64-bit division takes a 32-bit path when the dividend's
    // upper half is zero (0xffffffff), else all ones.
    Value *Hi = B.CreateLShr(X, ConstantInt::get(Ty, 32));
    ByZero = B.CreateSelect(B.CreateICmpEQ(Hi, Zero),
                            ConstantInt::get(Ty, 0xffffffffull), AllOnes);
  } else {
    ByZero = AllOnes; // unsigned: all ones; signed: -1
  }
  R = B.CreateSelect(DivByZero, ByZero, R);
  R->takeName(&I);
  I.replaceAllUsesWith(R);
  I.eraseFromParent();
  return true;
}

} // namespace

bool hetgpu::makeDivisionTotal(Module &M) {
  bool Changed = false;
  for (Function &F : M) {
    SmallVector<BinaryOperator *, 16> Work;
    for (Instruction &I : instructions(F))
      if (auto *BO = dyn_cast<BinaryOperator>(&I))
        switch (BO->getOpcode()) {
        case Instruction::UDiv:
        case Instruction::SDiv:
        case Instruction::URem:
        case Instruction::SRem:
          Work.push_back(BO);
          break;
        default:
          break;
        }
    for (BinaryOperator *BO : Work)
      Changed |= rewrite(*BO);
  }
  return Changed;
}
