/*===- hetgpu_exec.c - Block executor for SIMT->MIMD thread functions ----===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * Runs all threads of one block of a kernel that the SIMT->MIMD lowering
 * turned into a resumable thread function (see ABI/BlockExecutor.h). Shared by
 * the host target and the RISC-V many-core target: it is compiled to bitcode
 * at build time and linked into every translated module that needs it.
 *
 * Scheduling. The block is processed warp by warp; each warp runs until
 * every lane waits at a block barrier or has exited, through the warp
 * scheduler shared with the SPIR-V target's warp-loop executor
 * (hetgpu_warp_sched.h: which lanes run, which group of lanes waiting at
 * warp operations goes next, the operations themselves). Once every lane
 * of every warp waits at a block barrier or has exited, the barrier
 * completes (count/and/or over the waiting threads) and all of them
 * resume. Threads that wait at different barriers are a divergent
 * __syncthreads(): the launch fails with a message.
 *
\*===----------------------------------------------------------------------===*/

#include "hetgpu/ABI/BlockExecutor.h"
#include "hetgpu/ABI/BlockABI.h"

#include <stddef.h>

/* A warp's lanes are consecutive thread states. */
#define HETGPU_SCHED_LANES hetgpu_thread_state *
#define HETGPU_SCHED_LANE(Ls, L) (&(Ls)[L])
#include "hetgpu_warp_sched.h"

#if __STDC_HOSTED__
#include <stdlib.h>

/* Frames are reused by the blocks a worker thread runs. A trapping kernel
 * leaves the block with longjmp, so nothing here may need freeing then. */
static _Thread_local char *FrameBuf;
static _Thread_local size_t FrameCap;

/* The block shape and frame size for which the thread states at the start
 * of FrameBuf hold tid, linear and frame (Area NULL: none). The blocks of
 * a launch that a worker runs one after another share them: such a block
 * only resets what a run changes (initStates). */
static _Thread_local struct {
  char *Area;
  uint32_t BX, BY, BZ, FrameSize;
} Laid;

static char *frameArea(size_t Bytes) {
  if (Bytes > FrameCap) {
    Laid.Area = 0;
    free(FrameBuf);
    size_t Cap = FrameCap ? FrameCap : 4096;
    while (Cap < Bytes)
      Cap *= 2;
    FrameBuf = (char *)aligned_alloc(64, Cap);
    FrameCap = FrameBuf ? Cap : 0;
  }
  return FrameBuf;
}
#else
/* Freestanding targets (the RISC-V many-core runtime) provide the memory:
 * at least \p Bytes, 64-byte aligned, private to the calling core, valid
 * until its next call on that core; NULL when there is not enough. */
extern void *__hetgpu_exec_frames(size_t Bytes);
static char *frameArea(size_t Bytes) {
  return (char *)__hetgpu_exec_frames(Bytes);
}
#endif

/* The sync id at which every lane of Mask waits, or 0 (none, or they
 * wait at different ones). */
static uint32_t commonSyncId(uint32_t Mask, const uint32_t *Ids) {
  if (!Mask)
    return 0;
  uint32_t Id = Ids[__builtin_ctz(Mask)];
  if (!Id)
    return 0;
  uint32_t Same = 0;
  for (uint32_t L = 0; L < 32; ++L)
    Same |= (uint32_t)(Ids[L] == Id) << L;
  return (Same & Mask) == Mask ? Id : 0;
}

/* Called by lane-loop functions (hetgpu_lanes_fn) after the lanes of Mask
 * (bit i: TS[i]) ran to their next sync points, Ids[i] their return values.
 * When all of them stopped at the same warp operation, performs it
 * (exactly what hetgpu_sched_run_warp does for a group of all waiting
 * lanes) and returns its sync id, at which the lanes continue; otherwise
 * returns 0. */
uint32_t __hetgpu_exec_fuse(hetgpu_thread_state *TS, uint32_t Mask,
                            const uint32_t *Ids) {
  uint32_t Id = commonSyncId(Mask, Ids);
  if (!Id || hetgpu_sched_is_barrier(TS[__builtin_ctz(Mask)].kind))
    return 0;
  hetgpu_sched_warp_op(TS, Mask);
  return Id;
}

/* Called by lane-loop functions that keep the lanes' operations in
 * per-warp arrays (ABI/BlockExecutor.h): as __hetgpu_exec_fuse, with the kinds
 * in Kinds[i], operand k of lane i in Args[32 * k + i], results to
 * Results[i]. */
uint32_t __hetgpu_exec_fuse_soa(uint32_t Mask, const uint32_t *Ids,
                                const uint32_t *Kinds, const int32_t *Args,
                                int32_t *Results) {
  uint32_t Id = commonSyncId(Mask, Ids);
  if (!Id)
    return 0;
  uint32_t Kind = Kinds[__builtin_ctz(Mask)];
  if (hetgpu_sched_is_barrier(Kind))
    return 0;
  hetgpu_sched_warp_op_soa(Kind, Mask, Args, Args + 32, Args + 64, Args + 96,
                           Results);
  return Id;
}

static void divergentBarrier(hetgpu_block_ctx *Ctx, const char *Kernel,
                             uint32_t IdA, uint32_t IdB) {
  const hetgpu_host_services *S = Ctx->services;
  if (S && S->printf) {
    /* CUDA vprintf argument buffer: each argument at its alignment. */
    struct {
      const char *K;
      uint32_t X, Y, Z, A, B;
    } Buf = {
        Kernel, Ctx->block_idx[0], Ctx->block_idx[1], Ctx->block_idx[2], IdA,
        IdB};
    S->printf(S->rt,
              "hetgpu: kernel %s: block (%u,%u,%u): threads wait at different "
              "barriers (sync points %u and %u): __syncthreads() in divergent "
              "control flow\n",
              &Buf);
  }
  if (S && S->trap)
    S->trap(S->rt);
  __builtin_trap();
}

/* The lanes of warp W of a block of N threads (bit i: lane i). */
static uint32_t lanesOf(uint32_t N, uint32_t W) {
  uint32_t NumLanes = N - W * 32 < 32 ? N - W * 32 : 32;
  return NumLanes == 32 ? ~0u : (1u << NumLanes) - 1;
}

/* Makes the N = Dim[0] * Dim[1] * Dim[2] states TS the threads of a block
 * at its start, frames from \p Frames on. tid, linear and frame depend on
 * the shape alone: when the worker's previous block had the same shape and
 * frame size in the same area (hosted builds), only resume and status are
 * reset (generated code never writes the others; kind, arg and result are
 * written before they are read). With \p FirstLanes (lane-loop functions
 * and known masks: no status is read, and a warp's lanes are entered at
 * its first runnable lane's resume point) only the first lane of each
 * warp is reset. */
static void initStates(hetgpu_thread_state *TS, char *Frames,
                       const uint32_t *Dim, uint32_t FrameSize,
                       int FirstLanes) {
  uint32_t BX = Dim[0], BY = Dim[1], N = BX * BY * Dim[2];
#if __STDC_HOSTED__
  if (Laid.Area == (char *)TS && Laid.BX == BX && Laid.BY == BY &&
      Laid.BZ == Dim[2] && Laid.FrameSize == FrameSize) {
    if (FirstLanes) {
      for (uint32_t I = 0; I < N; I += 32)
        TS[I].resume = 0;
      return;
    }
    for (uint32_t I = 0; I < N; ++I) {
      TS[I].resume = 0;
      TS[I].status = HETGPU_ST_RUN;
    }
    return;
  }
#endif
  uint32_t X = 0, Y = 0, Z = 0;
  for (uint32_t I = 0; I < N; ++I) {
    hetgpu_sched_init_thread(&TS[I], I, X, Y, Z,
                             Frames + (size_t)I * FrameSize);
    if (++X == BX) {
      X = 0;
      if (++Y == BY) {
        Y = 0;
        ++Z;
      }
    }
  }
#if __STDC_HOSTED__
  Laid.Area = (char *)TS;
  Laid.BX = BX;
  Laid.BY = BY;
  Laid.BZ = Dim[2];
  Laid.FrameSize = FrameSize;
#endif
}

/* Completes a barrier round: every thread waits at a block barrier or has
 * exited; those waiting (status HETGPU_ST_BAR) get the result and become
 * runnable. */
static void completeBarrierScan(hetgpu_thread_state *TS, uint32_t N,
                                hetgpu_block_ctx *Ctx, const char *Kernel) {
  uint32_t Id = 0, Waiting = 0, Count = 0;
  for (uint32_t I = 0; I < N; ++I) {
    if (TS[I].status != HETGPU_ST_BAR)
      continue;
    if (!Id)
      Id = TS[I].resume;
    else if (TS[I].resume != Id)
      divergentBarrier(Ctx, Kernel, Id, TS[I].resume);
    ++Waiting;
    Count += TS[I].arg[1] != 0;
  }
  if (!Waiting)
    return;
  uint32_t Kind = 0;
  for (uint32_t I = 0; I < N; ++I)
    if (TS[I].status == HETGPU_ST_BAR) {
      Kind = TS[I].kind;
      break;
    }
  int32_t R = hetgpu_sched_barrier_result(Kind, Count, Waiting);
  for (uint32_t I = 0; I < N; ++I)
    if (TS[I].status == HETGPU_ST_BAR) {
      TS[I].result = R;
      TS[I].status = HETGPU_ST_RUN;
    }
}

/* completeBarrierScan when the waiting lanes of each warp are known
 * (Bars[W], bit i: lane i of warp W, not all zero): no status scans, and a
 * plain __syncthreads (no predicate) takes one pass. BarIds[W] is the
 * barrier at which all of Bars[W] stopped in one lane-loop call (then only
 * the first of them has its resume field; hetgpu_sched_run_warp_masks), or
 * 0: a plain barrier then costs one comparison per warp, not a pass over
 * the lanes (its result is never read). hetgpu_sched_run_warp_masks runs
 * Bars[W] next from the first lane's resume point. */
static void completeBarrierKnown(hetgpu_thread_state *TS, uint32_t NumWarps,
                                 const uint32_t *Bars, const uint32_t *BarIds,
                                 hetgpu_block_ctx *Ctx, const char *Kernel) {
  uint32_t First = 0;
  while (!Bars[First])
    ++First;
  hetgpu_thread_state *T0 = &TS[First * 32 + __builtin_ctz(Bars[First])];
  uint32_t Id = T0->resume, Kind = T0->kind, Waiting = 0, Count = 0;
  int Plain = Kind == HETGPU_SYNC_BARRIER;
  for (uint32_t W = First; W < NumWarps; ++W) {
    if (BarIds[W] && Bars[W]) {
      if (BarIds[W] != Id)
        divergentBarrier(Ctx, Kernel, Id, BarIds[W]);
      if (Plain)
        continue;
      for (uint32_t M = Bars[W]; M; M &= M - 1) {
        ++Waiting;
        Count += TS[W * 32 + __builtin_ctz(M)].arg[1] != 0;
      }
      continue;
    }
    for (uint32_t M = Bars[W]; M; M &= M - 1) {
      hetgpu_thread_state *T = &TS[W * 32 + __builtin_ctz(M)];
      if (T->resume != Id)
        divergentBarrier(Ctx, Kernel, Id, T->resume);
      ++Waiting;
      Count += T->arg[1] != 0;
      if (Plain)
        T->result = 0;
    }
  }
  if (Plain)
    return;
  int32_t R = hetgpu_sched_barrier_result(Kind, Count, Waiting);
  for (uint32_t W = First; W < NumWarps; ++W)
    for (uint32_t M = Bars[W]; M; M &= M - 1)
      TS[W * 32 + __builtin_ctz(M)].result = R;
}

static void execBlock(void **Args, hetgpu_block_ctx *Ctx, hetgpu_thread_fn Fn,
                      hetgpu_lanes_fn LanesFn, uint32_t FrameSize,
                      const char *Kernel) {
  uint32_t N = Ctx->block_dim[0] * Ctx->block_dim[1] * Ctx->block_dim[2];
  if (N == 0)
    return;
  size_t TSBytes = ((size_t)N * sizeof(hetgpu_thread_state) + 63) & ~(size_t)63;
  char *Area = frameArea(TSBytes + (size_t)N * FrameSize);
  if (!Area) {
    if (Ctx->services && Ctx->services->trap)
      Ctx->services->trap(Ctx->services->rt);
    __builtin_trap();
  }
  hetgpu_thread_state *TS = (hetgpu_thread_state *)Area;
  /* Runnable lanes per warp (bit i: lane i); at the start all of them, after
   * a barrier round those that waited at it. A block has at most 1024
   * threads in CUDA; a larger one scans the statuses instead. */
  uint32_t NumWarps = (N + 31) / 32;
  uint32_t Runs[32], BarIds[32];
  int Known = NumWarps <= 32;
  initStates(TS, Area + TSBytes, Ctx->block_dim, FrameSize, Known && LanesFn);
  for (uint32_t W = 0; Known && W < NumWarps; ++W)
    Runs[W] = lanesOf(N, W);
  for (;;) {
    int AtBarrier = 0;
    for (uint32_t W = 0; W < NumWarps; ++W) {
      uint32_t NumLanes = N - W * 32 < 32 ? N - W * 32 : 32;
      /* Lanes not runnable have exited (or lie past a partial warp): a
       * warp returns only when none waits at a warp operation. Runs[W]
       * becomes the lanes that then wait at a barrier. */
      if (Known) {
        Runs[W] =
            hetgpu_sched_run_warp_masks(Args, Ctx, Fn, LanesFn, &TS[W * 32],
                                        Runs[W], ~Runs[W], 0, &BarIds[W]);
        AtBarrier |= Runs[W] != 0;
      } else {
        AtBarrier |= hetgpu_sched_run_warp(Args, Ctx, Fn, LanesFn,
                                           &TS[W * 32], NumLanes);
      }
    }
    /* Every thread has exited: no barrier round to complete. */
    if (!AtBarrier)
      return;
    /* Every thread now waits at a block barrier or has exited. */
    if (Known)
      completeBarrierKnown(TS, NumWarps, Runs, BarIds, Ctx, Kernel);
    else
      completeBarrierScan(TS, N, Ctx, Kernel);
  }
}

void __hetgpu_exec_block(void **Args, hetgpu_block_ctx *Ctx,
                         hetgpu_thread_fn Fn, uint32_t FrameSize,
                         const char *Kernel) {
  execBlock(Args, Ctx, Fn, 0, FrameSize, Kernel);
}

void __hetgpu_exec_block_lanes(void **Args, hetgpu_block_ctx *Ctx,
                               hetgpu_thread_fn Fn, hetgpu_lanes_fn LanesFn,
                               uint32_t FrameSize, const char *Kernel) {
  execBlock(Args, Ctx, Fn, LanesFn, FrameSize, Kernel);
}
