//===- PassCompat.h - LLVM API drift in one place ---------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Version shims: the pass-plugin header moved to llvm/Plugins in LLVM 22,
/// and RequiredPassInfoMixin appears in 23.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_SUPPORT_PASSCOMPAT_H
#define HETGPU_SUPPORT_PASSCOMPAT_H

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/PassManager.h"

#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

namespace hetgpu {

/// A pass that must run even on optnone functions.
template <typename Derived>
struct RequiredPass : llvm::PassInfoMixin<Derived> {
  static bool isRequired() { return true; }
};

} // namespace hetgpu

#endif // HETGPU_SUPPORT_PASSCOMPAT_H
