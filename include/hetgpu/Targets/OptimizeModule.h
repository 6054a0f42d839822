//===- OptimizeModule.h - The optimisation pipeline of native targets -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Shared by the targets that generate native code from a lowered module:
/// internalize everything except the entry functions (and global variables,
/// which the runtime looks up by name), then run LLVM's default pipeline at
/// the requested level.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TARGETS_OPTIMIZEMODULE_H
#define HETGPU_TARGETS_OPTIMIZEMODULE_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class Function;
class Module;
class TargetMachine;
} // namespace llvm

namespace hetgpu {

/// Optimises \p M for \p TM at \p OptLevel (0..3); functions for which
/// \p IsEntry is false become internal first.
void optimizeModule(llvm::Module &M, llvm::TargetMachine *TM, unsigned OptLevel,
                    llvm::function_ref<bool(const llvm::Function &)> IsEntry);

} // namespace hetgpu

#endif // HETGPU_TARGETS_OPTIMIZEMODULE_H
