//===- SIMTToMIMD.h - Lower SIMT kernels to per-block CPU code --*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-simt-to-mimd` turns every hetIR kernel into a block function
/// `void __hetgpu_block_<K>(void **args, hetgpu_block_ctx *ctx)` that runs
/// all threads of one block (include/hetgpu/ABI/BlockABI.h):
///
/// * a kernel without synchronisation points becomes a triple loop over the
///   threads of the block around the (inlined) kernel body;
/// * a kernel with barriers or warp operations becomes a resumable thread
///   function driven by the block executor (ABI/BlockExecutor.h). Values live
///   across a barrier are stored in the per-thread frame at the offsets of
///   the kernel's `!hetgpu.state` record.
///
/// Thread-index, block, shared-memory, fence and service builtins (printf,
/// assert, trap, malloc, clock) are lowered against the block context; the
/// math builtins are left to the target. Device functions that use any of
/// them are inlined into the kernels first.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TRANSFORMS_SIMTTOMIMD_H
#define HETGPU_TRANSFORMS_SIMTTOMIMD_H

#include "hetgpu/Support/PassCompat.h"

#include "llvm/IR/PassManager.h"
#include "llvm/IR/Value.h"
#include "llvm/Support/Error.h"

namespace llvm {
class Module;
} // namespace llvm

namespace hetgpu {

/// Prefix of the exported per-block entry points.
inline constexpr llvm::StringLiteral BlockFunctionPrefix = "__hetgpu_block_";
/// The block executor's entry (runtime/device/common/hetgpu_exec.c).
inline constexpr llvm::StringLiteral ExecBlockName = "__hetgpu_exec_block";

/// Metadata on the loads and stores of a thread function that save and
/// reload a value across a sync point in the thread's frame (spill slots,
/// never allocations): `!{i32 Id}`, Id the sync point. Frame bytes that
/// such accesses touch are touched by no other access, and the values
/// reloaded when resuming at Id are those stored when stopping at Id.
inline constexpr llvm::StringLiteral SpillMD = "hetgpu.spill";

/// Rewrites every kernel of \p M (see the file comment). Errors name the
/// kernel or function and the construct. Modules without kernels are left
/// alone, so running it twice is the same as running it once.
llvm::Error lowerSIMTToMIMD(llvm::Module &M);

/// Whether a volatile access through \p Ptr (hetIR address spaces) may touch
/// shared memory: a shared pointer, or a generic one whose object is not
/// provably a global of another space or a private allocation. Such accesses
/// are warp regrouping points (lock-step warp-synchronous code).
bool mayBeShared(const llvm::Value *Ptr);

/// The non-volatile accesses of \p F to provably shared memory that another
/// lane of the warp may have written (a load) or may still read (a store)
/// with nothing in between that orders the warp (a barrier, __syncwarp, a
/// warp operation): a shared access of the other kind through a different
/// pointer reaches it on some path without one. Warp-synchronous code
/// through a __shared__ tile relies on NVIDIA's lock-step there; the
/// SIMT->MIMD lowering makes these accesses warp regrouping points, and
/// the SPIR-V target runs such kernels one warp per work-item.
void findUnorderedSharedExchanges(llvm::Function &F,
                                  llvm::SmallVectorImpl<llvm::Instruction *> &Out);

class SIMTToMIMDPass : public RequiredPass<SIMTToMIMDPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace hetgpu

#endif // HETGPU_TRANSFORMS_SIMTTOMIMD_H
