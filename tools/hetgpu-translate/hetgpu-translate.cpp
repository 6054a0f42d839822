//===- hetgpu-translate.cpp - Offline hetIR -> native translation ---------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-translate --target=nvptx --arch=sm_90 app -o app.ptx` translates
/// every hetIR module found in INPUT (a hetgpu-cc executable or object, a
/// container, or hetIR .bc/.ll) with the same code the runtime uses on a
/// JIT-cache miss. With several modules, module N goes to OUT.N.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/IR/ContainerBuilder.h"
#include "hetgpu/Targets/ExternalTools.h"
#include "hetgpu/Targets/LoweringTarget.h"
#include "hetgpu/Translate/Translate.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::opt<std::string> Input(cl::Positional, cl::desc("<input>"), cl::Required);
static cl::opt<std::string> Output("o", cl::desc("Output file"), cl::init("-"));
static cl::opt<std::string> TargetName("target", cl::desc("Lowering target"),
                                       cl::Required);
static cl::opt<std::string> Arch("arch", cl::desc("Processor (sm_90, gfx942, ...)"));
static cl::opt<std::string> Features("features", cl::desc("Target features"));
static cl::opt<unsigned> OptLevel("O", cl::desc("Optimisation level"), cl::init(3),
                                  cl::Prefix);
static cl::opt<bool>
    MemCheck("memcheck",
             cl::desc("check every global and shared access "
                      "(hetgpu-instrument-memcheck, as HETGPU_MEMCHECK=1)"));
static cl::opt<bool> Instrument("instrument",
                                cl::desc("Insert live-migration checkpoints"));
static cl::opt<int> ModuleIndex("module", cl::desc("Translate only module N"),
                                cl::init(-1));
static cl::list<std::string>
    KernelNames("kernel",
                cl::desc("Translate only this kernel (its symbol name; "
                         "repeatable) and what it uses"),
                cl::value_desc("NAME"));
static cl::opt<std::string>
    TimeTrace("time-trace",
              cl::desc("Write a Chrome trace of the translation's phases and "
                       "passes to FILE"),
              cl::value_desc("FILE"));

static int error(const Twine &Msg) {
  WithColor::error(errs(), "hetgpu-translate") << Msg << "\n";
  return 1;
}

static int translateAll();

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  std::string Names;
  for (StringRef N : hetgpu::targetNames())
    Names += (Names.empty() ? "" : ", ") + N.str();
  cl::ParseCommandLineOptions(argc, argv,
                              "hetIR translator (targets: " + Names + ")\n");
  hetgpu::reparseOptionsAfterLinks(argc, argv);
  if (!TimeTrace.empty())
    timeTraceProfilerInitialize(/*TimeTraceGranularity=*/0, argv[0]);
  int RC = translateAll();
  if (!TimeTrace.empty()) {
    if (Error E = timeTraceProfilerWrite(TimeTrace, Output))
      RC = error(toString(std::move(E)));
    timeTraceProfilerCleanup();
  }
  return RC;
}

static int translateAll() {
  auto Buf = MemoryBuffer::getFileOrSTDIN(Input, /*IsText=*/false);
  if (!Buf)
    return error(Input + ": " + Buf.getError().message());
  auto Cs = hetgpu::loadContainers((*Buf)->getBuffer(), Input);
  if (!Cs)
    return error(toString(Cs.takeError()));
  std::vector<const hetgpu::container::ModuleInfo *> Mods;
  for (const auto &C : *Cs)
    for (const auto &M : C.Modules)
      Mods.push_back(&M);
  if (ModuleIndex >= int(Mods.size()))
    return error("no module " + Twine(ModuleIndex.getValue()) + " (the input has " +
                 Twine(Mods.size()) + ")");
  for (size_t I = 0; I < Mods.size(); ++I) {
    if (ModuleIndex >= 0 && int(I) != ModuleIndex)
      continue;
    hetgpu_translate_request Req = {};
    Req.target = TargetName.c_str();
    Req.arch = Arch.c_str();
    Req.features = Features.c_str();
    Req.ir = Mods[I]->IR.data();
    Req.ir_size = Mods[I]->IR.size();
    Req.opt_level = OptLevel;
    Req.flags = (Instrument ? HETGPU_TRANSLATE_INSTRUMENT : 0) |
                (MemCheck ? HETGPU_TRANSLATE_MEMCHECK : 0);
    std::vector<const char *> Kernels;
    for (const std::string &K : KernelNames)
      Kernels.push_back(K.c_str());
    if (!Kernels.empty()) {
      Req.flags |= HETGPU_TRANSLATE_SOME_KERNELS;
      Req.kernels = Kernels.data();
      Req.num_kernels = Kernels.size();
    }
    hetgpu_translate_result Res = {};
    if (hetgpu_translate(&Req, &Res) != 0) {
      std::string Msg = Res.error ? Res.error : "unknown error";
      hetgpu_translate_dispose(&Res);
      return error("module " + Twine(I) + ": " + Msg);
    }
    std::string Out = Output;
    if (Mods.size() > 1 && ModuleIndex < 0 && Output != "-")
      Out += "." + std::to_string(I);
    std::error_code EC;
    raw_fd_ostream OS(Out, EC, sys::fs::OF_None);
    if (EC) {
      hetgpu_translate_dispose(&Res);
      return error(Out + ": " + EC.message());
    }
    OS.write(static_cast<const char *>(Res.data), Res.size);
    hetgpu_translate_dispose(&Res);
  }
  return 0;
}
