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
#include "hetgpu/Targets/ObjectEmission.h"
#include "hetgpu/Targets/OptimizeModule.h"
#include "hetgpu/Targets/TargetDiagnostics.h"
#include "hetgpu/Targets/TotalDivision.h"
#include "hetgpu/Transforms/SIMTToMIMD.h"

#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

namespace hetgpu {

namespace {

constexpr StringLiteral TargetName = "rvmc";

Error failure(const Twine &Msg) { return targetError(TargetName, Msg); }

class RVManycoreTarget final : public LoweringTarget {
public:
  StringRef name() const override { return TargetName; }
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
    ScopedDiagnostics Diags(M.getContext(), TargetName);
    RVManycoreLowerOptions LO;
    LO.Arch = Opts.Arch.empty() ? defaultArch() : Opts.Arch;
    LO.Instrument = Opts.Instrument;
    // RISC-V division does not trap, but its signed x / 0 and LLVM's
    // undefined behaviour differ from the GPU (TotalDivision.h).
    makeDivisionTotal(M);
    Error E = lowerModuleToRVManycore(M, LO);
    return joinErrors(std::move(E), Diags.takeError("lowering"));
  }

  Expected<std::vector<char>> emit(Module &M,
                                   const TargetOptions &Opts) const override;
};

Expected<std::vector<char>>
RVManycoreTarget::emit(Module &M, const TargetOptions &Opts) const {
  HETGPU_INITIALIZE_LLVM_BACKEND(RISCV);
  ScopedDiagnostics Diags(M.getContext(), TargetName);
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
  MachineRequest R;
  R.Target = TargetName;
  R.Backend = "RISC-V";
  R.Triple = TT;
  R.CPU = "generic-rv64";
  R.Features = *Features;
  R.Options.MCOptions.ABIName = "lp64d";
  R.Options.AllowFPOpFusion = FPOpFusion::Fast; // as nvcc's default --fmad=true
  R.Reloc = Reloc::PIC_;
  R.CodeModel = CodeModel::Medium;
  R.OptLevel = Opts.OptLevel;
  Expected<std::unique_ptr<TargetMachine>> TMOr = createTargetMachine(R);
  if (!TMOr)
    return TMOr.takeError();
  std::unique_ptr<TargetMachine> TM = std::move(*TMOr);
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
  if (Error E =
          emitCode(TargetName, *TM, M, CodeGenFileType::ObjectFile, Object))
    return std::move(E);
  if (Error E = Diags.takeError("code generation"))
    return std::move(E);
  return linkRVManycoreImage(ArrayRef<char>(Object.data(), Object.size()));
}

} // namespace

std::unique_ptr<LoweringTarget> createRVManycoreTarget() {
  return std::make_unique<RVManycoreTarget>();
}

} // namespace hetgpu
