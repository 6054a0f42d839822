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
/// reported at launch instead of failing the module. "+warp-loop": kernels
/// that need exact warp semantics run one warp per work-item (WarpExecutor.c);
/// "+warp-loop-all": every kernel does. "+flat-atomics": atomics on generic
/// pointers become global ones (flat-memory devices without generic
/// atomics, e.g. PoCL's SPIR 1.2 library).
///
/// USAGE: hetgpu-translate --target=spirv [--arch=spirv1.2] in.bc -o out.spv
///
//===----------------------------------------------------------------------===//

#include "LowerToSPIRV.h"
#include "SPIRVResultIds.h"

#include "hetgpu/ABI/SPIRVKernel.h"
#include "hetgpu/Targets/LoweringTarget.h"
#include "hetgpu/Targets/ObjectEmission.h"
#include "hetgpu/Targets/TargetDiagnostics.h"
#include "hetgpu/Targets/TotalDivision.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <mutex>

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
  L.FlatAtomics = hasFeature(Opts.Features, "flat-atomics");
  if (hasFeature(Opts.Features, "warp-loop-all"))
    L.WarpLoop = SPIRVLoweringOptions::WarpLoopMode::All;
  else if (hasFeature(Opts.Features, "warp-loop"))
    L.WarpLoop = SPIRVLoweringOptions::WarpLoopMode::Auto;
  L.DeviceDesc =
      (L.SubGroups32 ? "SPIR-V device with 32-wide sub-groups"
                     : "SPIR-V device without 32-wide sub-groups") +
      std::string(" (arch '") + (Opts.Arch.empty() ? DefaultArch.str() : Opts.Arch) +
      "')";
  return L;
}

bool isSPIRVIntWidth(unsigned Bits) {
  return Bits == 1 || Bits == 8 || Bits == 16 || Bits == 32 || Bits == 64;
}

/// The optimiser narrows integers to widths SPIR-V lacks without
/// SPV_INTEL_arbitrary_precision_integers (`zext (trunc i64 %x to i28) to
/// i32` for a masked value), which LLVM 22's SPIR-V backend then drops,
/// producing an invalid module. Such truncate/extend pairs become a
/// conversion to the extended width and a mask (zext) or shift pair (sext).
void legalizeIntegerWidths(Module &M) {
  SmallVector<TruncInst *, 16> Work;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *T = dyn_cast<TruncInst>(&I))
        if (auto *IT = dyn_cast<IntegerType>(T->getType()))
          if (!isSPIRVIntWidth(IT->getBitWidth()))
            Work.push_back(T);
  for (TruncInst *T : Work) {
    unsigned N = T->getType()->getIntegerBitWidth();
    Value *Src = T->getOperand(0);
    for (User *U : make_early_inc_range(T->users())) {
      auto *Ext = dyn_cast<CastInst>(U);
      if (!Ext || !isa<ZExtInst, SExtInst>(Ext))
        continue;
      IRBuilder<> B(Ext);
      Type *DT = Ext->getType();
      unsigned W = DT->getIntegerBitWidth();
      Value *V = B.CreateZExtOrTrunc(Src, DT);
      Value *R;
      if (isa<ZExtInst>(Ext))
        R = B.CreateAnd(V, ConstantInt::get(DT, APInt::getLowBitsSet(W, N)));
      else
        R = B.CreateAShr(B.CreateShl(V, W - N), W - N);
      R->takeName(Ext);
      Ext->replaceAllUsesWith(R);
      Ext->eraseFromParent();
    }
    if (T->use_empty())
      T->eraseFromParent();
  }
}

/// The first integer of a width SPIR-V lacks, if any is left.
std::optional<std::string> oddIntegerUse(Module &M) {
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *IT = dyn_cast<IntegerType>(I.getType()))
        if (!isSPIRVIntWidth(IT->getBitWidth())) {
          std::string S;
          raw_string_ostream OS(S);
          I.print(OS);
          return "function '" + F.getName().str() + "': " + S;
        }
  return std::nullopt;
}

class SPIRVTarget final : public LoweringTarget {
public:
  StringRef name() const override { return "spirv"; }
  std::string defaultArch() const override { return DefaultArch.str(); }
  bool runsGridSyncInRounds() const override { return true; }

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
    // CPU OpenCL drivers run x86 division, which traps: the GPU's values
    // instead (hetgpu/Targets/TotalDivision.h).
    makeDivisionTotal(M);
    return lowerModuleToSPIRV(M, loweringOptions(Opts));
  }

  Expected<std::vector<char>> emit(Module &M,
                                   const TargetOptions &Opts) const override;
};

/// Renames kernels with long names to their entry point names
/// (ABI/SPIRVKernel.h), which the runtimes look up.
Error shortenEntryPointNames(Module &M) {
  for (Function &F : M) {
    if (F.getCallingConv() != CallingConv::SPIR_KERNEL ||
        F.getName().size() <= spirv_abi::MaxEntryPointName)
      continue;
    std::string Entry = spirv_abi::entryPointName(F.getName().str());
    std::string Old = F.getName().str();
    F.setName(Entry);
    if (F.getName() != Entry)
      return createStringError(inconvertibleErrorCode(),
                               "spirv: kernel '%s': its entry point name "
                               "'%s' is taken",
                               Old.c_str(), Entry.c_str());
  }
  return Error::success();
}

Expected<std::vector<char>>
emitCheckedBinary(Module &M, std::unique_ptr<TargetMachine> TMach,
                  const MachineRequest &R, const EmitOptions &EO);

Expected<std::vector<char>> SPIRVTarget::emit(Module &M,
                                              const TargetOptions &Opts) const {
  Expected<unsigned> Minor = parseArch(Opts.Arch);
  if (!Minor)
    return Minor.takeError();
  if (!isLoweredForSPIRV(M))
    return createStringError(inconvertibleErrorCode(),
                             "spirv: emit() needs a module lowered by "
                             "hetgpu-lower-spirv");
  HETGPU_INITIALIZE_LLVM_BACKEND(SPIRV);
  bool SubGroups = hasFeature(Opts.Features, "subgroups32");
  unsigned V = std::max(*Minor, SubGroups ? 3u : 0u);
  Triple TT(("spirv64v1." + Twine(V) + "-unknown-unknown").str());
  M.setTargetTriple(TT);
  MachineRequest R;
  R.Target = "spirv";
  R.Backend = "SPIR-V";
  R.Triple = TT;
  R.OptLevel = Opts.OptLevel;
  Expected<std::unique_ptr<TargetMachine>> TMOr = createTargetMachine(R);
  if (!TMOr)
    return TMOr.takeError();
  std::unique_ptr<TargetMachine> TMach = std::move(*TMOr);
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
    ModulePassManager MPM =
        PB.buildPerModuleDefaultPipeline(optimizationLevel(Opts.OptLevel));
    MPM.run(M, MAM);
  }
  legalizeIntegerWidths(M);
  if (std::optional<std::string> Odd = oddIntegerUse(M))
    return createStringError(
        inconvertibleErrorCode(),
        "spirv: an integer width that SPIR-V lacks is left after "
        "optimisation (no SPV_INTEL_arbitrary_precision_integers): %s",
        Odd->c_str());
  if (Error E = shortenEntryPointNames(M))
    return std::move(E);
  std::string VErr;
  raw_string_ostream VOS(VErr);
  if (verifyModule(M, &VOS))
    return createStringError(inconvertibleErrorCode(),
                             "spirv: invalid module after optimisation: %s",
                             VErr.c_str());

  // The code generator's Loop Strength Reduction introduces integer widths
  // SPIR-V lacks (an i28 induction variable, zero-extended), which LLVM
  // 22's SPIR-V backend drops silently: the module fails spirv-val. It is
  // a global option, read while the pipeline is built: off for that
  // moment only (other targets in the process keep it). This target never
  // gave its code generator the SPIR-V TargetTransformInfo; kept so.
  EmitOptions EO;
  EO.TargetTransformInfo = false;
  EO.TrueWhileBuilding = "disable-lsr";
  return emitCheckedBinary(M, std::move(TMach), R, EO);
}

/// Emits \p M with LLVM's SPIR-V backend and checks the result ids.
///
/// LLVM 22's SPIR-V backend numbers basic blocks in a table of its module
/// analysis that is one static object for the process, keyed by the
/// MachineFunction's address and never cleared (llvm/llvm-project#160613):
/// a function whose MachineFunction lands where one of an earlier module's
/// was takes that block's id, and the module defines it twice (llvm-spirv
/// aborts with "Id used twice"; 1 in 10 hetgpu-cc runs that made four
/// images). So emissions are serialised (the table is shared by every
/// thread), each binary's ids are checked, and one that breaks the rule is
/// emitted again from a copy of the module taken before code generation,
/// while blocks of a MachineFunction's size are held so that the new
/// MachineFunctions do not land where the freed ones were.
Expected<std::vector<char>>
emitCheckedBinary(Module &M, std::unique_ptr<TargetMachine> TMach,
                  const MachineRequest &R, const EmitOptions &EO) {
  static std::mutex EmitLock;
  static bool EmittedBefore = false;
  std::lock_guard<std::mutex> L(EmitLock);
  // Only a process that emitted before can have stale block ids.
  std::unique_ptr<Module> Spare = EmittedBefore ? CloneModule(M) : nullptr;
  EmittedBefore = true;
  constexpr unsigned Attempts = 4;
  std::vector<std::unique_ptr<char[]>> Held;
  std::string Problem;
  for (unsigned A = 0; A < Attempts; ++A) {
    std::unique_ptr<Module> Copy;
    if (A > 0) {
      if (!Spare)
        break;
      Copy = CloneModule(*Spare);
      for (size_t I = 0, N = 4 * M.size() + 16; I < N; ++I)
        Held.emplace_back(new char[sizeof(MachineFunction)]);
    }
    Module &Cur = Copy ? *Copy : M;
    if (A > 0) { // a fresh target machine: its subtarget has module state
      Expected<std::unique_ptr<TargetMachine>> TMOr = createTargetMachine(R);
      if (!TMOr)
        return TMOr.takeError();
      TMach = std::move(*TMOr);
    }
    SmallVector<char, 0> Buf;
    if (Error E = emitCode("spirv", *TMach, Cur, CodeGenFileType::ObjectFile,
                           Buf, EO))
      return std::move(E);
    if (Buf.size() < 20 || Buf.size() % 4)
      return createStringError(inconvertibleErrorCode(),
                               "spirv: the SPIR-V backend produced no module");
    Problem = spirv::resultIdProblem(Buf);
    if (Problem.empty())
      return std::vector<char>(Buf.begin(), Buf.end());
  }
  return createStringError(
      inconvertibleErrorCode(),
      "spirv: the SPIR-V backend's binary is invalid (%s) in %u attempts "
      "(LLVM 22 reuses block ids of earlier modules, "
      "llvm/llvm-project#160613)",
      Problem.c_str(), Spare ? Attempts : 1u);
}
} // namespace

std::unique_ptr<LoweringTarget> createSPIRVTarget() {
  return std::make_unique<SPIRVTarget>();
}

} // namespace hetgpu
