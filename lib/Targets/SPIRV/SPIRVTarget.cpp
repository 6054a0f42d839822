//===- SPIRVTarget.cpp - The SPIR-V lowering target -----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// LoweringTarget for OpenCL / Level Zero devices: `hetgpu-lower-spirv`
/// (LowerToSPIRV.cpp), then LLVM's SPIR-V backend writes a SPIR-V binary.
///
/// Arch is the SPIR-V version the consumer accepts, "spirv1.0" ..
/// "spirv1.6" (default "spirv1.2", what the Khronos translator shipped with
/// Debian's PoCL reads). Features: "+subgroups32" when the device runs
/// sub-groups of exactly 32 work-items (warp operations map onto them;
/// SPIR-V 1.3 at least); without it warp operations are emulated.
/// "+fence-as-atomic": fences as atomics (consumers without mem_fence).
/// "+defer-unsupported": kernels that cannot be expressed are left out and
/// reported at launch instead of failing the module.
///
/// USAGE: hetgpu-translate --target=spirv [--arch=spirv1.2] in.bc -o out.spv
///
//===----------------------------------------------------------------------===//

#include "LowerToSPIRV.h"

#include "hetgpu/Targets/LoweringTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

#include <mutex>

extern "C" {
void LLVMInitializeSPIRVTargetInfo();
void LLVMInitializeSPIRVTarget();
void LLVMInitializeSPIRVTargetMC();
void LLVMInitializeSPIRVAsmPrinter();
}

using namespace llvm;

namespace hetgpu {
namespace {

constexpr StringLiteral DefaultArch = "spirv1.2";

/// Parses "spirvX.Y" into the minor version Y (major is always 1).
Expected<unsigned> parseArch(StringRef Arch) {
  if (Arch.empty())
    Arch = DefaultArch;
  unsigned Minor;
  if (!Arch.consume_front("spirv1.") || Arch.getAsInteger(10, Minor) ||
      Minor > 6)
    return createStringError(inconvertibleErrorCode(),
                             "spirv: unknown arch '%s' (expected spirv1.0 .. "
                             "spirv1.6)",
                             Arch.str().c_str());
  return Minor;
}

bool hasFeature(StringRef Features, StringRef Name) {
  SmallVector<StringRef, 4> Parts;
  Features.split(Parts, ',', -1, false);
  for (StringRef P : Parts)
    if (P.trim() == ("+" + Name).str())
      return true;
  return false;
}

SPIRVLoweringOptions loweringOptions(const TargetOptions &Opts) {
  SPIRVLoweringOptions L;
  L.SubGroups32 = hasFeature(Opts.Features, "subgroups32");
  L.FenceAsAtomic = hasFeature(Opts.Features, "fence-as-atomic");
  L.DeferUnsupported = hasFeature(Opts.Features, "defer-unsupported");
  L.DeviceDesc =
      (L.SubGroups32 ? "SPIR-V device with 32-wide sub-groups"
                     : "SPIR-V device without 32-wide sub-groups") +
      std::string(" (arch '") + (Opts.Arch.empty() ? DefaultArch.str() : Opts.Arch) +
      "')";
  return L;
}

class SPIRVTarget final : public LoweringTarget {
public:
  StringRef name() const override { return "spirv"; }
  std::string defaultArch() const override { return DefaultArch.str(); }

  void registerPasses(PassBuilder &PB) const override {
    PB.registerPipelineParsingCallback(
        [](StringRef Name, ModulePassManager &MPM,
           ArrayRef<PassBuilder::PipelineElement>) {
          if (Name != "hetgpu-lower-spirv")
            return false;
          MPM.addPass(LowerToSPIRVPass());
          return true;
        });
  }

  Error lower(Module &M, const TargetOptions &Opts) const override {
    if (Expected<unsigned> V = parseArch(Opts.Arch); !V)
      return V.takeError();
    // Opts.Instrument: the translator already ran hetgpu-instrument-state on
    // the hetIR; the result is plain hetIR, lowered like any other module.
    return lowerModuleToSPIRV(M, loweringOptions(Opts));
  }

  Expected<std::vector<char>> emit(Module &M,
                                   const TargetOptions &Opts) const override;
};

Expected<std::vector<char>> SPIRVTarget::emit(Module &M,
                                              const TargetOptions &Opts) const {
  Expected<unsigned> Minor = parseArch(Opts.Arch);
  if (!Minor)
    return Minor.takeError();
  if (!isLoweredForSPIRV(M))
    return createStringError(inconvertibleErrorCode(),
                             "spirv: emit() needs a module lowered by "
                             "hetgpu-lower-spirv");
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeSPIRVTargetInfo();
    LLVMInitializeSPIRVTarget();
    LLVMInitializeSPIRVTargetMC();
    LLVMInitializeSPIRVAsmPrinter();
  });
  bool SubGroups = hasFeature(Opts.Features, "subgroups32");
  unsigned V = std::max(*Minor, SubGroups ? 3u : 0u);
  Triple TT(("spirv64v1." + Twine(V) + "-unknown-unknown").str());
  M.setTargetTriple(TT);
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(TT, Err);
  if (!T)
    return createStringError(inconvertibleErrorCode(), "spirv: %s",
                             Err.c_str());
  CodeGenOptLevel CGO = Opts.OptLevel == 0   ? CodeGenOptLevel::None
                        : Opts.OptLevel == 1 ? CodeGenOptLevel::Less
                        : Opts.OptLevel == 2 ? CodeGenOptLevel::Default
                                             : CodeGenOptLevel::Aggressive;
  std::unique_ptr<TargetMachine> TMach(T->createTargetMachine(
      TT, "", "", llvm::TargetOptions(), std::nullopt, std::nullopt, CGO));
  if (!TMach)
    return createStringError(inconvertibleErrorCode(),
                             "spirv: cannot create the SPIR-V target machine");
  M.setDataLayout(TMach->createDataLayout());

  // Optimise. Vectorisers are off: OpenCL devices vectorise themselves and
  // the SPIR-V consumers handle scalar code best.
  if (Opts.OptLevel > 0) {
    LoopAnalysisManager LAM;
    FunctionAnalysisManager FAM;
    CGSCCAnalysisManager CGAM;
    ModuleAnalysisManager MAM;
    PipelineTuningOptions PTO;
    PTO.LoopVectorization = false;
    PTO.SLPVectorization = false;
    PassBuilder PB(TMach.get(), PTO);
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
    OptimizationLevel OL = Opts.OptLevel == 1   ? OptimizationLevel::O1
                           : Opts.OptLevel == 2 ? OptimizationLevel::O2
                                                : OptimizationLevel::O3;
    ModulePassManager MPM = PB.buildPerModuleDefaultPipeline(OL);
    MPM.run(M, MAM);
  }
  std::string VErr;
  raw_string_ostream VOS(VErr);
  if (verifyModule(M, &VOS))
    return createStringError(inconvertibleErrorCode(),
                             "spirv: invalid module after optimisation: %s",
                             VErr.c_str());

  SmallVector<char, 0> Buf;
  raw_svector_ostream OS(Buf);
  legacy::PassManager PM;
  if (TMach->addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::ObjectFile))
    return createStringError(inconvertibleErrorCode(),
                             "spirv: the SPIR-V backend cannot emit a binary");
  PM.run(M);
  if (Buf.size() < 20 || Buf.size() % 4)
    return createStringError(inconvertibleErrorCode(),
                             "spirv: the SPIR-V backend produced no module");
  return std::vector<char>(Buf.begin(), Buf.end());
}

} // namespace

std::unique_ptr<LoweringTarget> createSPIRVTarget() {
  return std::make_unique<SPIRVTarget>();
}

} // namespace hetgpu
