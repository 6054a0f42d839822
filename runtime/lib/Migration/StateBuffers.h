//===- StateBuffers.h - State buffers kept per device -----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The state buffers and control blocks of migratable launches, kept per
/// device between launches: allocating them per launch (device memory
/// mapped at arena addresses on a GPU) cost more than most kernels. The
/// layout of both is include/hetgpu/ABI/Migration.h's.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_MIGRATION_STATEBUFFERS_H
#define HETGPU_RUNTIME_MIGRATION_STATEBUFFERS_H

#include "Core/Device.h"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace hetgpu {
namespace rt {

/// Takes a free entry of \p Dev with at least \p Bytes of state buffer
/// (growing or creating one) and its control block; \p Slot is the entry,
/// given back with returnBuffers().
Status takeBuffers(const std::shared_ptr<Device> &Dev, uint64_t Bytes,
                   void *&State, void *&Ctrl, size_t &Slot);
void returnBuffers(size_t Slot);

/// The control block of unwatched launches, one per device: all zero (round
/// 0, no yield flag, no trigger), never written after it is cleared (on
/// \p Q), so every asynchronous launch may share it.
Status idleControl(const std::shared_ptr<Device> &Dev, Queue &Q, void *&Out);

/// Frees the state buffers and control blocks kept for \p D
/// (cudaDeviceReset).
void releaseMigrationBuffers(Device &D);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_MIGRATION_STATEBUFFERS_H
