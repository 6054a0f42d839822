//===- hetgpu-cc.cpp - nvcc-style driver that produces portable binaries --===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-cc app.cu -o app` compiles CUDA C++ the way nvcc does, but the
/// device code of each .cu file becomes a hetIR module in a hetGPU container
/// instead of PTX/SASS:
///
///   1. device side: clang (CUDA, device only) with our headers, the Clang
///      plugin and the pass plugin (raise -> state layout -> verify), giving
///      hetIR bitcode;
///   2. the bitcode and its kernel table are written into a container;
///   3. host side: clang (CUDA, host only) embeds the container with
///      -fcuda-include-gpubinary (section .nv_fatbin, registered through
///      __cudaRegisterFatBinary);
///   4. link against libhetgpu-rt.
///
/// Flags follow nvcc: -c -o -O<n> -I -D -U -std= -g -G -x cu -l -L -arch
/// -gencode -code (accepted, ignored: the binary is portable), -keep /
/// --save-temps, -v, -Xcompiler, -Xlinker, -rdc (not supported, reported).
///
//===----------------------------------------------------------------------===//

#include "hetgpu/ABI/Profile.h"
#include "hetgpu/IR/Container.h"
#include "hetgpu/IR/ContainerBuilder.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace llvm;

#ifndef HETGPU_CLANGXX
#define HETGPU_CLANGXX "clang++"
#endif
#ifndef HETGPU_RUNTIME_INCLUDE_DIR
#define HETGPU_RUNTIME_INCLUDE_DIR ""
#endif

namespace {

/// `--cuda-gpu-arch=` of every device compile: the portable profile.
const std::string ProfileArch =
    "--cuda-gpu-arch=sm_" + std::to_string(hetgpu::abi::ProfileComputeMajor) +
    std::to_string(hetgpu::abi::ProfileComputeMinor);

const char *ToolName = "hetgpu-cc";

enum class Lang { None, CUDA, CXX, C, Object };

struct Input {
  std::string Path;
  Lang Kind;
};

struct Options {
  bool CompileOnly = false;
  bool Verbose = false;
  bool DryRun = false;
  bool KeepTemps = false;
  bool DeviceDebug = false;
  bool PreprocessOnly = false;
  bool Shared = false;
  std::string Output;
  std::string OptLevel = "-O3";
  std::string Std = "-std=c++17";
  std::string KeepDir;
  std::vector<std::string> CommonFlags; // -I -D -U -include -isystem -g -w ...
  std::vector<std::string> HostFlags;   // -Xcompiler
  std::vector<std::string> LinkFlags;   // -l -L -Xlinker
  std::vector<Input> Inputs;
};

[[noreturn]] void fail(const Twine &Msg) {
  WithColor::error(errs(), ToolName) << Msg << "\n";
  exit(1);
}


Lang langFromExtension(StringRef Path) {
  StringRef Ext = sys::path::extension(Path);
  if (Ext == ".cu")
    return Lang::CUDA;
  if (Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx" || Ext == ".C")
    return Lang::CXX;
  if (Ext == ".c")
    return Lang::C;
  return Lang::Object; // .o .a .so and anything else goes to the linker
}

/// Splits "a,b,c" as nvcc does for -Xcompiler / -Xlinker values.
void splitCommas(StringRef V, std::vector<std::string> &Out, StringRef Prefix = "") {
  SmallVector<StringRef, 4> Parts;
  V.split(Parts, ',', -1, false);
  for (StringRef P : Parts)
    Out.push_back((Prefix + P).str());
}

Options parseArgs(int Argc, char **Argv) {
  Options O;
  Lang ForcedLang = Lang::None;
  auto Value = [&](int &I, StringRef Arg, StringRef Flag) -> std::string {
    // Forms: -Xvalue, -X value, -X=value, --flag=value, --flag value.
    if (Arg.size() > Flag.size()) {
      StringRef Rest = Arg.drop_front(Flag.size());
      return Rest.consume_front("=") ? Rest.str() : Rest.str();
    }
    if (I + 1 >= Argc)
      fail("option '" + Flag + "' needs a value");
    return Argv[++I];
  };
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    // Long options nvcc also spells with two dashes.
    if (A.starts_with("--") && A.size() > 2) {
      StringRef L = A.drop_front(2);
      if (L == "compile")
        A = "-c";
      else if (L == "verbose")
        A = "-v";
      else if (L == "keep" || L == "save-temps")
        A = "-keep";
      else if (L.starts_with("output-file")) {
        StringRef V = L.drop_front(11);
        if (V.consume_front("=")) {
          O.Output = V.str();
          continue;
        }
        A = "-o";
      }
      else if (L == "device-debug")
        A = "-G";
      else if (L == "dryrun")
        A = "-dryrun";
      else if (L == "version") {
        outs() << "hetgpu-cc: hetGPU CUDA compiler driver (portable hetIR)\n";
        exit(0);
      }
    }
    if (A == "-c") {
      O.CompileOnly = true;
    } else if (A == "-o" || (A.starts_with("-o") && A.size() > 2 && !A.starts_with("-objdir"))) {
      O.Output = Value(I, A, "-o");
    } else if (A == "-v") {
      O.Verbose = true;
    } else if (A == "-dryrun") {
      O.DryRun = O.Verbose = true;
    } else if (A == "-keep" || A == "-save-temps") {
      O.KeepTemps = true;
    } else if (A.starts_with("-keep-dir") || A.starts_with("--keep-dir")) {
      O.KeepDir = Value(I, A, A.starts_with("--") ? "--keep-dir" : "-keep-dir");
      O.KeepTemps = true;
    } else if (A == "-E") {
      O.PreprocessOnly = true;
    } else if (A.starts_with("-O")) {
      O.OptLevel = A.str();
    } else if (A == "-G") {
      O.DeviceDebug = true;
      O.CommonFlags.push_back("-g");
    } else if (A == "-g" || A == "-lineinfo" || A == "--generate-line-info") {
      if (A == "-g")
        O.CommonFlags.push_back("-g");
    } else if (A.starts_with("-std=")) {
      O.Std = A.str();
    } else if (A == "-std") {
      O.Std = "-std=" + Value(I, A, "-std");
    } else if (A.starts_with("-I") || A.starts_with("-D") || A.starts_with("-U")) {
      std::string Flag = A.take_front(2).str();
      O.CommonFlags.push_back(Flag + Value(I, A, Flag));
    } else if (A == "-include" || A == "-isystem" || A == "-iquote") {
      O.CommonFlags.push_back(A.str());
      O.CommonFlags.push_back(Value(I, A, A));
    } else if (A.starts_with("-l") || A.starts_with("-L")) {
      std::string Flag = A.take_front(2).str();
      O.LinkFlags.push_back(Flag + Value(I, A, Flag));
    } else if (A == "-x" || A.starts_with("-x")) {
      std::string L = Value(I, A, "-x");
      if (L == "cu" || L == "cuda")
        ForcedLang = Lang::CUDA;
      else if (L == "c++")
        ForcedLang = Lang::CXX;
      else if (L == "c")
        ForcedLang = Lang::C;
      else if (L == "none")
        ForcedLang = Lang::None;
      else
        fail("unsupported language '-x " + L + "'");
    } else if (A.starts_with("-Xcompiler") || A.starts_with("--compiler-options")) {
      splitCommas(Value(I, A, A.starts_with("-X") ? "-Xcompiler" : "--compiler-options"),
                  O.HostFlags);
    } else if (A.starts_with("-Xlinker") || A.starts_with("--linker-options")) {
      splitCommas(Value(I, A, A.starts_with("-X") ? "-Xlinker" : "--linker-options"),
                  O.LinkFlags, "-Wl,");
    } else if (A.starts_with("-arch") || A.starts_with("-gencode") ||
               A.starts_with("-code") || A.starts_with("--gpu-architecture") ||
               A.starts_with("--gpu-code") || A.starts_with("--generate-code") ||
               A.starts_with("-ccbin") || A.starts_with("--compiler-bindir") ||
               A.starts_with("-Xptxas") || A.starts_with("--ptxas-options") ||
               A.starts_with("-Xnvlink") || A.starts_with("-maxrregcount") ||
               A.starts_with("--maxrregcount")) {
      // Accepted and ignored: device code is portable hetIR. Consume a
      // separate value when the flag has none attached.
      bool Attached = A.contains('=') ||
                      (A.starts_with("-arch") && A.size() > 5) ||
                      (A.starts_with("-code") && A.size() > 5) ||
                      (A.starts_with("-gencode") && A.size() > 8);
      if (!Attached && I + 1 < Argc)
        ++I;
    } else if (A.starts_with("-rdc") || A.starts_with("--relocatable-device-code") ||
               A == "-dc" || A == "--device-c") {
      StringRef V = A.contains('=') ? A.split('=').second : "true";
      if (A == "-dc" || A == "--device-c" || V == "true")
        fail("relocatable device code (-rdc=true / -dc) is not supported yet: "
             "each .cu file's device code must be self-contained");
    } else if (A == "-shared" || A == "--shared") {
      O.Shared = true;
    } else if (A == "--use_fast_math" || A == "-use_fast_math" ||
               A.starts_with("-ftz") || A.starts_with("-prec-") ||
               A.starts_with("-fmad") || A.starts_with("--ftz") ||
               A.starts_with("--prec-") || A.starts_with("--fmad") ||
               A == "--expt-relaxed-constexpr" || A == "--expt-extended-lambda" ||
               A == "--extended-lambda" || A == "-extended-lambda" ||
               A == "-expt-relaxed-constexpr" || A == "-expt-extended-lambda" ||
               A == "-m64" || A == "--restrict" || A == "-restrict" ||
               A.starts_with("-Wno-deprecated-gpu-targets") ||
               A == "-Wno-deprecated-declarations" || A == "--resource-usage" ||
               A == "-res-usage" || A.starts_with("--diag-suppress") ||
               A.starts_with("-diag-suppress")) {
      // nvcc-only switches without an effect here.
      if ((A == "--diag-suppress" || A == "-diag-suppress") && I + 1 < Argc)
        ++I;
    } else if (A == "-w" || A.starts_with("-W") || A.starts_with("-f") ||
               A.starts_with("-m") || A == "-pthread" || A == "-pedantic") {
      O.CommonFlags.push_back(A.str());
    } else if (A.starts_with("-")) {
      fail("unknown option '" + A + "'");
    } else {
      Lang K = ForcedLang != Lang::None ? ForcedLang : langFromExtension(A);
      O.Inputs.push_back({A.str(), K});
    }
  }
  if (O.Inputs.empty())
    fail("no input files");
  if (O.CompileOnly && O.Output.size() && O.Inputs.size() > 1)
    fail("-o with -c needs exactly one input file");
  return O;
}

class Driver {
public:
  explicit Driver(Options O) : Opts(std::move(O)) {
    SmallString<256> Exe(sys::fs::getMainExecutable(ToolName, (void *)&ToolName));
    BinDir = sys::path::parent_path(Exe).str();
    LibDir = (sys::path::parent_path(BinDir) + "/lib").str();
    if (const char *H = getenv("HETGPU_LIBDIR"))
      LibDir = H;
    IncludeDir = HETGPU_RUNTIME_INCLUDE_DIR;
    if (const char *H = getenv("HETGPU_INCLUDE_DIR"))
      IncludeDir = H;
    if (!sys::fs::is_directory(IncludeDir)) {
      SmallString<256> Alt(sys::path::parent_path(BinDir));
      sys::path::append(Alt, "include", "hetgpu", "cuda");
      IncludeDir = Alt.str().str();
    }
    Clang = HETGPU_CLANGXX;
    if (const char *C = getenv("HETGPU_CLANG"))
      Clang = C;
  }

  int run() {
    std::vector<std::string> Objects;
    for (const Input &In : Opts.Inputs) {
      if (!sys::fs::exists(In.Path))
        fail("no such file: '" + In.Path + "'");
      if (In.Kind == Lang::Object) {
        Objects.push_back(In.Path);
        continue;
      }
      std::string Obj = objectPathFor(In.Path);
      if (In.Kind == Lang::CUDA)
        compileCUDA(In.Path, Obj);
      else
        compileHost(In.Path, Obj, In.Kind);
      if (Opts.PreprocessOnly)
        continue;
      Objects.push_back(Obj);
    }
    if (Opts.CompileOnly || Opts.PreprocessOnly)
      return 0;
    link(Objects);
    return 0;
  }

  ~Driver() {
    for (const std::string &T : Temps)
      sys::fs::remove(T);
  }

private:
  Options Opts;
  std::string BinDir, LibDir, IncludeDir, Clang;
  std::vector<std::string> Temps;

  std::string stem(StringRef Path) { return sys::path::stem(Path).str(); }

  /// A temporary (or, with -keep, a kept) file for an intermediate product.
  std::string intermediate(StringRef Input, StringRef Suffix) {
    if (Opts.KeepTemps) {
      SmallString<256> P(Opts.KeepDir.empty() ? "." : Opts.KeepDir);
      sys::path::append(P, stem(Input) + Suffix.str());
      return P.str().str();
    }
    SmallString<256> P;
    if (std::error_code EC = sys::fs::createTemporaryFile(
            "hetgpu-" + stem(Input), Suffix.ltrim('.'), P))
      fail("cannot create a temporary file: " + EC.message());
    Temps.push_back(P.str().str());
    return P.str().str();
  }

  std::string objectPathFor(StringRef Input) {
    if (Opts.CompileOnly && !Opts.Output.empty())
      return Opts.Output;
    if (Opts.CompileOnly)
      return stem(Input) + ".o";
    return intermediate(Input, ".o");
  }

  void exec(const std::vector<std::string> &Args, StringRef What) {
    if (Opts.Verbose) {
      errs() << "#$ ";
      for (const std::string &A : Args)
        errs() << (A.find(' ') != std::string::npos ? "\"" + A + "\"" : A) << " ";
      errs() << "\n";
    }
    if (Opts.DryRun)
      return;
    std::vector<StringRef> Refs(Args.begin(), Args.end());
    std::string ErrMsg;
    int RC = sys::ExecuteAndWait(Args[0], Refs, std::nullopt, {}, 0, 0, &ErrMsg);
    if (RC != 0)
      fail(What + " failed" + (ErrMsg.empty() ? "" : ": " + ErrMsg) +
           (RC > 0 ? " (exit code " + std::to_string(RC) + ")" : ""));
  }

  void addCommon(std::vector<std::string> &A) {
    A.push_back(Opts.Std);
    A.push_back("-D__HETGPU__=1");
    A.push_back("-D__CUDACC_VER_MAJOR__=12");
    A.push_back("-D__CUDACC_VER_MINOR__=8");
    A.push_back("-D__CUDACC_VER_BUILD__=0");
    for (const std::string &F : Opts.CommonFlags)
      A.push_back(F);
    A.push_back("-isystem");
    A.push_back(IncludeDir);
  }

  void addCUDAMode(std::vector<std::string> &A) {
    A.insert(A.end(), {"-x", "cuda", "--cuda-path=/nonexistent", "-nocudainc",
                       "-Wno-unknown-cuda-version", "-include", "cuda_runtime.h"});
  }

  void compileCUDA(const std::string &Src, const std::string &Obj) {
    // 1. Device side -> hetIR bitcode.
    std::string DevBC = intermediate(Src, ".hetir.bc");
    std::vector<std::string> Dev = {Clang};
    addCUDAMode(Dev);
    Dev.insert(Dev.end(),
               {"--cuda-device-only", ProfileArch, "-nocudalib",
                "-Xclang", "-target-sdk-version=12.8",
                "-Xclang", "-target-feature", "-Xclang", "+ptx80",
                Opts.DeviceDebug ? "-O0" : "-O3"});
    addCommon(Dev);
    std::string PassPlugin = LibDir + "/HetGPUPasses.so";
    std::string ClangPlugin = LibDir + "/HetGPUClang.so";
    if (!sys::fs::exists(PassPlugin) && !Opts.DryRun)
      fail("pass plugin not found at '" + PassPlugin +
           "' (set HETGPU_LIBDIR to the folder holding HetGPUPasses.so)");
    Dev.push_back("-fpass-plugin=" + PassPlugin);
    if (sys::fs::exists(ClangPlugin))
      Dev.push_back("-fplugin=" + ClangPlugin);
    if (Opts.PreprocessOnly) {
      Dev.insert(Dev.end(), {"-E", Src});
      if (!Opts.Output.empty())
        Dev.insert(Dev.end(), {"-o", Opts.Output});
      exec(Dev, "preprocessing '" + Src + "'");
      return;
    }
    Dev.insert(Dev.end(), {"-emit-llvm", "-c", Src, "-o", DevBC});
    exec(Dev, "device compilation of '" + Src + "'");

    // 2. hetIR -> container.
    std::string Fatbin = intermediate(Src, ".hetgpu");
    if (Opts.Verbose)
      errs() << "#$ (hetgpu-cc) package " << DevBC << " -> " << Fatbin << "\n";
    if (!Opts.DryRun)
      writeContainer(DevBC, Fatbin, Src);

    // 3. Host side with the container embedded.
    std::vector<std::string> Host = {Clang};
    addCUDAMode(Host);
    // The host side sees the device side's __CUDA_ARCH_LIST__ (CUB puts it
    // in its namespace's name, so kernel names must agree).
    Host.insert(Host.end(), {"--cuda-host-only", ProfileArch, "-Xclang", "-target-sdk-version=12.8",
                             "-Xclang", "-fcuda-include-gpubinary", "-Xclang", Fatbin,
                             Opts.OptLevel, "-fPIC"});
    addCommon(Host);
    for (const std::string &F : Opts.HostFlags)
      Host.push_back(F);
    Host.insert(Host.end(), {"-c", Src, "-o", Obj});
    exec(Host, "host compilation of '" + Src + "'");
  }

  void writeContainer(const std::string &BC, const std::string &Out,
                      const std::string &Src) {
    auto Buf = MemoryBuffer::getFile(BC);
    if (!Buf)
      fail("cannot read '" + BC + "': " + Buf.getError().message());
    LLVMContext Ctx;
    auto M = parseBitcodeFile((*Buf)->getMemBufferRef(), Ctx);
    if (!M)
      fail("device code of '" + Src + "': " + toString(M.takeError()));
    auto MI = hetgpu::buildModuleInfo(**M);
    if (!MI)
      fail("device code of '" + Src + "' is not valid hetIR:\n" +
           toString(MI.takeError()));
    hetgpu::container::Container C;
    C.Modules.push_back(std::move(*MI));
    std::string Bytes = hetgpu::container::write(C);
    std::error_code EC;
    raw_fd_ostream OS(Out, EC, sys::fs::OF_None);
    if (EC)
      fail("cannot write '" + Out + "': " + EC.message());
    OS << Bytes;
  }

  void compileHost(const std::string &Src, const std::string &Obj, Lang K) {
    std::vector<std::string> Host = {Clang};
    if (K == Lang::C)
      Host.insert(Host.end(), {"-x", "c"});
    else
      Host.insert(Host.end(), {"-x", "c++", Opts.Std});
    Host.push_back(Opts.OptLevel);
    Host.push_back("-fPIC");
    for (const std::string &F : Opts.CommonFlags)
      Host.push_back(F);
    Host.insert(Host.end(), {"-isystem", IncludeDir});
    for (const std::string &F : Opts.HostFlags)
      Host.push_back(F);
    if (Opts.PreprocessOnly) {
      Host.insert(Host.end(), {"-E", Src});
      exec(Host, "preprocessing '" + Src + "'");
      return;
    }
    Host.insert(Host.end(), {"-c", Src, "-o", Obj});
    exec(Host, "compilation of '" + Src + "'");
  }

  void link(const std::vector<std::string> &Objects) {
    std::string Out = Opts.Output.empty() ? "a.out" : Opts.Output;
    std::vector<std::string> L = {Clang};
    if (Opts.Shared)
      L.push_back("-shared");
    for (const std::string &O : Objects)
      L.push_back(O);
    L.insert(L.end(), {"-o", Out, "-L" + LibDir, "-Wl,-rpath," + LibDir});
    for (const std::string &F : Opts.LinkFlags)
      L.push_back(F);
    for (const std::string &F : Opts.HostFlags)
      if (StringRef(F).starts_with("-Wl,") || StringRef(F).starts_with("-l") ||
          StringRef(F).starts_with("-L") || F == "-fopenmp" || F == "-pthread")
        L.push_back(F);
    L.insert(L.end(), {"-lhetgpu-rt", "-lpthread", "-ldl", "-lm"});
    exec(L, "linking '" + Out + "'");
  }
};

} // namespace

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  Options O = parseArgs(Argc, Argv);
  return Driver(std::move(O)).run();
}
