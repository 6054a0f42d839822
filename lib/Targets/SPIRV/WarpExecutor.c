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
 * function, scheduled as the host's block executor schedules a warp
 * (runtime/device/common/hetgpu_exec.c), so warp operations are exact under
 * divergence. Block barriers are work-group barriers that
 * every work-item executes, once per round, until every thread has exited.
 *
 * Compiled to bitcode at build time (freestanding C, hetIR builtins as
 * external functions) and linked into the hetIR module by the SPIR-V
 * lowering, which then lowers it like any other device code; it is inlined
 * into each warp-loop kernel, so the thread function is called directly.
 *
\*===----------------------------------------------------------------------===*/

#include "hetgpu/Transforms/SIMTToMIMDABI.h"
#include "hetgpu/host_abi.h"

#include <stddef.h>

/* Lane status (hetgpu_thread_state::status). */
enum { ST_RUN = 0, ST_WARP = 1, ST_BAR = 2, ST_EXIT = 3 };

static int isBlockBarrier(uint32_t Kind) {
  return Kind >= HETGPU_SYNC_BARRIER && Kind <= HETGPU_SYNC_BARRIER_OR;
}

/* Performs the warp operation at which the lanes of Group stopped (all at
 * the same sync point; Group is the active mask) and makes them runnable.
 * CUDA semantics as the host executor (runtime/device/common/hetgpu_exec.c):
 * a shuffle source outside the segment of width W, or an inactive lane,
 * gives the lane's own value. */
static void warpOp(hetgpu_thread_state **Lanes, uint32_t Group) {
  uint32_t Kind = Lanes[__builtin_ctz(Group)]->kind;
  int32_t Val[32];
  uint32_t Preds = 0;
  for (uint32_t M = Group; M; M &= M - 1) {
    uint32_t L = (uint32_t)__builtin_ctz(M);
    Val[L] = Lanes[L]->arg[1];
    Preds |= (Val[L] != 0) << L;
  }
  for (uint32_t M = Group; M; M &= M - 1) {
    uint32_t L = (uint32_t)__builtin_ctz(M);
    hetgpu_thread_state *T = Lanes[L];
    uint32_t Active = Group & (uint32_t)T->arg[0];
    switch (Kind) {
    case HETGPU_SYNC_SHFL_IDX:
    case HETGPU_SYNC_SHFL_UP:
    case HETGPU_SYNC_SHFL_DOWN:
    case HETGPU_SYNC_SHFL_XOR: {
      uint32_t W = (uint32_t)T->arg[3];
      if (W == 0 || W > 32 || (W & (W - 1)))
        W = 32;
      int32_t First = (int32_t)(L & ~(W - 1)), Last = First + (int32_t)W - 1;
      int32_t B = T->arg[2], J;
      if (Kind == HETGPU_SYNC_SHFL_IDX)
        J = First + (B & (int32_t)(W - 1));
      else if (Kind == HETGPU_SYNC_SHFL_UP)
        J = (int32_t)L - (B & 31);
      else if (Kind == HETGPU_SYNC_SHFL_DOWN)
        J = (int32_t)L + (B & 31);
      else
        J = (int32_t)L ^ (B & 31);
      /* PTX shfl: the source must not pass the segment's lower (up) or
       * upper (the others) bound. */
      int In = Kind == HETGPU_SYNC_SHFL_UP ? J >= First : J <= Last;
      In = In && ((Group >> J) & 1u);
      T->result = In ? Val[J] : Val[L];
      break;
    }
    case HETGPU_SYNC_VOTE_ANY:
      T->result = (Preds & Active) != 0;
      break;
    case HETGPU_SYNC_VOTE_ALL:
      T->result = (Preds & Active) == Active;
      break;
    case HETGPU_SYNC_VOTE_BALLOT:
      T->result = (int32_t)(Preds & Active);
      break;
    case HETGPU_SYNC_ACTIVEMASK:
      T->result = (int32_t)Group;
      break;
    case HETGPU_SYNC_MATCH_ANY: {
      uint32_t Match = 0;
      for (uint32_t A = Active; A; A &= A - 1) {
        uint32_t J = (uint32_t)__builtin_ctz(A);
        Match |= (uint32_t)(Val[J] == Val[L]) << J;
      }
      T->result = (int32_t)Match;
      break;
    }
    default: /* __syncwarp */
      break;
    }
  }
  for (uint32_t M = Group; M; M &= M - 1)
    Lanes[__builtin_ctz(M)]->status = ST_RUN;
}

/* Runs the lanes of one warp until each waits at a block barrier or has
 * exited. Runnable lanes run to their next sync point; of the lanes waiting
 * at warp operations, the group at one sync point goes next whose mask
 * names only lanes in the group or gone (then __activemask groups, then, for
 * a program that would hang on a GPU, any), lowest sync point first; its
 * lanes form the active mask. Same policy as the host executor. */
/* Not inlined into the kernel: the SPIR-V lowering gives each warp-loop
 * kernel its own copy calling its thread function directly, and OpenCL
 * compilers that turn work-groups into loops (PoCL) then see only the round
 * loop and its barriers in the kernel (PoCL's work-group compiler overflowed
 * its stack on kernels with the whole scheduler and thread function in). */
__attribute__((noinline)) void
__hetgpu_spirv_run_warp(void **Args, hetgpu_block_ctx *Ctx, hetgpu_thread_fn Fn,
                        hetgpu_thread_state **Lanes, uint32_t NumLanes) {
  uint32_t Gone = NumLanes == 32 ? 0 : ~((1u << NumLanes) - 1);
  uint32_t Run = 0, Waiting = 0;
  for (uint32_t L = 0; L < NumLanes; ++L) {
    uint32_t St = Lanes[L]->status;
    Run |= (uint32_t)(St == ST_RUN) << L;
    Gone |= (uint32_t)(St == ST_EXIT) << L;
    Waiting |= (uint32_t)(St == ST_WARP) << L;
  }
  for (;;) {
    for (uint32_t M = Run; M; M &= M - 1) {
      uint32_t L = (uint32_t)__builtin_ctz(M);
      hetgpu_thread_state *T = Lanes[L];
      uint32_t Id = Fn(Args, Ctx, T);
      if (Id == 0) {
        T->status = ST_EXIT;
        Gone |= 1u << L;
      } else {
        T->resume = Id;
        if (isBlockBarrier(T->kind)) {
          T->status = ST_BAR;
        } else {
          T->status = ST_WARP;
          Waiting |= 1u << L;
        }
      }
    }
    if (!Waiting)
      return;
    uint32_t Best = 0, BestClass = 3, BestId = 0;
    for (uint32_t Left = Waiting; Left;) {
      uint32_t Id = Lanes[__builtin_ctz(Left)]->resume, Group = 0, Need = 0;
      uint32_t Kind = Lanes[__builtin_ctz(Left)]->kind;
      for (uint32_t M = Left; M; M &= M - 1) {
        uint32_t L = (uint32_t)__builtin_ctz(M);
        if (Lanes[L]->resume == Id) {
          Group |= 1u << L;
          Need |= (uint32_t)Lanes[L]->arg[0];
        }
      }
      Left &= ~Group;
      uint32_t Class = Kind == HETGPU_SYNC_ACTIVEMASK ? 1
                       : (Need & ~Group & ~Gone) ? 2
                                                 : 0;
      if (Class < BestClass || (Class == BestClass && Id < BestId)) {
        BestClass = Class;
        BestId = Id;
        Best = Group;
      }
    }
    warpOp(Lanes, Best);
    Waiting &= ~Best;
    Run = Best;
  }
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
    __hetgpu_spirv_run_warp(Args, Ctx, Fn, Lanes, NumLanes);
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
