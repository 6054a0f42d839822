//===- LowerToSPIRV.h - Lower hetIR to OpenCL-flavoured SPIR-V IR -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The `hetgpu-lower-spirv` pass: rewrites a hetIR module in place into LLVM
/// IR for the `spirv64` target (OpenCL environment): address spaces, kernel
/// ABI (see ABI/SPIRVKernel.h), builtins to OpenCL built-in functions, warp
/// operations to sub-groups or to an exact local-memory emulation, atomics
/// the SPIR-V backend cannot take expanded to compare-exchange loops.
///
/// USAGE: hetgpu-opt -passes=hetgpu-lower-spirv -S in.ll
///        (-hetgpu-spirv-subgroups selects native 32-wide sub-groups,
///         -hetgpu-spirv-warp-loop=auto|all warp-loop kernels)
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_LIB_TARGETS_SPIRV_LOWERTOSPIRV_H
#define HETGPU_LIB_TARGETS_SPIRV_LOWERTOSPIRV_H

#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <string>

namespace hetgpu {

struct SPIRVLoweringOptions {
  /// The device runs kernels in sub-groups of exactly 32 work-items laid
  /// out by linear local id (Intel GPUs with intel_reqd_sub_group_size).
  /// Otherwise warp operations are emulated with local memory and barriers,
  /// which is exact only where every thread of the block reaches them.
  bool SubGroups32 = false;
  /// Fences become sequentially consistent atomic ORs of 0 on a scratch
  /// word: for consumers whose OpenCL library lacks mem_fence (SPIR 1.2 on
  /// PoCL 3.1), feature "+fence-as-atomic".
  bool FenceAsAtomic = false;
  /// A kernel whose warp operations cannot be emulated is left out of the
  /// module and listed in the module table with the reason (the runtime
  /// reports it when that kernel is launched) instead of failing the whole
  /// module: feature "+defer-unsupported".
  bool DeferUnsupported = false;
  /// Warp-loop kernels (one work-item runs one warp of 32 CUDA threads
  /// through the SIMT->MIMD lowering; the runtime launches ceil(blockDim /
  /// 32) work-items per work-group and passes the block size, see
  /// ABI/SPIRVKernel.h). Off: never (warp operations that cannot be emulated
  /// are errors); Auto: for the kernels that need exact warp semantics
  /// (warp operations in warp-divergent code, volatile shared-memory
  /// accesses); All: every kernel. Ignored with SubGroups32. Features
  /// "+warp-loop" (Auto) and "+warp-loop-all" (All).
  enum class WarpLoopMode { Off, Auto, All };
  WarpLoopMode WarpLoop = WarpLoopMode::Off;
  /// Atomics left on generic pointers after address-space inference use
  /// global pointers: for devices whose memory is flat (CPU OpenCL devices
  /// such as PoCL, whose SPIR 1.2 library has no generic atomics); feature
  /// "+flat-atomics".
  bool FlatAtomics = false;
  /// Words naming the device class in error messages.
  std::string DeviceDesc = "SPIR-V device without 32-wide sub-groups";
};

/// Rewrites \p M. Returns an error naming the kernel and construct for
/// anything the SPIR-V target cannot express; \p M is then unusable.
llvm::Error lowerModuleToSPIRV(llvm::Module &M,
                               const SPIRVLoweringOptions &Opts);

/// True when \p M was already lowered (its triple is a SPIR-V one).
bool isLoweredForSPIRV(const llvm::Module &M);

class LowerToSPIRVPass : public llvm::PassInfoMixin<LowerToSPIRVPass> {
public:
  explicit LowerToSPIRVPass(SPIRVLoweringOptions Opts) : Opts(std::move(Opts)) {}
  /// Options from the -hetgpu-spirv-* command-line flags.
  LowerToSPIRVPass();
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  SPIRVLoweringOptions Opts;
};

} // namespace hetgpu

#endif // HETGPU_LIB_TARGETS_SPIRV_LOWERTOSPIRV_H
