//===- Translate.cpp - hetIR -> native code, the translator library -------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements include/hetgpu/Translate/Translate.h: parse the hetIR bitcode,
/// verify it, optionally instrument the safe points for live migration,
/// then let the named LoweringTarget lower and emit it. Built into
/// libhetgpu-translate.so (dlopen'ed by the runtime on a JIT-cache miss)
/// and linked statically into hetgpu-translate.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Translate/Translate.h"
#include "Fuse.h"
#include "hetgpu/IR/ContainerBuilder.h"
#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Verifier.h"
#include "hetgpu/Plugin/Registration.h"
#include "hetgpu/Support/RunPasses.h"
#include "hetgpu/Targets/LoweringTarget.h"
#include "hetgpu/Transforms/ExtractKernel.h"
#include "hetgpu/Transforms/InsertLoopSafePoints.h"
#include "hetgpu/Transforms/InstrumentMemCheck.h"
#include "hetgpu/Transforms/InstrumentState.h"
#include "hetgpu/Transforms/LowerGridSync.h"
#include "hetgpu/Transforms/WrapSharedAddresses.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/TargetSelect.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace llvm;

namespace {

char *dupString(const std::string &S) {
  char *P = static_cast<char *>(std::malloc(S.size() + 1));
  if (P)
    std::memcpy(P, S.c_str(), S.size() + 1);
  return P;
}

int failWith(hetgpu_translate_result *R, const Twine &Msg) {
  R->data = nullptr;
  R->size = 0;
  R->error = dupString(Msg.str());
  return 1;
}

/// Runs the pipeline named \p Pipeline (registered by some hetGPU pass).
Error runNamedPipeline(Module &M, StringRef Pipeline) {
  PassBuilder PB;
  hetgpu::registerHetGPUPasses(PB);
  ModulePassManager MPM;
  if (Error E = PB.parsePassPipeline(MPM, Pipeline))
    return E;
  hetgpu::runModulePasses(M, MPM, PB);
  return Error::success();
}

/// Grid barriers (`__hetgpu_grid_sync`): ends of rounds of the launch where
/// the target's devices promise no block residency (not under memcheck:
/// the runtime refuses those cooperative launches), spin barriers
/// everywhere else. Runs before the instrumentations, which leave kernels
/// instrumented here alone. Without migration the loop safe points go
/// first (stripSafePoints also undoes their loop chunking); with it the
/// pass erases those of the kernels it instruments.
Error lowerGridBarriers(Module &M, const hetgpu::LoweringTarget &T,
                        bool MemCheck, bool Instrument) {
  Function *GS =
      M.getFunction(hetgpu::getBuiltinInfo(hetgpu::BuiltinID::grid_sync).Name);
  if (GS && !GS->use_empty() && T.runsGridSyncInRounds() && !MemCheck) {
    if (!Instrument)
      hetgpu::stripSafePoints(M);
    if (Error E = runNamedPipeline(M, "hetgpu-instrument-state<grid-sync>"))
      return E;
  }
  hetgpu::lowerGridSync(M);
  return Error::success();
}

} // namespace

namespace {
/// Translations may run on a runtime thread (Core/Prefetch.h) while the
/// program exits. Closing the gate waits for the translation in flight and
/// refuses later ones, so no translation uses LLVM after it is torn down.
/// The gate closes in this object's destructor, which runs before libLLVM's
/// static destructors (this library's constructors ran after libLLVM's), and
/// in an exit handler registered after every translation: LLVM's
/// function-local statics (SelectionDAG's value-type set, the library-call
/// name table) are built during the first translations and destroyed before
/// every exit handler registered earlier, so a handler registered at load
/// would let a translation in flight use them after their destructors ran
/// (seen as crashes and hangs at exit with HETGPU_PREFETCH=1; issue 21).
/// What is still open: a static built for the first time by the translation
/// in flight at exit is destroyed before that translation ends.
struct ExitGate {
  std::mutex M;
  bool Closed = false;
  void close() {
    std::lock_guard<std::mutex> L(M);
    Closed = true;
  }
  ~ExitGate() { close(); }
} Gate;

void closeGateAtExit() { Gate.close(); }
} // namespace

static int translateLocked(const hetgpu_translate_request *Req,
                           hetgpu_translate_result *Res);

extern "C" int hetgpu_fuse(const hetgpu_fuse_request *Req,
                           hetgpu_translate_result *Res) {
  if (!Res)
    return 1;
  std::lock_guard<std::mutex> L(Gate.M); // as hetgpu_translate
  if (Gate.Closed)
    return failWith(Res, "hetgpu_fuse: the process is exiting");
  std::string Error;
  std::string Out = hetgpu::fuseToContainer(Req, Error);
  std::atexit(closeGateAtExit);
  if (!Error.empty())
    return failWith(Res, Error);
  Res->size = Out.size();
  Res->data = std::malloc(Out.size() ? Out.size() : 1);
  if (!Res->data)
    return failWith(Res, "out of memory");
  std::memcpy(Res->data, Out.data(), Out.size());
  Res->error = nullptr;
  return 0;
}

extern "C" int hetgpu_translate(const hetgpu_translate_request *Req,
                                hetgpu_translate_result *Res) {
  if (!Res)
    return 1;
  // One translation at a time in a process: an in-process link (lld's
  // driver) resets LLVM's command-line options, which a translation on
  // another thread would be reading.
  std::lock_guard<std::mutex> L(Gate.M);
  if (Gate.Closed)
    return failWith(Res, "hetgpu_translate: the process is exiting");
  int Rc = translateLocked(Req, Res);
  // After the statics this translation built (see ExitGate).
  std::atexit(closeGateAtExit);
  return Rc;
}

static int translateLocked(const hetgpu_translate_request *Req,
                           hetgpu_translate_result *Res) {
  if (!Req || !Req->target || !Req->ir)
    return failWith(Res, "hetgpu_translate: missing target or input");
  static std::once_flag Init;
  std::call_once(Init, [] {
    InitializeAllTargetInfos();
    InitializeAllTargets();
    InitializeAllTargetMCs();
    InitializeAllAsmPrinters();
    InitializeAllAsmParsers();
  });

  auto Target = hetgpu::createTarget(Req->target);
  if (!Target) {
    std::string Known;
    for (StringRef N : hetgpu::targetNames())
      Known += (Known.empty() ? "" : ", ") + N.str();
    return failWith(Res, Twine("unknown target '") + Req->target +
                             "' (this translator was built with: " + Known + ")");
  }
  LLVMContext Ctx;
  // Diagnostics from passes (HetGPUFailure) become the error message.
  std::string Diags;
  Ctx.setDiagnosticHandlerCallBack(
      [](const DiagnosticInfo *DI, void *Ctx) {
        if (DI->getSeverity() != DS_Error)
          return;
        std::string &Out = *static_cast<std::string *>(Ctx);
        raw_string_ostream OS(Out);
        if (!Out.empty())
          OS << "\n";
        DiagnosticPrinterRawOStream DP(OS);
        DI->print(DP);
      },
      &Diags);
  StringRef Bytes(static_cast<const char *>(Req->ir), Req->ir_size);
  TimeTraceScope Whole("hetgpu-translate", Req->target);
  std::optional<TimeTraceScope> Phase(std::in_place, "parse+verify");
  // Read in a child first, then here, and verified: malformed bitcode is
  // an error of this translation, never a crash of the application.
  auto M = hetgpu::parseCheckedBitcode(Bytes, "hetIR", Ctx);
  if (!M)
    return failWith(Res, toString(M.takeError()));
  if (Error E = hetgpu::verifyHetIR(**M))
    return failWith(Res, toString(std::move(E)));
  if (Req->flags & HETGPU_TRANSLATE_CHECK_TABLES)
    if (Error E =
            hetgpu::checkTablesMatchIR(**M, Req->tables, Req->tables_size))
      return failWith(Res, toString(std::move(E)));
  if ((Req->flags & HETGPU_TRANSLATE_SOME_KERNELS) && Req->num_kernels) {
    if (!Req->kernels)
      return failWith(Res, "hetgpu_translate: num_kernels without kernels");
    SmallVector<StringRef, 16> Names;
    for (size_t I = 0; I < Req->num_kernels; ++I)
      Names.push_back(Req->kernels[I] ? Req->kernels[I] : "");
    if (Error E = hetgpu::extractKernels(**M, Names))
      return failWith(Res, toString(std::move(E)));
  }

  hetgpu::TargetOptions Opts;
  Opts.Arch = Req->arch ? Req->arch : "";
  Opts.Features = Req->features ? Req->features : "";
  Opts.OptLevel = Req->opt_level > 3 ? 3 : Req->opt_level;
  Opts.Instrument = Req->flags & HETGPU_TRANSLATE_INSTRUMENT;
  if (Opts.Arch.empty())
    Opts.Arch = Target->defaultArch();

  Phase.emplace("prepare");
  // Shared memory as a 32-bit window (WrapSharedAddresses.h), unless the
  // target's hardware is one.
  if (!Target->wrapsSharedAddresses())
    hetgpu::wrapSharedAddresses(**M);
  if (Error E = lowerGridBarriers(**M, *Target,
                                  Req->flags & HETGPU_TRANSLATE_MEMCHECK,
                                  Opts.Instrument))
    return failWith(Res, "grid-barrier instrumentation is not available: " +
                             toString(std::move(E)));
  if (!Diags.empty())
    return failWith(Res, Diags);
  // Memcheck checks the addresses as they will be accessed (wrapped).
  if (Req->flags & HETGPU_TRANSLATE_MEMCHECK) {
    if (Opts.Instrument)
      return failWith(Res, "memcheck and live-migration instrumentation "
                           "cannot be combined in one translation");
    hetgpu::instrumentMemCheck(**M);
    if (verifyModule(**M, &errs()))
      return failWith(Res, "hetgpu-instrument-memcheck produced invalid IR");
  }
  if (Opts.Instrument) {
    if (Error E =
            runNamedPipeline(**M, Target->readsYieldFlagEarly()
                                      ? "hetgpu-instrument-state"
                                      : "hetgpu-instrument-state<late-flag>"))
      return failWith(Res, "live-migration instrumentation is not available: " +
                               toString(std::move(E)));
  } else {
    // Loop safe points are potential ones: without the instrumentation they
    // are nothing (their counters fold away in the target's optimizer).
    hetgpu::stripSafePoints(**M);
  }
  if (!Diags.empty())
    return failWith(Res, Diags);
  Phase.emplace("lower");
  if (Error E = Target->lower(**M, Opts))
    return failWith(Res, Twine(Req->target) + " lowering failed: " +
                             toString(std::move(E)) +
                             (Diags.empty() ? "" : "\n" + Diags));
  if (!Diags.empty())
    return failWith(Res, Twine(Req->target) + " lowering failed:\n" + Diags);
  Phase.emplace("emit");
  auto Bin = Target->emit(**M, Opts);
  Phase.reset();
  if (!Bin)
    return failWith(Res, Twine(Req->target) + " code generation failed: " +
                             toString(Bin.takeError()) +
                             (Diags.empty() ? "" : "\n" + Diags));
  Res->size = Bin->size();
  Res->data = std::malloc(Bin->size() ? Bin->size() : 1);
  if (!Res->data)
    return failWith(Res, "out of memory");
  std::memcpy(Res->data, Bin->data(), Bin->size());
  Res->error = nullptr;
  return 0;
}

extern "C" void hetgpu_translate_dispose(hetgpu_translate_result *R) {
  if (!R)
    return;
  std::free(R->data);
  std::free(R->error);
  R->data = nullptr;
  R->error = nullptr;
  R->size = 0;
}

extern "C" const char *hetgpu_translate_version(void) {
  return "hetgpu-translate " LLVM_VERSION_STRING;
}
