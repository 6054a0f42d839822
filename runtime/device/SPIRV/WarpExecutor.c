/*===- WarpExecutor.c - One OpenCL work-item runs one CUDA warp ----------===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * The executor of the SPIR-V target's *warp-loop* kernels (docs/targets/
 * SPIRV.md): on devices without 32-wide sub-groups, a kernel whose warp
 * semantics the work-item-per-thread form cannot honour (warp operations in
 * warp-divergent code, warp-synchronous code through volatile shared
 * memory) goes through the SIMT->MIMD lowering of the host target
 * (lib/Transforms/SIMTToMIMD.cpp) and runs one CUDA warp per OpenCL
 * work-item: the work-group has ceil(blockDim / 32) work-items, work-item w
 * runs lanes 32w .. 32w+31 of the block through the resumable thread
 * function, scheduled by the warp scheduler of the host's block executor
 * (runtime/device/common/hetgpu_warp_sched.h, included here: one
 * implementation), so warp operations are exact under divergence. Block
 * barriers are work-group barriers that every work-item executes, once per
 * round, until every thread has exited.
 *
 * Compiled to bitcode at build time (freestanding C, hetIR builtins as
 * external functions) and linked into the hetIR module by the SPIR-V
 * lowering, which then lowers it like any other device code; it is inlined
 * into each warp-loop kernel, so the thread function is called directly.
 *
\*===----------------------------------------------------------------------===*/

#include "hetgpu/ABI/BlockExecutor.h"
#include "hetgpu/ABI/BlockABI.h"

#include <stddef.h>

/* The lanes of a warp are reached through a table of pointers (see
 * lane() below), the scheduling is the host executor's. */
#define HETGPU_SCHED_LANES hetgpu_thread_state **
#define HETGPU_SCHED_LANE(Ls, L) ((Ls)[L])
#include "hetgpu_warp_sched.h"

/* Runs the lanes of one warp until each waits at a block barrier or has
 * exited (hetgpu_warp_sched.h, the policy of the host's block executor).
 * Not inlined into the kernel: the SPIR-V lowering gives each warp-loop
 * kernel its own copy calling its thread function directly, and OpenCL
 * compilers that turn work-groups into loops (PoCL) then see only the round
 * loop and its barriers in the kernel (PoCL's work-group compiler overflowed
 * its stack on kernels with the whole scheduler and thread function in). */
__attribute__((noinline)) void
__hetgpu_spirv_run_warp(void **Args, hetgpu_block_ctx *Ctx, hetgpu_thread_fn Fn,
                        hetgpu_thread_state **Lanes, uint32_t NumLanes) {
  hetgpu_sched_run_warp(Args, Ctx, Fn, /*LanesFn=*/0, Lanes, NumLanes);
}

/* hetIR builtins (include/hetgpu/IR/Builtins.def). */
uint32_t __hetgpu_tid_x(void);
void __hetgpu_barrier(void);

#define LOCAL __attribute__((address_space(3)))

/* Tallies of one block barrier round: threads waiting, threads whose
 * predicate is true. Three rotating slots: slot r % 3 is written in round r
 * before the work-group barrier and read after it, and work-item 0 clears
 * slot (r + 1) % 3 in round r, whose last readers finished in round r - 2.
 * One work-group barrier per round is then enough. */
static LOCAL uint32_t Tally[3][2];

/* Lane L's state, by byte offset: struct-typed address arithmetic on
 * generic pointers is miscompiled on the way to PoCL (every lane got the
 * same address). */
static hetgpu_thread_state *lane(hetgpu_thread_state *TS, uint32_t L) {
  return (hetgpu_thread_state *)((char *)TS +
                                 (size_t)L * sizeof(hetgpu_thread_state));
}

/* The scratch slot of this work-group (see __hetgpu_spirv_warp_exec). */
static LOCAL uint32_t ScratchSlot;

/* Takes a free slot of the Slots in Scratch's flag words for the
 * work-group (work-item 0 takes it, the others read it after the barrier)
 * and returns the slot's area. */
static char *acquireScratch(hetgpu_block_ctx *Ctx, char *Scratch,
                            uint32_t Slots, size_t GroupBytes) {
  uint32_t *Flags = (uint32_t *)Scratch;
  if (__hetgpu_tid_x() == 0) {
    uint32_t Id = Ctx->block_idx[0] +
                  Ctx->grid_dim[0] * (Ctx->block_idx[1] +
                                      Ctx->grid_dim[1] * Ctx->block_idx[2]);
    uint32_t S = Id % Slots;
    for (;;) {
      uint32_t Free = 0;
      if (__atomic_compare_exchange_n(&Flags[S], &Free, 1, 0, __ATOMIC_ACQUIRE,
                                      __ATOMIC_RELAXED))
        break;
      S = S + 1 == Slots ? 0 : S + 1;
    }
    ScratchSlot = S;
  }
  __hetgpu_barrier();
  size_t FlagBytes = ((size_t)Slots * 4 + 63) & ~(size_t)63;
  return Scratch + FlagBytes + (size_t)ScratchSlot * GroupBytes;
}

/* Runs the lanes of warp __hetgpu_tid_x() (the work-item's local id) of
 * the block described by Ctx. The warps' area holds one record per warp: a
 * table of 32 lane pointers, 32 thread states, then 32 frames of FrameSize
 * bytes (a multiple of 16). It is Local (work-group local memory) when
 * Slots is 0; else it is one of Slots areas in Scratch (global memory,
 * ABI/SPIRVKernel.h), for records larger than the device's local memory:
 * the work-group holds its slot while it runs. */
void __hetgpu_spirv_warp_exec(void **Args, hetgpu_block_ctx *Ctx,
                              hetgpu_thread_fn Fn, char *Local,
                              uint32_t FrameSize, char *Scratch,
                              uint32_t Slots) {
  uint32_t BX = Ctx->block_dim[0], BY = Ctx->block_dim[1];
  uint32_t N = BX * BY * Ctx->block_dim[2];
  uint32_t W = __hetgpu_tid_x();
  size_t WarpBytes = 32 * sizeof(void *) + 32 * sizeof(hetgpu_thread_state) +
                     32 * (size_t)FrameSize;
  char *Area = Local;
  if (Slots)
    Area = acquireScratch(Ctx, Scratch, Slots, ((N + 31) / 32) * WarpBytes);
  /* The lane table lives there too: LLVM 22's SPIR-V backend emitted a
   * private array of 32 pointers as one pointer variable. */
  hetgpu_thread_state **Lanes = (hetgpu_thread_state **)(Area + W * WarpBytes);
  hetgpu_thread_state *TS =
      (hetgpu_thread_state *)((char *)Lanes + 32 * sizeof(void *));
  char *Frames = (char *)TS + 32 * sizeof(hetgpu_thread_state);
  uint32_t First = W * 32;
  uint32_t NumLanes = First >= N ? 0 : (N - First < 32 ? N - First : 32);
  for (uint32_t L = 0; L < NumLanes; ++L) {
    uint32_t Lin = First + L;
    hetgpu_sched_init_thread(lane(TS, L), Lin, Lin % BX, (Lin / BX) % BY,
                             Lin / (BX * BY), Frames + (size_t)L * FrameSize);
  }
  if (W == 0)
    for (int S = 0; S < 3; ++S) {
      Tally[S][0] = 0;
      Tally[S][1] = 0;
    }
  __hetgpu_barrier();
  for (uint32_t Round = 0;; ++Round) {
    for (uint32_t L = 0; L < NumLanes; ++L)
      Lanes[L] = lane(TS, L);
    __hetgpu_spirv_run_warp(Args, Ctx, Fn, Lanes, NumLanes);
    /* Every lane of this warp now waits at a block barrier or has exited. */
    uint32_t Slot = Round % 3, Wait = 0, True = 0, Kind = 0;
    for (uint32_t L = 0; L < NumLanes; ++L)
      if (Lanes[L]->status == HETGPU_ST_BAR) {
        ++Wait;
        True += Lanes[L]->arg[1] != 0;
        Kind = Lanes[L]->kind;
      }
    if (W == 0) {
      Tally[(Round + 1) % 3][0] = 0;
      Tally[(Round + 1) % 3][1] = 0;
    }
    if (Wait) {
      __atomic_fetch_add(&Tally[Slot][0], Wait, __ATOMIC_RELAXED);
      __atomic_fetch_add(&Tally[Slot][1], True, __ATOMIC_RELAXED);
    }
    __hetgpu_barrier();
    uint32_t Waiting = __atomic_load_n(&Tally[Slot][0], __ATOMIC_RELAXED);
    uint32_t Count = __atomic_load_n(&Tally[Slot][1], __ATOMIC_RELAXED);
    if (!Waiting) {
      /* Every thread of the block has exited: no work-item reads the area
       * any more. */
      if (Slots && W == 0)
        __atomic_store_n(&((uint32_t *)Scratch)[ScratchSlot], 0,
                         __ATOMIC_RELEASE);
      return;
    }
    int32_t R = hetgpu_sched_barrier_result(Kind, Count, Waiting);
    for (uint32_t L = 0; L < NumLanes; ++L)
      if (Lanes[L]->status == HETGPU_ST_BAR) {
        Lanes[L]->result = R;
        Lanes[L]->status = HETGPU_ST_RUN;
      }
  }
}
