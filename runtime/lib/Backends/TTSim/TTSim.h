//===- TTSim.h - The tt-sim RISC-V many-core simulator device ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// tt-sim simulates a Tenstorrent-class grid of RISC-V cores: each core is a
/// qemu-riscv64 process running the image the rvmc target produced, all of
/// them and the host sharing one device-DRAM file mapped at RVMC_DRAM_BASE.
/// Configuration (environment, read at discovery):
///
///   HETGPU_TTSIM_CORES         cores (default 8, at most 256)
///   HETGPU_TTSIM_DRAM_MB       device DRAM in MiB (default 4096)
///   HETGPU_TTSIM_QEMU          the qemu-riscv64 program (default: PATH)
///   HETGPU_TTSIM_SCHED         "dynamic" (default) or "static" block split
///   HETGPU_TTSIM_PRINTF_KB     printf ring per launch (default 1024)
///   HETGPU_TTSIM_HEAP_MB       device malloc heap per launch (default 8)
///   HETGPU_TTSIM_TIMEOUT_S     kill a launch after this long (default 600)
///   HETGPU_TTSIM_KEEP_IMAGES   keep the core image files (debugging)
///   HETGPU_TTSIM_PERSISTENT    0: start the cores for every launch instead
///                              of keeping a module's cores (default 1)
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_TTSIM_TTSIM_H
#define HETGPU_RUNTIME_BACKENDS_TTSIM_TTSIM_H

#include "Core/Device.h"

#include <memory>

namespace hetgpu {
namespace rt {

/// The tt-sim backend: one device when qemu-riscv64 is found.
std::unique_ptr<Backend> createTTSimBackend();

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_TTSIM_TTSIM_H
