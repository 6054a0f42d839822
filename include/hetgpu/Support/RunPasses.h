//===- RunPasses.h - Run a module pass manager on its own -------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The analysis-manager setup every driver of a hetGPU pass outside a full
/// pipeline needs (the translator, the device link, hetgpu-host-run).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_SUPPORT_RUNPASSES_H
#define HETGPU_SUPPORT_RUNPASSES_H

#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"

namespace hetgpu {

/// Runs \p MPM on \p M with fresh analysis managers registered through
/// \p PB (the PassBuilder that built or parsed \p MPM).
inline void runModulePasses(llvm::Module &M, llvm::ModulePassManager &MPM,
                            llvm::PassBuilder &PB) {
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  MPM.run(M, MAM);
}

/// Runs the single pass \p P on \p M.
template <typename PassT> void runModulePass(llvm::Module &M, PassT P) {
  llvm::PassBuilder PB;
  llvm::ModulePassManager MPM;
  MPM.addPass(std::move(P));
  runModulePasses(M, MPM, PB);
}

} // namespace hetgpu

#endif // HETGPU_SUPPORT_RUNPASSES_H
