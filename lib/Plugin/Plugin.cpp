//===- Plugin.cpp - HetGPUPasses.so entry point ----------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `opt -load-pass-plugin=HetGPUPasses.so -passes=hetgpu-raise` and
/// `clang -fpass-plugin=HetGPUPasses.so` (which also runs the device
/// pipeline at the end of optimisation).
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Plugin/Registration.h"
#include "hetgpu/Support/PassCompat.h"

#include "llvm/Passes/PassBuilder.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "HetGPUPasses", "0.1",
          [](llvm::PassBuilder &PB) {
            hetgpu::registerHetGPUPasses(PB);
            hetgpu::registerHetGPUDevicePipeline(PB);
          }};
}
