//===- DeviceMath.h - hetGPU's portable device math library -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
/// \file
/// Access to hetGPU's freestanding device math library: one LLVM bitcode file
/// per device triple, `hetgpu-math-<triple>.bc`, built from
/// runtime/device/math and installed in the build's (or install's) lib/
/// directory next to libhetgpu-translate.so. Each file defines every math
/// builtin of include/hetgpu/IR/Builtins.def (`__hetgpu_math_<f>` and
/// `__hetgpu_math_<f>f`) with exactly the builtin's type; all helpers are
/// internal. Accuracy is within CUDA's documented ulp bounds (see
/// docs/DeviceMath.md).
///
/// Files are found, in order: $HETGPU_MATH_LIBRARY (a directory holding
/// hetgpu-math-<triple>.bc, or the .bc file itself), then the directory of
/// the binary that contains this code (the translator library, a plugin or
/// a tool) and its ../lib.
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TARGETS_DEVICEMATH_H
#define HETGPU_TARGETS_DEVICEMATH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace hetgpu {

/// The library triple serving \p Triple (matched by architecture):
/// x86_64-unknown-linux-gnu, nvptx64-nvidia-cuda, amdgcn-amd-amdhsa,
/// riscv64-unknown-elf or spirv64-unknown-unknown; an error for others.
llvm::Expected<std::string> getDeviceMathTriple(llvm::StringRef Triple);

/// Path of the library file for \p Triple, or an error naming the places
/// searched.
llvm::Expected<std::string> findDeviceMathLibrary(llvm::StringRef Triple);

/// Loads the library for \p Triple into \p Ctx. Function attributes that
/// pin a subtarget ("target-cpu", "target-features", "tune-cpu") and module
/// flags are removed, so the functions inline into any module of that
/// architecture and take its subtarget.
llvm::Expected<std::unique_ptr<llvm::Module>>
loadDeviceMathLibrary(llvm::LLVMContext &Ctx, llvm::StringRef Triple);

/// Links into \p M the library functions it declares (LinkOnlyNeeded),
/// using M's triple. Succeeds without loading anything when M uses no math
/// builtin; fails naming any builtin still undefined afterwards.
llvm::Error linkDeviceMathLibrary(llvm::Module &M);

} // namespace hetgpu

#endif // HETGPU_TARGETS_DEVICEMATH_H
