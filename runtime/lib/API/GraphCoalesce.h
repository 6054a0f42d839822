//===- GraphCoalesce.h - Independent small kernels as one launch -*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Coalescing at graph instantiation (issue 23, item 2; docs/Graphs.md): the
/// replay order of an executable graph is planned in waves (Kahn's
/// algorithm: every node whose dependencies are done joins the wave), so
/// the kernel nodes of one wave are independent; those that are small
/// (fewer blocks than the device runs at once) and of one block size are
/// fused into one kernel (a node without a partner of its size joins a
/// group of a larger block when it has no barriers or warp operations) that
/// dispatches on the block index (hetgpu/Transforms/FuseKernels.h), translated
/// through the JIT cache and replayed as one launch. HETGPU_COALESCE=0 turns it
/// off; it is off under live migration and memcheck. HETGPU_LOG=info says what
/// was fused and why a node was not. The pieces below the graph's own
/// (what is a candidate, the groups by block size, the fusion with its
/// refusals, the fused launch) are shared with the coalescing of eager
/// launches (API/EagerCoalesce.h).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_API_GRAPHCOALESCE_H
#define HETGPU_RUNTIME_API_GRAPHCOALESCE_H

#include "API/CudaAPI.h"

#include <memory>
#include <string>
#include <vector>

namespace hetgpu {
namespace rt {
namespace api {

/// Kernel nodes of an executable graph replayed as one fused launch. Their
/// arguments are read at each launch, so cudaGraphExecKernelNodeSetParams /
/// cudaGraphExecUpdate that keep a member's kernel and geometry update the
/// fused launch; a member whose kernel or geometry changed, a disabled
/// member or a context moved to another device make the group replay its
/// members one by one (logged once).
struct FusedGroup {
  std::vector<GraphNode *> Members; ///< consecutive in the replay order
  /// The members' indices in the launches fuseChunk was given.
  std::vector<size_t> Parts;
  size_t At = 0;                    ///< index of the first in the order
  /// Each member's kernel and geometry when fused.
  std::vector<KernelLaunch> AsFused;
  container::ModuleInfo Info; ///< the fused module (outlives Mod)
  std::unique_ptr<Module> Mod;
  Kernel *Kn = nullptr;
  std::shared_ptr<Device> Dev; ///< the device Mod is loaded on
  uint32_t Blocks = 0;
  /// The fused block: the members' largest size in each dimension (a
  /// member of a smaller block runs with idle threads).
  dim3 Block = dim3(1, 1, 1);
  bool SaidUnfused = false;
  std::string Names; ///< members' kernels, for the log
  ~FusedGroup();
};

/// Why coalescing is off for the process (HETGPU_COALESCE=0, live
/// migration, memcheck), or "".
std::string coalescingOff();

/// The fewest kernels a fused launch is made of on a device with
/// properties \p P, below which the launches run one by one: a fused launch
/// is slower there (the CPU device: CPUMinFusedKernels, measured with
/// bench/coalesce; other devices 2). HETGPU_COALESCE_MIN=N sets it for every
/// device (at least 2).
unsigned minFusedKernels(const DeviceProperties &P);
constexpr unsigned CPUMinFusedKernels = 16;

/// The kernel's demangled name, for the log.
std::string launchName(const KernelLaunch &L);

/// Why launch \p L may not join a fused launch on \p P's device, or "":
/// its grid fills the device, its block or shared memory is checked by its
/// own launch, grid-wide barriers, no valid module.
std::string notCandidate(const KernelLaunch &L, const DeviceProperties &P);

/// Independent candidate launches \p Ls in groups to fuse (indices into
/// Ls): by block size, a launch alone in its size without barriers or warp
/// operations joining the largest group of a larger block, at most 32 a
/// group. Groups of one are launches without a partner.
std::vector<std::vector<size_t>>
planChunks(const std::vector<const KernelLaunch *> &Ls);

/// How the log names the work coalesced ("graph coalescing", "kernel
/// node", "kernel nodes").
struct CoalesceWords {
  const char *Prefix, *One, *Many;
};

/// Fuses \p Chunk (indices into \p Ls, one group of planChunks), dropping
/// each member the translator refuses (into \p Alone, as the members of a
/// fusion refused whole or a chunk of one), logged. The group (Parts: its
/// members' indices; Members left empty), or null.
std::unique_ptr<FusedGroup>
fuseChunk(std::vector<size_t> Chunk,
          const std::vector<const KernelLaunch *> &Ls, DeviceContext &Ctx,
          const CoalesceWords &W, std::vector<size_t> &Alone);

/// Translates and loads the fused kernel of launches \p Ls on \p Ctx
/// (through the JIT cache); \p Refused as getFusedModule's.
Status buildFused(FusedGroup &G, const std::vector<const KernelLaunch *> &Ls,
                  DeviceContext &Ctx, long &Refused);

/// Queues \p G's fused kernel on \p S with the arguments of \p Ls (its
/// members, in order) and \p Shared bytes of dynamic shared memory.
cudaError_t launchFusedKernel(FusedGroup &G, StreamObj &S,
                              const std::vector<const KernelLaunch *> &Ls,
                              uint64_t Shared);

/// Appends to \p Order the replay order of \p G (child graphs expanded,
/// empty nodes left out) and fills \p Groups for context \p Ctx: without
/// coalescing Order is GraphObj::flatten's and Groups stays empty. False
/// when the edges form a cycle.
bool planReplay(const GraphObj &G, DeviceContext &Ctx,
                std::vector<GraphNode *> &Order,
                std::vector<std::unique_ptr<FusedGroup>> &Groups);

/// Why group \p G cannot run as its fused launch on \p Ctx now (moved to
/// another device, a member disabled or of another kernel or geometry, too
/// much dynamic shared memory), or ""; \p Shared: the launch's dynamic
/// shared memory.
std::string fusedUnusable(const FusedGroup &G, DeviceContext &Ctx,
                          uint64_t &Shared);

/// The fused launch of \p G with the arguments of \p Ls (its members, in
/// order), whose pointers it keeps in \p Args.
LaunchParams fusedParams(const FusedGroup &G,
                         const std::vector<const KernelLaunch *> &Ls,
                         uint64_t Shared, std::vector<void *> &Args);

/// Queues group \p G's fused launch on \p S; \p Launched false (nothing
/// queued) when the members must be replayed one by one.
cudaError_t launchFused(FusedGroup &G, StreamObj &S, bool &Launched);

} // namespace api
} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_API_GRAPHCOALESCE_H
