//===- Registration.cpp - Register every hetGPU pass by name ---------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Passes.def and Targets.def become pipeline names here.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Plugin/Registration.h"
#include "hetgpu/Targets/LoweringTarget.h"
#include "hetgpu/Transforms/PassHeaders.def"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace hetgpu {
namespace {

/// `hetgpu-cc -dc` passes `-mllvm -hetgpu-relocatable` to the device
/// compile.
cl::opt<bool> ClRelocatable(
    "hetgpu-relocatable", cl::Hidden, cl::init(false),
    cl::desc("hetgpu-device-pipeline: produce relocatable hetIR (-dc); loop "
             "safe points and the state layout are left to the device link"));

/// raise -> loop safe points -> state layout -> verify, on CUDA device
/// modules only (a host module seen through -fpass-plugin is left alone).
/// Relocatable: raise -> verify; hetgpu-finalize-link does the rest after
/// the device link, when every callee is known.
class DevicePipelinePass : public RequiredPass<DevicePipelinePass> {
public:
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &AM) {
    if (!M.getTargetTriple().isNVPTX())
      return PreservedAnalyses::all();
    if (ClRelocatable) {
      RaiseToHetIRPass(/*Relocatable=*/true).run(M, AM);
      VerifyHetIRPass().run(M, AM);
      return PreservedAnalyses::none();
    }
    RaiseToHetIRPass().run(M, AM);
    InsertLoopSafePointsPass().run(M, AM);
    StateLayoutPass().run(M, AM);
    VerifyHetIRPass().run(M, AM);
    return PreservedAnalyses::none();
  }
};

} // namespace

void registerHetGPUPasses(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
#define HETGPU_MODULE_PASS(N, Ctor)                                            \
  if (Name == N) {                                                             \
    MPM.addPass(Ctor);                                                         \
    return true;                                                               \
  }
#include "hetgpu/Transforms/Passes.def"
        if (Name == "hetgpu-device-pipeline") {
          MPM.addPass(DevicePipelinePass());
          return true;
        }
        return false;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
#define HETGPU_FUNCTION_PASS(N, Ctor)                                          \
  if (Name == N) {                                                             \
    FPM.addPass(Ctor);                                                         \
    return true;                                                               \
  }
#include "hetgpu/Transforms/Passes.def"
        return false;
      });
  for (StringRef T : targetNames())
    if (auto Target = createTarget(T))
      Target->registerPasses(PB);
}

void registerHetGPUDevicePipeline(PassBuilder &PB) {
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
        MPM.addPass(DevicePipelinePass());
      });
}

} // namespace hetgpu
