//===- CPU.h - The host CPU as a hetGPU device ------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The CPU backend runs translations of the "host" lowering target (shared
/// objects following include/hetgpu/ABI/BlockABI.h) on a thread pool.
/// Configuration (environment, read at discovery):
///
///   HETGPU_CPU_THREADS    threads running the blocks of a grid (default:
///                         the hardware's), the queue's own thread included
///   HETGPU_CPU_STACK_MB   stack of each of them (default 64)
///
/// tools/hetgpu-host-run drives the backend alone through Core/Device.h.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_CPU_CPU_H
#define HETGPU_RUNTIME_BACKENDS_CPU_CPU_H

#include "Core/Device.h"

#include <memory>

namespace hetgpu {
namespace rt {

/// The CPU backend: one device, the host.
std::unique_ptr<Backend> createCPUBackend();

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_CPU_CPU_H
