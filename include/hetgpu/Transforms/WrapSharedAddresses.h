//===- WrapSharedAddresses.h - Shared memory's 32-bit window ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-wrap-shared-addresses`: on NVIDIA GPUs a shared-memory address
/// is a 32-bit offset in the block's window, so an index that overflows
/// and wraps (`p[~i]` with an unsigned i: 2^32 - i - 1 elements "ahead",
/// which is i + 1 behind) still reaches the intended element, and CUDA
/// code relies on it (HeCBench merge's binary search). On devices whose
/// shared memory is an ordinary buffer the same 64-bit address is far
/// outside it. The pass rewrites every load, store and atomic whose address
/// is a shared variable (or the dynamic shared memory) plus a variable
/// offset into base + (offset mod 2^32), and drops the inbounds/nuw flags
/// of the offset's GEPs (the wrapped offsets are not in bounds). Targets
/// whose shared addresses are 32-bit in hardware skip it (NVPTX).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TRANSFORMS_WRAPSHAREDADDRESSES_H
#define HETGPU_TRANSFORMS_WRAPSHAREDADDRESSES_H

#include "hetgpu/Support/PassCompat.h"
#include "llvm/IR/PassManager.h"

namespace hetgpu {

/// Rewrites \p M's shared-memory accesses as above; true when it changed
/// something.
bool wrapSharedAddresses(llvm::Module &M);

class WrapSharedAddressesPass : public RequiredPass<WrapSharedAddressesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &) {
    return wrapSharedAddresses(M) ? llvm::PreservedAnalyses::none()
                                  : llvm::PreservedAnalyses::all();
  }
};

} // namespace hetgpu

#endif // HETGPU_TRANSFORMS_WRAPSHAREDADDRESSES_H
