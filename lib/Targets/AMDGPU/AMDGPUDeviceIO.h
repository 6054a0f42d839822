//===- AMDGPUDeviceIO.h - printf, assert, trap and malloc on AMDGPU -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Lowers the hetIR builtins that need help from the host on AMDGPU:
/// printf and assert write records into the hidden printf buffer (layout in
/// LowerToAMDGPU.h) that the HIP backend drains after each synchronisation,
/// assert and __trap set a flag there and end the wavefront (the backend
/// turns the flag into cudaErrorAssert / cudaErrorLaunchFailure), malloc is
/// a bump allocator over a hidden heap.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TARGETS_AMDGPU_AMDGPUDEVICEIO_H
#define HETGPU_TARGETS_AMDGPU_AMDGPUDEVICEIO_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

namespace llvm {
class CallInst;
class Function;
class Value;
} // namespace llvm

namespace hetgpu {

using AMDGPUFailFn = llvm::function_ref<void(llvm::Function *, const llvm::Twine &)>;

/// Replaces `__hetgpu_printf(fmt, args)`; the format must be a constant
/// string (its conversions say which arguments are strings to copy).
void lowerAMDGPUPrintf(llvm::CallInst *CI, AMDGPUFailFn Fail);
/// Replaces `__hetgpu_assert_fail(msg, file, line, func)`.
void lowerAMDGPUAssert(llvm::CallInst *CI, AMDGPUFailFn Fail);
/// Replaces `__hetgpu_trap()`.
void lowerAMDGPUTrap(llvm::CallInst *CI);
/// Replaces `__hetgpu_malloc(size)` / `__hetgpu_free(ptr)`.
void lowerAMDGPUMalloc(llvm::CallInst *CI);
void lowerAMDGPUFree(llvm::CallInst *CI);

} // namespace hetgpu

#endif // HETGPU_TARGETS_AMDGPU_AMDGPUDEVICEIO_H
