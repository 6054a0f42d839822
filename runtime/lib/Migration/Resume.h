//===- Resume.h - Resuming from a checkpoint image --------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Restoring a checkpoint image (hetgpuRestore, hetgpuRestoreFromBuffer):
/// the image is validated against this process (its device, its
/// allocations, its kernel and arguments) before anything is written, the
/// device is moved to the requested target, the memory is written back and
/// a suspended launch resumes from its state buffer.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_MIGRATION_RESUME_H
#define HETGPU_RUNTIME_MIGRATION_RESUME_H

#include "Core/Device.h"

#include <vector>

namespace hetgpu {
namespace rt {

/// Restores \p Image onto its CUDA device, moved first to \p Target (a
/// HETGPU_DEVICE-style name) when given; resumes the launch it holds.
Status restoreImage(const std::vector<char> &Image, const char *Target);

struct Checkpoint;
struct DeviceContext;
struct KernelRecord;

/// Refuses a parsed checkpoint of kernel \p KR that device \p Ctx cannot
/// resume as it is: arguments not of the kernel's parameter buffer size,
/// a launch shape or dynamic shared size the device does not take, a
/// non-null pointer argument outside every allocation.
Status checkResumable(const Checkpoint &C, const KernelRecord &KR,
                      DeviceContext &Ctx);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_MIGRATION_RESUME_H
