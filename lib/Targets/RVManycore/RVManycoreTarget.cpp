//===- RVManycoreTarget.cpp - The rvmc (RISC-V many-core) lowering target -===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `createRVManycoreTarget()`: lowers hetIR with hetgpu-lower-rvmc, optimises,
/// generates a RISC-V object (rv64imafd, lp64d, PIC, medany) and links it
/// with the device runtime into the static-PIE image the tt-sim device runs.
///
/// USAGE: hetgpu-translate --target=rvmc [--arch=rv64imafd] in.bc -o out.elf
///
//===----------------------------------------------------------------------===//

#include "LowerToRVManycore.h"
#include "RVManycoreLink.h"

#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Targets/DeviceMath.h"
#include "hetgpu/Targets/LoweringTarget.h"
#include "hetgpu/Targets/OptimizeModule.h"
#include "hetgpu/Transforms/SIMTToMIMD.h"

#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <mutex>

extern "C" {
void LLVMInitializeRISCVTargetInfo();
void LLVMInitializeRISCVTarget();
void LLVMInitializeRISCVTargetMC();
void LLVMInitializeRISCVAsmPrinter();
}

using namespace llvm;

namespace hetgpu {

namespace {

Error failure(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), "rvmc: " + Msg);
}

/// Collects error diagnostics of a context instead of letting it exit.
class ScopedDiagnostics {
  class Handler : public DiagnosticHandler {
  public:
    explicit Handler(std::string &Out) : Out(Out) {}
    bool handleDiagnostics(const DiagnosticInfo &DI) override {
      if (DI.getSeverity() != DS_Error)
        return true;
      std::string Msg;
      raw_string_ostream OS(Msg);
      DiagnosticPrinterRawOStream DP(OS);
      DI.print(DP);
      Out += (Out.empty() ? "" : "\n") + Msg;
      return true;
    }
    std::string &Out;
  };

public:
  explicit ScopedDiagnostics(LLVMContext &Ctx) : Ctx(Ctx) {
    Saved = Ctx.getDiagnosticHandler();
    Ctx.setDiagnosticHandler(std::make_unique<Handler>(Errors));
  }
  ~ScopedDiagnostics() { Ctx.setDiagnosticHandler(std::move(Saved)); }
  Error takeError(StringRef What) {
    if (Errors.empty())
      return Error::success();
    std::string E = std::move(Errors);
    Errors.clear();
    return failure(What + ": " + E);
  }

private:
  LLVMContext &Ctx;
  std::unique_ptr<DiagnosticHandler> Saved;
  std::string Errors;
};

void initializeRISCVBackend() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeRISCVTargetInfo();
    LLVMInitializeRISCVTarget();
    LLVMInitializeRISCVTargetMC();
    LLVMInitializeRISCVAsmPrinter();
  });
}

class RVManycoreTarget final : public LoweringTarget {
public:
  StringRef name() const override { return "rvmc"; }
  std::string defaultArch() const override { return "rv64imafd"; }
  // Its cores run a block's threads one after another (SIMT->MIMD), as the
  // host target does.
  bool readsYieldFlagEarly() const override { return false; }

  void registerPasses(PassBuilder &PB) const override {
    PB.registerPipelineParsingCallback(
        [](StringRef Name, ModulePassManager &MPM,
           ArrayRef<PassBuilder::PipelineElement>) {
          if (Name != LowerToRVManycorePass::name())
            return false;
          MPM.addPass(LowerToRVManycorePass());
          return true;
        });
  }

  Error lower(Module &M, const TargetOptions &Opts) const override {
    ScopedDiagnostics Diags(M.getContext());
    RVManycoreLowerOptions LO;
    LO.Arch = Opts.Arch.empty() ? defaultArch() : Opts.Arch;
    LO.Instrument = Opts.Instrument;
    Error E = lowerModuleToRVManycore(M, LO);
    return joinErrors(std::move(E), Diags.takeError("lowering"));
  }

  Expected<std::vector<char>> emit(Module &M,
                                   const TargetOptions &Opts) const override;
};

Expected<std::vector<char>>
RVManycoreTarget::emit(Module &M, const TargetOptions &Opts) const {
  initializeRISCVBackend();
  ScopedDiagnostics Diags(M.getContext());
  std::string Arch = Opts.Arch.empty() ? defaultArch() : Opts.Arch;
  Expected<std::string> Features = rvmcFeaturesForArch(Arch);
  if (!Features)
    return Features.takeError();
  if (!Opts.Features.empty())
    *Features += "," + Opts.Features;

  Triple TT(RVMCTriple);
  if (M.getTargetTriple() != TT)
    return failure("emit() needs a module lowered by hetgpu-lower-rvmc "
                   "(triple is '" + M.getTargetTriple().str() + "')");
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(TT, Err);
  if (!T)
    return failure("LLVM has no RISC-V back end: " + Err);
  llvm::TargetOptions TO;
  TO.MCOptions.ABIName = "lp64d";
  TO.AllowFPOpFusion = FPOpFusion::Fast; // as nvcc's default --fmad=true
  CodeGenOptLevel CGOpt = Opts.OptLevel == 0   ? CodeGenOptLevel::None
                          : Opts.OptLevel == 1 ? CodeGenOptLevel::Less
                          : Opts.OptLevel == 2 ? CodeGenOptLevel::Default
                                               : CodeGenOptLevel::Aggressive;
  std::unique_ptr<TargetMachine> TM(
      T->createTargetMachine(TT, "generic-rv64", *Features, TO, Reloc::PIC_,
                             CodeModel::Medium, CGOpt));
  if (!TM)
    return failure("cannot create a RISC-V target machine for " + Arch);
  M.setDataLayout(TM->createDataLayout());

  // (getOperandBundleTagID would crash on a context that never saw the tag.)
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *CB = dyn_cast<CallBase>(&I);
            CB && CB->getOperandBundle(LiveBundle))
          return failure("in function '" + F.getName() +
                         "': safe point still carries 'hetgpu.live' values");

  // The portable math library (hetgpu-math-riscv64-unknown-elf.bc), linked
  // as bitcode so its functions inline into the kernels.
  if (Error E = linkDeviceMathLibrary(M))
    return joinErrors(failure("device math library"), std::move(E));

  std::string VerifyMsg;
  raw_string_ostream VOS(VerifyMsg);
  if (verifyModule(M, &VOS))
    return failure("lowered module is invalid: " + VerifyMsg);

  // Block functions, frame sizes and device variables stay visible (tt-sim
  // looks them up by name); everything else may be inlined and dropped.
  optimizeModule(M, TM.get(), Opts.OptLevel, [](const Function &F) {
    return F.getName().starts_with(BlockFunctionPrefix);
  });
  if (Error E = Diags.takeError("optimisation"))
    return std::move(E);

  SmallString<0> Object;
  {
    raw_svector_ostream OS(Object);
    legacy::PassManager PM;
    PM.add(createTargetTransformInfoWrapperPass(TM->getTargetIRAnalysis()));
    if (TM->addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::ObjectFile))
      return failure("the RISC-V back end cannot emit an object file");
    PM.run(M);
  }
  if (Error E = Diags.takeError("code generation"))
    return std::move(E);
  return linkRVManycoreImage(ArrayRef<char>(Object.data(), Object.size()));
}

} // namespace

std::unique_ptr<LoweringTarget> createRVManycoreTarget() {
  return std::make_unique<RVManycoreTarget>();
}

} // namespace hetgpu
