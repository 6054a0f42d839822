//===- Printers.h - Print kernel and state metadata -------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `print<hetgpu-kernels>` and `print<hetgpu-state>` print what hetIR's
/// metadata says, in the same words as hetgpu-objdump.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_IR_PRINTERS_H
#define HETGPU_IR_PRINTERS_H

#include "hetgpu/IR/Container.h"
#include "hetgpu/Support/PassCompat.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/raw_ostream.h"

namespace hetgpu {

/// Prints a kernel's parameters, shared memory, features and launch bounds.
void printKernelInfo(llvm::raw_ostream &OS, const container::KernelInfo &K);
/// Prints a kernel's safe points and slot layouts.
void printStateInfo(llvm::raw_ostream &OS, const container::KernelInfo &K);

class KernelPrinterPass : public RequiredPass<KernelPrinterPass> {
  llvm::raw_ostream &OS;

public:
  explicit KernelPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

class StatePrinterPass : public RequiredPass<StatePrinterPass> {
  llvm::raw_ostream &OS;

public:
  explicit StatePrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace hetgpu

#endif // HETGPU_IR_PRINTERS_H
