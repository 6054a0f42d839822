//===- ExternalTools.h - The linker lowering targets run --------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Targets whose binary is a linked file (the host's shared object, the
/// AMDGPU code object, the RISC-V many-core image) run ld.lld on the object
/// the code generator wrote. This header finds ld.lld and runs it on files
/// in a private temporary directory. Part of HetGPUTargetSupport
/// (lib/Targets/Support/).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TARGETS_EXTERNALTOOLS_H
#define HETGPU_TARGETS_EXTERNALTOOLS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace hetgpu {

/// findLLD()'s answer when the translator links with lld's ELF driver in
/// this process (built with liblld-<major>-dev): no executable needed.
inline constexpr llvm::StringLiteral InProcessLinker = "<in-process lld>";

/// The ld.lld to run, looked for in this order: $HETGPU_LLD (which must then
/// be an executable, or `in-process` for the built-in lld); lld in this
/// process (InProcessLinker) when built with it and no in-process link has
/// crashed; then an executable: the ld.lld CMake found (HETGPU_LLD at
/// configure time), ld.lld next to LLVM's tools,
/// /usr/lib/llvm-<major>/bin/ld.lld, ld.lld-<version>, ld.lld-<major> and
/// ld.lld on PATH. A link in process that crashes is run again with such an
/// executable (runLinker). Errors are prefixed with \p Target (as
/// targetError() does); \p Purpose, when given, ends the not-found message
/// ("; it <Purpose>").
llvm::Expected<std::string> findLLD(llvm::StringRef Target,
                                    llvm::StringRef Purpose = "");

/// lld's driver resets every LLVM command-line option (cl::opt) of the
/// process to its default when it links in process. A tool that reads its
/// options after translating passes its parsed command line here once; it is
/// parsed again after every in-process link. Libraries (the runtime's
/// translator) set no options and need not call it.
void reparseOptionsAfterLinks(int Argc, const char *const *Argv);

/// One input file of a link.
struct LinkInput {
  llvm::StringRef FileName; ///< name in the temporary directory ("kernel.o")
  llvm::ArrayRef<char> Bytes;
};

/// What a run of the linker did.
struct LinkResult {
  bool Succeeded = false;   ///< it exited with 0
  std::string ExecError;    ///< why it could not run or was killed, if so
  std::string Log;          ///< its stdout and stderr, trimmed
  std::vector<char> Output; ///< the file it wrote, when it succeeded
};

/// Writes \p Inputs to a new temporary directory, runs
/// `Linker Flags... Inputs... -o <output>` there (in this process when
/// \p Linker is InProcessLinker) ("-flavor gnu" first when
/// \p Linker is lld itself rather than ld.lld), reads the output and removes
/// the directory. An Error (prefixed with \p Target) only when a file cannot
/// be written or read; a failed link is a LinkResult with Succeeded false.
llvm::Expected<LinkResult> runLinker(llvm::StringRef Target,
                                     llvm::StringRef Linker,
                                     llvm::ArrayRef<llvm::StringRef> Flags,
                                     llvm::ArrayRef<LinkInput> Inputs);

} // namespace hetgpu

#endif // HETGPU_TARGETS_EXTERNALTOOLS_H
