//===- InsertLoopSafePoints.h - Safe points on uniform loops ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-insert-loop-safepoints` (docs/LoopSafePoints.md): gives the
/// block-uniform loops of every kernel (with or without barriers) a
/// potential safe point, a call of `__hetgpu_safepoint()` every 2^k
/// iterations on the back edge; divergent loops of barrier-free,
/// warp-op-free kernels without shared memory a per-thread one (the call
/// carries `!hetgpu.thread.safepoint`).
/// `stripSafePoints` erases those calls again (a translation that is not
/// instrumented for migration runs it before the target lowering).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TRANSFORMS_INSERTLOOPSAFEPOINTS_H
#define HETGPU_TRANSFORMS_INSERTLOOPSAFEPOINTS_H

#include "hetgpu/Support/PassCompat.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

namespace hetgpu {

/// log2 of the back edges (of one loop nest) between two safe points.
constexpr unsigned LoopSafePointPeriodLog2 = 10;
/// The same for a nest whose loops contain a barrier: an iteration costs a
/// barrier at least, and the safe point's test (a barrier_or) is paid once
/// per period.
constexpr unsigned BarrierLoopSafePointPeriodLog2 = 5;

/// Metadata kind on a `__hetgpu_safepoint()` call that only the thread
/// reaching it takes part in (a per-thread safe point of a divergent loop);
/// hetgpu-state-layout gives it kind `thread-loop`.
inline constexpr llvm::StringLiteral ThreadSafePointMD =
    "hetgpu.thread.safepoint";

class InsertLoopSafePointsPass
    : public RequiredPass<InsertLoopSafePointsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

/// Erases every `__hetgpu_safepoint()` call of \p M and the branch that
/// guards it (the counter feeding that branch is then dead and folds away
/// in the target's optimizer). Returns true when something was erased.
bool stripSafePoints(llvm::Module &M);

/// `hetgpu-strip-safepoints`: stripSafePoints as a pass (what a translation
/// that is not instrumented does before the target lowering).
class StripSafePointsPass : public RequiredPass<StripSafePointsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &) {
    return stripSafePoints(M) ? llvm::PreservedAnalyses::none()
                              : llvm::PreservedAnalyses::all();
  }
};

} // namespace hetgpu

#endif // HETGPU_TRANSFORMS_INSERTLOOPSAFEPOINTS_H
