//===- HostTarget.cpp - The host-CPU lowering target ----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `createHostTarget()`: hetIR -> native shared object for the CPU backend
/// (include/hetgpu/ABI/BlockABI.h).
///
/// lower(): `hetgpu-simt-to-mimd` (block functions `__hetgpu_block_<K>`),
/// math builtins from hetGPU's device math library (docs/DeviceMath.md,
/// linked as bitcode so they inline; glibc misses CUDA's ulp bounds), the
/// lane-loop functions of kernels that synchronise (HostLaneLoops.h),
/// `__hetgpu_host_abi_version`, and everything but the block functions and
/// `__device__`/`__constant__` variables internalised.
///
/// emit(): O3 for the host CPU (TargetOptions::Arch, or the running CPU's
/// name and features when empty or "native"; vectors of at most 256 bits
/// preferred), an object from the X86
/// backend, linked with ld.lld (findLLD() of hetgpu/Targets/ExternalTools.h)
/// into a shared object whose bytes are returned; the block executor
/// (runtime/device/common/hetgpu_exec.c, compiled once at build time) is a
/// second object of that link when a kernel calls it.
///
/// USAGE: hetgpu-translate --target=host in.bc -o kernels.so
///        hetgpu-opt -passes=hetgpu-lower-host in.ll -S
///
//===----------------------------------------------------------------------===//

#include "HostLaneLoops.h"

#include "hetgpu/ABI/BlockABI.h"
#include "hetgpu/ABI/BlockExecutor.h"
#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Support/PassCompat.h"
#include "hetgpu/Support/RunPasses.h"
#include "hetgpu/Targets/DeviceMath.h"
#include "hetgpu/Targets/ExternalTools.h"
#include "hetgpu/Targets/LoweringTarget.h"
#include "hetgpu/Targets/ObjectEmission.h"
#include "hetgpu/Targets/TargetDiagnostics.h"
#include "hetgpu/Targets/TotalDivision.h"
#include "hetgpu/Transforms/SIMTToMIMD.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace hetgpu {
namespace {

constexpr StringLiteral HostTriple = "x86_64-unknown-linux-gnu";
constexpr StringLiteral AbiVersionSymbol = "__hetgpu_host_abi_version";

/// The block executor, compiled at build time (runtime/device).
const unsigned char ExecutorObject[] = {
#include "HostExecutorObject.inc"
};

/// The math library's rare paths, compiled at build time
/// (runtime/device/math: hidden symbols, a section per function).
const unsigned char MathObject[] = {
#include "HostMathObject.inc"
};
constexpr StringLiteral ColdMathPrefix = "__hetgpu_mathc_";

/// The prefix of this target's errors.
constexpr StringLiteral TargetName = "host target";

/// CPU name and feature string for \p Opts.
std::pair<std::string, std::string> cpuAndFeatures(const TargetOptions &Opts) {
  std::string CPU = Opts.Arch;
  std::string Features = Opts.Features;
  if (CPU.empty() || CPU == "native") {
    CPU = sys::getHostCPUName().str();
    SubtargetFeatures SF;
    for (const auto &[Name, On] : sys::getHostCPUFeatures())
      SF.AddFeature(Name, On);
    if (!Features.empty())
      SF.AddFeature(Features);
    Features = SF.getString();
  }
  return {CPU, Features};
}

Expected<std::unique_ptr<TargetMachine>>
createHostMachine(const TargetOptions &Opts) {
  HETGPU_INITIALIZE_LLVM_BACKEND(X86);
  MachineRequest R;
  R.Target = TargetName;
  R.Backend = "X86";
  R.Triple = Triple(HostTriple);
  std::tie(R.CPU, R.Features) = cpuAndFeatures(Opts);
  R.Reloc = Reloc::PIC_;
  R.OptLevel = Opts.OptLevel;
  return createTargetMachine(R);
}

/// True when \p M calls the block executor (hetgpu_exec.c), whose object
/// is then linked beside the module's.
bool usesExecutor(const Module &M) {
  for (const Function &F : M)
    if (F.isDeclaration() && !F.use_empty() &&
        F.getName().starts_with("__hetgpu_exec_"))
      return true;
  return false;
}

/// The math library's rare paths (`__hetgpu_mathc_*`: huge trigonometric
/// arguments, the float functions' special values) come from MathObject:
/// their bodies, and what only they call, are not compiled again in every
/// translation (a kernel with sinf spent ~40% of its translation on them).
void dropColdMathBodies(Module &M) {
  bool Dropped = false;
  for (Function &F : M)
    if (!F.isDeclaration() && F.getName().starts_with(ColdMathPrefix)) {
      F.deleteBody();
      F.setVisibility(GlobalValue::HiddenVisibility);
      F.setDSOLocal(true);
      Dropped = true;
    }
  // The library's internal helpers (src/MathInternal.h names them hm_* and
  // __hetgpu_mathi_*) that nothing calls any more.
  for (bool Erased = Dropped; Erased;) {
    Erased = false;
    for (Function &F : make_early_inc_range(M))
      if (F.hasLocalLinkage() && F.use_empty() &&
          (F.getName().starts_with("hm_") ||
           F.getName().starts_with("__hetgpu_mathi_"))) {
        F.eraseFromParent();
        Erased = true;
      }
  }
}

/// True when \p M calls a rare path of the math library (MathObject).
bool usesMathObject(const Module &M) {
  for (const Function &F : M)
    if (F.isDeclaration() && !F.use_empty() &&
        F.getName().starts_with(ColdMathPrefix))
      return true;
  return false;
}

Error lowerForHost(Module &M, const DataLayout &DL) {
  // No SIGFPE: x / 0 has the GPU's value (hetgpu/Targets/TotalDivision.h).
  makeDivisionTotal(M);
  {
    TimeTraceScope Scope("simt-to-mimd");
    if (Error E = lowerSIMTToMIMD(M))
      return E;
  }
  M.setTargetTriple(Triple(HostTriple));
  M.setDataLayout(DL);
  // hetGPU's own math library (hetgpu-math-x86_64-unknown-linux-gnu.bc),
  // not the C library: glibc's tanh, exp10 and cbrt exceed CUDA's ulp
  // bounds, and the bitcode inlines into the block functions.
  TimeTraceScope MathScope("device-math");
  if (Error E = linkDeviceMathLibrary(M))
    return joinErrors(createStringError(inconvertibleErrorCode(),
                                        "host target: device math library"),
                      std::move(E));
  dropColdMathBodies(M);
  for (Function &F : M)
    if (F.isDeclaration())
      if (auto BI = lookupBuiltin(F))
        if (!F.use_empty())
          return createStringError(inconvertibleErrorCode(),
                                   "host target: builtin '" + F.getName() +
                                       "' is still used after lowering");
  host::addLaneLoops(M);
  if (!M.getGlobalVariable(AbiVersionSymbol)) {
    Type *I32 = Type::getInt32Ty(M.getContext());
    new GlobalVariable(
        M, I32, /*isConstant=*/true, GlobalValue::ExternalLinkage,
        ConstantInt::get(I32, HETGPU_HOST_ABI_VERSION), AbiVersionSymbol);
  }
  // Only the block functions and the device variables stay visible.
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    if (F.getName().starts_with(BlockFunctionPrefix)) {
      F.setLinkage(GlobalValue::ExternalLinkage);
      F.setVisibility(GlobalValue::DefaultVisibility);
      continue;
    }
    F.setLinkage(GlobalValue::InternalLinkage);
  }
  // Device variables are exported and stay writable: the runtime writes
  // __constant__ memory too (cudaMemcpyToSymbol), so none goes to .rodata.
  // Template instances (`template <class T> __constant__ T mask[N]`) come
  // linkonce_odr and dso_local: linkonce could drop one the runtime looks
  // up, and a default-visibility symbol of a shared object is preemptible,
  // which dso_local's PC-relative accesses cannot reach (lld: "relocation
  // R_X86_64_PC32 cannot be used"). Each is one external definition of the
  // module's own object, protected: exported, not preemptible.
  for (GlobalVariable &G : M.globals()) {
    if (G.isDeclaration() || G.hasLocalLinkage())
      continue;
    if (G.hasLinkOnceLinkage() || G.hasWeakLinkage() ||
        G.hasCommonLinkage()) {
      G.setLinkage(GlobalValue::ExternalLinkage);
      G.setComdat(nullptr);
    }
    G.setVisibility(G.isDSOLocal() ? GlobalValue::ProtectedVisibility
                                   : GlobalValue::DefaultVisibility);
    unsigned AS = G.getAddressSpace();
    if ((AS == AS_Global || AS == AS_Constant) &&
        G.getName() != AbiVersionSymbol)
      G.setConstant(false);
  }
  std::string Msg;
  raw_string_ostream OS(Msg);
  if (verifyModule(M, &OS))
    return createStringError(inconvertibleErrorCode(),
                             "host target: lowering produced invalid IR: " +
                                 Msg);
  return Error::success();
}

class HostTarget final : public LoweringTarget {
public:
  StringRef name() const override { return "host"; }
  std::string defaultArch() const override {
    return sys::getHostCPUName().str();
  }
  // The flag read early would be one more value every thread spills and
  // reloads at every barrier of the chunk (5-8% on bench/migration's
  // barrier loops on the CPU device; read at the safe point, 0-1%).
  bool readsYieldFlagEarly() const override { return false; }

  void registerPasses(PassBuilder &PB) const override {
    PB.registerPipelineParsingCallback(
        [](StringRef Name, ModulePassManager &MPM,
           ArrayRef<PassBuilder::PipelineElement>) {
          if (Name != "hetgpu-lower-host")
            return false;
          MPM.addPass(LowerToHostPass());
          return true;
        });
  }

  Error lower(Module &M, const TargetOptions &Opts) const override {
    auto TM = createHostMachine(Opts);
    if (!TM)
      return TM.takeError();
    return lowerForHost(M, (*TM)->createDataLayout());
  }

  Expected<std::vector<char>> emit(Module &M,
                                   const TargetOptions &Opts) const override {
    auto TMOr = createHostMachine(Opts);
    if (!TMOr)
      return TMOr.takeError();
    TargetMachine &TM = **TMOr;
    M.setTargetTriple(TM.getTargetTriple());
    M.setDataLayout(TM.createDataLayout());
    std::string CPU = TM.getTargetCPU().str();
    std::string Features = TM.getTargetFeatureString().str();
    for (Function &F : M) {
      if (F.isDeclaration())
        continue;
      F.addFnAttr("target-cpu", CPU);
      // 256-bit vectors even where the CPU has 512-bit ones (as clang does
      // for most AVX-512 CPUs): on the 2-core AMD EPYC (Zen 4) CI host the
      // block executor's lane loops ran 10-20% slower with 512-bit vectors
      // (bench/migration/overhead.cu: reduce 22.4 -> 18.7 ms, stencil
      // 15.7 -> 13.2, matmul 69.4 -> 64.5), and instrumented kernels lost
      // another 6-8% there (1.00-1.02 with 256).
      F.addFnAttr("prefer-vector-width", "256");
      if (!Features.empty())
        F.addFnAttr("target-features", Features);
      F.removeFnAttr("frame-pointer");
    }

    // Optimise.
    {
      TimeTraceScope Scope("optimize");
      PipelineTuningOptions PTO;
      PTO.LoopVectorization = Opts.OptLevel >= 2;
      PTO.SLPVectorization = Opts.OptLevel >= 2;
      // Pass timings, only for `hetgpu-translate --time-trace`.
      PassInstrumentationCallbacks PIC;
      std::optional<StandardInstrumentations> SI;
      if (timeTraceProfilerEnabled()) {
        SI.emplace(M.getContext(), /*DebugLogging=*/false);
        SI->registerCallbacks(PIC);
      }
      PassBuilder PB(&TM, PTO, std::nullopt, SI ? &PIC : nullptr);
      OptimizationLevel OL = optimizationLevel(Opts.OptLevel);
      ModulePassManager MPM = OL == OptimizationLevel::O0
                                  ? PB.buildO0DefaultPipeline(OL)
                                  : PB.buildPerModuleDefaultPipeline(OL);
      runModulePasses(M, MPM, PB);
    }

    // Object file (this target never gave its code generator the X86
    // TargetTransformInfo; kept so).
    SmallString<0> Obj;
    EmitOptions EO;
    EO.TargetTransformInfo = false;
    std::optional<TimeTraceScope> Scope(std::in_place, "codegen");
    if (Error E =
            emitCode(TargetName, TM, M, CodeGenFileType::ObjectFile, Obj, EO))
      return std::move(E);

    // Shared object.
    Expected<std::string> Lld = findLLD(TargetName);
    if (!Lld)
      return Lld.takeError();
    Scope.emplace("link", *Lld);
    std::vector<LinkInput> Inputs = {
        {"kernels.o", ArrayRef<char>(Obj.data(), Obj.size())}};
    if (usesExecutor(M))
      Inputs.push_back(
          {"executor.o",
           ArrayRef<char>(reinterpret_cast<const char *>(ExecutorObject),
                          sizeof(ExecutorObject))});
    SmallVector<StringRef, 8> Args = {"-shared", "--eh-frame-hdr", "-z", "now",
                                      "-z", "noexecstack"};
    if (usesMathObject(M)) {
      Inputs.push_back(
          {"math.o", ArrayRef<char>(reinterpret_cast<const char *>(MathObject),
                                    sizeof(MathObject))});
      Args.push_back("--gc-sections"); // only the rare paths called
    }
    Expected<LinkResult> Link = runLinker(TargetName, *Lld, Args, Inputs);
    if (!Link)
      return Link.takeError();
    if (!Link->Succeeded)
      return targetError(
          TargetName,
          "linking the shared object with " + *Lld + " failed" +
              (Link->ExecError.empty() ? "" : " (" + Link->ExecError + ")") +
              (Link->Log.empty() ? "" : ":\n" + Link->Log));
    return std::move(Link->Output);
  }

private:
  /// `hetgpu-lower-host`: lower() with default options, as a pass, so the
  /// lowering can be tested on IR. Errors become diagnostics.
  struct LowerToHostPass : RequiredPass<LowerToHostPass> {
    PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
      auto TM = createHostMachine(TargetOptions());
      Error E =
          TM ? lowerForHost(M, (*TM)->createDataLayout()) : TM.takeError();
      if (E)
        reportModuleFailure(M, toString(std::move(E)));
      return PreservedAnalyses::none();
    }
  };
};

} // namespace

std::unique_ptr<LoweringTarget> createHostTarget() {
  return std::make_unique<HostTarget>();
}

} // namespace hetgpu
