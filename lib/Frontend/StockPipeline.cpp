//===- StockPipeline.cpp - HetGPUClang.so in a stock clang CUDA build
//------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The "hetgpu" plugin action of HetGPUClang.so, run before the main action
/// of every compile the plugin is loaded into:
///
/// - it refuses a Clang whose major.minor version differs from the one
///   hetGPU was built against (the plugin uses Clang's C++ API, which has no
///   stable ABI across releases);
/// - in the device compile of a stock `clang++ -x cuda` build (one that
///   emits PTX for ptxas, not hetgpu-cc's `-emit-llvm`), it embeds the
///   device module's bitcode in the PTX (`-fembed-bitcode`), so that the
///   ptxas stand-in of hetGPU's CUDA toolkit folder can turn it into hetIR
///   (docs/Driver.md, "Stock clang").
///
/// `-fplugin-arg-hetgpu-clang-version=X.Y.Z` replaces the running Clang's
/// version in the check (for testing the refusal).
///
//===----------------------------------------------------------------------===//

#include "clang/Basic/CodeGenOptions.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/ADT/StringRef.h"

using namespace clang;
using namespace llvm;

namespace {

/// "X.Y" of a version "X.Y.Z".
StringRef majorMinor(StringRef V) {
  size_t Dot = V.find('.');
  if (Dot == StringRef::npos)
    return V;
  return V.take_front(V.find('.', Dot + 1));
}

/// The version number in getClangFullVersion()'s text ("... clang version
/// 22.1.8 (...)"), which comes from the Clang the plugin is loaded into.
std::string runningClangVersion() {
  std::string Full = getClangFullVersion();
  StringRef Rest = StringRef(Full);
  size_t At = Rest.find("version ");
  if (At == StringRef::npos)
    return Full;
  Rest = Rest.drop_front(At + 8);
  return Rest.take_until([](char C) { return C == ' '; }).str();
}

class StockPipelineAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    const FrontendOptions &FO = CI.getFrontendOpts();
    if (CI.getLangOpts().CUDAIsDevice &&
        FO.ProgramAction == frontend::EmitAssembly &&
        CI.getCodeGenOpts().getEmbedBitcode() == CodeGenOptions::Embed_Off)
      CI.getCodeGenOpts().setEmbedBitcode(CodeGenOptions::Embed_Bitcode);
    return std::make_unique<ASTConsumer>();
  }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    std::string Running = runningClangVersion();
    for (const std::string &A : Args) {
      StringRef Arg(A);
      if (Arg.consume_front("clang-version="))
        Running = Arg.str();
      else {
        DiagnosticsEngine &D = CI.getDiagnostics();
        D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                   "HetGPUClang.so: unknown plugin argument "
                                   "'%0' (known: clang-version=X.Y.Z)"))
            << A;
        return false;
      }
    }
    if (majorMinor(Running) == majorMinor(CLANG_VERSION_STRING))
      return true;
    DiagnosticsEngine &D = CI.getDiagnostics();
    D.Report(D.getCustomDiagID(
        DiagnosticsEngine::Error,
        "HetGPUClang.so was built for Clang %0 but is loaded into Clang %1; "
        "use clang++-%2 or rebuild hetGPU against this Clang"))
        << CLANG_VERSION_STRING << Running << CLANG_VERSION_MAJOR;
    return false;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<StockPipelineAction>
    X("hetgpu", "check the Clang version; keep device bitcode for hetGPU's "
                "ptxas in stock clang CUDA builds");
