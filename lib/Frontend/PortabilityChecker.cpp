//===- PortabilityChecker.cpp - Clang plugin diagnosing non-portable CUDA -===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// HetGPUClang.so, loaded by hetgpu-cc with `-fplugin=`, runs before the main
/// action of every CUDA device compilation and reports, with file:line,
/// device code that no portable binary can contain: calls of vendor
/// builtins (`__nvvm_*`, `__builtin_nvvm_*`, `__builtin_ptx_*`,
/// `__builtin_amdgcn_*`), for which hetGPU's headers give the portable CUDA
/// functions instead.
///
/// Inline assembly is not rejected here: device `asm` is PTX, which
/// hetgpu-lower-inline-ptx lowers to hetIR (docs/InlinePTX.md) and which
/// reports, at the asm statement, any instruction outside its subset.
///
/// Host code is not checked. Errors go through DiagnosticsEngine custom IDs,
/// so `-verify` tests them.
///
//===----------------------------------------------------------------------===//

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

using namespace clang;

namespace {

class DeviceCodeVisitor : public RecursiveASTVisitor<DeviceCodeVisitor> {
public:
  explicit DeviceCodeVisitor(ASTContext &Ctx) : Ctx(Ctx), Diags(Ctx.getDiagnostics()) {
    BuiltinDiag = Diags.getCustomDiagID(
        DiagnosticsEngine::Error,
        "vendor builtin '%0' in device function %1 is not portable (use the "
        "CUDA function that provides it)");
  }

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    bool Device = FD->hasAttr<CUDADeviceAttr>() || FD->hasAttr<CUDAGlobalAttr>();
    bool Saved = InDevice;
    // Lambdas and templates inherit the device context of their body's
    // function; a __host__-only function switches it off.
    if (Device)
      InDevice = true;
    else if (FD->hasAttr<CUDAHostAttr>())
      InDevice = false;
    bool R = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    InDevice = Saved;
    return R;
  }

  bool TraverseCXXMethodDecl(CXXMethodDecl *MD) {
    bool Saved = InDevice;
    if (MD->hasAttr<CUDADeviceAttr>() || MD->hasAttr<CUDAGlobalAttr>())
      InDevice = true;
    else if (MD->hasAttr<CUDAHostAttr>())
      InDevice = false;
    bool R = RecursiveASTVisitor::TraverseCXXMethodDecl(MD);
    InDevice = Saved;
    return R;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    // Template patterns are checked through their instantiations (the code
    // that is actually compiled), so each problem is reported once.
    if (InDevice)
      Current = FD->isTemplated() ? nullptr : FD;
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (!InDevice || !Current)
      return true;
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || !Callee->getIdentifier())
      return true;
    StringRef Name = Callee->getName();
    if (Name.starts_with("__nvvm_") || Name.starts_with("__builtin_nvvm_") ||
        Name.starts_with("__builtin_ptx_") || Name.starts_with("__builtin_amdgcn_"))
      Diags.Report(CE->getExprLoc(), BuiltinDiag) << Name << Current;
    return true;
  }

private:
  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  unsigned BuiltinDiag;
  bool InDevice = false;
  const FunctionDecl *Current = nullptr;
};

class PortabilityConsumer : public ASTConsumer {
public:
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (!Ctx.getLangOpts().CUDAIsDevice)
      return;
    DeviceCodeVisitor V(Ctx);
    V.TraverseDecl(Ctx.getTranslationUnitDecl());
  }
};

class PortabilityAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<PortabilityConsumer>();
  }
  bool ParseArgs(const CompilerInstance &, const std::vector<std::string> &) override {
    return true;
  }
  ActionType getActionType() override { return AddAfterMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<PortabilityAction>
    X("hetgpu-portability", "diagnose device code hetGPU cannot make portable");
