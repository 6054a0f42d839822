//===- alloc.c - Core-private allocator for the block executor -------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// aligned_alloc/malloc/free for code that runs on a core (the block
/// executor's frame cache). State lives in core-private memory (the image's
/// writable data is shared DRAM): a thread-local bump pointer.
///
/// An allocation goes to the core's SRAM, after the shared memory of the
/// running launch (the per-thread spill frames then sit in L1 as on a
/// Tensix core) when it fits there, otherwise to private scratch memory.
/// free() gives back the most recent allocation of each area.
///
//===----------------------------------------------------------------------===//

#include "rvmc_abi.h"
#include "rvmc_sys.h"

#include <stddef.h>
#include <stdint.h>

/// Set by rvmc_core_main: first SRAM byte after the launch's shared memory.
_Thread_local uint64_t rvmc_sram_free __attribute__((visibility("hidden")));
static _Thread_local uint64_t SramTop, SramLast;
static _Thread_local uint64_t PrivTop, PrivLast;

static uint64_t alignUp(uint64_t V, uint64_t A) { return (V + A - 1) & ~(A - 1); }

void *aligned_alloc(size_t Align, size_t Size) {
  if (Align < 16)
    Align = 16;
  if (Align & (Align - 1))
    return 0;
  uint64_t SramEnd = RVMC_SRAM_BASE + RVMC_SRAM_SIZE;
  if (!SramTop)
    SramTop = rvmc_sram_free;
  if (SramTop) {
    uint64_t At = alignUp(SramTop, Align);
    if (At + Size <= SramEnd && At + Size >= At) {
      SramLast = At;
      SramTop = At + Size;
      return (void *)At;
    }
  }
  if (!PrivTop)
    PrivTop = RVMC_PRIV_BASE + RVMC_TLS_MAX;
  uint64_t At = alignUp(PrivTop, Align);
  if (At + Size > RVMC_PRIV_BASE + RVMC_PRIV_SIZE || At + Size < At)
    return 0;
  PrivLast = At;
  PrivTop = At + Size;
  return (void *)At;
}

void *malloc(size_t Size) { return aligned_alloc(16, Size); }

void free(void *Ptr) {
  uint64_t P = (uint64_t)Ptr;
  if (!P)
    return;
  if (P == SramLast) {
    SramTop = SramLast;
    SramLast = 0;
  } else if (P == PrivLast) {
    PrivTop = PrivLast;
    PrivLast = 0;
  }
}

void abort(void) {
  rvmc_puts(2, "tt-sim core: abort()\n");
  rvmc_exit(RVMC_EXIT_ABORT);
}
