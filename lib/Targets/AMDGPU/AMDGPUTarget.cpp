//===- AMDGPUTarget.cpp - The amdgpu lowering target -----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `createAMDGPUTarget()`: lowers hetIR with hetgpu-lower-amdgpu, runs
/// LLVM's optimisation pipeline and the AMDGPU code generator to an ELF
/// relocatable object, and links it with ld.lld (`-shared`) into the HSA
/// code object HIP loads with hipModuleLoadData. ld.lld is found through
/// $HETGPU_LLD, then next to LLVM's tools (/usr/lib/llvm-22/bin), then on
/// PATH (ld.lld-22, ld.lld).
///
/// USAGE: hetgpu-translate --target=amdgpu --arch=gfx942 in.bc -o out.hsaco
///
//===----------------------------------------------------------------------===//

#include "LowerToAMDGPU.h"

#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Targets/ExternalTools.h"
#include "hetgpu/Targets/LoweringTarget.h"
#include "hetgpu/Targets/ObjectEmission.h"
#include "hetgpu/Targets/OptimizeModule.h"
#include "hetgpu/Targets/TargetDiagnostics.h"

#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

namespace hetgpu {

namespace {

constexpr StringLiteral TargetName = "amdgpu";

Error makeError(const Twine &Msg) { return targetError(TargetName, Msg); }

/// Links the relocatable \p Object into a shared HSA code object.
Expected<std::vector<char>> linkCodeObject(ArrayRef<char> Object) {
  Expected<std::string> LLD = findLLD(TargetName);
  if (!LLD)
    return LLD.takeError();
  Expected<LinkResult> R = runLinker(TargetName, *LLD, {"-shared", "--no-undefined"},
                                     {{"kernel.o", Object}});
  if (!R)
    return R.takeError();
  if (!R->Succeeded)
    return makeError("linking the code object with " + *LLD +
                     " failed: " + R->ExecError + R->Log);
  return std::move(R->Output);
}

class AMDGPUTarget final : public LoweringTarget {
public:
  StringRef name() const override { return TargetName; }
  std::string defaultArch() const override { return AMDGPUDefaultArch.str(); }

  void registerPasses(PassBuilder &PB) const override {
    PB.registerPipelineParsingCallback(
        [](StringRef Name, ModulePassManager &MPM,
           ArrayRef<PassBuilder::PipelineElement>) {
          AMDGPULowerOptions O;
          if (!parseLowerToAMDGPUPassName(Name, O))
            return false;
          MPM.addPass(LowerToAMDGPUPass(O));
          return true;
        });
  }

  Error lower(Module &M, const TargetOptions &Opts) const override {
    ScopedDiagnostics Diags(M.getContext(), TargetName);
    AMDGPULowerOptions LO;
    LO.Arch = Opts.Arch.empty() ? defaultArch() : Opts.Arch;
    LO.Features = Opts.Features;
    LO.Instrument = Opts.Instrument;
    Error E = lowerModuleToAMDGPU(M, LO);
    return joinErrors(std::move(E), Diags.takeError("lowering"));
  }

  Expected<std::vector<char>> emit(Module &M,
                                   const TargetOptions &Opts) const override;
};

Expected<std::vector<char>> AMDGPUTarget::emit(Module &M,
                                               const TargetOptions &Opts) const {
  HETGPU_INITIALIZE_LLVM_BACKEND(AMDGPU);
  ScopedDiagnostics Diags(M.getContext(), TargetName);
  std::string Arch = Opts.Arch.empty() ? defaultArch() : Opts.Arch;
  std::string Features = amdgpuFeatures(Arch, Opts.Features);

  MachineRequest R;
  R.Target = TargetName;
  R.Backend = "AMDGPU";
  R.Triple = Triple(AMDGPUTriple);
  R.CPU = Arch;
  R.Features = Features;
  R.Options.AllowFPOpFusion = FPOpFusion::Fast; // as nvcc's --fmad=true
  R.Reloc = Reloc::PIC_;
  R.OptLevel = Opts.OptLevel;
  R.CPUExamples = "e.g. gfx90a, gfx942, gfx1100";
  Expected<std::unique_ptr<TargetMachine>> TMOr = createTargetMachine(R);
  if (!TMOr)
    return TMOr.takeError();
  std::unique_ptr<TargetMachine> TM = std::move(*TMOr);
  const Triple &TT = R.Triple;
  if (M.getTargetTriple() != TT)
    return makeError("emit() needs a module lowered by hetgpu-lower-amdgpu "
                     "(triple is '" + M.getTargetTriple().str() + "')");
  if (M.getDataLayout() != TM->createDataLayout())
    return makeError("the module's data layout is not the AMDGPU back end's");
  // The warp lowering fixed the wavefront size: the processor must agree.
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    StringRef FCPU = F.getFnAttribute("target-cpu").getValueAsString();
    StringRef FFeat = F.getFnAttribute("target-features").getValueAsString();
    if (FCPU != Arch || amdgpuWaveSize(FCPU, FFeat) != amdgpuWaveSize(Arch, Features))
      return makeError("function '" + F.getName() + "' was lowered for " +
                       FCPU + " (wave" + Twine(amdgpuWaveSize(FCPU, FFeat)) +
                       "), not " + Arch + " (wave" +
                       Twine(amdgpuWaveSize(Arch, Features)) + ")");
    break;
  }

  std::string VerifyMsg;
  raw_string_ostream VOS(VerifyMsg);
  if (verifyModule(M, &VOS))
    return makeError("lowered module is invalid: " + VerifyMsg);

  // Calls that are neither defined nor intrinsics would stay undefined
  // symbols of the code object.
  for (Function &F : M)
    if (F.isDeclaration() && !F.isIntrinsic() && !F.use_empty())
      return makeError("function '" + F.getName() +
                       "' is called but not defined (no AMDGPU device "
                       "library provides it)");

  optimizeModule(M, TM.get(), Opts.OptLevel, [](const Function &F) {
    return F.getCallingConv() == CallingConv::AMDGPU_KERNEL;
  });
  if (Error E = Diags.takeError("optimisation"))
    return std::move(E);

  SmallString<0> Object;
  if (Error E = emitCode(TargetName, *TM, M, CodeGenFileType::ObjectFile, Object))
    return std::move(E);
  if (Error E = Diags.takeError("code generation"))
    return std::move(E);
  return linkCodeObject(ArrayRef<char>(Object.data(), Object.size()));
}

} // namespace

std::unique_ptr<LoweringTarget> createAMDGPUTarget() {
  return std::make_unique<AMDGPUTarget>();
}

} // namespace hetgpu
