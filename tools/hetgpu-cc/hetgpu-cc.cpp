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
/// The command line is nvcc's (Options.td, parsed by DriverOptions.cpp;
/// docs/Driver.md lists every flag). Separate compilation: -dc / -rdc=true
/// write relocatable hetIR; linking such objects (or -dlink alone) performs
/// the device link (docs/SeparateCompilation.md).
///
//===----------------------------------------------------------------------===//

#include "DriverOptions.h"
#include "Images.h"

#include "hetgpu/ABI/Profile.h"
#include "hetgpu/IR/Container.h"
#include "hetgpu/IR/ContainerBuilder.h"
#include "hetgpu/Link/DeviceLink.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
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

using namespace hetgpu::cc;

/// `--cuda-gpu-arch=` of every device compile: the portable profile.
const std::string ProfileArch =
    "--cuda-gpu-arch=sm_" + std::to_string(hetgpu::abi::ProfileComputeMajor) +
    std::to_string(hetgpu::abi::ProfileComputeMinor);

const char *ToolName = "hetgpu-cc";
bool InvokedAsNvcc = false; ///< run through share/hetgpu/bin/nvcc

class Driver {
public:
  explicit Driver(Options O) : Opts(std::move(O)) {
    SmallString<256> Exe(
        sys::fs::getMainExecutable(ToolName, (void *)&ToolName));
    BinDir = sys::path::parent_path(Exe).str();
    LibDir = (sys::path::parent_path(BinDir) + "/lib").str();
    if (const char *H = getenv("HETGPU_LIBDIR"))
      LibDir = H;
    // An installed tree has the headers under its prefix; the build tree
    // uses the source tree's.
    SmallString<256> Installed(sys::path::parent_path(BinDir));
    sys::path::append(Installed, "include", "hetgpu", "cuda");
    IncludeDir = sys::fs::is_directory(Installed) ? Installed.str().str()
                                                  : HETGPU_RUNTIME_INCLUDE_DIR;
    if (const char *H = getenv("HETGPU_INCLUDE_DIR"))
      IncludeDir = H;
    Clang = HETGPU_CLANGXX;
    if (const char *C = getenv("HETGPU_CLANG"))
      Clang = C;
    HostCC = Clang;
    if (!Opts.HostCompiler.empty())
      HostCC = hostCompilerOf(Opts.HostCompiler);
  }

  int run() {
    if (Opts.Verbose) {
      printToolkitLines();
      printRequestedTargets();
    }
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
      if (producesNoObject())
        continue;
      Objects.push_back(Obj);
    }
    if (Opts.CompileOnly || producesNoObject())
      return 0;
    if (Opts.DeviceLinkOnly) {
      deviceLinkOnly(Objects);
      return 0;
    }
    link(Objects);
    return 0;
  }

  /// ptxas of hetGPU's CUDA toolkit folder (share/hetgpu/bin): a stock
  /// `clang++ -x cuda` device compile gives it PTX in which HetGPUClang.so
  /// had the device module's bitcode embedded; the device pipeline (the pass
  /// plugin at -O3, as hetgpu-cc's device compile) turns that into hetIR,
  /// written where ptxas writes its cubin.
  int runPtxasStandIn(ArrayRef<std::string> Args) {
    std::string In, Out, Arch = "sm_80";
    for (size_t I = 0; I < Args.size(); ++I) {
      StringRef A = Args[I];
      if ((A == "--output-file" || A == "-o") && I + 1 < Args.size())
        Out = Args[++I];
      else if ((A == "--gpu-name" || A == "-arch") && I + 1 < Args.size())
        Arch = Args[++I];
      else if (!A.starts_with("-"))
        In = A.str();
    }
    if (In.empty() || Out.empty())
      fail("ptxas (hetGPU): expected 'ptxas [options] --output-file <cubin> "
           "<ptx>'");
    std::string Tmp = intermediate(In, ".bc");
    writeEmbeddedBitcode(In, Tmp);
    exec({Clang, "-x", "ir", "--target=nvptx64-nvidia-cuda", "-march=" + Arch,
          "-O3", "-fpass-plugin=" + LibDir + "/HetGPUPasses.so", "-emit-llvm",
          "-c", Tmp, "-o", Out},
         "the device pipeline over '" + In + "'");
    return 0;
  }

  /// fatbinary of hetGPU's CUDA toolkit folder: packages the hetIR that the
  /// ptxas stand-in wrote (the first `kind=elf` image; every image of one
  /// source is the same portable hetIR) into the container clang embeds.
  int runFatbinaryStandIn(ArrayRef<std::string> Args) {
    std::string Out, Image;
    for (size_t I = 0; I < Args.size(); ++I) {
      StringRef A = Args[I];
      if (A == "--create" && I + 1 < Args.size())
        Out = Args[++I];
      else if (A.consume_front("--create="))
        Out = A.str();
      else if ((A.consume_front("--image3=") || A.consume_front("--image=")) &&
               Image.empty() && (A.contains("kind=elf") || A.contains("sm_")))
        Image = A.substr(A.find("file=") + 5)
                    .take_until([](char C) { return C == ','; })
                    .str();
    }
    if (Out.empty() || Image.empty())
      fail("fatbinary (hetGPU): expected 'fatbinary --create <out> "
           "--image3=kind=elf,sm=<N>,file=<hetIR>'");
    writeContainer(Image, Out, Image);
    return 0;
  }

  ~Driver() {
    for (const std::string &T : Temps)
      sys::fs::remove(T);
  }

private:
  Options Opts;
  std::string BinDir, LibDir, IncludeDir, Clang;
  std::string HostCC;           ///< -ccbin's compiler (clang without it)
  std::string OpenMPIncludeDir; ///< found once (addOpenMPIncludes)
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
        errs() << (A.find(' ') != std::string::npos ? "\"" + A + "\"" : A)
               << " ";
      errs() << "\n";
    }
    if (Opts.DryRun)
      return;
    std::vector<StringRef> Refs(Args.begin(), Args.end());
    std::string ErrMsg;
    int RC =
        sys::ExecuteAndWait(Args[0], Refs, std::nullopt, {}, 0, 0, &ErrMsg);
    if (RC != 0)
      fail(What + " failed" + (ErrMsg.empty() ? "" : ": " + ErrMsg) +
           (RC > 0 ? " (exit code " + std::to_string(RC) + ")" : ""));
  }

  void addCommon(std::vector<std::string> &A) {
    A.push_back(Opts.Std);
    A.push_back("-D__HETGPU__=1");
    // As nvcc: programs and CMake's compiler identification test it.
    A.push_back("-D__NVCC__=1");
    A.push_back("-D__CUDACC_VER_MAJOR__=12");
    A.push_back("-D__CUDACC_VER_MINOR__=8");
    A.push_back("-D__CUDACC_VER_BUILD__=0");
    for (const std::string &F : Opts.CommonFlags)
      A.push_back(F);
    A.push_back("-isystem");
    A.push_back(IncludeDir);
  }

  void addCUDAMode(std::vector<std::string> &A) {
    A.insert(A.end(),
             {"-x", "cuda", "--cuda-path=/nonexistent", "-nocudainc",
              "-Wno-unknown-cuda-version", "-include", "cuda_runtime.h"});
  }

  void compileCUDA(const std::string &Src, const std::string &Obj) {
    // 1. Device side -> hetIR bitcode.
    std::string DevBC = intermediate(Src, ".hetir.bc");
    std::vector<std::string> Dev = {Clang};
    addCUDAMode(Dev);
    Dev.insert(Dev.end(),
               {"--cuda-device-only", ProfileArch, "-nocudalib", "-Xclang",
                "-target-sdk-version=12.8", "-Xclang", "-target-feature",
                "-Xclang", "+ptx80",
                Opts.DeviceDebug || !Opts.DeviceOptimize ? "-O0" : "-O3"});
    addCommon(Dev);
    Dev.insert(Dev.end(), Opts.DeviceFlags.begin(), Opts.DeviceFlags.end());
    addOpenMPIncludes(Dev);
    if (Opts.LineInfo && !Opts.DeviceDebug)
      Dev.push_back("-gline-tables-only");
    if (Opts.PTXOnly) {
      compilePTX(Dev, Src);
      return;
    }
    if (dependenciesOnly()) {
      writeDependencies(Src);
      return;
    }
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

    if (Opts.Verbose)
      errs() << "#$ (hetgpu-cc) device code of " << Src
             << ": portable hetIR (nvcc's -arch compute_"
             << hetgpu::abi::ProfileComputeMajor
             << hetgpu::abi::ProfileComputeMinor << " profile)\n";

    // 2. hetIR -> container.
    std::string Fatbin = intermediate(Src, ".hetgpu");
    if (Opts.Verbose)
      errs() << "#$ (hetgpu-cc) package " << DevBC << " -> " << Fatbin << "\n";
    if (!Opts.DryRun)
      writeContainer(DevBC, Fatbin, Src);
    else if (Opts.ResourceUsage)
      errs() << "#$ (hetgpu-cc) resource usage of " << DevBC << "\n";

    // 3. Host side with the container embedded.
    std::vector<std::string> Host = {Clang};
    addCUDAMode(Host);
    // The host side sees the device side's __CUDA_ARCH_LIST__ (CUB puts it
    // in its namespace's name, so kernel names must agree).
    Host.insert(Host.end(), {"--cuda-host-only", ProfileArch, "-Xclang",
                             "-target-sdk-version=12.8", "-Xclang",
                             "-fcuda-include-gpubinary", "-Xclang", Fatbin,
                             Opts.OptLevel, "-fPIC"});
    addCommon(Host);
    Host.insert(Host.end(), Rdc.begin(), Rdc.end());
    addHostFlags(Host, /*ForClang=*/true);
    addDependencyFlags(Host);
    Host.insert(Host.end(), {"-c", Src, "-o", Obj});
    exec(Host, "host compilation of '" + Src + "'");
  }

  /// The first flags of the host link; `#$ LIBRARIES=` repeats them.
  std::vector<std::string> runtimeLinkFlags() const {
    return {"-L" + LibDir, "-Wl,-rpath," + LibDir};
  }

  /// What nvcc -v prints about its toolkit, which build systems read
  /// (CMake's CUDA support takes the toolkit root from TOP, the include and
  /// link folders from INCLUDES and LIBRARIES, the host link line as the
  /// one holding LIBRARIES' text): here hetGPU's prefix.
  void printToolkitLines() const {
    std::string Prefix = sys::path::parent_path(BinDir).str();
    const char *Path = getenv("PATH");
    // As share/hetgpu/bin/nvcc (CMake's Clang-CUDA mode runs it to find the
    // toolkit clang is given), the toolkit is that folder.
    errs() << "#$ TOP=" << Prefix << (InvokedAsNvcc ? "/share/hetgpu" : "")
           << "\n"
           << "#$ NVVMIR_LIBRARY_DIR=" << Prefix
           << "/share/hetgpu/nvvm/libdevice\n"
           << "#$ PATH=" << BinDir << ":" << (Path ? Path : "") << "\n"
           << "#$ INCLUDES=\"-I" << IncludeDir << "\"\n"
           << "#$ LIBRARIES=";
    for (const std::string &F : runtimeLinkFlags())
      errs() << " " << F;
    errs() << "\n";
  }

  /// -arch / -code / -gencode as parsed, and the ahead-of-time images
  /// they and --offload-arch ask for (the hetIR stays the portable code).
  void printRequestedTargets() const {
    if (!Opts.Targets.empty()) {
      errs() << "#$ (hetgpu-cc) requested targets:";
      for (const GpuTarget &T : Opts.Targets) {
        errs() << " " << (T.Arch.empty() ? "?" : T.Arch) << "=";
        ListSeparator Comma(",");
        for (const std::string &C : T.Codes)
          errs() << Comma << C;
      }
      errs() << "\n";
    }
    std::vector<std::string> Names = imageNames(Opts);
    if (Names.empty())
      return;
    errs() << "#$ (hetgpu-cc) ahead-of-time images:";
    for (const std::string &N : Names)
      errs() << " " << N;
    errs() << "\n";
  }

  /// The images of imageNames() for every loadable module of \p C (none
  /// for relocatable hetIR: the device link makes them).
  void addImagesTo(hetgpu::container::Container &C, const std::string &What) {
    std::vector<bool> Explicit;
    std::vector<std::string> Names = imageNames(Opts, &Explicit);
    for (hetgpu::container::ModuleInfo &M : C.Modules)
      if (M.Kind == hetgpu::container::ModuleKind::HetIRBitcode)
        if (Error E = addImages(M, Names, Explicit, What, Opts.Verbose))
          fail(toString(std::move(E)));
  }

  bool dependenciesOnly() const {
    return Opts.Deps == DepMode::Only || Opts.Deps == DepMode::OnlyNonSystem;
  }

  /// -E, -M, -MM and --ptx write no object to link.
  bool producesNoObject() const {
    return Opts.PreprocessOnly || Opts.PTXOnly || dependenciesOnly();
  }

  /// The compiler -ccbin names: a program, or a folder holding c++ / g++.
  static std::string hostCompilerOf(StringRef Bin) {
    if (!sys::fs::is_directory(Bin)) {
      if (Bin.contains('/'))
        return Bin.str();
      if (auto P = sys::findProgramByName(Bin))
        return *P;
      fail("host compiler '" + Bin + "' (-ccbin) not found on PATH");
    }
    for (StringRef Name : {"c++", "g++", "clang++"}) {
      SmallString<256> P(Bin);
      sys::path::append(P, Name);
      if (sys::fs::can_execute(P))
        return P.str().str();
    }
    fail("no C++ compiler (c++, g++, clang++) in -ccbin folder '" + Bin + "'");
  }

  /// clang has no OpenMP runtime of its own here (libomp is not a
  /// dependency): -fopenmp becomes GCC's libgomp, found through -ccbin's
  /// compiler or g++, so `-Xcompiler -fopenmp` works for .cu files.
  std::string openMPFlagForClang() { return "-fopenmp=libgomp"; }

  std::string gompIncludeDir() {
    std::string GCC = HostCC != Clang ? HostCC : "g++";
    auto Prog = GCC.find('/') == std::string::npos ? sys::findProgramByName(GCC)
                                                   : ErrorOr<std::string>(GCC);
    if (!Prog)
      return "";
    SmallString<256> Out;
    if (sys::fs::createTemporaryFile("hetgpu-omp", "txt", Out))
      return "";
    Temps.push_back(Out.str().str());
    std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Out),
                                            std::nullopt};
    StringRef Args[] = {*Prog, "-print-file-name=include/omp.h"};
    if (sys::ExecuteAndWait(*Prog, Args, std::nullopt, Redirects) != 0)
      return "";
    auto Buf = MemoryBuffer::getFile(Out);
    if (!Buf)
      return "";
    StringRef Path = (*Buf)->getBuffer().trim();
    if (!sys::fs::exists(Path))
      return "";
    return sys::path::parent_path(Path).str();
  }

  /// -Xcompiler flags for a compile by clang (\p ForClang) or by -ccbin's
  /// compiler.
  void addHostFlags(std::vector<std::string> &A, bool ForClang) {
    for (const std::string &F : Opts.HostFlags) {
      if (F != "-fopenmp" || !ForClang) {
        A.push_back(F);
        continue;
      }
      A.push_back(openMPFlagForClang());
      addOpenMPIncludes(A);
    }
  }

  /// With -Xcompiler -fopenmp, the folder of libgomp's omp.h, for clang's
  /// compiles (the device side includes it too, as the host side does).
  void addOpenMPIncludes(std::vector<std::string> &A) {
    if (!is_contained(Opts.HostFlags, "-fopenmp"))
      return;
    if (OpenMPIncludeDir.empty())
      OpenMPIncludeDir = gompIncludeDir();
    if (OpenMPIncludeDir.empty())
      fail("-fopenmp: no omp.h of GCC's libgomp found (install g++ or name "
           "a GCC with -ccbin)");
    A.insert(A.end(), {"-isystem", OpenMPIncludeDir});
  }

  /// -M / -MM / -MD / -MMD with -MF, -MT, -MP for one compile.
  void addDependencyFlags(std::vector<std::string> &A) {
    switch (Opts.Deps) {
    case DepMode::None:
      return;
    case DepMode::Only:
      A.push_back("-M");
      break;
    case DepMode::OnlyNonSystem:
      A.push_back("-MM");
      break;
    case DepMode::WithCompile:
      A.push_back("-MD");
      break;
    case DepMode::WithCompileNonSystem:
      A.push_back("-MMD");
      break;
    }
    std::string File = Opts.DepFile;
    if (File.empty() && dependenciesOnly() && !Opts.Output.empty())
      File = Opts.Output;
    if (!File.empty())
      A.insert(A.end(), {"-MF", File});
    if (!Opts.DepTarget.empty())
      A.insert(A.end(), {"-MT", Opts.DepTarget});
    if (Opts.DepPhony)
      A.push_back("-MP");
  }

  /// -M / -MM of a .cu file: the host side's includes (both sides include
  /// the same headers).
  void writeDependencies(const std::string &Src) {
    std::vector<std::string> Host = {Clang};
    addCUDAMode(Host);
    Host.insert(Host.end(), {"--cuda-host-only", ProfileArch});
    addCommon(Host);
    addHostFlags(Host, /*ForClang=*/true);
    addDependencyFlags(Host);
    Host.push_back(Src);
    exec(Host, "dependencies of '" + Src + "'");
  }

  /// --ptx: the device side through clang's NVPTX back end (the portable
  /// profile's sm_80), without hetGPU's passes.
  void compilePTX(std::vector<std::string> Dev, const std::string &Src) {
    std::string Out = Opts.Output.empty() ? stem(Src) + ".ptx" : Opts.Output;
    Dev.insert(Dev.end(), {"-S", Src, "-o", Out});
    exec(Dev, "PTX compilation of '" + Src + "'");
  }

  /// --resource-usage / -Xptxas -v: what each kernel of \p Src needs, from
  /// the container's kernel table (registers are the device translator's).
  static void printResourceUsage(const hetgpu::container::ModuleInfo &MI,
                                 StringRef Src) {
    for (const hetgpu::container::KernelInfo &K : MI.Kernels) {
      errs() << "hetgpu-cc info    : kernel '"
             << (K.Demangled.empty() ? K.Name : K.Demangled) << "' (" << Src
             << "): " << K.ParamBufferSize << " bytes parameters, "
             << K.StaticShared << " bytes static shared memory, "
             << K.StateRecordSize << " bytes state record per thread";
      if (K.MaxThreads)
        errs() << ", __launch_bounds__(" << K.MaxThreads << ", " << K.MinBlocks
               << ")";
      errs() << "\n";
    }
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

  /// The `llvm_$_embedded_$_module` array of the PTX file \p PTXFile
  /// (-fembed-bitcode), written to \p Out.
  void writeEmbeddedBitcode(const std::string &PTXFile,
                            const std::string &Out) {
    auto Buf = MemoryBuffer::getFile(PTXFile);
    if (!Buf)
      fail("cannot read '" + PTXFile + "': " + Buf.getError().message());
    StringRef PTX = (*Buf)->getBuffer();
    StringRef Key = "llvm_$_embedded_$_module[";
    size_t At = PTX.find(Key);
    if (At == StringRef::npos)
      fail("ptxas (hetGPU): '" + PTXFile +
           "' holds no device bitcode: compile with -fplugin=" + LibDir +
           "/HetGPUClang.so -fpass-plugin=" + LibDir +
           "/HetGPUPasses.so (docs/Driver.md)");
    StringRef Rest = PTX.drop_front(At + Key.size());
    size_t Size = 0;
    if (Rest.consumeInteger(10, Size) || !Rest.consume_front("] = {"))
      fail("ptxas (hetGPU): malformed embedded bitcode in '" + PTXFile + "'");
    SmallVector<StringRef, 0> Items;
    Rest.take_until([](char C) { return C == '}'; }).split(Items, ',');
    std::string Bytes;
    Bytes.reserve(Size);
    for (StringRef It : Items) {
      unsigned V = 0;
      if (It.trim().getAsInteger(10, V) || V > 255 || Bytes.size() == Size)
        fail("ptxas (hetGPU): malformed embedded bitcode in '" + PTXFile + "'");
      Bytes.push_back(char(V));
    }
    Bytes.resize(Size, '\0'); // the PTX printer leaves out trailing zeros
    std::error_code EC;
    raw_fd_ostream OS(Out, EC, sys::fs::OF_None);
    if (EC)
      fail("cannot write '" + Out + "': " + EC.message());
    OS << Bytes;
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
    if (Opts.ResourceUsage)
      printResourceUsage(*MI, Src);
    hetgpu::container::Container C;
    C.Modules.push_back(std::move(*MI));
    addImagesTo(C, "'" + Src + "'");
    std::string Bytes = hetgpu::container::write(C);
    std::error_code EC;
    raw_fd_ostream OS(Out, EC, sys::fs::OF_None);
    if (EC)
      fail("cannot write '" + Out + "': " + EC.message());
    OS << Bytes;
  }

  void compileHost(const std::string &Src, const std::string &Obj, Lang K) {
    std::vector<std::string> Host = {HostCC};
    if (K == Lang::C)
      Host.insert(Host.end(), {"-x", "c"});
    else
      Host.insert(Host.end(), {"-x", "c++", Opts.Std});
    Host.push_back(Opts.OptLevel);
    Host.push_back("-fPIC");
    for (const std::string &F : Opts.CommonFlags)
      Host.push_back(F);
    Host.insert(Host.end(), {"-isystem", IncludeDir});
    addHostFlags(Host, HostCC == Clang);
    if (Opts.PreprocessOnly) {
      Host.insert(Host.end(), {"-E", Src});
      exec(Host, "preprocessing '" + Src + "'");
      return;
    }
    if (Opts.PTXOnly)
      return;
    if (dependenciesOnly()) {
      Host.push_back(Src);
      addDependencyFlags(Host);
      exec(Host, "dependencies of '" + Src + "'");
      return;
    }
    addDependencyFlags(Host);
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
      addImagesTo(*Linked, "the device link");
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
    std::vector<std::string> L = {HostCC};
    if (Opts.Shared)
      L.push_back("-shared");
    for (const std::string &O : Objects)
      L.push_back(O);
    if (!DeviceLink.empty())
      L.push_back(DeviceLink);
    L.insert(L.end(), {"-o", Out});
    for (const std::string &F : runtimeLinkFlags())
      L.push_back(F);
    for (const std::string &F : Opts.LinkFlags)
      L.push_back(F);
    for (const std::string &F : Opts.HostFlags)
      if (StringRef(F).starts_with("-Wl,") || StringRef(F).starts_with("-l") ||
          StringRef(F).starts_with("-L") || F == "-pthread")
        L.push_back(F);
      else if (F == "-fopenmp")
        L.push_back(HostCC == Clang ? openMPFlagForClang() : F);
    if (Opts.LinkRuntime)
      L.push_back("-lhetgpu-rt");
    L.insert(L.end(), {"-lpthread", "-ldl", "-lm"});
    exec(L, "linking '" + Out + "'");
  }
};

} // namespace

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  // Run as ptxas or fatbinary (links in hetGPU's CUDA toolkit folder).
  StringRef Self = sys::path::filename(Argv[0]);
  if (Self == "ptxas" || Self == "fatbinary") {
    std::vector<std::string> Args(Argv + 1, Argv + Argc);
    Driver D{Options()};
    return Self == "ptxas" ? D.runPtxasStandIn(Args)
                           : D.runFatbinaryStandIn(Args);
  }
  InvokedAsNvcc = Self == "nvcc";
  Options O = parseCommandLine(Argc, Argv);
  return Driver(std::move(O)).run();
}
