//===- LowerToRVManycore.h - hetIR to RISC-V many-core IR -------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-lower-rvmc` rewrites a verified hetIR module into RISC-V IR for
/// the tt-sim many-core device: the SIMT->MIMD lowering turns each kernel K
/// into `__hetgpu_block_K(void **args, hetgpu_block_ctx *ctx)` (one core runs
/// whole blocks; shared memory is the core's SRAM through ctx->shared), then
/// the module gets the riscv64 triple, data layout and rv64imafd/lp64d
/// attributes. Math builtins and the block executor stay external: emit()
/// resolves them against the device runtime archive. For each kernel the
/// module exports `__hetgpu_rvmc_frame_K` (i64: frame bytes per thread, only
/// for kernels run by the block executor) and `__hetgpu_rvmc_shared_K`
/// (i64: static shared bytes), which tt-sim counts against the core's
/// 1.5 MiB SRAM.
///
/// USAGE: hetgpu-opt -passes=hetgpu-lower-rvmc in.ll -S
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TARGETS_RVMANYCORE_LOWERTORVMANYCORE_H
#define HETGPU_TARGETS_RVMANYCORE_LOWERTORVMANYCORE_H

#include "hetgpu/Support/PassCompat.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <string>

namespace hetgpu {

inline constexpr llvm::StringLiteral RVMCTriple = "riscv64-unknown-elf";
inline constexpr llvm::StringLiteral RVMCDataLayout =
    "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128";
inline constexpr llvm::StringLiteral RVMCFramePrefix = "__hetgpu_rvmc_frame_";
inline constexpr llvm::StringLiteral RVMCSharedPrefix = "__hetgpu_rvmc_shared_";

struct RVManycoreLowerOptions {
  /// ISA string, e.g. "rv64imafd" (the default) or "rv64imafdc".
  std::string Arch = "rv64imafd";
  /// Checkpoint instrumentation (not implemented for rvmc yet).
  bool Instrument = false;
};

/// LLVM target features ("+m,+a,+f,+d") for an ISA string, or an error
/// naming what the target cannot use (no A, F or D, or not rv64).
llvm::Expected<std::string> rvmcFeaturesForArch(llvm::StringRef Arch);

/// Lowers \p M in place; errors name the kernel/function and the construct.
/// A module already lowered (riscv64 triple) is left alone.
llvm::Error lowerModuleToRVManycore(llvm::Module &M,
                                    const RVManycoreLowerOptions &Opts);

class LowerToRVManycorePass : public RequiredPass<LowerToRVManycorePass> {
public:
  static llvm::StringRef name() { return "hetgpu-lower-rvmc"; }
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace hetgpu

#endif // HETGPU_TARGETS_RVMANYCORE_LOWERTORVMANYCORE_H
