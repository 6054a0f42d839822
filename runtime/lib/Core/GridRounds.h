//===- GridRounds.h - Grid barriers in rounds of a launch -------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// OpenCL and Level Zero promise no work-groups running at once, so a grid
/// barrier cannot spin there. Their translator (LoweringTarget::
/// runsGridSyncInRounds, the SPIR-V target) instruments every kernel that
/// calls grid_group::sync() with `hetgpu-instrument-state<grid-sync>`: the
/// kernel takes the three hidden parameters of docs/Migration.md, and at
/// each grid barrier every block saves its state and ends. This part of the
/// runtime runs such a launch in rounds, each resuming the blocks the last
/// one suspended, until no block is suspended: a round ends only when every
/// block has reached the barrier or finished, and a round boundary is a
/// kernel boundary, so the barrier holds and orders memory. Memcheck
/// translations keep the spin barrier (the API refuses cooperative launches
/// there).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_CORE_GRIDROUNDS_H
#define HETGPU_RUNTIME_CORE_GRIDROUNDS_H

#include "Core/Device.h"
#include "hetgpu/ABI/Container.h"
#include "hetgpu/IR/Container.h"

namespace hetgpu {
namespace rt {

struct DeviceContext;
struct StreamObj;

/// Whether \p P's device runs the kernels that call grid_group::sync() in
/// rounds (the SPIR-V devices, memcheck off): what the translator does.
bool runsGridSyncInRounds(const DeviceProperties &P);

/// Whether \p K, loaded on \p P's device, was translated to run in rounds.
inline bool gridRoundsKernel(const DeviceProperties &P,
                             const container::KernelInfo &K) {
  return (K.Features & container::FeatGrid) && runsGridSyncInRounds(P);
}

/// \p MI as its translation for \p P's device has it: the kernels that run
/// in rounds take the hidden parameters (all kernels do already when
/// \p AllInstrumented, a migration-instrumented translation).
container::ModuleInfo gridRoundsModuleInfo(const DeviceProperties &P,
                                           const container::ModuleInfo &MI,
                                           bool AllInstrumented);

/// Runs launch \p P of \p K (gridRoundsKernel, or any kernel with the
/// hidden parameters: a migration-instrumented kernel never suspends here,
/// its yield flag stays clear) on stream \p S in rounds until no block is
/// left suspended; returns when the last round ended. The caller holds
/// \p Ctx's lock and ordered the stream.
Status gridRoundsLaunch(DeviceContext &Ctx, StreamObj &S, Kernel &K,
                        LaunchParams P);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_CORE_GRIDROUNDS_H
