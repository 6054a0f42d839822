//===- DriverOptions.cpp - hetgpu-cc's command line through OptTable ------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Parses hetgpu-cc's command line with the OptTable generated from
/// Options.td (nvcc's long and short spellings, `=` or a separate value),
/// and turns it into Options: --help, --version, "did you mean", nvcc's
/// target flags (-arch, -code, -gencode) recorded as GpuTargets, and the
/// flags nvcc documents but hetgpu-cc cannot honour refused with a reason.
///
//===----------------------------------------------------------------------===//

#include "DriverOptions.h"

#include "hetgpu/IR/ImageTargets.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Option/Arg.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Option/Option.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#ifndef HETGPU_VERSION
#define HETGPU_VERSION "unknown"
#endif
#ifndef HETGPU_LLVM_VERSION
#define HETGPU_LLVM_VERSION "unknown"
#endif

using namespace llvm;
using namespace llvm::opt;

namespace hetgpu::cc {
namespace {

enum ID {
  OPT_INVALID = 0,
#define OPTION(...) LLVM_MAKE_OPT_ID(__VA_ARGS__),
#include "Options.inc"
#undef OPTION
};

#define OPTTABLE_STR_TABLE_CODE
#include "Options.inc"
#undef OPTTABLE_STR_TABLE_CODE

#define OPTTABLE_PREFIXES_TABLE_CODE
#include "Options.inc"
#undef OPTTABLE_PREFIXES_TABLE_CODE

constexpr OptTable::Info InfoTable[] = {
#define OPTION(...) LLVM_CONSTRUCT_OPT_INFO(__VA_ARGS__),
#include "Options.inc"
#undef OPTION
};

class DriverOptTable : public GenericOptTable {
public:
  DriverOptTable()
      : GenericOptTable(OptionStrTable, OptionPrefixesTable, InfoTable) {}
};

/// The CUDA release whose API the runtime implements and whose macros
/// (__CUDACC_VER_*__) the compiles define.
constexpr const char *CudaRelease = "12.8";

void printVersion() {
  // The first line is the text build systems (CMake's CUDA support) match
  // to treat a compiler as nvcc-compatible; the next says whose it is.
  outs() << "nvcc: NVIDIA (R) Cuda compiler driver\n"
         << "hetgpu-cc: hetGPU's CUDA compiler driver (nvcc's command line, "
            "portable hetIR device code; not NVIDIA's nvcc)\n"
         << "Cuda compilation tools, release " << CudaRelease << ", V"
         << CudaRelease << ".0\n"
         << "hetGPU " << HETGPU_VERSION << ", LLVM/Clang "
         << HETGPU_LLVM_VERSION << "\n";
}

/// The option as the user spelt it, without a trailing `=`.
std::string flagName(const Arg *A) {
  const Arg *Spelt = A->getAlias() ? A->getAlias() : A;
  return StringRef(Spelt->getSpelling()).rtrim('=').str();
}

bool parseBool(const Arg *A) {
  StringRef V = A->getValue();
  if (V == "true")
    return true;
  if (V == "false")
    return false;
  fail("'" + flagName(A) + "' takes true or false, not '" + V + "'");
}

/// sm_NN / compute_NN / lto_NN with an optional a/f suffix.
bool isArchName(StringRef S) {
  static const Regex R("^(sm|compute|lto)_[0-9]{2,3}[af]?$");
  return R.match(S);
}

/// The virtual architecture of \p Arch (sm_90a -> compute_90a).
std::string virtualArch(StringRef Arch) {
  if (Arch.consume_front("sm_") || Arch.consume_front("lto_"))
    return ("compute_" + Arch).str();
  return Arch.str();
}

void checkArch(StringRef Flag, StringRef V, bool AllowSpecial) {
  if (isArchName(V) ||
      (AllowSpecial && (V == "native" || V == "all" || V == "all-major")))
    return;
  fail("'" + Flag + "' does not name a GPU architecture: '" + V +
       "' (expected sm_NN or compute_NN" +
       (AllowSpecial ? ", native, all or all-major)" : ")"));
}

/// Codes of `code=sm_80`, `code=[sm_80,compute_80]`, `code="sm_80,compute_80"`.
std::vector<std::string> splitCodes(StringRef Flag, StringRef V) {
  V = V.trim();
  if ((V.starts_with("[") && V.ends_with("]")) ||
      (V.starts_with("\"") && V.ends_with("\"") && V.size() > 1))
    V = V.drop_front().drop_back();
  SmallVector<StringRef, 4> Parts;
  V.split(Parts, ',', -1, false);
  if (Parts.empty())
    fail("'" + Flag + "' names no GPU code");
  std::vector<std::string> Out;
  for (StringRef P : Parts) {
    checkArch(Flag, P.trim(), false);
    Out.push_back(P.trim().str());
  }
  return Out;
}

/// -gencode arch=<a>,code=<c>.
GpuTarget parseGencode(StringRef Flag, StringRef V) {
  StringRef Rest = V;
  size_t CodeAt = Rest.find(",code=");
  if (!Rest.consume_front("arch=") || CodeAt == StringRef::npos)
    fail("'" + Flag + " " + V + "': expected arch=compute_NN,code=sm_NN");
  StringRef Arch = V.slice(5, CodeAt);
  checkArch(Flag, Arch, false);
  return {virtualArch(Arch), splitCodes(Flag, V.drop_front(CodeAt + 6))};
}

/// -arch / -code as nvcc combines them: -arch=sm_NN alone builds sm_NN and
/// compute_NN, -arch=compute_NN alone builds compute_NN, with -code the
/// codes given.
void combineArchAndCode(const std::vector<std::string> &Arches,
                        const std::vector<std::string> &Codes, Options &O) {
  if (!Codes.empty()) {
    if (Arches.size() > 1)
      fail("'-code' with more than one '-arch': use -gencode for each pair");
    std::string Arch = Arches.empty() ? "" : virtualArch(Arches.front());
    O.Targets.push_back({Arch, Codes});
    return;
  }
  for (StringRef A : Arches) {
    GpuTarget T{virtualArch(A), {}};
    if (A.starts_with("sm_"))
      T.Codes.push_back(A.str());
    if (isArchName(A))
      T.Codes.push_back(T.Arch);
    O.Targets.push_back(std::move(T));
  }
}

void splitCommas(StringRef V, std::vector<std::string> &Out,
                 StringRef Prefix = "") {
  SmallVector<StringRef, 4> Parts;
  V.split(Parts, ',', -1, false);
  for (StringRef P : Parts)
    Out.push_back((Prefix + P).str());
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

/// The runtime libraries CUDA programs link by name: hetGPU's runtime
/// (always linked) stands for them.
bool isCudaRuntimeLibrary(StringRef L) {
  return L == "cudart" || L == "cudart_static" || L == "cuda" ||
         L == "cudadevrt";
}

void applyFastMathPart(unsigned Id, bool On, Options &O) {
  auto &D = O.DeviceFlags;
  switch (Id) {
  case OPT_ftz:
    D.push_back(On ? "-fgpu-flush-denormals-to-zero"
                   : "-fno-gpu-flush-denormals-to-zero");
    break;
  case OPT_prec_div:
    D.push_back(On ? "-fno-reciprocal-math" : "-freciprocal-math");
    break;
  case OPT_prec_sqrt:
    D.push_back(On ? "-fno-approx-func" : "-fapprox-func");
    break;
  case OPT_fmad:
    D.push_back(On ? "-ffp-contract=fast" : "-ffp-contract=off");
    break;
  }
}

void reportUnknown(const DriverOptTable &T, const Arg *A, const ArgList &List) {
  std::string Spelling = A->getAsString(List);
  std::string Nearest;
  std::string Msg = "unknown option '" + Spelling + "'";
  if (T.findNearest(Spelling, Nearest, Visibility(), 2) <= 2)
    Msg += "; did you mean '" + Nearest + "'?";
  fail(Msg);
}

/// The options that set a value of Options directly; false when \p A is
/// none of them.
bool applyValue(const Arg *A, Options &O) {
  StringRef V = A->getNumValues() ? A->getValue() : "";
  switch (A->getOption().getID()) {
  case OPT_output_file:
    O.Output = V.str();
    return true;
  case OPT_keep_dir:
    O.KeepDir = V.str();
    O.KeepTemps = true;
    return true;
  case OPT_optimize:
    O.OptLevel = ("-O" + V).str();
    return true;
  case OPT_std: {
    if (!is_contained({"c++03", "c++11", "c++14", "c++17", "c++20"}, V))
      fail("'" + flagName(A) +
           "' takes c++03, c++11, c++14, c++17 or "
           "c++20, not '" +
           V + "'");
    O.Std = ("-std=" + V).str();
    return true;
  }
  case OPT_compiler_bindir:
    O.HostCompiler = V.str();
    return true;
  case OPT_dependency_output:
    O.DepFile = V.str();
    return true;
  case OPT_dependency_target_name:
    O.DepTarget = V.str();
    return true;
  case OPT_maxrregcount:
    if (V.getAsInteger(10, O.MaxRegCount) || O.MaxRegCount == 0)
      fail("'" + flagName(A) + "' takes a positive number, not '" + V + "'");
    return true;
  case OPT_default_stream:
    if (V != "legacy" && V != "null" && V != "per-thread")
      fail("'" + flagName(A) + "' takes legacy, null or per-thread, not '" + V +
           "'");
    O.DefaultStream = V == "null" ? "legacy" : V.str();
    return true;
  case OPT_cudart:
    if (V != "none" && V != "shared" && V != "static")
      fail("'" + flagName(A) + "' takes none, shared or static, not '" + V +
           "'");
    O.LinkRuntime = V != "none";
    return true;
  case OPT_cudadevrt:
    if (V != "none" && V != "static")
      fail("'" + flagName(A) + "' takes none or static, not '" + V + "'");
    return true;
  case OPT_dopt:
    if (V != "on" && V != "off")
      fail("'" + flagName(A) + "' takes on or off, not '" + V + "'");
    O.DeviceOptimize = V == "on";
    return true;
  case OPT_machine:
    if (V != "64")
      fail("'" + flagName(A) + " " + V +
           "' is not supported: hetGPU "
           "builds 64-bit programs only");
    return true;
  case OPT_relocatable_device_code:
    O.Relocatable = parseBool(A);
    return true;
  }
  return false;
}

/// Flags that set a switch of Options; false when \p A is none of them.
bool applySwitch(const Arg *A, Options &O) {
  switch (A->getOption().getID()) {
  case OPT_compile:
    O.CompileOnly = true;
    return true;
  case OPT_verbose:
    O.Verbose = true;
    return true;
  case OPT_dryrun:
    O.DryRun = O.Verbose = true;
    return true;
  case OPT_keep:
  case OPT_save_temps:
    O.KeepTemps = true;
    return true;
  case OPT_preprocess:
    O.PreprocessOnly = true;
    return true;
  case OPT_ptx:
    O.PTXOnly = true;
    return true;
  case OPT_device_debug:
    O.DeviceDebug = true;
    O.CommonFlags.push_back("-g");
    return true;
  case OPT_debug:
    O.CommonFlags.push_back("-g");
    return true;
  case OPT_generate_line_info:
    O.LineInfo = true;
    return true;
  case OPT_shared:
    O.Shared = true;
    return true;
  case OPT_device_c:
    O.Relocatable = O.CompileOnly = true;
    return true;
  case OPT_device_link:
    O.DeviceLinkOnly = true;
    return true;
  case OPT_no_device_link_contracts:
    O.LinkContracts = false;
    return true;
  case OPT_resource_usage:
    O.ResourceUsage = true;
    return true;
  case OPT_no_offload_images:
    O.Images = false;
    return true;
  case OPT_generate_dependencies:
    O.Deps = DepMode::Only;
    return true;
  case OPT_generate_nonsystem_dependencies:
    O.Deps = DepMode::OnlyNonSystem;
    return true;
  case OPT_generate_dependencies_with_compile:
    O.Deps = DepMode::WithCompile;
    return true;
  case OPT_generate_nonsystem_dependencies_with_compile:
    O.Deps = DepMode::WithCompileNonSystem;
    return true;
  case OPT_generate_dependency_targets:
    O.DepPhony = true;
    return true;
  case OPT_use_fast_math:
    applyFastMathPart(OPT_ftz, true, O);
    applyFastMathPart(OPT_prec_div, false, O);
    applyFastMathPart(OPT_prec_sqrt, false, O);
    applyFastMathPart(OPT_fmad, true, O);
    O.DeviceFlags.push_back("-fgpu-approx-transcendentals");
    O.DeviceFlags.push_back("-D__USE_FAST_MATH__=1");
    return true;
  case OPT_ftz:
  case OPT_prec_div:
  case OPT_prec_sqrt:
  case OPT_fmad:
    applyFastMathPart(A->getOption().getID(), parseBool(A), O);
    return true;
  case OPT_disable_warnings:
    O.CommonFlags.push_back("-w");
    return true;
  case OPT_no_exceptions:
    O.HostFlags.push_back("-fno-exceptions");
    return true;
  }
  return false;
}

/// Flags passed on to clang and the host compiler; false when \p A is none
/// of them.
bool applyPassThrough(const Arg *A, Options &O) {
  StringRef V = A->getNumValues() ? A->getValue() : "";
  switch (A->getOption().getID()) {
  case OPT_define_macro:
    O.CommonFlags.push_back(("-D" + V).str());
    return true;
  case OPT_undefine_macro:
    O.CommonFlags.push_back(("-U" + V).str());
    return true;
  case OPT_include_path:
    O.CommonFlags.push_back(("-I" + V).str());
    return true;
  case OPT_pre_include:
  case OPT_system_include:
  case OPT_iquote:
    O.CommonFlags.push_back(
        A->getOption().getID() == OPT_pre_include ? "-include"
        : A->getOption().getID() == OPT_iquote    ? "-iquote"
                                                  : "-isystem");
    O.CommonFlags.push_back(V.str());
    return true;
  case OPT_library:
    if (!isCudaRuntimeLibrary(V))
      O.LinkFlags.push_back(("-l" + V).str());
    return true;
  case OPT_library_path:
    O.LinkFlags.push_back(("-L" + V).str());
    return true;
  case OPT_compiler_options:
    splitCommas(V, O.HostFlags);
    return true;
  case OPT_linker_options:
    splitCommas(V, O.LinkFlags, "-Wl,");
    return true;
  case OPT_ptxas_options: {
    std::vector<std::string> Parts;
    splitCommas(V, Parts);
    for (StringRef P : Parts)
      if (P == "-v" || P == "--verbose")
        O.ResourceUsage = true;
    return true;
  }
  case OPT_ftemplate_depth:
    O.CommonFlags.push_back(("-ftemplate-depth=" + V).str());
    return true;
  case OPT_ftemplate_backtrace_limit:
    O.CommonFlags.push_back(("-ftemplate-backtrace-limit=" + V).str());
    return true;
  case OPT_werror: {
    std::vector<std::string> Kinds;
    splitCommas(V, Kinds);
    for (StringRef K : Kinds) {
      if (K == "all-warnings")
        O.HostFlags.push_back("-Werror");
      else if (!is_contained({"cross-execution-space-call", "reorder",
                              "deprecated-declarations",
                              "default-stream-launch",
                              "ext-lambda-captures-this"},
                             K))
        O.HostFlags.push_back(("-Werror=" + K).str());
    }
    return true;
  }
  case OPT_wno_deprecated_declarations:
  case OPT_wreorder:
    O.HostFlags.push_back(A->getOption().getID() == OPT_wreorder
                              ? "-Wreorder"
                              : "-Wno-deprecated-declarations");
    return true;
  case OPT_host_W:
  case OPT_host_f:
  case OPT_host_m:
  case OPT_host_pthread:
  case OPT_host_pedantic:
    if (StringRef(A->getSpelling()) == "-W" && V.starts_with("l,"))
      O.LinkFlags.push_back((A->getSpelling() + V).str());
    else
      O.CommonFlags.push_back((A->getSpelling() + V).str());
    return true;
  }
  return false;
}

void checkCombinations(const Options &O) {
  if (O.Inputs.empty())
    fail("no input files");
  if (O.CompileOnly && O.Output.size() && O.Inputs.size() > 1)
    fail("-o with -c needs exactly one input file");
  if (O.DeviceLinkOnly && O.CompileOnly)
    fail("-dlink cannot be combined with -c / -dc");
  if (O.PTXOnly && O.Output.size() && O.Inputs.size() > 1)
    fail("-o with --ptx needs exactly one input file");
  if (O.DepFile.size() && O.Deps == DepMode::None)
    fail("-MF needs one of -M, -MM, -MD, -MMD");
  if (O.Deps == DepMode::WithCompile || O.Deps == DepMode::WithCompileNonSystem)
    if (O.DepFile.size() && O.Inputs.size() > 1 && !O.CompileOnly)
      fail("-MF with -MD/-MMD needs exactly one input file");
}

} // namespace

std::vector<std::string> imageNames(const Options &O,
                                    std::vector<bool> *Explicit) {
  std::vector<std::string> Names;
  auto Add = [&](const std::string &N, bool E) {
    if (std::find(Names.begin(), Names.end(), N) != Names.end())
      return;
    Names.push_back(N);
    if (Explicit)
      Explicit->push_back(E);
  };
  if (!O.Images)
    return Names;
  for (const std::string &N : O.ImageTargets)
    Add(N, true);
  for (const GpuTarget &T : O.Targets)
    for (const std::string &C : T.Codes)
      if (StringRef(C).starts_with("sm_"))
        Add(C, false);
  return Names;
}

[[noreturn]] void fail(const Twine &Msg) {
  WithColor::error(errs(), "hetgpu-cc") << Msg << "\n";
  exit(1);
}

Options parseCommandLine(int Argc, char **Argv) {
  static const DriverOptTable Table;
  unsigned MissingIndex = 0, MissingCount = 0;
  ArrayRef<const char *> Args(Argv + 1, Argv + Argc);
  InputArgList List = Table.ParseArgs(Args, MissingIndex, MissingCount);
  if (MissingCount)
    fail("option '" + StringRef(List.getArgString(MissingIndex)) +
         "' needs a value");
  if (List.hasArg(OPT_help)) {
    Table.printHelp(outs(), "hetgpu-cc [options] <inputs>",
                    "hetGPU's CUDA compiler driver: nvcc's command line, "
                    "device code as portable hetIR (docs/Driver.md)");
    exit(0);
  }
  if (List.hasArg(OPT_version)) {
    printVersion();
    exit(0);
  }
  bool ForwardUnknown = List.hasArg(OPT_forward_unknown_to_host_compiler) ||
                        List.hasArg(OPT_forward_unknown_opts);
  bool ForwardUnknownToLinker = List.hasArg(OPT_forward_unknown_to_host_linker);

  Options O;
  Lang ForcedLang = Lang::None;
  std::vector<std::string> Arches, Codes;
  for (const Arg *A : List) {
    const Option &Opt = A->getOption();
    unsigned Id = Opt.getID();
    if (Id == OPT_UNKNOWN) {
      if (ForwardUnknown)
        O.HostFlags.push_back(A->getAsString(List));
      else if (ForwardUnknownToLinker)
        O.LinkFlags.push_back("-Wl," + A->getAsString(List));
      else
        reportUnknown(Table, A, List);
      continue;
    }
    if (Id == OPT_INPUT) {
      StringRef P = A->getValue();
      O.Inputs.push_back({P.str(), ForcedLang != Lang::None
                                       ? ForcedLang
                                       : langFromExtension(P)});
      continue;
    }
    StringRef Help = Table.getOptionHelpText(Id);
    size_t Reason = Help.find("not supported: ");
    if (Reason != StringRef::npos)
      fail("'" + flagName(A) + "' is not supported by hetgpu-cc: " +
           Help.drop_front(Reason + strlen("not supported: ")));
    if (applySwitch(A, O) || applyValue(A, O) || applyPassThrough(A, O))
      continue;
    StringRef V = A->getNumValues() ? A->getValue() : "";
    switch (Id) {
    case OPT_x:
      ForcedLang = StringSwitch<Lang>(V)
                       .Cases({"cu", "cuda"}, Lang::CUDA)
                       .Case("c++", Lang::CXX)
                       .Case("c", Lang::C)
                       .Case("none", Lang::None)
                       .Default(Lang::Object);
      if (ForcedLang == Lang::Object)
        fail("unsupported language '-x " + V + "' (cu, c++, c or none)");
      break;
    case OPT_gpu_architecture:
      checkArch(flagName(A), V, true);
      Arches.push_back(V.str());
      break;
    case OPT_offload_arch: {
      SmallVector<StringRef, 4> Parts;
      V.split(Parts, ',', -1, false);
      if (Parts.empty())
        fail("'" + flagName(A) + "' names no image target");
      for (StringRef P : Parts) {
        hetgpu::container::ImageTranslation T;
        std::string Why;
        if (!hetgpu::container::imageTranslation(P.trim().str(), T, Why))
          fail("'" + flagName(A) + "': " + Why);
        O.ImageTargets.push_back(P.trim().str());
      }
      break;
    }

    case OPT_gpu_code:
      for (std::string &C : splitCodes(flagName(A), V))
        Codes.push_back(std::move(C));
      break;
    case OPT_generate_code:
      O.Targets.push_back(parseGencode(flagName(A), V));
      break;
    default:
      // The remaining options are accepted without effect (Options.td says
      // why in their help text).
      break;
    }
  }
  combineArchAndCode(Arches, Codes, O);
  if (O.DefaultStream == "per-thread")
    O.CommonFlags.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
  checkCombinations(O);
  return O;
}

} // namespace hetgpu::cc
