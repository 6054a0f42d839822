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
#include "hetgpu/Targets/LoweringTarget.h"
#include "hetgpu/Targets/OptimizeModule.h"

#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <cstdlib>
#include <mutex>

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTarget();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmPrinter();
}

using namespace llvm;

namespace hetgpu {

namespace {

/// Collects error diagnostics instead of letting LLVMContext exit.
class CollectingHandler : public DiagnosticHandler {
public:
  explicit CollectingHandler(std::string &Out) : Out(Out) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() != DS_Error)
      return true;
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
    return createStringError(inconvertibleErrorCode(),
                             "amdgpu: " + What + ": " + E);
  }

private:
  LLVMContext &Ctx;
  std::unique_ptr<DiagnosticHandler> Saved;
  std::string Errors;
};

void initializeAMDGPUBackend() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
  });
}

Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), "amdgpu: " + Msg);
}

/// The ld.lld to link code objects with.
Expected<std::string> findLLD() {
  if (const char *Env = std::getenv("HETGPU_LLD"); Env && *Env) {
    if (sys::fs::can_execute(Env))
      return std::string(Env);
    return makeError(Twine("HETGPU_LLD='") + Env + "' is not an executable");
  }
  SmallString<128> P;
#ifdef HETGPU_LLVM_BINDIR
  P = HETGPU_LLVM_BINDIR "/ld.lld";
  if (sys::fs::can_execute(P))
    return std::string(P);
#endif
  P = "/usr/lib/llvm-" + std::to_string(LLVM_VERSION_MAJOR) + "/bin/ld.lld";
  if (sys::fs::can_execute(P))
    return std::string(P);
  for (const char *Name : {"ld.lld-" LLVM_VERSION_STRING, "ld.lld-22", "ld.lld"})
    if (ErrorOr<std::string> Found = sys::findProgramByName(Name))
      return *Found;
  return makeError("ld.lld not found (set HETGPU_LLD, or install lld-" +
                   std::to_string(LLVM_VERSION_MAJOR) + ")");
}

/// Links the relocatable \p Object into a shared HSA code object.
Expected<std::vector<char>> linkCodeObject(StringRef Object) {
  Expected<std::string> LLD = findLLD();
  if (!LLD)
    return LLD.takeError();
  SmallString<128> In, Out, Err;
  int FD;
  if (std::error_code EC = sys::fs::createTemporaryFile("hetgpu-amdgpu", "o", FD, In))
    return makeError("cannot create a temporary file: " + EC.message());
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Object;
  }
  auto Cleanup = [&] {
    for (const SmallString<128> *P : {&In, &Out, &Err})
      if (!P->empty())
        sys::fs::remove(*P);
  };
  if (std::error_code EC = sys::fs::createTemporaryFile("hetgpu-amdgpu", "hsaco", Out)) {
    Cleanup();
    return makeError("cannot create a temporary file: " + EC.message());
  }
  if (std::error_code EC = sys::fs::createTemporaryFile("hetgpu-amdgpu", "err", Err)) {
    Cleanup();
    return makeError("cannot create a temporary file: " + EC.message());
  }
  SmallVector<StringRef, 8> Argv = {*LLD, "-flavor", "gnu", "-shared",
                                     "--no-undefined", In, "-o", Out};
  // ld.lld is a symlink to lld: "-flavor gnu" is only understood as the
  // first argument of `lld`; ld.lld knows its flavour from its name.
  if (sys::path::filename(*LLD).starts_with("ld.lld"))
    Argv.erase(Argv.begin() + 1, Argv.begin() + 3);
  std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Err),
                                          StringRef(Err)};
  std::string ExecErr;
  int RC = sys::ExecuteAndWait(*LLD, Argv, std::nullopt, Redirects, 0, 0, &ExecErr);
  if (RC != 0) {
    std::string Msg = ExecErr;
    if (ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Err))
      Msg += (*B)->getBuffer().trim().str();
    Cleanup();
    return makeError("linking the code object with " + *LLD + " failed: " + Msg);
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Out);
  if (!B) {
    Cleanup();
    return makeError("cannot read the linked code object: " + B.getError().message());
  }
  std::vector<char> Bytes((*B)->getBufferStart(), (*B)->getBufferEnd());
  Cleanup();
  return Bytes;
}

class AMDGPUTarget final : public LoweringTarget {
public:
  StringRef name() const override { return "amdgpu"; }
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
    ScopedDiagnostics Diags(M.getContext());
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
  initializeAMDGPUBackend();
  ScopedDiagnostics Diags(M.getContext());
  std::string Arch = Opts.Arch.empty() ? defaultArch() : Opts.Arch;
  std::string Features = amdgpuFeatures(Arch, Opts.Features);

  Triple TT(AMDGPUTriple);
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(TT, Err);
  if (!T)
    return makeError("LLVM has no AMDGPU back end: " + Err);
  llvm::TargetOptions TO;
  TO.AllowFPOpFusion = FPOpFusion::Fast; // as nvcc's --fmad=true
  CodeGenOptLevel CGOpt = Opts.OptLevel == 0   ? CodeGenOptLevel::None
                          : Opts.OptLevel == 1 ? CodeGenOptLevel::Less
                          : Opts.OptLevel == 2 ? CodeGenOptLevel::Default
                                               : CodeGenOptLevel::Aggressive;
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      TT, Arch, Features, TO, Reloc::PIC_, std::nullopt, CGOpt));
  if (!TM || !TM->getMCSubtargetInfo()->isCPUStringValid(Arch))
    return makeError("'" + Arch + "' is not an AMDGPU processor (e.g. gfx90a, "
                     "gfx942, gfx1100)");
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
  {
    raw_svector_ostream OS(Object);
    legacy::PassManager PM;
    PM.add(createTargetTransformInfoWrapperPass(TM->getTargetIRAnalysis()));
    if (TM->addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::ObjectFile))
      return makeError("the AMDGPU back end cannot emit an object file");
    PM.run(M);
  }
  if (Error E = Diags.takeError("code generation"))
    return std::move(E);
  return linkCodeObject(Object);
}

} // namespace

std::unique_ptr<LoweringTarget> createAMDGPUTarget() {
  return std::make_unique<AMDGPUTarget>();
}

} // namespace hetgpu
