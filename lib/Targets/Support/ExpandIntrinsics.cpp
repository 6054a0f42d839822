//===- ExpandIntrinsics.cpp - Portable intrinsics a backend cannot select -===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//

#include "hetgpu/Targets/ExpandIntrinsics.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

bool hetgpu::expandIntegerRounding(IntrinsicInst &II) {
  Intrinsic::ID Rounding;
  switch (II.getIntrinsicID()) {
  case Intrinsic::lround:
  case Intrinsic::llround:
    Rounding = Intrinsic::round;
    break;
  case Intrinsic::lrint:
  case Intrinsic::llrint:
    Rounding = Intrinsic::rint;
    break;
  default:
    return false;
  }
  IRBuilder<> B(&II);
  Value *Rounded = B.CreateUnaryIntrinsic(Rounding, II.getArgOperand(0));
  Value *R = B.CreateFPToSI(Rounded, II.getType());
  R->takeName(&II);
  II.replaceAllUsesWith(R);
  II.eraseFromParent();
  return true;
}
