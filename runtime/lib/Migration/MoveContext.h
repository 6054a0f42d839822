//===- MoveContext.h - Moving a CUDA device between devices -----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The move of live migration: a CUDA device (a Core DeviceContext) onto
/// another physical device, with its memory at unchanged addresses
/// (Core/UnifiedMemory.h), its `__device__` variables, streams and events;
/// and the two moves a migratable launch makes (at a suspension, or
/// between launches when the after_ms trigger fired while no kernel ran).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_MIGRATION_MOVECONTEXT_H
#define HETGPU_RUNTIME_MIGRATION_MOVECONTEXT_H

#include "Core/Device.h"

#include <cstdint>
#include <string>

namespace hetgpu {
namespace rt {

struct DeviceContext;
struct KernelRecord;

/// Moves CUDA device \p Ctx onto the home device of context \p To: every
/// allocation at unchanged addresses (copied only where one side has memory
/// of its own), the `__device__` variables of its loaded modules (modules
/// are loaded again, translated for the target), its streams and events.
/// Pending work is finished on the source first. With \p CopyData false
/// the caller writes the allocations' bytes afterwards (a checkpoint
/// restore). Everything is checked before anything changes: memory that is
/// not in the unified address space is refused by name.
Status moveContext(DeviceContext &Ctx, DeviceContext &To, bool CopyData,
                   std::string *Summary = nullptr,
                   uint64_t *BytesCopied = nullptr);

/// Moves \p Ctx to \p TC for a launch of \p KR. The target must be able to
/// load the kernel (translated and loaded in its own context, cached)
/// before anything moves. Refused before anything changed (the target
/// cannot load the kernel, or moveContext refuses): ok, with the reason in
/// \p Refusal and \p Ctx where it was. An error when the move failed midway
/// or the kernel cannot be loaded where \p Ctx is now; else \p K is that
/// kernel.
Status moveForLaunch(DeviceContext &Ctx, DeviceContext &TC, KernelRecord &KR,
                     Kernel *&K, bool CopyData, std::string &Moved,
                     uint64_t &Bytes, Status &Refusal);

/// Moves \p Ctx to the next to= device before a launch of \p KR (the
/// after_ms trigger fired while no kernel ran); \p K becomes the kernel
/// loaded there. A refused move leaves the launch where it is (logged).
Status moveBetweenLaunches(DeviceContext &Ctx, KernelRecord &KR, Kernel *&K);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_MIGRATION_MOVECONTEXT_H
