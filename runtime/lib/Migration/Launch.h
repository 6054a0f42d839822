//===- Launch.h - The migratable launch -------------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Launches of kernels translated with HETGPU_TRANSLATE_INSTRUMENT: every
/// kernel takes three hidden trailing arguments (state buffer, control
/// block, round; include/hetgpu/ABI/Migration.h). A watched launch runs in
/// rounds: a round that suspends at a safe point is checkpointed
/// (Checkpoint.h), possibly moved (MoveContext.h) and resumed.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_MIGRATION_LAUNCH_H
#define HETGPU_RUNTIME_MIGRATION_LAUNCH_H

#include "Core/Device.h"

#include <vector>

namespace hetgpu {
namespace rt {

struct DeviceContext;
struct KernelRecord;
struct StreamObj;

/// \p MI as loaded when instrumented: the hidden parameters appended to
/// every kernel (the container keeps the user's list).
container::ModuleInfo instrumentedModuleInfo(const container::ModuleInfo &MI);

/// Runs \p P of kernel \p K (registered as \p KR) on stream \p S as a
/// migratable launch. While no trigger is armed (`HETGPU_MIGRATE=on`
/// without `:sync`) it is asynchronous like any launch and costs nothing
/// but the kernel's instrumentation; otherwise it is watched: synchronous
/// with respect to the host, suspended when the trigger fires, checkpointed,
/// moved and resumed. \p Resume, when given, is the state buffer of a
/// suspended launch to continue from (block headers normalised: status 1 =
/// suspended, 0 = ran to its end).
Status migratableLaunch(DeviceContext &Ctx, StreamObj &S, Kernel &K,
                        KernelRecord &KR, LaunchParams P,
                        const std::vector<char> *Resume = nullptr);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_MIGRATION_LAUNCH_H
