//===- Diagnostics.h - User-facing diagnostics of hetGPU passes -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// HetGPUFailure is the diagnostic passes report through LLVMContext::diagnose
/// when the input uses something hetGPU cannot make portable; the pass then
/// returns normally (Enzyme's pattern). The message names the function and
/// the construct; the location comes from debug info when present.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_SUPPORT_DIAGNOSTICS_H
#define HETGPU_SUPPORT_DIAGNOSTICS_H

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"

namespace hetgpu {

class HetGPUFailure : public llvm::DiagnosticInfoUnsupported {
public:
  HetGPUFailure(const llvm::Function &F, const llvm::Twine &Msg,
                const llvm::Instruction *I = nullptr)
      : llvm::DiagnosticInfoUnsupported(
            F, Msg, I ? I->getDebugLoc() : llvm::DiagnosticLocation(),
            llvm::DS_Error) {}
};

/// Reports \p Msg about \p F (at \p I when given) as an error.
inline void reportFailure(const llvm::Function &F, const llvm::Twine &Msg,
                          const llvm::Instruction *I = nullptr) {
  F.getContext().diagnose(HetGPUFailure(F, Msg, I));
}

} // namespace hetgpu

#endif // HETGPU_SUPPORT_DIAGNOSTICS_H
