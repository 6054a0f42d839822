//===- Verifier.h - Check that a module is portable hetIR -------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-verify` rejects what a target could not translate: target
/// intrinsics, inline assembly, unknown `__hetgpu_*` names, calls of
/// undefined functions, foreign address spaces, inconsistent kernel or
/// state metadata. Each problem is reported as a HetGPUFailure naming the
/// function and the construct.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_IR_VERIFIER_H
#define HETGPU_IR_VERIFIER_H

#include "hetgpu/Support/PassCompat.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

namespace hetgpu {

/// Checks \p M; returns one error joining every problem found.
llvm::Error verifyHetIR(const llvm::Module &M);

class VerifyHetIRPass : public RequiredPass<VerifyHetIRPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace hetgpu

#endif // HETGPU_IR_VERIFIER_H
