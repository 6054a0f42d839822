//===- ContainerBuilder.h - hetIR modules in and out of containers -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// LLVM-side helpers around the container format: describe a hetIR module as
/// a container::ModuleInfo, and find containers in files (a raw container,
/// a hetIR bitcode or text file, or an ELF object/executable whose
/// `.nv_fatbin` section holds one container per CUDA translation unit).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_IR_CONTAINERBUILDER_H
#define HETGPU_IR_CONTAINERBUILDER_H

#include "hetgpu/IR/Container.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace hetgpu {

/// Verifies \p M as hetIR and describes it (kernels, globals, bitcode).
llvm::Expected<container::ModuleInfo> buildModuleInfo(const llvm::Module &M);

/// Reads hetIR bitcode with LLVM's error-returning reader and verifies it
/// (llvm::verifyModule). LLVM's reader is not hardened against malformed
/// input: some bitcode crashes it. So a child process (fork) reads and
/// verifies \p Bytes first, and bitcode that kills the child is an error
/// here rather than a crash of the application; the module is then read in
/// this process. \p Name is used in error messages.
llvm::Expected<std::unique_ptr<llvm::Module>>
parseCheckedBitcode(llvm::StringRef Bytes, llvm::StringRef Name,
                    llvm::LLVMContext &Ctx);

/// Compares module tables (container::writeTables bytes, \p Size at \p
/// Tables) with what \p M's metadata says of its kernels and globals: an
/// error names the first kernel, parameter or global that differs.
llvm::Error checkTablesMatchIR(const llvm::Module &M, const void *Tables,
                               size_t Size);

/// Every container found in \p Bytes, which may be a container, hetIR
/// bitcode or LLVM assembly (wrapped into a one-module container), or an ELF
/// file with a `.nv_fatbin` section (or, for a `-dc` object, a
/// `__nv_relfatbin` section of relocatable hetIR). \p Name is used in error
/// messages.
llvm::Expected<std::vector<container::Container>>
loadContainers(llvm::StringRef Bytes, llvm::StringRef Name);

} // namespace hetgpu

#endif // HETGPU_IR_CONTAINERBUILDER_H
