//===- LowerToNVPTX.h - Lower hetIR to NVPTX-flavoured LLVM IR --*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-lower-nvptx` rewrites a hetIR module into IR that LLVM's NVPTX
/// back end compiles: every `__hetgpu_*` builtin becomes an NVVM intrinsic or
/// a call the CUDA driver resolves (vprintf, __assertfail, malloc, free),
/// math builtins are linked from libdevice or hetGPU's device math library,
/// kernels get the PTX kernel calling convention and launch-bound
/// attributes, and the module gets the NVPTX triple and data layout.
///
/// USAGE: hetgpu-opt -passes=hetgpu-lower-nvptx -S in.ll
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TARGETS_NVPTX_LOWERTONVPTX_H
#define HETGPU_TARGETS_NVPTX_LOWERTONVPTX_H

#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace hetgpu {

inline constexpr llvm::StringLiteral NVPTXTriple = "nvptx64-nvidia-cuda";
/// LLVM 22's NVPTX data layout for 64-bit pointers (checked against the
/// TargetMachine's in emit()).
inline constexpr llvm::StringLiteral NVPTXDataLayout =
    "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64";
/// Name of the external shared array that backs dynamic shared memory.
inline constexpr llvm::StringLiteral NVPTXDynamicSharedName =
    "hetgpu_dynamic_shared";

struct NVPTXLowerOptions {
  /// Keep the "hetgpu.live" operand bundles for the state instrumentation.
  bool Instrument = false;
  /// Where math builtins come from; empty fields mean "search" (see
  /// NVPTXMath.h).
  std::string LibDevicePath;
  std::string MathLibraryPath;
};

/// Lowers \p M in place. On error the module may be partly rewritten; the
/// error names every construct that could not be lowered.
llvm::Error lowerModuleToNVPTX(llvm::Module &M, const NVPTXLowerOptions &Opts);

/// The pass form of lowerModuleToNVPTX: errors are reported through the
/// LLVMContext as DiagnosticInfoUnsupported.
class LowerToNVPTXPass : public llvm::PassInfoMixin<LowerToNVPTXPass> {
public:
  explicit LowerToNVPTXPass(NVPTXLowerOptions Opts = {});
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
  static llvm::StringRef name() { return "hetgpu-lower-nvptx"; }

private:
  NVPTXLowerOptions Opts;
};

} // namespace hetgpu

#endif // HETGPU_TARGETS_NVPTX_LOWERTONVPTX_H
