//===- TargetDiagnostics.h - Errors of lowering targets ---------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// What every lowering target (lib/Targets/<Class>/) does with errors:
/// messages prefixed with the target's name ("nvptx: ..."), the LLVM
/// diagnostics a lowering or the code generator raises collected into an
/// llvm::Error instead of ending the process, the constructs a lowering could
/// not handle gathered per function, and the pass forms of the lowerings
/// reporting an llvm::Error as a HetGPUFailure (include/hetgpu/Support/
/// Diagnostics.h). Part of HetGPUTargetSupport (lib/Targets/Support/).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TARGETS_TARGETDIAGNOSTICS_H
#define HETGPU_TARGETS_TARGETDIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class DiagnosticHandler;
class Function;
class LLVMContext;
class Module;
} // namespace llvm

namespace hetgpu {

/// An error "<Target>: <Msg>" (Target is e.g. "nvptx" or "host target").
llvm::Error targetError(llvm::StringRef Target, const llvm::Twine &Msg);

/// Collects the error diagnostics raised on a context while it lives (a
/// lowering, optimisation or code generation) instead of letting LLVMContext
/// print them and exit; warnings and remarks are dropped. The context's
/// previous handler comes back on destruction.
class ScopedDiagnostics {
public:
  ScopedDiagnostics(llvm::LLVMContext &Ctx, llvm::StringRef Target);
  ~ScopedDiagnostics();
  ScopedDiagnostics(const ScopedDiagnostics &) = delete;
  ScopedDiagnostics &operator=(const ScopedDiagnostics &) = delete;

  /// "<Target>: <What>: <errors, one a line>" for the errors collected since
  /// the last call, or success when there were none.
  llvm::Error takeError(llvm::StringRef What);

private:
  llvm::LLVMContext &Ctx;
  std::string Target;
  std::unique_ptr<llvm::DiagnosticHandler> Saved;
  std::string Errors;
};

/// The constructs a lowering could not handle, each with the function that
/// holds it (null for module-level ones). Lowerings go on after a failure,
/// so that one run names every problem.
class LoweringFailures {
public:
  void add(llvm::Function *F, const llvm::Twine &Msg) {
    Failures.push_back({F, Msg.str()});
  }
  bool empty() const { return Failures.empty(); }

  /// One error, a line per failure: "<Target>: in function '<f>': <msg>";
  /// success when there is none.
  llvm::Error toError(llvm::StringRef Target) const;
  /// Reports each failure through the module's context as a HetGPUFailure
  /// on its function ("<PassName>: <msg>"), or as a plain error.
  void report(llvm::Module &M, llvm::StringRef PassName) const;

private:
  struct Failure {
    llvm::Function *Fn;
    std::string Message;
  };
  std::vector<Failure> Failures;
};

/// The pass form of a lowering that failed as a whole: reports \p Msg as a
/// HetGPUFailure on the first function the module defines, or as a plain
/// context error when it defines none.
void reportModuleFailure(llvm::Module &M, const llvm::Twine &Msg);

} // namespace hetgpu

#endif // HETGPU_TARGETS_TARGETDIAGNOSTICS_H
