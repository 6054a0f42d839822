//===- ExtractKernel.h - Some kernels of a module, alone -------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The translator's per-kernel mode (cold start, issue 21): before the
/// lowering, every kernel but the chosen ones stops being a kernel (its
/// entries in `!hetgpu.kernels` and `!hetgpu.state` go), every other
/// function definition becomes internal, and global dead-code elimination
/// removes what the chosen kernels do not reach. The runtime uses it only for modules
/// without device variables (nothing is shared between two translations);
/// variables still in the module keep their linkage.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TRANSFORMS_EXTRACTKERNEL_H
#define HETGPU_TRANSFORMS_EXTRACTKERNEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace llvm {
class Module;
} // namespace llvm

namespace hetgpu {

/// Reduces \p M to the kernels \p Names (symbol names) and what they use,
/// as above. An error names a kernel the module does not have, or says why
/// the result does not verify.
llvm::Error extractKernels(llvm::Module &M,
                           llvm::ArrayRef<llvm::StringRef> Names);

} // namespace hetgpu

#endif // HETGPU_TRANSFORMS_EXTRACTKERNEL_H
