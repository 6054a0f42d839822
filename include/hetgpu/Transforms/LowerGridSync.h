//===- LowerGridSync.h - grid_group::sync() as a spin barrier ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-lower-grid-sync`: every `__hetgpu_grid_sync()` call left in a
/// hetIR module (targets that run grids in rounds had theirs turned into
/// the end of a round by `hetgpu-instrument-state<grid-sync>` first)
/// becomes a spin barrier over a pair of module words: a block barrier,
/// thread 0 of the block arrives for it (the last block to arrive starts
/// the next generation, the others wait for it), a block barrier. It holds
/// when every block of the grid runs at once (cudaLaunchCooperativeKernel
/// checks the grid). The translator runs it before the target lowering.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TRANSFORMS_LOWERGRIDSYNC_H
#define HETGPU_TRANSFORMS_LOWERGRIDSYNC_H

#include "hetgpu/Support/PassCompat.h"
#include "llvm/IR/PassManager.h"

namespace hetgpu {

/// Expands every `__hetgpu_grid_sync()` call of \p M. Returns true when
/// something changed.
bool lowerGridSync(llvm::Module &M);

class LowerGridSyncPass : public RequiredPass<LowerGridSyncPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &) {
    return lowerGridSync(M) ? llvm::PreservedAnalyses::none()
                            : llvm::PreservedAnalyses::all();
  }
};

} // namespace hetgpu

#endif // HETGPU_TRANSFORMS_LOWERGRIDSYNC_H
