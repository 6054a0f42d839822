//===- ObjectEmission.cpp - Target machines and code generation -----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements include/hetgpu/Targets/ObjectEmission.h.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Targets/ObjectEmission.h"
#include "hetgpu/Targets/TargetDiagnostics.h"

#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

namespace hetgpu {

CodeGenOptLevel codeGenOptLevel(unsigned OptLevel) {
  return OptLevel == 0   ? CodeGenOptLevel::None
         : OptLevel == 1 ? CodeGenOptLevel::Less
         : OptLevel == 2 ? CodeGenOptLevel::Default
                         : CodeGenOptLevel::Aggressive;
}

OptimizationLevel optimizationLevel(unsigned OptLevel) {
  return OptLevel == 0   ? OptimizationLevel::O0
         : OptLevel == 1 ? OptimizationLevel::O1
         : OptLevel == 2 ? OptimizationLevel::O2
                         : OptimizationLevel::O3;
}

namespace {
/// Sets a registered boolean cl::opt to true for its lifetime, holding a
/// lock so that no other build sees the value.
class ScopedTrueOption {
public:
  explicit ScopedTrueOption(StringRef Name) {
    if (Name.empty())
      return;
    Lock = std::unique_lock<std::mutex>(mutex());
    auto &Options = cl::getRegisteredOptions();
    auto It = Options.find(Name);
    Opt = It == Options.end() ? nullptr
                              : static_cast<cl::opt<bool> *>(It->second);
    Old = Opt && *Opt;
    if (Opt)
      *Opt = true;
  }
  ~ScopedTrueOption() {
    if (Opt)
      *Opt = Old;
  }

private:
  static std::mutex &mutex() {
    static std::mutex M;
    return M;
  }
  std::unique_lock<std::mutex> Lock;
  cl::opt<bool> *Opt = nullptr;
  bool Old = false;
};
} // namespace

Expected<std::unique_ptr<TargetMachine>>
createTargetMachine(const MachineRequest &R) {
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(R.Triple, Err);
  if (!T)
    return targetError(R.Target,
                       "LLVM has no " + R.Backend + " back end: " + Err);
  std::unique_ptr<TargetMachine> TM;
  {
    ScopedTrueOption Override(R.TrueWhileCreating);
    TM.reset(T->createTargetMachine(R.Triple, R.CPU, R.Features, R.Options,
                                    R.Reloc, R.CodeModel,
                                    codeGenOptLevel(R.OptLevel)));
  }
  if (!TM)
    return targetError(R.Target, "cannot create a " + R.Backend +
                                     " target machine for '" + R.CPU + "'");
  if (!R.CPUExamples.empty() &&
      !TM->getMCSubtargetInfo()->isCPUStringValid(R.CPU))
    return targetError(R.Target, "'" + R.CPU + "' is not an " + R.Backend +
                                     " processor (" + R.CPUExamples + ")");
  return std::move(TM);
}


Error emitCode(StringRef Target, TargetMachine &TM, Module &M,
               CodeGenFileType Type, SmallVectorImpl<char> &Out,
               const EmitOptions &Opts) {
  raw_svector_ostream OS(Out);
  legacy::PassManager PM;
  if (Opts.TargetTransformInfo)
    PM.add(createTargetTransformInfoWrapperPass(TM.getTargetIRAnalysis()));
  {
    ScopedTrueOption Override(Opts.TrueWhileBuilding);
    if (TM.addPassesToEmitFile(PM, OS, nullptr, Type))
      return targetError(Target,
                         "the code generator of " +
                             TM.getTargetTriple().str() + " cannot emit " +
                             (Type == CodeGenFileType::AssemblyFile
                                  ? "assembly"
                                  : "an object file"));
  }
  PM.run(M);
  return Error::success();
}

} // namespace hetgpu
