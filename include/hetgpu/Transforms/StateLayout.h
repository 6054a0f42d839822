//===- StateLayout.h - Safe points and their live-value layout --*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-state-layout`: numbers the safe points of every kernel (entry,
/// each barrier and each loop safe point `__hetgpu_safepoint`), attaches the
/// live values at each of them as a
/// `"hetgpu.live"` operand bundle and records their byte layout in
/// `!hetgpu.state` (docs/hetIR.md, docs/StateMetadata.md).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TRANSFORMS_STATELAYOUT_H
#define HETGPU_TRANSFORMS_STATELAYOUT_H

#include "hetgpu/Support/PassCompat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class Value;
}

namespace hetgpu {

/// True when \p V is a pure function of the kernel's arguments, constants,
/// globals and the index builtins (thread/block ids and sizes, the dynamic
/// shared base) through side-effect-free, non-trapping instructions: a
/// resumed launch can recompute it, so it is not state. hetgpu-state-layout
/// leaves such values out of the live sets, and hetgpu-instrument-state
/// hoists the ones used across a safe point into the kernel's entry block.
/// \p Cache memoizes answers across calls.
bool isRecomputable(const llvm::Value *V,
                    llvm::DenseMap<const llvm::Value *, bool> &Cache);

class StateLayoutPass : public RequiredPass<StateLayoutPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace hetgpu

#endif // HETGPU_TRANSFORMS_STATELAYOUT_H
