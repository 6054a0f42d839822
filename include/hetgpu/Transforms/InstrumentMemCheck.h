//===- InstrumentMemCheck.h - Portable memcheck instrumentation -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-instrument-memcheck`: what compute-sanitizer's memcheck does on
/// NVIDIA GPUs, done in hetIR so that every target runs it. Every load,
/// store, atomic and memcpy/memset of device code whose address is not
/// provably a thread's own stack memory or in bounds of the variable it is
/// based on is checked before it is made:
///
/// * an address based on a `__shared__` variable (or the dynamic shared
///   memory) must stay inside that variable (the launch's dynamic size);
/// * any other address must lie, with all of its bytes, inside one live
///   range of the runtime's table (allocations, module variables, device
///   `malloc` blocks, which the instrumented `malloc`/`free` add and mark),
///   not in freed memory, and be a multiple of the access's alignment.
///
/// A refused access is reported into the table (include/hetgpu/ABI/
/// MemCheck.h) with the block and thread, and not made. The translator runs
/// the pass when the runtime asks for HETGPU_TRANSLATE_MEMCHECK
/// (HETGPU_MEMCHECK=1); docs/Runtime.md "Memcheck" says what is checked.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TRANSFORMS_INSTRUMENTMEMCHECK_H
#define HETGPU_TRANSFORMS_INSTRUMENTMEMCHECK_H

#include "hetgpu/Support/PassCompat.h"
#include "llvm/IR/PassManager.h"

namespace hetgpu {

/// Instruments \p M as above; true when it changed something (every module
/// gets the table variable, so a module without accesses changes too).
bool instrumentMemCheck(llvm::Module &M);

class InstrumentMemCheckPass : public RequiredPass<InstrumentMemCheckPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &) {
    return instrumentMemCheck(M) ? llvm::PreservedAnalyses::none()
                                 : llvm::PreservedAnalyses::all();
  }
};

} // namespace hetgpu

#endif // HETGPU_TRANSFORMS_INSTRUMENTMEMCHECK_H
