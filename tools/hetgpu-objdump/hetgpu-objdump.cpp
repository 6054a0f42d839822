//===- hetgpu-objdump.cpp - Inspect hetGPU containers ---------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Prints the containers of a hetgpu-cc executable or object (or a raw
/// container, or a hetIR .bc/.ll): modules, kernels with parameters,
/// features and shared memory, globals, safe points and state layouts.
/// `--ir` disassembles the hetIR; `--extract=N` writes module N's bitcode.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/IR/ContainerBuilder.h"
#include "hetgpu/IR/Printers.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace hetgpu;

static cl::opt<std::string> Input(cl::Positional, cl::desc("<input>"), cl::Required);
static cl::opt<bool> ShowIR("ir", cl::desc("Print each module's hetIR"));
static cl::opt<bool> NoState("no-state", cl::desc("Do not print state layouts"));
static cl::opt<int> Extract("extract", cl::desc("Write module N's bitcode to -o"),
                            cl::init(-1));
static cl::opt<std::string> Output("o", cl::desc("Output file for --extract"),
                                   cl::init("-"));

/// ", kernels 0-7 of 10" for an image of one kernel group (its kernels'
/// indices in the module's kernel table), nothing for a whole-module image.
static std::string imageKernelRange(const container::ModuleInfo &M,
                                    const container::AOTImage &Img) {
  if (Img.Kernels.empty())
    return "";
  std::vector<size_t> Idx;
  for (const std::string &N : Img.Kernels)
    for (size_t I = 0; I < M.Kernels.size(); ++I)
      if (M.Kernels[I].Name == N)
        Idx.push_back(I);
  bool Run = !Idx.empty();
  for (size_t I = 1; I < Idx.size(); ++I)
    Run = Run && Idx[I] == Idx[I - 1] + 1;
  std::string S = ", kernels ";
  if (Run && Idx.size() > 1)
    S += std::to_string(Idx.front()) + "-" + std::to_string(Idx.back());
  else
    for (size_t I = 0; I < Idx.size(); ++I)
      S += (I ? "," : "") + std::to_string(Idx[I]);
  return S + " of " + std::to_string(M.Kernels.size());
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "hetGPU container inspector\n");
  auto Buf = MemoryBuffer::getFileOrSTDIN(Input, /*IsText=*/false);
  if (!Buf) {
    WithColor::error(errs(), "hetgpu-objdump")
        << Input << ": " << Buf.getError().message() << "\n";
    return 1;
  }
  auto Cs = loadContainers((*Buf)->getBuffer(), Input);
  if (!Cs) {
    WithColor::error(errs(), "hetgpu-objdump") << toString(Cs.takeError()) << "\n";
    return 1;
  }
  unsigned ModIdx = 0;
  for (size_t CI = 0; CI < Cs->size(); ++CI) {
    const container::Container &C = (*Cs)[CI];
    outs() << "container " << CI << ": version " << C.Major << "." << C.Minor
           << ", " << C.Modules.size() << " module(s)\n";
    for (const container::ModuleInfo &M : C.Modules) {
      if (int(ModIdx) == Extract) {
        std::error_code EC;
        raw_fd_ostream OS(Output, EC, sys::fs::OF_None);
        if (EC) {
          WithColor::error(errs(), "hetgpu-objdump") << Output << ": " << EC.message() << "\n";
          return 1;
        }
        OS << M.IR;
        return 0;
      }
      bool Reloc = M.Kind == container::ModuleKind::RelocatableHetIR;
      outs() << "module " << ModIdx++ << ": "
             << (Reloc ? "relocatable hetIR " : "hetIR ") << M.IRVersionMajor
             << "." << M.IRVersionMinor << ", " << M.IR.size()
             << " bytes of bitcode, hash " << M.IRHash.hex() << "\n";
      for (const container::GlobalInfo &G : M.Globals)
        outs() << "global " << G.Name << ": " << G.Size << " bytes, "
               << (G.AddrSpace == 4 ? "constant" : "device") << "\n";
      for (const container::AOTImage &Img : M.Images)
        outs() << "image " << Img.Target << ": " << Img.Bytes.size()
               << " bytes, translator " << Img.TranslatorVersion << ", flags "
               << Img.Flags << imageKernelRange(M, Img) << ", from hetIR "
               << Img.SourceIRHash.hex()
               << (Img.SourceIRHash == container::imageSourceHash(M)
                       ? ""
                       : " (stale)")
               << (Img.Damage.empty() ? "" : " (damaged: " + Img.Damage + ")")
               << "\n";
      for (const container::KernelInfo &K : M.Kernels) {
        printKernelInfo(outs(), K);
        if (!NoState)
          printStateInfo(outs(), K);
      }
      if (ShowIR) {
        LLVMContext Ctx;
        auto Mod = parseCheckedBitcode(M.IR, "hetir", Ctx);
        if (!Mod) {
          WithColor::error(errs(), "hetgpu-objdump") << toString(Mod.takeError()) << "\n";
          return 1;
        }
        (*Mod)->print(outs(), nullptr);
      }
    }
  }
  if (Extract >= 0) {
    WithColor::error(errs(), "hetgpu-objdump")
        << "no module " << Extract << " (the input has " << ModIdx << ")\n";
    return 1;
  }
  return 0;
}
