//===- RaiseToHetIR.h - Raise clang's device IR to hetIR --------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-raise`: turns the device module clang produces for CUDA (NVPTX
/// flavoured) into hetIR (docs/hetIR.md).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TRANSFORMS_RAISETOHETIR_H
#define HETGPU_TRANSFORMS_RAISETOHETIR_H

#include "hetgpu/Support/PassCompat.h"
#include "llvm/IR/PassManager.h"

namespace hetgpu {

class RaiseToHetIRPass : public RequiredPass<RaiseToHetIRPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace hetgpu

#endif // HETGPU_TRANSFORMS_RAISETOHETIR_H
