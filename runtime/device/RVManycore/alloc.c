//===- alloc.c - Thread frames of the block executor on a core -------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The block executor (runtime/device/common/hetgpu_exec.c) asks a
/// freestanding target for the memory of a block's thread states and frames
/// (the per-thread spill state of the SIMT->MIMD lowering) through
/// __hetgpu_exec_frames. The rule (tt-sim checks it at launch,
/// TTSimBackend.cpp): shared memory must fit in the core's SRAM; the thread
/// states and frames go to the SRAM after it when they fit there too, as a
/// Tensix core keeps its working set in L1, and otherwise to the core's
/// spill area in device DRAM, which the host allocated for the launch.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/ABI/RVManycore.h"

#include <stddef.h>
#include <stdint.h>

/// First SRAM byte after the shared memory of the running launch (64-byte
/// aligned), and this core's DRAM spill area (0 when the launch has none);
/// set by rvmc_core_main. Thread-local: the image's writable data is shared
/// DRAM, the TLS block is core-private.
_Thread_local uint64_t rvmc_sram_free __attribute__((visibility("hidden")));
_Thread_local uint64_t rvmc_spill __attribute__((visibility("hidden")));
_Thread_local uint64_t rvmc_spill_size __attribute__((visibility("hidden")));

void *__hetgpu_exec_frames(size_t Bytes) {
  uint64_t SramEnd = RVMC_SRAM_BASE + RVMC_SRAM_SIZE;
  if (rvmc_sram_free && Bytes <= SramEnd - rvmc_sram_free)
    return (void *)rvmc_sram_free;
  if (rvmc_spill && Bytes <= rvmc_spill_size)
    return (void *)rvmc_spill;
  return NULL;
}
