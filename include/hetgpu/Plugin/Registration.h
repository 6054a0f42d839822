//===- Registration.h - Register every hetGPU pass by name ------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// One entry point used by the opt plugin, the clang pass plugin, hetgpu-opt
/// and the translator (Enzyme's pattern).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_PLUGIN_REGISTRATION_H
#define HETGPU_PLUGIN_REGISTRATION_H

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace hetgpu {

/// Registers the passes of Passes.def, every target's `hetgpu-lower-<t>`,
/// and `hetgpu-device-pipeline` (raise, state layout, verify).
void registerHetGPUPasses(llvm::PassBuilder &PB);

/// Also runs `hetgpu-device-pipeline` at the end of the optimisation
/// pipeline, for clang's -fpass-plugin on CUDA device compilations.
void registerHetGPUDevicePipeline(llvm::PassBuilder &PB);

} // namespace hetgpu

#endif // HETGPU_PLUGIN_REGISTRATION_H
