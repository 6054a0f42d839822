//===- FuseKernels.h - K kernels as one block-dispatched kernel -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-fuse-kernels`: block-level fusion of independent kernels (graph
/// coalescing, issue 23, docs/Graphs.md). Given K component launches
/// (kernel, grid, block), the fused kernel takes the components' parameters
/// one after another and runs on a one-dimensional grid of the components'
/// blocks summed: block b runs component i when b falls in i's range
/// [Start_i, Start_i + blocks_i). Each component is a copy of its kernel and
/// of every function it calls, in which `__hetgpu_ctaid_*` become the
/// component's own block index (derived from the fused block index and the
/// component's start and grid, constants of the fused kernel) and
/// `__hetgpu_nctaid_*` its own grid; thread indices, barriers, warp
/// operations and shared variables stay the component's own (a block runs
/// one component only, so its barriers are block-uniform). Static shared
/// memory is the union of the components' variables; the dynamic shared
/// memory is one region (the launch passes the largest size). The module
/// is then reduced to the fused kernel (hetgpu/Transforms/ExtractKernel.h).
///
/// The fused block is the components' largest size in each dimension; a
/// component of a smaller block runs with the threads past it idle (they
/// skip the component; `__hetgpu_ntid_*` become its own sizes), which is
/// allowed only where it calls no barrier, warp operation or lane index.
///
/// Refused, with the reason and nothing changed: a smaller block with
/// barriers or warp operations, a fused block past 1024 threads, grid
/// barriers (`grid_group::sync`), indirect calls,
/// `__device__`/`__constant__` variables (a fused copy would not be the
/// module's), more parameter bytes than CUDA allows, a fused grid past
/// 2^31-1 blocks.
///
/// USAGE: hetgpu-opt -passes=hetgpu-fuse-kernels
///          -hetgpu-fuse-plan='k1:4,1,1:64,1,1;k2:2,2,1:64,1,1' x.ll
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TRANSFORMS_FUSEKERNELS_H
#define HETGPU_TRANSFORMS_FUSEKERNELS_H

#include "hetgpu/Support/PassCompat.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace hetgpu {

/// One launch of a fusion: the kernel's symbol name and its geometry.
struct FuseComponent {
  std::string Kernel;
  uint32_t Grid[3] = {1, 1, 1};
  uint32_t Block[3] = {1, 1, 1};
};

/// Fuses \p Parts (kernels of \p M; one kernel may appear several times)
/// into kernel \p FusedName and reduces \p M to it, as above. The error
/// names the component and the reason; \p M is unchanged then, and
/// \p Refused (when given) is the index of the component refused, or -1
/// when the fusion as a whole was.
llvm::Expected<llvm::Function *>
fuseKernels(llvm::Module &M, llvm::ArrayRef<FuseComponent> Parts,
            llvm::StringRef FusedName, long *Refused = nullptr);

/// Links \p Mods (hetIR modules of one LLVMContext, consumed) into one for
/// fuseKernels: every definition of module j is renamed `m<j>.<name>` and
/// made internal, so symbols of different modules never collide;
/// declarations (builtins) are shared. fusedSymbol() gives a symbol's new
/// name.
llvm::Expected<std::unique_ptr<llvm::Module>>
linkForFusion(std::vector<std::unique_ptr<llvm::Module>> Mods);

/// The name symbol \p Name of module \p J has after linkForFusion.
std::string fusedSymbol(unsigned J, llvm::StringRef Name);

/// Parses a plan "name:gx,gy,gz:bx,by,bz;..." (the pass's option).
llvm::Expected<std::vector<FuseComponent>> parseFusePlan(llvm::StringRef Plan);

class FuseKernelsPass : public RequiredPass<FuseKernelsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace hetgpu

#endif // HETGPU_TRANSFORMS_FUSEKERNELS_H
