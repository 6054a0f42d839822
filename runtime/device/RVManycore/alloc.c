//===- alloc.c - Thread frames of the block executor on a core -------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The block executor (runtime/device/common/hetgpu_exec.c) asks a
/// freestanding target for the memory of a block's thread states and frames
/// (the per-thread spill state of the SIMT->MIMD lowering) through
/// __hetgpu_exec_frames. On a core it is the SRAM after the launch's shared
/// memory, as a Tensix core keeps its working set in L1; tt-sim refuses a
/// launch whose block does not fit there (TTSimBackend.cpp), so the private
/// scratch fallback only serves images run outside tt-sim's checks.
///
//===----------------------------------------------------------------------===//

#include "rvmc_abi.h"

#include <stddef.h>
#include <stdint.h>

/// First SRAM byte after the shared memory of the running launch (64-byte
/// aligned); set by rvmc_core_main. Thread-local: the image's writable data
/// is shared DRAM, the TLS block is core-private.
_Thread_local uint64_t rvmc_sram_free __attribute__((visibility("hidden")));

void *__hetgpu_exec_frames(size_t Bytes) {
  uint64_t SramEnd = RVMC_SRAM_BASE + RVMC_SRAM_SIZE;
  if (rvmc_sram_free && Bytes <= SramEnd - rvmc_sram_free)
    return (void *)rvmc_sram_free;
  uint64_t Priv = RVMC_PRIV_BASE + RVMC_TLS_MAX;
  if (Bytes <= RVMC_PRIV_BASE + RVMC_PRIV_SIZE - Priv)
    return (void *)Priv;
  return NULL;
}
