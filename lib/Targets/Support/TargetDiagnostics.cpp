//===- TargetDiagnostics.cpp - Errors and diagnostics of lowering targets -===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements include/hetgpu/Targets/TargetDiagnostics.h.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Targets/TargetDiagnostics.h"
#include "hetgpu/Support/Diagnostics.h"

#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace hetgpu {

Error targetError(StringRef Target, const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Target + ": " + Msg);
}

namespace {
/// Appends the text of each error diagnostic to a string, a line each.
class CollectingHandler : public DiagnosticHandler {
public:
  explicit CollectingHandler(std::string &Out) : Out(Out) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() != DS_Error)
      return true; // warnings and remarks are not a translation's business
    std::string Msg;
    raw_string_ostream OS(Msg);
    DiagnosticPrinterRawOStream DP(OS);
    DI.print(DP);
    if (!Out.empty())
      Out += "\n";
    Out += Msg;
    return true;
  }

private:
  std::string &Out;
};
} // namespace

ScopedDiagnostics::ScopedDiagnostics(LLVMContext &Ctx, StringRef Target)
    : Ctx(Ctx), Target(Target.str()) {
  Saved = Ctx.getDiagnosticHandler();
  Ctx.setDiagnosticHandler(std::make_unique<CollectingHandler>(Errors));
}

ScopedDiagnostics::~ScopedDiagnostics() {
  Ctx.setDiagnosticHandler(std::move(Saved));
}

Error ScopedDiagnostics::takeError(StringRef What) {
  if (Errors.empty())
    return Error::success();
  std::string E = std::move(Errors);
  Errors.clear();
  return targetError(Target, What + ": " + E);
}

Error LoweringFailures::toError(StringRef Target) const {
  if (Failures.empty())
    return Error::success();
  std::string Msg;
  for (const Failure &F : Failures) {
    if (!Msg.empty())
      Msg += "\n";
    Msg += Target.str() + ": in function '" +
           (F.Fn ? F.Fn->getName().str() : "") + "': " + F.Message;
  }
  return createStringError(inconvertibleErrorCode(), Msg);
}

void LoweringFailures::report(Module &M, StringRef PassName) const {
  for (const Failure &F : Failures) {
    if (F.Fn)
      reportFailure(*F.Fn, PassName + ": " + F.Message);
    else
      M.getContext().emitError(PassName + ": " + F.Message);
  }
}

void reportModuleFailure(Module &M, const Twine &Msg) {
  for (Function &F : M)
    if (!F.isDeclaration()) {
      reportFailure(F, Msg);
      return;
    }
  M.getContext().emitError(Msg);
}

} // namespace hetgpu
