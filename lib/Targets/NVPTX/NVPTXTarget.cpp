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
#include "hetgpu/Targets/ObjectEmission.h"
#include "hetgpu/Targets/OptimizeModule.h"
#include "hetgpu/Targets/TargetDiagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>

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

constexpr StringLiteral TargetName = "nvptx";

class NVPTXTarget final : public LoweringTarget {
public:
  StringRef name() const override { return TargetName; }
  std::string defaultArch() const override { return "sm_70"; }
  /// PTX shared-memory addresses are 32-bit offsets in the block's window.
  bool wrapsSharedAddresses() const override { return true; }

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
    ScopedDiagnostics Diags(M.getContext(), TargetName);
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
  HETGPU_INITIALIZE_LLVM_BACKEND(NVPTX);
  ScopedDiagnostics Diags(M.getContext(), TargetName);

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

  MachineRequest R;
  R.Target = TargetName;
  R.Backend = "NVPTX";
  R.Triple = Triple(NVPTXTriple);
  R.CPU = Arch;
  R.Features = Features;
  // nvcc contracts a*b+c into fma by default (--fmad=true). hetgpu-cc's
  // device compile marks user code `contract` (-ffp-contract=fast), which
  // the Standard mode honours; library code without the flag (libdevice's
  // error-free transformations) is left as written, as NVVM leaves it.
  R.Options.AllowFPOpFusion = FPOpFusion::Standard;
  R.OptLevel = Opts.OptLevel;
  R.CPUExamples = "e.g. sm_90";
  // 32-bit pointers for shared, constant and local memory, as nvcc's PTX
  // has them (clang: -fcuda-short-ptr): shared-memory addresses in 32-bit
  // registers, no 64-bit multiply per index (CUB's onesweep kernel: 143
  // mul.wide before, 55 after).
  R.TrueWhileCreating = "nvptx-short-ptr";
  Expected<std::unique_ptr<TargetMachine>> TMOr = createTargetMachine(R);
  if (!TMOr)
    return TMOr.takeError();
  std::unique_ptr<TargetMachine> TM = std::move(*TMOr);
  const Triple &TT = R.Triple;

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
  if (Error E = emitCode(TargetName, *TM, M, CodeGenFileType::AssemblyFile, PTXText))
    return std::move(E);
  if (Error E = Diags.takeError("code generation"))
    return std::move(E);
  return std::vector<char>(PTXText.begin(), PTXText.end());
}

} // namespace

std::unique_ptr<LoweringTarget> createNVPTXTarget() {
  return std::make_unique<NVPTXTarget>();
}

} // namespace hetgpu
