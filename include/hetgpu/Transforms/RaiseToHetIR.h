//===- RaiseToHetIR.h - Raise clang's device IR to hetIR --------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-raise`: turns the device module clang produces for CUDA (NVPTX
/// flavoured) into hetIR (docs/hetIR.md). In relocatable mode (`-dc`) the
/// module keeps its external device functions and is marked
/// `!hetgpu.relocatable`; the helpers below are shared with the device link
/// (hetgpu-finalize-link), which finishes what relocatable raising defers.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TRANSFORMS_RAISETOHETIR_H
#define HETGPU_TRANSFORMS_RAISETOHETIR_H

#include "hetgpu/Support/PassCompat.h"
#include "llvm/IR/PassManager.h"

#include <cstdint>

namespace llvm {
class Function;
} // namespace llvm

namespace hetgpu {

class RaiseToHetIRPass : public RequiredPass<RaiseToHetIRPass> {
public:
  explicit RaiseToHetIRPass(bool Relocatable = false)
      : Relocatable(Relocatable) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);

private:
  bool Relocatable;
};

/// Inlines every call of a defined function that (transitively) executes a
/// safe point (a barrier), so all safe points are in kernels. Reports
/// recursion and failed inlining through HetGPUFailure; false on failure.
bool inlineSafePointCallees(llvm::Module &M);

/// Feature bits (container::Feature) of \p Kernel and the functions it
/// calls.
uint32_t computeKernelFeatures(const llvm::Function &Kernel);

} // namespace hetgpu

#endif // HETGPU_TRANSFORMS_RAISETOHETIR_H
