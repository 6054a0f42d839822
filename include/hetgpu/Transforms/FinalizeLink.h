//===- FinalizeLink.h - Finish hetIR after the device link -----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-finalize-link`: the part of the device pipeline that relocatable
/// hetIR (`hetgpu-cc -dc`) defers until every component is linked into one
/// module (docs/SeparateCompilation.md).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TRANSFORMS_FINALIZELINK_H
#define HETGPU_TRANSFORMS_FINALIZELINK_H

#include "hetgpu/Support/PassCompat.h"
#include "llvm/IR/PassManager.h"

namespace hetgpu {

/// On a module marked `!hetgpu.relocatable` (the llvm-link of relocatable
/// components): checks that the components agree on the hetIR version,
/// internalizes every device function that is not a kernel (the program is
/// now whole), inlines barrier-containing callees across components,
/// recomputes each kernel's static shared size and feature bits over its
/// whole call graph, folds exported facts into the loads of their importers
/// (hetgpu/IR/Contracts.h), inserts loop safe points, lays out the state and
/// drops
/// the mark. A module without the mark is left alone, so the pass is
/// idempotent.
///
/// With \p Optimize (what the device link passes), the whole program is
/// also optimized at -O3 before the loop safe points, as clang optimizes a
/// whole translation unit; `hetgpu-opt -passes=hetgpu-finalize-link` runs
/// without it.
class FinalizeLinkPass : public RequiredPass<FinalizeLinkPass> {
public:
  explicit FinalizeLinkPass(bool Optimize = false) : Optimize(Optimize) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);

private:
  bool Optimize;
};

} // namespace hetgpu

#endif // HETGPU_TRANSFORMS_FINALIZELINK_H
