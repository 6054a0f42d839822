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
 * function, with the host executor's warp scheduler (runWarp / warpOp of
 * runtime/device/common/hetgpu_exec.c, included below), so warp operations
 * are exact under divergence. Block barriers are work-group barriers that
 * every work-item executes, once per round, until every thread has exited.
 *
 * Compiled to bitcode at build time (freestanding C, hetIR builtins as
 * external functions) and linked into the hetIR module by the SPIR-V
 * lowering, which then lowers it like any other device code; it is inlined
 * into each warp-loop kernel, so the thread function is called directly.
 *
\*===----------------------------------------------------------------------===*/

/* The warp scheduler of the host target's block executor. Its block entry
 * (__hetgpu_exec_block) is not linked: the SPIR-V lowering links only what
 * the kernels reference. */
#include "../../../runtime/device/common/hetgpu_exec.c"

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

/* Runs the lanes of warp __hetgpu_tid_x() (the work-item's local id) of
 * the block described by Ctx. Area (work-group local memory) holds one
 * record per warp: a table of 32 lane pointers, 32 thread states, then 32
 * frames of FrameSize bytes (a multiple of 16). */
void __hetgpu_spirv_warp_exec(void **Args, hetgpu_block_ctx *Ctx,
                              hetgpu_thread_fn Fn, char *Area,
                              uint32_t FrameSize) {
  uint32_t BX = Ctx->block_dim[0], BY = Ctx->block_dim[1];
  uint32_t N = BX * BY * Ctx->block_dim[2];
  uint32_t W = __hetgpu_tid_x();
  size_t WarpBytes = 32 * sizeof(void *) + 32 * sizeof(hetgpu_thread_state) +
                     32 * (size_t)FrameSize;
  /* The lane table lives there too: LLVM 22's SPIR-V backend emitted a
   * private array of 32 pointers as one pointer variable. */
  hetgpu_thread_state **Lanes = (hetgpu_thread_state **)(Area + W * WarpBytes);
  hetgpu_thread_state *TS =
      (hetgpu_thread_state *)((char *)Lanes + 32 * sizeof(void *));
  char *Frames = (char *)TS + 32 * sizeof(hetgpu_thread_state);
  uint32_t First = W * 32;
  uint32_t NumLanes = First >= N ? 0 : (N - First < 32 ? N - First : 32);
  for (uint32_t L = 0; L < NumLanes; ++L) {
    hetgpu_thread_state *T = lane(TS, L);
    uint32_t Lin = First + L;
    T->resume = 0;
    T->kind = 0;
    T->result = 0;
    T->tid[0] = Lin % BX;
    T->tid[1] = (Lin / BX) % BY;
    T->tid[2] = Lin / (BX * BY);
    T->linear = Lin;
    T->status = ST_RUN;
    T->frame = Frames + (size_t)L * FrameSize;
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
    runWarp(Args, Ctx, Fn, Lanes, NumLanes);
    /* Every lane of this warp now waits at a block barrier or has exited. */
    uint32_t Slot = Round % 3, Wait = 0, True = 0, Kind = 0;
    for (uint32_t L = 0; L < NumLanes; ++L)
      if (Lanes[L]->status == ST_BAR) {
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
    if (!Waiting)
      return; /* every thread of the block has exited */
    int32_t R = 0;
    if (Kind == HETGPU_SYNC_BARRIER_COUNT)
      R = (int32_t)Count;
    else if (Kind == HETGPU_SYNC_BARRIER_AND)
      R = Count == Waiting;
    else if (Kind == HETGPU_SYNC_BARRIER_OR)
      R = Count != 0;
    for (uint32_t L = 0; L < NumLanes; ++L)
      if (Lanes[L]->status == ST_BAR) {
        Lanes[L]->result = R;
        Lanes[L]->status = ST_RUN;
      }
  }
}
