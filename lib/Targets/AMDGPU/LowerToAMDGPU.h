//===- LowerToAMDGPU.h - Lower hetIR to AMDGPU-flavoured LLVM IR -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-lower-amdgpu` rewrites a hetIR module into IR that LLVM's AMDGPU
/// back end compiles into an HSA code object:
///  * index builtins read the work-item/work-group id registers and the
///    code object v5 implicit kernel arguments (block counts, group sizes);
///  * barriers are s_barrier between workgroup-scope release/acquire
///    fences; __syncthreads_count/and/or reduce through one LDS word;
///  * CUDA warps are 32 lanes on every architecture: on wave64 every warp
///    operation acts on the 32-lane half of the wavefront holding the
///    thread (shuffles through ds_bpermute restricted to the own half,
///    ballots as the half's 32 bits of the 64-bit ballot);
///  * allocas move to the private address space 5, generic globals to the
///    global (1) or constant (4) address spaces, shared memory is LDS (3,
///    32-bit pointers; shared pointers kept in memory stay 8 bytes wide);
///  * system-scope atomics become agent-scope (CUDA's device scope),
///    shared-memory atomics workgroup-scope;
///  * printf, assert and __trap write records into a hidden device buffer
///    (`__hetgpu_amdgpu_printf`) that the HIP backend drains; malloc is a
///    bump allocator over a hidden 8 MiB heap (free does nothing);
///  * kernels get the amdgpu_kernel calling convention, a kernarg layout
///    equal to CUDA's parameter layout (aggregates and misaligned values
///    passed byref from the kernarg segment), launch bounds as
///    amdgpu-flat-work-group-size;
///  * math builtins are linked from hetGPU's device math library.
///
/// USAGE: hetgpu-opt -passes='hetgpu-lower-amdgpu<gfx942>' -S in.ll
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TARGETS_AMDGPU_LOWERTOAMDGPU_H
#define HETGPU_TARGETS_AMDGPU_LOWERTOAMDGPU_H

#include "hetgpu/ABI/AMDGPUDevice.h"

#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace hetgpu {

inline constexpr llvm::StringLiteral AMDGPUTriple = "amdgcn-amd-amdhsa";
/// LLVM 22's AMDGPU data layout (checked against the TargetMachine's in
/// emit()).
inline constexpr llvm::StringLiteral AMDGPUDataLayout =
    "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-"
    "p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-"
    "v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-"
    "v2048:2048-n32:64-S32-A5-G1-ni:7:8:9";
inline constexpr llvm::StringLiteral AMDGPUDefaultArch = "gfx942";
/// Hidden device globals the HIP backend looks up by name (layouts in
/// ABI/AMDGPUDevice.h).
inline constexpr llvm::StringLiteral AMDGPUPrintfBufferName =
    amdgpu_abi::PrintfBufferName;
inline constexpr llvm::StringLiteral AMDGPUHeapName = amdgpu_abi::HeapName;
inline constexpr llvm::StringLiteral AMDGPUDynamicSharedName =
    amdgpu_abi::DynamicSharedName;

struct AMDGPULowerOptions {
  /// Processor ("gfx90a", "gfx942", "gfx1100"); empty means gfx942.
  std::string Arch;
  /// Extra target features ("+wavefrontsize64" on gfx10+).
  std::string Features;
  /// Keep the "hetgpu.live" operand bundles for the state instrumentation
  /// (not implemented for amdgpu: reported as an error).
  bool Instrument = false;
};

/// 32 or 64: the wavefront size \p Arch runs with \p Features.
unsigned amdgpuWaveSize(llvm::StringRef Arch, llvm::StringRef Features);
/// The target-features string the lowering puts on every function.
std::string amdgpuFeatures(llvm::StringRef Arch, llvm::StringRef Features);

/// Parses `hetgpu-lower-amdgpu` and `hetgpu-lower-amdgpu<gfx1100;wavefrontsize64>`.
bool parseLowerToAMDGPUPassName(llvm::StringRef Name, AMDGPULowerOptions &O);

/// Lowers \p M in place. On error the module may be partly rewritten; the
/// error names every construct that could not be lowered.
llvm::Error lowerModuleToAMDGPU(llvm::Module &M, const AMDGPULowerOptions &Opts);

/// The pass form of lowerModuleToAMDGPU: errors are reported through the
/// LLVMContext as DiagnosticInfoUnsupported.
class LowerToAMDGPUPass : public llvm::PassInfoMixin<LowerToAMDGPUPass> {
public:
  explicit LowerToAMDGPUPass(AMDGPULowerOptions Opts = {});
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
  static llvm::StringRef name() { return "hetgpu-lower-amdgpu"; }

private:
  AMDGPULowerOptions Opts;
};

} // namespace hetgpu

#endif // HETGPU_TARGETS_AMDGPU_LOWERTOAMDGPU_H
