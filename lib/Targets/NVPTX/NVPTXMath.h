//===- NVPTXMath.h - Math builtins for the NVPTX target ---------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Resolves the `__hetgpu_math_*` builtins of a module for NVPTX by linking
/// a device math library into it:
///
///  1. libdevice (`__nv_*`), when a CUDA toolkit's libdevice.10.bc is found
///     at translation time: the path given in the options, else
///     $HETGPU_LIBDEVICE (file or directory), else $CUDA_HOME / $CUDA_PATH,
///     else /usr/local/cuda/nvvm/libdevice. "none" disables this step.
///     nvcc uses the same library, so results and speed match nvcc's.
///  2. hetGPU's own device math library for nvptx64 (bitcode defining the
///     `__hetgpu_math_*` functions): the file given in the options, else the
///     one hetgpu/Targets/DeviceMath.h finds ($HETGPU_MATH_LIBRARY, then
///     next to the translator library). "none" disables this step.
///
/// A builtin that neither provides is reported by name.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TARGETS_NVPTX_NVPTXMATH_H
#define HETGPU_TARGETS_NVPTX_NVPTXMATH_H

#include "LowerToNVPTX.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

#include <string>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace hetgpu {

/// Links the math library into \p M and rewrites the math builtin calls to
/// it. \p Fail receives each problem with a function that uses the builtin
/// concerned (or null).
void linkNVPTXMath(
    llvm::Module &M, const NVPTXLowerOptions &Opts,
    llvm::function_ref<void(llvm::Function *, const llvm::Twine &)> Fail);

/// The libdevice file the search of step 1 finds, or "" when none.
std::string findLibDevice(const std::string &Requested);

} // namespace hetgpu

#endif // HETGPU_TARGETS_NVPTX_NVPTXMATH_H
