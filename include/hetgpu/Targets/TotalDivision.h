//===- TotalDivision.h - Integer division as NVIDIA computes it -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// In LLVM IR an integer division by zero (and INT_MIN / -1) is undefined
/// behaviour, and on x86-64 the instruction traps (SIGFPE). On an NVIDIA GPU
/// it has a value and no fault. makeDivisionTotal() rewrites every `udiv`,
/// `sdiv`, `urem` and `srem` of a module so that it divides by a divisor
/// that cannot trap and selects the result an H200 gives (measured with
/// nvcc 13.0; test/Runtime/kernel-faults.cu):
///
///   x / 0:  unsigned all ones, signed -1; 64-bit: 0xffffffff when the
///           dividend's upper half is zero (the GPU's 32-bit fast path),
///           else all ones;
///   x % 0:  x;
///   INT_MIN / -1: INT_MIN, INT_MIN % -1: 0.
///
/// Targets that run kernels on a CPU (host, SPIR-V for CPU drivers,
/// RISC-V many-core) call it first in lower(), so no later pass can
/// exploit the undefined behaviour.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TARGETS_TOTALDIVISION_H
#define HETGPU_TARGETS_TOTALDIVISION_H

namespace llvm {
class Module;
} // namespace llvm

namespace hetgpu {

/// Rewrites the integer divisions and remainders of \p M (scalars and
/// vectors) as described above; divisions by a constant that is neither 0
/// nor -1 are left as they are. Returns whether anything changed.
bool makeDivisionTotal(llvm::Module &M);

} // namespace hetgpu

#endif // HETGPU_TARGETS_TOTALDIVISION_H
