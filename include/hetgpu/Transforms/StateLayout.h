//===- StateLayout.h - Safe points and their live-value layout --*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-state-layout`: numbers the safe points of every kernel (entry and
/// each barrier), attaches the live values at each barrier as a
/// `"hetgpu.live"` operand bundle and records their byte layout in
/// `!hetgpu.state` (docs/hetIR.md, docs/StateMetadata.md).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TRANSFORMS_STATELAYOUT_H
#define HETGPU_TRANSFORMS_STATELAYOUT_H

#include "hetgpu/Support/PassCompat.h"
#include "llvm/IR/PassManager.h"

namespace hetgpu {

class StateLayoutPass : public RequiredPass<StateLayoutPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace hetgpu

#endif // HETGPU_TRANSFORMS_STATELAYOUT_H
