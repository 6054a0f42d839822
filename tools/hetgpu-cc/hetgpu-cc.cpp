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
/// --save-temps, -v, -Xcompiler, -Xlinker, and separate compilation:
/// -dc / -rdc=true write relocatable hetIR; linking such objects (or
/// -dlink alone) performs the device link (docs/SeparateCompilation.md).
///
//===----------------------------------------------------------------------===//

#include "hetgpu/ABI/Profile.h"
#include "hetgpu/IR/Container.h"
#include "hetgpu/IR/ContainerBuilder.h"
#include "hetgpu/Link/DeviceLink.h"

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
#include "llvm/Support/xxhash.h"
#include "llvm/TargetParser/Host.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace llvm;
namespace hlink = hetgpu::link;

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
  bool Relocatable = false;    ///< -dc, -rdc=true: relocatable hetIR
  bool DeviceLinkOnly = false; ///< -dlink: write the device link object
  bool LinkContracts = true;   ///< off: --no-device-link-contracts
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

/// The flags of separate compilation (docs/SeparateCompilation.md): -dc,
/// --device-c, -rdc=B, --relocatable-device-code=B (also with the value as
/// the next argument), -dlink, --device-link, --no-device-link-contracts.
/// False when \p A is none of them.
bool parseSeparateCompilation(StringRef A, int &I, int Argc, char **Argv,
                              Options &O) {
  if (A == "-dc" || A == "--device-c") {
    O.Relocatable = O.CompileOnly = true;
  } else if (A == "-dlink" || A == "--device-link") {
    O.DeviceLinkOnly = true;
  } else if (A == "--no-device-link-contracts") {
    O.LinkContracts = false;
  } else if (A.starts_with("-rdc") ||
             A.starts_with("--relocatable-device-code")) {
    StringRef Flag =
        A.starts_with("-rdc") ? "-rdc" : "--relocatable-device-code";
    StringRef V = A.drop_front(Flag.size());
    if (V.empty()) {
      if (I + 1 >= Argc)
        fail("option '" + Flag + "' needs a value");
      V = Argv[++I];
    }
    V.consume_front("=");
    if (V != "true" && V != "false")
      fail("'" + Flag + "' takes true or false, not '" + V + "'");
    O.Relocatable = V == "true";
  } else {
    return false;
  }
  return true;
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
    } else if (parseSeparateCompilation(A, I, Argc, Argv, O)) {
    } else if (A == "-shared" || A == "--shared") {
      O.Shared = true;
    } else if (A == "--use_fast_math" || A == "-use_fast_math" ||
               A.starts_with("-ftz") || A.starts_with("-prec-") ||
               A.starts_with("-fmad") || A.starts_with("--ftz") ||
               A.starts_with("--prec-") || A.starts_with("--fmad") ||
               A == "--expt-relaxed-constexpr" ||
               A == "--expt-extended-lambda" || A == "--extended-lambda" ||
               A == "-extended-lambda" || A == "-expt-relaxed-constexpr" ||
               A == "-expt-extended-lambda" || A == "-m64" ||
               A == "--restrict" || A == "-restrict" ||
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
  if (O.DeviceLinkOnly && O.CompileOnly)
    fail("-dlink cannot be combined with -c / -dc");
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
      if (Opts.DeviceLinkOnly)
        fail("-dlink takes objects and archives, not '" + In.Path +
             "' (compile it with -dc first)");
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
    if (Opts.DeviceLinkOnly) {
      deviceLinkOnly(Objects);
      return 0;
    }
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
    std::vector<std::string> Rdc = relocatableFlags(Src);
    Dev.insert(Dev.end(), Rdc.begin(), Rdc.end());
    if (Opts.Relocatable)
      Dev.insert(Dev.end(), {"-mllvm", "-hetgpu-relocatable"});
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
    Host.insert(Host.end(), Rdc.begin(), Rdc.end());
    for (const std::string &F : Opts.HostFlags)
      Host.push_back(F);
    Host.insert(Host.end(), {"-c", Src, "-o", Obj});
    exec(Host, "host compilation of '" + Src + "'");
  }

  /// clang's relocatable mode for both sides of one .cu file: the host side
  /// puts the container in `__nv_relfatbin` and calls
  /// `__cudaRegisterLinkedBinary<id>`; one -cuid gives static device
  /// variables the same externalized name on both sides.
  std::vector<std::string> relocatableFlags(const std::string &Src) {
    if (!Opts.Relocatable)
      return {};
    SmallString<256> Abs(Src);
    sys::fs::make_absolute(Abs);
    std::string Cuid = utohexstr(xxh3_64bits(Abs.str()), /*LowerCase=*/true);
    return {"-fgpu-rdc", "--no-offload-new-driver", "-cuid=" + Cuid};
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

  /// The archives `-l<name>` names, searched in the -L folders as the host
  /// linker does (a shared library found first hides the archive).
  std::vector<std::string> archivesOf(const std::vector<std::string> &Flags) {
    std::vector<std::string> Dirs, Out;
    for (const std::string &F : Flags)
      if (StringRef(F).starts_with("-L"))
        Dirs.push_back(F.substr(2));
    for (const std::string &F : Flags) {
      if (!StringRef(F).starts_with("-l"))
        continue;
      for (const std::string &D : Dirs) {
        std::string Base = D + "/lib" + F.substr(2);
        if (sys::fs::exists(Base + ".so"))
          break;
        if (sys::fs::exists(Base + ".a")) {
          Out.push_back(Base + ".a");
          break;
        }
      }
    }
    return Out;
  }

  hlink::InputScan scanInputs(const std::vector<std::string> &Inputs) {
    hlink::InputScan Scan;
    for (const std::string &In : Inputs)
      if (Error E = hlink::scanInput(In, Scan))
        fail(toString(std::move(E)));
    return Scan;
  }

  /// Device-links \p Components into the object \p Obj (no container when
  /// there are none: an object that defines nothing).
  void writeLinkObject(const std::vector<hlink::Component> &Components,
                       const std::string &Obj) {
    std::set<std::string> Ids;
    std::map<std::string, std::string> Owner;
    for (const hlink::Component &C : Components) {
      auto [It, New] = Owner.try_emplace(C.ModuleId, C.Origin);
      if (!New && It->second != C.Origin)
        fail("device link: '" + It->second + "' and '" + C.Origin +
             "' have the same module id " + C.ModuleId +
             " (one source file compiled twice with -dc?)");
      Ids.insert(C.ModuleId);
    }
    if (Opts.Verbose) {
      errs() << "#$ (hetgpu-cc) device link";
      for (const hlink::Component &C : Components)
        errs() << " " << C.Origin;
      errs() << " -> " << Obj << "\n";
    }
    if (Opts.DryRun)
      return;
    std::optional<hetgpu::container::Container> Linked;
    if (!Components.empty()) {
      hlink::LinkOptions LO;
      LO.CheckContracts = Opts.LinkContracts;
      auto C = hlink::linkComponents(Components, LO);
      if (!C)
        fail(toString(C.takeError()));
      Linked = std::move(*C);
    }
    std::string BC = intermediate(Obj, ".dlink.bc");
    std::error_code EC;
    raw_fd_ostream OS(BC, EC, sys::fs::OF_None);
    if (EC)
      fail("cannot write '" + BC + "': " + EC.message());
    OS << hlink::buildLinkObject(Linked ? &*Linked : nullptr, Ids,
                                 sys::getDefaultTargetTriple());
    OS.close();
    exec({Clang, "-c", "-fPIC", "-Wno-override-module", BC, "-o", Obj},
         "compiling the device link object");
  }

  /// -dlink: every relocatable component of the inputs, linked.
  void deviceLinkOnly(const std::vector<std::string> &Objects) {
    std::vector<std::string> Inputs = Objects;
    for (const std::string &A : archivesOf(Opts.LinkFlags))
      Inputs.push_back(A);
    hlink::InputScan Scan = scanInputs(Inputs);
    writeLinkObject(Scan.Components,
                    Opts.Output.empty() ? "a_dlink.o" : Opts.Output);
  }

  /// The device link a host link needs: none when no input has relocatable
  /// device code or a -dlink object among the inputs already covers it.
  std::string deviceLinkFor(const std::vector<std::string> &Objects) {
    std::vector<std::string> Inputs = Objects;
    for (const std::string &A : archivesOf(Opts.LinkFlags))
      Inputs.push_back(A);
    hlink::InputScan Scan = scanInputs(Inputs);
    if (Scan.Components.empty())
      return "";
    if (!Scan.LinkedIds.empty()) {
      std::set<std::string> Covered;
      for (auto &[Id, Origin] : Scan.LinkedIds)
        Covered.insert(Id);
      for (const hlink::Component &C : Scan.Components)
        if (!Covered.count(C.ModuleId))
          fail("'" + C.Origin +
               "' has relocatable device code that the "
               "device link object '" +
               Scan.LinkedIds.front().second +
               "' does not include (run hetgpu-cc -dlink over every -dc "
               "object, or leave the device link to hetgpu-cc)");
      return "";
    }
    std::string Obj =
        intermediate(Opts.Output.empty() ? "a.out" : Opts.Output, "_dlink.o");
    writeLinkObject(Scan.Components, Obj);
    return Obj;
  }

  void link(const std::vector<std::string> &Objects) {
    std::string Out = Opts.Output.empty() ? "a.out" : Opts.Output;
    std::string DeviceLink = deviceLinkFor(Objects);
    std::vector<std::string> L = {Clang};
    if (Opts.Shared)
      L.push_back("-shared");
    for (const std::string &O : Objects)
      L.push_back(O);
    if (!DeviceLink.empty())
      L.push_back(DeviceLink);
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
