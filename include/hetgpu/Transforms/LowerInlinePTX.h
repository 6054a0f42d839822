//===- LowerInlinePTX.h - Lower inline PTX to hetIR -------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-lower-inline-ptx`: replaces every `call asm` of a CUDA device
/// module whose string is PTX of the supported subset (docs/InlinePTX.md)
/// with plain LLVM IR and `__hetgpu_*` builtin calls. Anything outside the
/// subset is an error at the asm statement (through the call's `!srcloc`).
/// hetgpu-raise runs it first, so every device compile gets it.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TRANSFORMS_LOWERINLINEPTX_H
#define HETGPU_TRANSFORMS_LOWERINLINEPTX_H

#include "hetgpu/Support/PassCompat.h"
#include "llvm/IR/PassManager.h"

namespace hetgpu {

class LowerInlinePTXPass : public RequiredPass<LowerInlinePTXPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace hetgpu

#endif // HETGPU_TRANSFORMS_LOWERINLINEPTX_H
