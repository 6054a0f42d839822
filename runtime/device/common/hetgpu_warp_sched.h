/*===- hetgpu_warp_sched.h - Scheduling the lanes of one warp ------------===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * The one implementation of warp scheduling for SIMT->MIMD thread functions
 * (ABI/BlockExecutor.h): running the lanes of a warp to their sync points,
 * choosing which group of lanes waiting at warp operations goes next, and
 * performing the warp operations (shuffles, votes, activemask, match).
 * Included by the block executor of the host and RISC-V many-core targets
 * (runtime/device/common/hetgpu_exec.c) and by the SPIR-V target's
 * warp-loop executor (runtime/device/SPIRV/WarpExecutor.c); everything here is
 * static, so each includer gets its own copy.
 *
 * Policy. Every runnable lane of the warp runs to its next sync point.
 * Lanes that stopped at warp operations are grouped by the operation they
 * stopped at; a group is *ready* when every lane named in its mask is in
 * the group or has exited. Ready groups with an explicit mask run first,
 * then `activemask` groups, then (a program that would deadlock on a GPU)
 * any group, in each class the lowest sync id first. The lanes of the group
 * form the active mask of the operation. Lanes stopped at a block barrier
 * or exited are left to the includer (block-level completion differs:
 * one loop over the block on the host, work-group barriers on SPIR-V).
 *
 * Semantics of the operations (CUDA / PTX): shfl.sync with segment mask
 * `32 - width` (a width that is not a power of two up to 32 means 32); a
 * source lane outside the segment or not in the active mask gives the own
 * value; vote/ballot over the active lanes named in the lane's mask.
 *
 * The includer defines, before including this file:
 *   HETGPU_SCHED_LANES        the type through which a warp's lanes are
 *                             reached (the host: `hetgpu_thread_state *`,
 *                             an array; SPIR-V: a table of pointers);
 *   HETGPU_SCHED_LANE(Ls, L)  lane L's `hetgpu_thread_state *`.
 *
\*===----------------------------------------------------------------------===*/

#ifndef HETGPU_WARP_SCHED_H
#define HETGPU_WARP_SCHED_H

#include "hetgpu/ABI/BlockExecutor.h"
#include "hetgpu/ABI/BlockABI.h"

#if !defined(HETGPU_SCHED_LANES) || !defined(HETGPU_SCHED_LANE)
#error "define HETGPU_SCHED_LANES and HETGPU_SCHED_LANE before including"
#endif

#define HETGPU_SCHED_INLINE static inline __attribute__((always_inline))

/* Lane status (hetgpu_thread_state::status). */
enum {
  HETGPU_ST_RUN = 0,  /* runnable */
  HETGPU_ST_WARP = 1, /* waits at a warp operation */
  HETGPU_ST_BAR = 2,  /* waits at a block barrier */
  HETGPU_ST_EXIT = 3  /* exited */
};

HETGPU_SCHED_INLINE int hetgpu_sched_is_barrier(uint32_t Kind) {
  return Kind >= HETGPU_SYNC_BARRIER && Kind <= HETGPU_SYNC_BARRIER_OR;
}

/* Whether arg[0] of a warp operation of \p Kind is a lane mask. */
HETGPU_SCHED_INLINE int hetgpu_sched_has_mask(uint32_t Kind) {
  return Kind >= HETGPU_SYNC_SYNCWARP && Kind != HETGPU_SYNC_ACTIVEMASK;
}

/* The result of a block barrier of \p Kind over \p Waiting threads, \p Count
 * of which passed a true predicate. */
HETGPU_SCHED_INLINE int32_t hetgpu_sched_barrier_result(uint32_t Kind,
                                                        uint32_t Count,
                                                        uint32_t Waiting) {
  if (Kind == HETGPU_SYNC_BARRIER_COUNT)
    return (int32_t)Count;
  if (Kind == HETGPU_SYNC_BARRIER_AND)
    return Count == Waiting;
  if (Kind == HETGPU_SYNC_BARRIER_OR)
    return Count != 0;
  return 0;
}

/* Makes \p T thread \p Lin (linear id) of a block of BX x BY x ... threads,
 * runnable from the kernel entry, with frame \p Frame. */
HETGPU_SCHED_INLINE void hetgpu_sched_init_thread(hetgpu_thread_state *T,
                                                  uint32_t Lin, uint32_t X,
                                                  uint32_t Y, uint32_t Z,
                                                  char *Frame) {
  T->resume = 0;
  T->kind = 0;
  T->result = 0;
  T->tid[0] = X;
  T->tid[1] = Y;
  T->tid[2] = Z;
  T->linear = Lin;
  T->status = HETGPU_ST_RUN;
  T->frame = Frame;
}

/* The source lane *J of a shuffle of Kind for lane L with operand B (lane,
 * delta or lane mask) and width W; returns whether it is inside L's
 * segment (otherwise L keeps its own value). */
HETGPU_SCHED_INLINE int hetgpu_sched_shfl_source(uint32_t Kind, int32_t L,
                                                 int32_t B, int32_t W,
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

/* The warp operation \p Kind of the lanes in Group (bit i: lane i; all
 * stopped at the same sync point, Group is the active mask) on per-lane
 * operand arrays: A0 the mask, A1 the value or predicate, A2 the source
 * lane, delta or lane mask, A3 the width (hetgpu_sync_kind). Only the
 * entries of lanes in Group are read; Res gets the result of every lane
 * in Group (nothing for __syncwarp). A full warp whose lanes pass the same
 * mask (votes) or the same delta and width (shuffles) takes branch-free
 * loops over the 32 lanes; the results are the same. This is the one
 * implementation of the operations: the executors call it through
 * hetgpu_sched_warp_op, the host's lane-loop functions directly on their
 * per-warp arrays (__hetgpu_exec_fuse_soa). */
HETGPU_SCHED_INLINE void
hetgpu_sched_warp_op_soa(uint32_t Kind, uint32_t Group, const int32_t *A0,
                         const int32_t *A1, const int32_t *A2,
                         const int32_t *A3, int32_t *Res) {
  switch (Kind) {
  case HETGPU_SYNC_SHFL_IDX:
  case HETGPU_SYNC_SHFL_UP:
  case HETGPU_SYNC_SHFL_DOWN:
  case HETGPU_SYNC_SHFL_XOR:
    if (Group == 0xffffffffu) {
      int32_t B0 = A2[0], W0 = A3[0];
      uint32_t Diff = 0;
      for (uint32_t L = 0; L < 32; ++L)
        Diff |= (uint32_t)(A2[L] ^ B0) | (uint32_t)(A3[L] ^ W0);
      if (!Diff) {
        /* hetgpu_sched_shfl_source with kind, delta and width hoisted. */
        uint32_t UW = (uint32_t)W0;
        if (UW == 0 || UW > 32 || (UW & (UW - 1)))
          UW = 32;
        int32_t SegMask = (int32_t)((32 - UW) & 31), B = B0 & 31;
        if (UW == 32 && Kind != HETGPU_SYNC_SHFL_XOR) {
          /* One segment: shifted copies and a broadcast (vector code). */
          if (Kind == HETGPU_SYNC_SHFL_UP) {
            for (int32_t L = 0; L < B; ++L)
              Res[L] = A1[L];
            for (int32_t L = B; L < 32; ++L)
              Res[L] = A1[L - B];
          } else if (Kind == HETGPU_SYNC_SHFL_DOWN) {
            for (int32_t L = 0; L < 32 - B; ++L)
              Res[L] = A1[L + B];
            for (int32_t L = 32 - B; L < 32; ++L)
              Res[L] = A1[L];
          } else {
            int32_t V = A1[B];
            for (int32_t L = 0; L < 32; ++L)
              Res[L] = V;
          }
          return;
        }
        if (Kind == HETGPU_SYNC_SHFL_UP) {
          for (int32_t L = 0; L < 32; ++L)
            Res[L] = L - B >= (L & SegMask) ? A1[(L - B) & 31] : A1[L];
        } else if (Kind == HETGPU_SYNC_SHFL_DOWN) {
          for (int32_t L = 0; L < 32; ++L)
            Res[L] = L + B <= ((L & SegMask) | (31 & ~SegMask))
                         ? A1[(L + B) & 31]
                         : A1[L];
        } else if (Kind == HETGPU_SYNC_SHFL_XOR) {
          for (int32_t L = 0; L < 32; ++L)
            Res[L] = (L ^ B) <= ((L & SegMask) | (31 & ~SegMask))
                         ? A1[L ^ B]
                         : A1[L];
        } else {
          for (int32_t L = 0; L < 32; ++L)
            Res[L] = A1[(L & SegMask) | (B & ~SegMask)];
        }
        return;
      }
    }
    /* PTX shfl.sync: c = ((32 - width) << 8) | (up ? 0 : 31); a source
     * lane out of the segment gives the own value; reading an inactive
     * lane is undefined in CUDA: the own value too. */
    for (uint32_t M = Group; M; M &= M - 1) {
      uint32_t L = (uint32_t)__builtin_ctz(M);
      int32_t J;
      int P = hetgpu_sched_shfl_source(Kind, (int32_t)L, A2[L], A3[L], &J);
      Res[L] = P && ((Group >> J) & 1u) ? A1[J] : A1[L];
    }
    return;
  case HETGPU_SYNC_VOTE_ANY:
  case HETGPU_SYNC_VOTE_ALL:
  case HETGPU_SYNC_VOTE_BALLOT: {
    uint32_t Preds = 0;
    if (Group == 0xffffffffu) {
      /* A full warp: when every lane passes the same mask, all get the
       * same result. */
      int32_t Mask0 = A0[0];
      uint32_t Diff = 0;
      for (uint32_t L = 0; L < 32; ++L) {
        Preds |= (uint32_t)(A1[L] != 0) << L;
        Diff |= (uint32_t)(A0[L] ^ Mask0);
      }
      if (!Diff) {
        uint32_t Active = (uint32_t)Mask0, Ballot = Preds & Active;
        int32_t R = Kind == HETGPU_SYNC_VOTE_BALLOT ? (int32_t)Ballot
                    : Kind == HETGPU_SYNC_VOTE_ANY  ? Ballot != 0
                                                    : Ballot == Active;
        for (uint32_t L = 0; L < 32; ++L)
          Res[L] = R;
        return;
      }
    } else {
      for (uint32_t M = Group; M; M &= M - 1) {
        uint32_t L = (uint32_t)__builtin_ctz(M);
        Preds |= (uint32_t)(A1[L] != 0) << L;
      }
    }
    for (uint32_t M = Group; M; M &= M - 1) {
      uint32_t L = (uint32_t)__builtin_ctz(M);
      uint32_t Active = Group & (uint32_t)A0[L];
      uint32_t Ballot = Preds & Active;
      Res[L] = Kind == HETGPU_SYNC_VOTE_BALLOT ? (int32_t)Ballot
               : Kind == HETGPU_SYNC_VOTE_ANY  ? Ballot != 0
                                               : Ballot == Active;
    }
    return;
  }
  case HETGPU_SYNC_ACTIVEMASK:
    for (uint32_t M = Group; M; M &= M - 1)
      Res[__builtin_ctz(M)] = (int32_t)Group;
    return;
  case HETGPU_SYNC_MATCH_ANY:
    for (uint32_t M = Group; M; M &= M - 1) {
      uint32_t L = (uint32_t)__builtin_ctz(M);
      uint32_t Active = Group & (uint32_t)A0[L], Match = 0;
      for (uint32_t A = Active; A; A &= A - 1) {
        uint32_t J = (uint32_t)__builtin_ctz(A);
        if (A1[J] == A1[L])
          Match |= 1u << J;
      }
      Res[L] = (int32_t)Match;
    }
    return;
  default: /* __syncwarp */
    return;
  }
}

/* Performs the warp operation of the lanes in Group (all stopped at the
 * same sync point) on their thread states: their operands are gathered,
 * hetgpu_sched_warp_op_soa computes, the results go to the states. The
 * lanes' status stays HETGPU_ST_WARP: hetgpu_sched_run_warp runs them next
 * and overwrites it. */
HETGPU_SCHED_INLINE void hetgpu_sched_warp_op(HETGPU_SCHED_LANES Lanes,
                                              uint32_t Group) {
#define LANE(L) HETGPU_SCHED_LANE(Lanes, L)
  uint32_t Kind = LANE(__builtin_ctz(Group))->kind;
  if (Kind == HETGPU_SYNC_SYNCWARP)
    return;
  /* Only the operands the kind reads: votes and match the mask and the
   * value, shuffles value, lane/delta and width, activemask none; a full
   * warp in plain loops over the 32 lanes. */
  int32_t A[4][32], Res[32];
  int Shfl = Kind >= HETGPU_SYNC_SHFL_IDX && Kind <= HETGPU_SYNC_SHFL_XOR;
  if (Kind == HETGPU_SYNC_ACTIVEMASK) {
  } else if (Group == 0xffffffffu && Shfl) {
    for (uint32_t L = 0; L < 32; ++L) {
      hetgpu_thread_state *T = LANE(L);
      A[1][L] = T->arg[1];
      A[2][L] = T->arg[2];
      A[3][L] = T->arg[3];
    }
  } else if (Group == 0xffffffffu) {
    for (uint32_t L = 0; L < 32; ++L) {
      hetgpu_thread_state *T = LANE(L);
      A[0][L] = T->arg[0];
      A[1][L] = T->arg[1];
    }
  } else {
    for (uint32_t M = Group; M; M &= M - 1) {
      uint32_t L = (uint32_t)__builtin_ctz(M);
      hetgpu_thread_state *T = LANE(L);
      A[0][L] = T->arg[0];
      A[1][L] = T->arg[1];
      A[2][L] = T->arg[2];
      A[3][L] = T->arg[3];
    }
  }
  hetgpu_sched_warp_op_soa(Kind, Group, A[0], A[1], A[2], A[3], Res);
  if (Group == 0xffffffffu)
    for (uint32_t L = 0; L < 32; ++L)
      LANE(L)->result = Res[L];
  else
    for (uint32_t M = Group; M; M &= M - 1) {
      uint32_t L = (uint32_t)__builtin_ctz(M);
      LANE(L)->result = Res[L];
    }
#undef LANE
}

/* hetgpu_sched_run_warp from lane masks the caller already knows (bit i:
 * lane i): \p Run the runnable lanes, \p Gone the exited ones and those
 * past the end of a partial warp, \p Waiting those waiting at warp
 * operations; lanes in none of them wait at a block barrier. The lanes'
 * statuses must agree with the masks only for lanes not in \p Run (those
 * in Run get theirs when they stop). The block executor enters every warp
 * this way (all lanes runnable at the start of a block, those that waited
 * after a barrier round), which saves the status scans. Returns the lanes
 * that wait at a block barrier when the warp is done.
 *
 * \p BarId null: the caller reads statuses (hetgpu_sched_run_warp), which
 * are all written. Otherwise the caller keeps the masks itself (the block
 * executor for blocks of up to 1024 threads) and reads no status, so the
 * statuses of lanes that exit or stop at a barrier are not written (a warp
 * whose lanes all exit costs no pass over its lanes), and when the lanes
 * that wait at a barrier all stopped there in one lane-loop call, only the
 * first of them gets its resume point and *BarId is that sync id (the
 * lanes' own resume fields are stale); otherwise *BarId is 0 and each of
 * them has its resume point. */
HETGPU_SCHED_INLINE uint32_t hetgpu_sched_run_warp_masks(
    void **Args, hetgpu_block_ctx *Ctx, hetgpu_thread_fn Fn,
    hetgpu_lanes_fn LanesFn, HETGPU_SCHED_LANES Lanes, uint32_t Run,
    uint32_t Gone, uint32_t Waiting, uint32_t *BarId) {
#define LANE(L) HETGPU_SCHED_LANE(Lanes, L)
  uint32_t AtBarrier = 0;
  /* The lanes that stopped at barrier FastId in one call, their resume
   * fields not written but the first's. */
  uint32_t FastLanes = 0, FastId = 0;
  for (;;) {
    /* Whether the lanes now waiting may be at different operations. */
    int Mixed = Waiting != 0;
    uint32_t FirstId = 0;
    uint32_t Ids[32];
    if (LanesFn && Run) {
      for (uint32_t L = 0; L < 32; ++L)
        Ids[L] = 0;
      uint32_t Same =
          LanesFn(Args, Ctx, LANE(0), Run, LANE(__builtin_ctz(Run))->resume,
                  Ids, /*Fuse=*/Waiting == 0);
      /* The lanes that exited (at the end of a kernel all of them), in one
       * vector pass: only the others need the loop below. When the lanes
       * say they all stored one id, neither pass reads Ids back (the vector
       * loads would wait for the lanes' 4-byte stores: no forwarding). */
      uint32_t Exited = 0, Other = 0;
      if (Same != HETGPU_LANES_IDS_MIXED)
        Exited = Same == 0 ? Run : 0;
      else
        for (uint32_t L = 0; L < 32; ++L)
          Exited |= (uint32_t)(Ids[L] == 0) << L;
      Exited &= Run;
      if (!BarId)
        for (uint32_t M = Exited; M; M &= M - 1)
          LANE(__builtin_ctz(M))->status = HETGPU_ST_EXIT;
      Gone |= Exited;
      Run &= ~Exited;
      /* The others all stopped at one block barrier (the same id is the
       * same sync point, so the same kind): no warp operation to group. */
      uint32_t Id0 = Same;
      if (Same == HETGPU_LANES_IDS_MIXED) {
        Id0 = Run ? Ids[__builtin_ctz(Run)] : 0;
        for (uint32_t L = 0; L < 32; ++L)
          Other |= (uint32_t)(Ids[L] != Id0) << L;
      }
      if (Run && !(Other & Run) &&
          hetgpu_sched_is_barrier(LANE(__builtin_ctz(Run))->kind)) {
        if (BarId && !AtBarrier) {
          LANE(__builtin_ctz(Run))->resume = Id0;
          FastLanes = Run;
          FastId = Id0;
        } else {
          for (uint32_t M = Run; M; M &= M - 1) {
            hetgpu_thread_state *T = LANE(__builtin_ctz(M));
            T->resume = Id0;
            if (!BarId)
              T->status = HETGPU_ST_BAR;
          }
        }
        AtBarrier |= Run;
        Run = 0;
      }
    }
    for (uint32_t M = Run; M; M &= M - 1) {
      uint32_t L = (uint32_t)__builtin_ctz(M);
      hetgpu_thread_state *T = LANE(L);
      uint32_t Id = LanesFn ? Ids[L] : Fn(Args, Ctx, T);
      if (Id == 0) {
        T->status = HETGPU_ST_EXIT;
        Gone |= 1u << L;
      } else {
        T->resume = Id;
        if (hetgpu_sched_is_barrier(T->kind)) {
          T->status = HETGPU_ST_BAR;
          AtBarrier |= 1u << L;
        } else {
          T->status = HETGPU_ST_WARP;
          Waiting |= 1u << L;
          if (!FirstId)
            FirstId = Id;
          else if (Id != FirstId)
            Mixed = 1;
        }
      }
    }
    if (!Waiting) {
      if (BarId) {
        *BarId = AtBarrier && AtBarrier == FastLanes ? FastId : 0;
        if (!*BarId)
          for (uint32_t M = FastLanes; M; M &= M - 1)
            LANE(__builtin_ctz(M))->resume = FastId;
      }
      return AtBarrier;
    }
    if (!Mixed) {
      /* The common case: every waiting lane is at the same operation. */
      hetgpu_sched_warp_op(Lanes, Waiting);
      Run = Waiting;
      Waiting = 0;
      continue;
    }
    /* Pick the group to run. */
    uint32_t BestGroup = 0, BestClass = 3, BestId = 0;
    uint32_t Left = Waiting;
    while (Left) {
      uint32_t First = (uint32_t)__builtin_ctz(Left);
      uint32_t Id = LANE(First)->resume;
      uint32_t Group = 0, Need = 0;
      for (uint32_t M = Left; M; M &= M - 1) {
        uint32_t L = (uint32_t)__builtin_ctz(M);
        if (LANE(L)->resume == Id) {
          Group |= 1u << L;
          Need |= (uint32_t)LANE(L)->arg[0];
        }
      }
      Left &= ~Group;
      uint32_t Class;
      if (!hetgpu_sched_has_mask(LANE(First)->kind))
        Class = 1;
      else
        Class = (Need & ~Group & ~Gone) ? 2 : 0;
      if (Class < BestClass || (Class == BestClass && Id < BestId)) {
        BestClass = Class;
        BestId = Id;
        BestGroup = Group;
      }
    }
    hetgpu_sched_warp_op(Lanes, BestGroup);
    Waiting &= ~BestGroup;
    Run = BestGroup;
  }
#undef LANE
}

/* Runs one warp until every lane waits at a block barrier or has exited
 * (their status says which); returns whether any lane waits at a barrier.
 * Lanes is the warp's lanes 0..NumLanes-1, whose statuses give the lanes
 * to run. Runnable lanes always stand at one sync point (the kernel entry,
 * the barrier that completed, or the warp operation just performed): with
 * \p LanesFn (the host's lane-loop function, which needs the lanes'
 * states consecutive from lane 0) they run through one call of it,
 * otherwise through one call of \p Fn each. */
HETGPU_SCHED_INLINE int
hetgpu_sched_run_warp(void **Args, hetgpu_block_ctx *Ctx, hetgpu_thread_fn Fn,
                      hetgpu_lanes_fn LanesFn, HETGPU_SCHED_LANES Lanes,
                      uint32_t NumLanes) {
  uint32_t Gone = NumLanes == 32 ? 0 : ~((1u << NumLanes) - 1);
  uint32_t Run = 0, Waiting = 0;
  for (uint32_t L = 0; L < NumLanes; ++L) {
    uint32_t St = HETGPU_SCHED_LANE(Lanes, L)->status;
    Run |= (uint32_t)(St == HETGPU_ST_RUN) << L;
    Gone |= (uint32_t)(St == HETGPU_ST_EXIT) << L;
    Waiting |= (uint32_t)(St == HETGPU_ST_WARP) << L;
  }
  return hetgpu_sched_run_warp_masks(Args, Ctx, Fn, LanesFn, Lanes, Run, Gone,
                                     Waiting, /*BarId=*/0) != 0;
}

#endif /* HETGPU_WARP_SCHED_H */
