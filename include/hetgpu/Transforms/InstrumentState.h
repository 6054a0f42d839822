//===- InstrumentState.h - Checkpoint/resume code at safe points -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-instrument-state`: hetIR -> hetIR instrumentation for live
/// migration (docs/Migration.md). Every kernel gets three hidden trailing
/// parameters (the launch's state buffer, its control block and its round),
/// entry checks (in a resumed launch finished blocks return, suspended
/// blocks restore their shared memory and live values and jump back to
/// their safe point), and at every loop safe point a block-uniform yield
/// test that saves the state laid out by `hetgpu-state-layout` and returns.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TRANSFORMS_INSTRUMENTSTATE_H
#define HETGPU_TRANSFORMS_INSTRUMENTSTATE_H

#include "hetgpu/ABI/Migration.h"
#include "hetgpu/Support/PassCompat.h"
#include "llvm/IR/PassManager.h"

namespace hetgpu {

/// The control block and the state buffer's layout are the runtime's too:
/// include/hetgpu/ABI/Migration.h.
class InstrumentStatePass : public RequiredPass<InstrumentStatePass> {
public:
  /// \p EarlyFlagRead: a chunked loop reads the yield flag when a chunk
  /// starts (`hetgpu-instrument-state`), else at its safe point
  /// (`hetgpu-instrument-state<late-flag>`;
  /// LoweringTarget::readsYieldFlagEarly).
  /// \p GridSync (`hetgpu-instrument-state<grid-sync>`): only the kernels
  /// that call `__hetgpu_grid_sync` are instrumented, and only there: every
  /// grid barrier saves the block's state and ends the block's round
  /// unconditionally, the next round resumes right after it; loop safe
  /// points are erased (they never suspend). The runtime runs such a
  /// launch round after round until no block is suspended, so the grid
  /// barrier holds without any block residency (docs/Runtime.md
  /// "Cooperative launches"; LoweringTarget::runsGridSyncInRounds).
  explicit InstrumentStatePass(bool EarlyFlagRead = true, bool GridSync = false)
      : EarlyFlagRead(EarlyFlagRead), GridSync(GridSync) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);

private:
  bool EarlyFlagRead;
  bool GridSync;
};

} // namespace hetgpu

#endif // HETGPU_TRANSFORMS_INSTRUMENTSTATE_H
