//===- DriverOptions.h - hetgpu-cc's parsed command line ------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// What hetgpu-cc's command line (Options.td, parsed by DriverOptions.cpp)
/// asks for, in a form the driver (hetgpu-cc.cpp) acts on.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TOOLS_HETGPU_CC_DRIVEROPTIONS_H
#define HETGPU_TOOLS_HETGPU_CC_DRIVEROPTIONS_H

#include "llvm/ADT/Twine.h"

#include <string>
#include <vector>

namespace hetgpu::cc {

enum class Lang { None, CUDA, CXX, C, Object };

struct Input {
  std::string Path;
  Lang Kind;
};

/// One architecture/code pair the command line asked for (-arch, -code,
/// -gencode, --offload-arch), in nvcc's meaning: a virtual architecture
/// (`compute_90`) and the codes built for it (`sm_90`, `compute_90`).
/// Each real code (sm_NN) asks for an ahead-of-time image (imageNames()).
struct GpuTarget {
  std::string Arch; ///< compute_NN[a|f], or native / all / all-major
  std::vector<std::string> Codes; ///< sm_NN[a|f] / compute_NN[a|f]
};

/// What -M / -MM / -MD / -MMD ask for.
enum class DepMode {
  None,
  Only,
  OnlyNonSystem,
  WithCompile,
  WithCompileNonSystem
};

struct Options {
  bool CompileOnly = false;
  bool Verbose = false;
  bool DryRun = false;
  bool KeepTemps = false;
  bool DeviceDebug = false;
  bool LineInfo = false;
  bool PreprocessOnly = false;
  bool PTXOnly = false;
  bool Shared = false;
  bool Relocatable = false;    ///< -dc, -rdc=true: relocatable hetIR
  bool DeviceLinkOnly = false; ///< -dlink: write the device link object
  bool LinkContracts = true;   ///< off: --no-device-link-contracts
  bool ResourceUsage = false;  ///< --resource-usage, -Xptxas -v
  bool LinkRuntime = true;     ///< off: -cudart none
  bool DeviceOptimize = true;  ///< off: -dopt off
  std::string Output;
  std::string OptLevel = "-O3";
  std::string Std = "-std=c++17";
  std::string KeepDir;
  std::string HostCompiler; ///< -ccbin; empty: clang
  std::string DefaultStream = "legacy";
  unsigned MaxRegCount = 0; ///< -maxrregcount, 0 = none
  DepMode Deps = DepMode::None;
  std::string DepFile;   ///< -MF
  std::string DepTarget; ///< -MT
  bool DepPhony = false; ///< -MP
  std::vector<GpuTarget> Targets;
  /// --offload-arch names (host, sm_NN, gfxNNN, spirv): an ahead-of-time
  /// image of each module for each (hetgpu/IR/ImageTargets.h).
  std::vector<std::string> ImageTargets;
  bool Images = true; ///< off: --no-offload-images (none from -arch either)
  std::vector<std::string> CommonFlags; // -I -D -U -include -isystem -g -w ...
  std::vector<std::string> DeviceFlags; // --use_fast_math and its parts
  std::vector<std::string> HostFlags;   // -Xcompiler
  std::vector<std::string> LinkFlags;   // -l -L -Xlinker
  std::vector<Input> Inputs;
};

/// The ahead-of-time images to embed, in order, without repeats: the
/// --offload-arch names, then the sm_NN codes of -arch / -code / -gencode
/// (nvcc builds SASS for those; a compute_NN code's role is the hetIR's).
/// \p Explicit tells which came from --offload-arch.
std::vector<std::string> imageNames(const Options &O,
                                    std::vector<bool> *Explicit = nullptr);

/// Parses \p Argv (nvcc's spellings, Options.td). Prints --help / --version
/// and exits; bad input exits with a message naming the option.
Options parseCommandLine(int Argc, char **Argv);

[[noreturn]] void fail(const llvm::Twine &Msg);

} // namespace hetgpu::cc

#endif
