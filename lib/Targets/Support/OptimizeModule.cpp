//===- OptimizeModule.cpp - The optimisation pipeline of native targets ---===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//

#include "hetgpu/Targets/OptimizeModule.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/IPO/Internalize.h"

using namespace llvm;

void hetgpu::optimizeModule(Module &M, TargetMachine *TM, unsigned OptLevel,
                            function_ref<bool(const Function &)> IsEntry) {
  ModulePassManager MPM;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(TM);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  MPM.addPass(InternalizePass([IsEntry](const GlobalValue &GV) {
    if (auto *F = dyn_cast<Function>(&GV))
      return IsEntry(*F);
    return true;
  }));
  if (OptLevel == 0) {
    MPM.addPass(PB.buildO0DefaultPipeline(OptimizationLevel::O0));
  } else {
    OptimizationLevel Level = OptLevel == 1   ? OptimizationLevel::O1
                              : OptLevel == 2 ? OptimizationLevel::O2
                                              : OptimizationLevel::O3;
    MPM.addPass(PB.buildPerModuleDefaultPipeline(Level));
  }
  MPM.run(M, MAM);
}
