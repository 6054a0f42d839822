//===- hetgpu-opt.cpp - opt with every hetGPU pass built in ----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// LLVM's opt driver plus registerHetGPUPasses, so every hetGPU pass and
/// target lowering runs by name: `hetgpu-opt -passes=hetgpu-raise x.ll -S`.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Plugin/Registration.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Passes/PassBuilder.h"

#include <functional>

extern "C" int optMain(int argc, char **argv,
                       llvm::ArrayRef<std::function<void(llvm::PassBuilder &)>>
                           PassBuilderCallbacks);

int main(int argc, char **argv) {
  std::function<void(llvm::PassBuilder &)> Register =
      [](llvm::PassBuilder &PB) { hetgpu::registerHetGPUPasses(PB); };
  return optMain(argc, argv, {Register});
}
