//===- ExpandIntrinsics.h - Portable intrinsics a backend cannot select -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Expansions shared by targets whose LLVM backend has no libcalls for some
/// portable intrinsics (NVPTX, SPIR-V).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TARGETS_EXPANDINTRINSICS_H
#define HETGPU_TARGETS_EXPANDINTRINSICS_H

namespace llvm {
class IntrinsicInst;
} // namespace llvm

namespace hetgpu {

/// Replaces `llvm.lrint` / `llvm.llrint` / `llvm.lround` / `llvm.llround` by
/// `rint` / `round` and a conversion to the result type (CUDA's lrintf,
/// llroundf, ...; out-of-range inputs are undefined in C as in CUDA) and
/// erases \p II. Returns false, changing nothing, for other intrinsics.
bool expandIntegerRounding(llvm::IntrinsicInst &II);

} // namespace hetgpu

#endif
