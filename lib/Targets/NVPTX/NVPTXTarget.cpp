//===- NVPTXTarget.cpp - The nvptx lowering target ------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `createNVPTXTarget()`: lowers hetIR with hetgpu-lower-nvptx, then runs
/// LLVM's O3 pipeline and the NVPTX code generator to produce PTX text for
/// TargetOptions::Arch (default sm_70) at a PTX ISA version the arch needs
/// (or the one given as "+ptxNN" in TargetOptions::Features).
///
/// USAGE: hetgpu-translate --target=nvptx --arch=sm_90 in.bc -o out.ptx
///
//===----------------------------------------------------------------------===//

#include "LowerToNVPTX.h"

#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Targets/LoweringTarget.h"
#include "hetgpu/Targets/OptimizeModule.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <algorithm>
#include <mutex>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

using namespace llvm;

namespace hetgpu {

namespace {

/// Lowest PTX ISA version (x10) that can target \p Arch, as CUDA defines
/// it; 0 for an arch this table does not know.
unsigned minPTXVersion(StringRef Arch) {
  return StringSwitch<unsigned>(Arch)
      .Cases({"sm_50", "sm_52", "sm_53"}, 40)
      .Cases({"sm_60", "sm_61", "sm_62"}, 50)
      .Case("sm_70", 60)
      .Case("sm_72", 61)
      .Case("sm_75", 63)
      .Case("sm_80", 70)
      .Case("sm_86", 71)
      .Case("sm_87", 74)
      .Cases({"sm_89", "sm_90"}, 78)
      .Case("sm_90a", 80)
      .Cases({"sm_100", "sm_100a", "sm_101", "sm_101a"}, 86)
      .Cases({"sm_120", "sm_120a"}, 87)
      .Cases({"sm_103", "sm_103a", "sm_121", "sm_121a"}, 88)
      .Default(0);
}

/// The "+ptxNN" value in \p Features, or 0.
unsigned requestedPTXVersion(StringRef Features) {
  SmallVector<StringRef, 4> Parts;
  Features.split(Parts, ',', -1, false);
  unsigned V = 0;
  for (StringRef P : Parts) {
    P = P.trim();
    unsigned N;
    if (P.consume_front("+ptx") && !P.getAsInteger(10, N))
      V = N;
  }
  return V;
}

/// Collects error diagnostics instead of letting LLVMContext exit.
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

/// Installs a CollectingHandler on a context for the lifetime of the object.
class ScopedDiagnostics {
public:
  explicit ScopedDiagnostics(LLVMContext &Ctx) : Ctx(Ctx) {
    Saved = Ctx.getDiagnosticHandler();
    Ctx.setDiagnosticHandler(std::make_unique<CollectingHandler>(Errors));
  }
  ~ScopedDiagnostics() { Ctx.setDiagnosticHandler(std::move(Saved)); }
  Error takeError(StringRef What) {
    if (Errors.empty())
      return Error::success();
    std::string E = std::move(Errors);
    Errors.clear();
    return createStringError(inconvertibleErrorCode(), "nvptx: " + What + ": " + E);
  }

private:
  LLVMContext &Ctx;
  std::unique_ptr<DiagnosticHandler> Saved;
  std::string Errors;
};

void initializeNVPTXBackend() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

class NVPTXTarget final : public LoweringTarget {
public:
  StringRef name() const override { return "nvptx"; }
  std::string defaultArch() const override { return "sm_70"; }

  void registerPasses(PassBuilder &PB) const override {
    PB.registerPipelineParsingCallback(
        [](StringRef Name, ModulePassManager &MPM,
           ArrayRef<PassBuilder::PipelineElement>) {
          if (Name != LowerToNVPTXPass::name())
            return false;
          MPM.addPass(LowerToNVPTXPass());
          return true;
        });
  }

  Error lower(Module &M, const TargetOptions &Opts) const override {
    ScopedDiagnostics Diags(M.getContext());
    NVPTXLowerOptions LO;
    LO.Instrument = Opts.Instrument;
    Error E = lowerModuleToNVPTX(M, LO);
    return joinErrors(std::move(E), Diags.takeError("lowering"));
  }

  Expected<std::vector<char>> emit(Module &M,
                                   const TargetOptions &Opts) const override;
};

Expected<std::vector<char>> NVPTXTarget::emit(Module &M,
                                              const TargetOptions &Opts) const {
  initializeNVPTXBackend();
  ScopedDiagnostics Diags(M.getContext());

  std::string Arch = Opts.Arch.empty() ? defaultArch() : Opts.Arch;
  std::string Features = Opts.Features;
  unsigned SM = 0;
  if (!StringRef(Arch).starts_with("sm_") ||
      StringRef(Arch).drop_front(3).take_while(isDigit).getAsInteger(10, SM))
    return createStringError(inconvertibleErrorCode(),
                             "nvptx: '%s' is not an NVPTX processor (e.g. sm_90)",
                             Arch.c_str());
  // hetIR's warp builtins are CUDA's *_sync forms, which need independent
  // thread scheduling.
  if (SM < 70)
    return createStringError(inconvertibleErrorCode(),
                             "nvptx: %s is not supported: hetGPU needs sm_70 or "
                             "newer (independent thread scheduling, *.sync "
                             "warp intrinsics)",
                             Arch.c_str());
  // activemask needs PTX ISA 6.2; every driver since CUDA 10.0 takes 6.3.
  unsigned MinPTX = std::max(minPTXVersion(Arch), 63u);
  unsigned PTX = requestedPTXVersion(Features);
  if (PTX && MinPTX && PTX < MinPTX)
    return createStringError(
        inconvertibleErrorCode(),
        "nvptx: PTX ISA %u.%u is too old for %s (needs %u.%u or newer)", PTX / 10,
        PTX % 10, Arch.c_str(), MinPTX / 10, MinPTX % 10);
  // Variable-sized allocas (alloca with a run-time size, stacksave) need
  // PTX ISA 7.3; choose it rather than fail when no version was asked for.
  if (!PTX && MinPTX && MinPTX < 73)
    for (Function &F : M)
      for (Instruction &I : instructions(F))
        if (auto *AI = dyn_cast<AllocaInst>(&I); AI && !AI->isStaticAlloca())
          MinPTX = 73;
  if (!PTX && MinPTX)
    Features += (Features.empty() ? "" : ",") + ("+ptx" + Twine(MinPTX)).str();

  Triple TT(NVPTXTriple);
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(TT, Err);
  if (!T)
    return createStringError(inconvertibleErrorCode(),
                             "nvptx: LLVM has no NVPTX back end: " + Err);
  llvm::TargetOptions TO;
  // nvcc contracts a*b+c into fma by default (--fmad=true). hetgpu-cc's
  // device compile marks user code `contract` (-ffp-contract=fast), which
  // the Standard mode honours; library code without the flag (libdevice's
  // error-free transformations) is left as written, as NVVM leaves it.
  TO.AllowFPOpFusion = FPOpFusion::Standard;
  CodeGenOptLevel CGOpt = Opts.OptLevel == 0   ? CodeGenOptLevel::None
                          : Opts.OptLevel == 1 ? CodeGenOptLevel::Less
                          : Opts.OptLevel == 2 ? CodeGenOptLevel::Default
                                               : CodeGenOptLevel::Aggressive;
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      TT, Arch, Features, TO, std::nullopt, std::nullopt, CGOpt));
  if (!TM)
    return createStringError(inconvertibleErrorCode(),
                             "nvptx: cannot create a target machine for %s",
                             Arch.c_str());
  if (!TM->getMCSubtargetInfo()->isCPUStringValid(Arch))
    return createStringError(inconvertibleErrorCode(),
                             "nvptx: '%s' is not an NVPTX processor (e.g. sm_90)",
                             Arch.c_str());

  if (M.getTargetTriple() != TT)
    return createStringError(inconvertibleErrorCode(),
                             "nvptx: emit() needs a module lowered by "
                             "hetgpu-lower-nvptx (triple is '%s')",
                             M.getTargetTriple().str().c_str());
  M.setDataLayout(TM->createDataLayout());

  // Live-value bundles left on barriers mean the state instrumentation
  // (hetgpu-instrument-state, which the translator runs on the hetIR before
  // lowering and which strips them) did not run; codegen cannot lower them.
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *CB = dyn_cast<CallBase>(&I); CB && CB->getOperandBundle(LiveBundle))
          return createStringError(
              inconvertibleErrorCode(),
              "nvptx: in function '%s': safe point still carries 'hetgpu.live' "
              "values: run hetgpu-instrument-state before lowering",
              F.getName().str().c_str());

  std::string VerifyMsg;
  raw_string_ostream VOS(VerifyMsg);
  if (verifyModule(M, &VOS))
    return createStringError(inconvertibleErrorCode(),
                             "nvptx: lowered module is invalid: " + VerifyMsg);

  // Only kernels (and device variables, which the runtime looks up by
  // name) stay visible: everything else may be inlined and dropped.
  optimizeModule(M, TM.get(), Opts.OptLevel, [](const Function &F) {
    return F.getCallingConv() == CallingConv::PTX_Kernel;
  });
  if (Error E = Diags.takeError("optimisation"))
    return std::move(E);

  SmallString<0> PTXText;
  {
    raw_svector_ostream OS(PTXText);
    legacy::PassManager PM;
    PM.add(createTargetTransformInfoWrapperPass(TM->getTargetIRAnalysis()));
    if (TM->addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::AssemblyFile))
      return createStringError(inconvertibleErrorCode(),
                               "nvptx: the NVPTX back end cannot emit PTX");
    PM.run(M);
  }
  if (Error E = Diags.takeError("code generation"))
    return std::move(E);
  return std::vector<char>(PTXText.begin(), PTXText.end());
}

} // namespace

std::unique_ptr<LoweringTarget> createNVPTXTarget() {
  return std::make_unique<NVPTXTarget>();
}

} // namespace hetgpu
