/*===- hetgpu_exec.c - Block executor for SIMT->MIMD thread functions ----===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * Runs all threads of one block of a kernel that the SIMT->MIMD lowering
 * turned into a resumable thread function (see SIMTToMIMDABI.h). Shared by
 * the host target and the RISC-V many-core target: it is compiled to bitcode
 * at build time and linked into every translated module that needs it.
 *
 * Scheduling. The block is processed warp by warp. Every runnable lane of a
 * warp runs to its next sync point. Lanes that stopped at warp operations
 * are grouped by the operation they stopped at; a group is *ready* when
 * every lane named in its mask is in the group or has exited. Ready groups
 * with an explicit mask run first, then ready `activemask` groups, then (a
 * program that would deadlock on a GPU) the group with the lowest id, in
 * each case lowest sync id first. The lanes of the group form the active
 * mask of the operation. Once every lane of every warp waits at a block
 * barrier or has exited, the barrier completes (count/and/or over the
 * waiting threads) and all of them resume. Threads that wait at different
 * barriers are a divergent __syncthreads(): the launch fails with a message.
 *
\*===----------------------------------------------------------------------===*/

#include "hetgpu/Transforms/SIMTToMIMDABI.h"
#include "hetgpu/host_abi.h"

#include <stddef.h>

enum { ST_RUN = 0, ST_WARP = 1, ST_BAR = 2, ST_EXIT = 3 };

#if __STDC_HOSTED__
#include <stdlib.h>

/* Frames are reused by the blocks a worker thread runs. A trapping kernel
 * leaves the block with longjmp, so nothing here may need freeing then. */
static _Thread_local char *FrameBuf;
static _Thread_local size_t FrameCap;

static char *frameArea(size_t Bytes) {
  if (Bytes > FrameCap) {
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

static int isBarrier(uint32_t Kind) {
  return Kind >= HETGPU_SYNC_BARRIER && Kind <= HETGPU_SYNC_BARRIER_OR;
}

static int hasMask(uint32_t Kind) {
  return Kind >= HETGPU_SYNC_SYNCWARP && Kind != HETGPU_SYNC_ACTIVEMASK;
}

/* The source lane *J of a shuffle of Kind for lane L with operand B (lane,
 * delta or lane mask) and width W; returns whether it is inside L's
 * segment (otherwise L keeps its own value). */
static inline int shflSource(uint32_t Kind, int32_t L, int32_t B, int32_t W,
                             int32_t *J) {
  uint32_t UW = (uint32_t)W;
  if (UW == 0 || UW > 32 || (UW & (UW - 1)))
    UW = 32;
  int32_t SegMask = (int32_t)((32 - UW) & 31);
  B &= 31;
  int32_t MinLane = L & SegMask;
  int32_t MaxLane = MinLane | (31 & ~SegMask);
  if (Kind == HETGPU_SYNC_SHFL_UP) {
    *J = L - B;
    return *J >= MinLane;
  }
  *J = Kind == HETGPU_SYNC_SHFL_DOWN  ? L + B
       : Kind == HETGPU_SYNC_SHFL_XOR ? L ^ B
                                      : MinLane | (B & ~SegMask);
  return *J <= MaxLane;
}

/* Performs the warp operation of the lanes in Group (bit i: Lanes[i]; all
 * stopped at the same sync point): writes their results. Loops visit the
 * set bits of Group only. */
static void warpOp(hetgpu_thread_state *Lanes, uint32_t Group) {
  uint32_t Kind = Lanes[__builtin_ctz(Group)].kind;
  int32_t Val[32];
  if ((Kind >= HETGPU_SYNC_SHFL_IDX && Kind <= HETGPU_SYNC_SHFL_XOR) ||
      Kind == HETGPU_SYNC_MATCH_ANY)
    for (uint32_t M = Group; M; M &= M - 1) {
      uint32_t L = (uint32_t)__builtin_ctz(M);
      Val[L] = Lanes[L].arg[1];
    }
  switch (Kind) {
  case HETGPU_SYNC_SHFL_IDX:
  case HETGPU_SYNC_SHFL_UP:
  case HETGPU_SYNC_SHFL_DOWN:
  case HETGPU_SYNC_SHFL_XOR:
    /* PTX shfl.sync: c = ((32 - width) << 8) | (up ? 0 : 31); a source
     * lane out of the segment gives the own value; reading an inactive lane
     * is undefined in CUDA: the own value too. */
    if (Group == 0xffffffffu) {
      /* A full warp whose lanes all pass the same delta and width (the
       * common case): the same sources, decoded once. */
      int32_t B0 = Lanes[0].arg[2], W0 = Lanes[0].arg[3];
      uint32_t Same = 1;
      for (uint32_t L = 1; L < 32; ++L)
        Same &= (uint32_t)(Lanes[L].arg[2] == B0) &
                (uint32_t)(Lanes[L].arg[3] == W0);
      if (Same) {
        /* shflSource with the kind, delta and width hoisted. */
        uint32_t UW = (uint32_t)W0;
        if (UW == 0 || UW > 32 || (UW & (UW - 1)))
          UW = 32;
        int32_t SegMask = (int32_t)((32 - UW) & 31), B = B0 & 31;
        int32_t Res[32];
        if (Kind == HETGPU_SYNC_SHFL_UP) {
          for (int32_t L = 0; L < 32; ++L)
            Res[L] = L - B >= (L & SegMask) ? Val[(L - B) & 31] : Val[L];
        } else if (Kind == HETGPU_SYNC_SHFL_DOWN) {
          for (int32_t L = 0; L < 32; ++L)
            Res[L] = L + B <= ((L & SegMask) | (31 & ~SegMask))
                         ? Val[(L + B) & 31]
                         : Val[L];
        } else if (Kind == HETGPU_SYNC_SHFL_XOR) {
          for (int32_t L = 0; L < 32; ++L)
            Res[L] = (L ^ B) <= ((L & SegMask) | (31 & ~SegMask))
                         ? Val[L ^ B]
                         : Val[L];
        } else {
          for (int32_t L = 0; L < 32; ++L)
            Res[L] = Val[(L & SegMask) | (B & ~SegMask)];
        }
        for (uint32_t L = 0; L < 32; ++L)
          Lanes[L].result = Res[L];
        break;
      }
    }
    for (uint32_t M = Group; M; M &= M - 1) {
      uint32_t Lane = (uint32_t)__builtin_ctz(M);
      hetgpu_thread_state *T = &Lanes[Lane];
      int32_t J;
      int P = shflSource(Kind, (int32_t)Lane, T->arg[2], T->arg[3], &J);
      T->result = P && ((Group >> J) & 1u) ? Val[J] : Val[Lane];
    }
    break;
  case HETGPU_SYNC_VOTE_ANY:
  case HETGPU_SYNC_VOTE_ALL:
  case HETGPU_SYNC_VOTE_BALLOT: {
    uint32_t Preds = 0;
    if (Group == 0xffffffffu) {
      /* A full warp: when every lane passes the same mask, all get the
       * same result. */
      int32_t Mask0 = Lanes[0].arg[0];
      uint32_t Same = 1;
      for (uint32_t L = 0; L < 32; ++L) {
        Preds |= (uint32_t)(Lanes[L].arg[1] != 0) << L;
        Same &= (uint32_t)(Lanes[L].arg[0] == Mask0);
      }
      if (Same) {
        uint32_t Active = (uint32_t)Mask0, Ballot = Preds & Active;
        int32_t R = Kind == HETGPU_SYNC_VOTE_BALLOT ? (int32_t)Ballot
                    : Kind == HETGPU_SYNC_VOTE_ANY  ? Ballot != 0
                                                    : Ballot == Active;
        for (uint32_t L = 0; L < 32; ++L)
          Lanes[L].result = R;
        break;
      }
    } else {
      for (uint32_t M = Group; M; M &= M - 1) {
        uint32_t L = (uint32_t)__builtin_ctz(M);
        Preds |= (uint32_t)(Lanes[L].arg[1] != 0) << L;
      }
    }
    for (uint32_t M = Group; M; M &= M - 1) {
      hetgpu_thread_state *T = &Lanes[__builtin_ctz(M)];
      uint32_t Active = Group & (uint32_t)T->arg[0];
      uint32_t Ballot = Preds & Active;
      T->result = Kind == HETGPU_SYNC_VOTE_BALLOT ? (int32_t)Ballot
                  : Kind == HETGPU_SYNC_VOTE_ANY  ? Ballot != 0
                                                  : Ballot == Active;
    }
    break;
  }
  case HETGPU_SYNC_ACTIVEMASK:
    for (uint32_t M = Group; M; M &= M - 1)
      Lanes[__builtin_ctz(M)].result = (int32_t)Group;
    break;
  case HETGPU_SYNC_MATCH_ANY:
    for (uint32_t M = Group; M; M &= M - 1) {
      uint32_t L = (uint32_t)__builtin_ctz(M);
      uint32_t Active = Group & (uint32_t)Lanes[L].arg[0], Match = 0;
      for (uint32_t A = Active; A; A &= A - 1) {
        uint32_t J = (uint32_t)__builtin_ctz(A);
        if (Val[J] == Val[L])
          Match |= 1u << J;
      }
      Lanes[L].result = (int32_t)Match;
    }
    break;
  default: /* syncwarp */
    break;
  }
  /* The lanes' status stays ST_WARP: runWarp runs them next and overwrites
   * it when they stop again. */
}

/* Called by lane-loop functions (hetgpu_lanes_fn) after the lanes of Mask
 * (bit i: TS[i]) ran to their next sync points, Ids[i] their return values.
 * When all of them stopped at the same warp operation, performs it (exactly
 * what runWarp does for a group of all waiting lanes) and returns its sync
 * id, at which the lanes continue; otherwise returns 0. */
uint32_t __hetgpu_exec_fuse(hetgpu_thread_state *TS, uint32_t Mask,
                            const uint32_t *Ids) {
  if (!Mask)
    return 0;
  uint32_t First = (uint32_t)__builtin_ctz(Mask), Id = Ids[First];
  if (!Id)
    return 0;
  uint32_t Same = 0;
  for (uint32_t L = 0; L < 32; ++L)
    Same |= (uint32_t)(Ids[L] == Id) << L;
  if ((Same & Mask) != Mask || isBarrier(TS[First].kind))
    return 0;
  warpOp(TS, Mask);
  return Id;
}

/* Runs one warp until every lane waits at a block barrier or has exited.
 * With \p LanesFn, the runnable lanes (which always stand at one sync point:
 * the kernel entry, the barrier that completed, or the warp operation just
 * performed) run through one call of it instead of one call of \p Fn each.
 * Lanes[0..NumLanes) are the warp's thread states. */
static void runWarp(void **Args, hetgpu_block_ctx *Ctx, hetgpu_thread_fn Fn,
                    hetgpu_lanes_fn LanesFn, hetgpu_thread_state *Lanes,
                    uint32_t NumLanes) {
  uint32_t Gone = NumLanes == 32 ? 0 : ~((1u << NumLanes) - 1);
  uint32_t Run = 0, Waiting = 0;
  for (uint32_t L = 0; L < NumLanes; ++L) {
    uint32_t St = Lanes[L].status;
    if (St == ST_RUN)
      Run |= 1u << L;
    else if (St == ST_EXIT)
      Gone |= 1u << L;
    else if (St == ST_WARP)
      Waiting |= 1u << L;
  }
  for (;;) {
    /* Whether the lanes now waiting may be at different operations. */
    int Mixed = Waiting != 0;
    uint32_t FirstId = 0;
    uint32_t Ids[32];
    if (LanesFn && Run)
      LanesFn(Args, Ctx, Lanes, Run, Lanes[__builtin_ctz(Run)].resume,
              Ids, /*Fuse=*/Waiting == 0);
    for (uint32_t M = Run; M; M &= M - 1) {
      uint32_t L = (uint32_t)__builtin_ctz(M);
      hetgpu_thread_state *T = &Lanes[L];
      uint32_t Id = LanesFn ? Ids[L] : Fn(Args, Ctx, T);
      if (Id == 0) {
        T->status = ST_EXIT;
        Gone |= 1u << L;
      } else {
        T->resume = Id;
        if (isBarrier(T->kind)) {
          T->status = ST_BAR;
        } else {
          T->status = ST_WARP;
          Waiting |= 1u << L;
          if (!FirstId)
            FirstId = Id;
          else if (Id != FirstId)
            Mixed = 1;
        }
      }
    }
    if (!Waiting)
      return;
    if (!Mixed) {
      /* The common case: every waiting lane is at the same operation. */
      warpOp(Lanes, Waiting);
      Run = Waiting;
      Waiting = 0;
      continue;
    }
    /* Pick the group to run. */
    uint32_t BestGroup = 0, BestClass = 3, BestId = 0;
    uint32_t Left = Waiting;
    while (Left) {
      uint32_t First = (uint32_t)__builtin_ctz(Left);
      uint32_t Id = Lanes[First].resume;
      uint32_t Group = 0, Need = 0;
      for (uint32_t M = Left; M; M &= M - 1) {
        uint32_t L = (uint32_t)__builtin_ctz(M);
        if (Lanes[L].resume == Id) {
          Group |= 1u << L;
          Need |= (uint32_t)Lanes[L].arg[0];
        }
      }
      Left &= ~Group;
      uint32_t Class;
      if (!hasMask(Lanes[First].kind))
        Class = 1;
      else
        Class = (Need & ~Group & ~Gone) ? 2 : 0;
      if (Class < BestClass || (Class == BestClass && Id < BestId)) {
        BestClass = Class;
        BestId = Id;
        BestGroup = Group;
      }
    }
    warpOp(Lanes, BestGroup);
    Waiting &= ~BestGroup;
    Run = BestGroup;
  }
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

static void execBlock(void **Args, hetgpu_block_ctx *Ctx, hetgpu_thread_fn Fn,
                      hetgpu_lanes_fn LanesFn, uint32_t FrameSize,
                      const char *Kernel) {
  uint32_t BX = Ctx->block_dim[0], BY = Ctx->block_dim[1];
  uint32_t N = BX * BY * Ctx->block_dim[2];
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
  char *Frames = Area + TSBytes;
  uint32_t X = 0, Y = 0, Z = 0;
  for (uint32_t I = 0; I < N; ++I) {
    hetgpu_thread_state *T = &TS[I];
    T->resume = 0;
    T->kind = 0;
    T->result = 0;
    T->tid[0] = X;
    T->tid[1] = Y;
    T->tid[2] = Z;
    if (++X == BX) {
      X = 0;
      if (++Y == BY) {
        Y = 0;
        ++Z;
      }
    }
    T->linear = I;
    T->status = ST_RUN;
    T->frame = Frames + (size_t)I * FrameSize;
  }
  uint32_t NumWarps = (N + 31) / 32;
  for (;;) {
    for (uint32_t W = 0; W < NumWarps; ++W) {
      uint32_t NumLanes = N - W * 32 < 32 ? N - W * 32 : 32;
      runWarp(Args, Ctx, Fn, LanesFn, &TS[W * 32], NumLanes);
    }
    /* Every thread now waits at a block barrier or has exited. */
    uint32_t Id = 0, Waiting = 0, Count = 0;
    for (uint32_t I = 0; I < N; ++I) {
      if (TS[I].status != ST_BAR)
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
      if (TS[I].status == ST_BAR) {
        Kind = TS[I].kind;
        break;
      }
    int32_t R = 0;
    if (Kind == HETGPU_SYNC_BARRIER_COUNT)
      R = (int32_t)Count;
    else if (Kind == HETGPU_SYNC_BARRIER_AND)
      R = Count == Waiting;
    else if (Kind == HETGPU_SYNC_BARRIER_OR)
      R = Count != 0;
    for (uint32_t I = 0; I < N; ++I)
      if (TS[I].status == ST_BAR) {
        TS[I].result = R;
        TS[I].status = ST_RUN;
      }
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
