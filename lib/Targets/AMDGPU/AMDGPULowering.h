//===- AMDGPULowering.h - The state of hetgpu-lower-amdgpu ------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Private to lib/Targets/AMDGPU: the AMDGPULowering class that carries one
/// run of `hetgpu-lower-amdgpu` (LowerToAMDGPU.h). LowerToAMDGPU.cpp holds
/// the pass, the address-space steps, the kernel ABI and the order of the
/// steps; AMDGPUBuiltins.cpp the builtin lowering and its code generation
/// helpers (waves, warps, barriers).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TARGETS_AMDGPU_AMDGPULOWERING_H
#define HETGPU_TARGETS_AMDGPU_AMDGPULOWERING_H

#include "LowerToAMDGPU.h"

#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Targets/TargetDiagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <string>

namespace hetgpu {
namespace amdgpu {

enum class ShuffleMode { Idx, Up, Down, Xor };

class AMDGPULowering {
public:
  AMDGPULowering(llvm::Module &M, const AMDGPULowerOptions &Opts)
      : M(M), Opts(Opts), Ctx(M.getContext()) {}
  void run();
  LoweringFailures Failures;

private:
  llvm::Module &M;
  const AMDGPULowerOptions &Opts;
  llvm::LLVMContext &Ctx;
  std::string Arch;
  unsigned WaveSize = 64;
  llvm::SyncScope::ID WorkgroupSS = llvm::SyncScope::System;
  llvm::SyncScope::ID AgentSS = llvm::SyncScope::System;
  llvm::SyncScope::ID WavefrontSS = llvm::SyncScope::System;

  void fail(llvm::Function *F, const llvm::Twine &Msg) { Failures.add(F, Msg); }
  void moveGenericGlobals();
  void fixSharedGlobals();
  void moveAllocas();
  void widenStoredSharedPointers();
  void lowerBuiltins();
  void lowerBuiltinCall(llvm::CallInst *CI, BuiltinID ID);
  void scopeAtomics();
  void stripLiveBundles();
  void lowerKernels();
  void setSubtargetAttributes();

  // Code generation helpers.
  llvm::Value *implicitArg(llvm::IRBuilder<> &B, unsigned Offset,
                           llvm::Type *Ty);
  llvm::Value *waveLane(llvm::IRBuilder<> &B);
  llvm::Value *warpLane(llvm::IRBuilder<> &B) {
    return B.CreateAnd(waveLane(B), 31);
  }
  llvm::Value *ballotWarp(llvm::IRBuilder<> &B, llvm::Value *Pred);
  llvm::Value *shuffle(llvm::IRBuilder<> &B, ShuffleMode Mode, llvm::Value *V,
                       llvm::Value *Sel, llvm::Value *Width);
  llvm::Value *matchAny(llvm::CallInst *CI, llvm::Value *Mask, llvm::Value *V);
  void barrier(llvm::IRBuilder<> &B);
  llvm::Value *barrierReduce(llvm::IRBuilder<> &B, BuiltinID ID,
                             llvm::Value *Pred);
  llvm::GlobalVariable *barrierScratch();
  llvm::GlobalVariable *dynamicShared();
};

/// True for the value of a `ptr addrspace(3)` type (scalar only).
inline bool isSharedPtr(llvm::Type *T) {
  return T->isPointerTy() && T->getPointerAddressSpace() == AS_Shared;
}

inline bool containsSharedPtr(llvm::Type *T) {
  if (isSharedPtr(T))
    return true;
  if (auto *V = llvm::dyn_cast<llvm::VectorType>(T))
    return containsSharedPtr(V->getElementType());
  if (auto *A = llvm::dyn_cast<llvm::ArrayType>(T))
    return containsSharedPtr(A->getElementType());
  if (auto *S = llvm::dyn_cast<llvm::StructType>(T))
    return llvm::any_of(S->elements(), containsSharedPtr);
  return false;
}

inline llvm::Value *isNonZero(llvm::IRBuilder<> &B, llvm::Value *V) {
  return B.CreateICmpNE(V, llvm::ConstantInt::get(V->getType(), 0));
}

} // namespace amdgpu
} // namespace hetgpu

#endif // HETGPU_TARGETS_AMDGPU_AMDGPULOWERING_H
