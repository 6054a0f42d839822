/*===- SIMTToMIMDABI.h - Thread functions and the block executor ---------===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * The contract between the code that the SIMT->MIMD lowering
 * (lib/Transforms/SIMTToMIMD.cpp, pass `hetgpu-simt-to-mimd`) generates and
 * the target-neutral block executor (runtime/device/common/hetgpu_exec.c),
 * which the host and RISC-V many-core targets link into every module.
 *
 * A kernel with synchronisation points (block barriers or warp operations)
 * becomes a resumable *thread function*
 *
 *     uint32_t K.thread(void **args, hetgpu_block_ctx *ctx,
 *                       hetgpu_thread_state *ts);
 *
 * that runs one thread from the sync point ts->resume (0 = kernel entry) to
 * the next one. Before returning the id of that sync point (1, 2, ...), it
 * stores the values live across it into the thread's frame, the operation
 * (ts->kind) and its operands (ts->arg). The executor runs every thread of
 * the block to a sync point, performs the operation for the group of
 * threads that stopped there (block barrier: the whole block; warp
 * operation: the lanes of one warp at the same operation, which form the
 * active mask), writes ts->result and resumes them. A return value of 0
 * means the thread exited.
 *
 * This header is plain C; the C++ pass reads the offsets with offsetof.
 *
\*===----------------------------------------------------------------------===*/

#ifndef HETGPU_TRANSFORMS_SIMTTOMIMDABI_H
#define HETGPU_TRANSFORMS_SIMTTOMIMDABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a thread stopped at (hetgpu_thread_state::kind). */
enum hetgpu_sync_kind {
  HETGPU_SYNC_EXIT = 0,
  HETGPU_SYNC_BARRIER = 1,       /* arg: - */
  HETGPU_SYNC_BARRIER_COUNT = 2, /* arg[1]: predicate */
  HETGPU_SYNC_BARRIER_AND = 3,   /* arg[1]: predicate */
  HETGPU_SYNC_BARRIER_OR = 4,    /* arg[1]: predicate */
  HETGPU_SYNC_SYNCWARP = 5,      /* arg[0]: mask */
  HETGPU_SYNC_SHFL_IDX = 6,      /* arg: mask, value, lane, width */
  HETGPU_SYNC_SHFL_UP = 7,       /* arg: mask, value, delta, width */
  HETGPU_SYNC_SHFL_DOWN = 8,     /* arg: mask, value, delta, width */
  HETGPU_SYNC_SHFL_XOR = 9,      /* arg: mask, value, lane mask, width */
  HETGPU_SYNC_VOTE_ANY = 10,     /* arg: mask, predicate */
  HETGPU_SYNC_VOTE_ALL = 11,     /* arg: mask, predicate */
  HETGPU_SYNC_VOTE_BALLOT = 12,  /* arg: mask, predicate */
  HETGPU_SYNC_ACTIVEMASK = 13,   /* arg: - */
  HETGPU_SYNC_MATCH_ANY = 14,    /* arg: mask, value */
  HETGPU_SYNC_NUM_KINDS
};

/* One thread of a block, as the executor keeps it. */
typedef struct hetgpu_thread_state {
  uint32_t resume; /* sync point to resume at; 0 = kernel entry */
  uint32_t kind;   /* hetgpu_sync_kind of the sync point it stopped at */
  int32_t arg[4];  /* operands of that operation */
  int32_t result;  /* its result, written by the executor */
  uint32_t tid[3]; /* threadIdx */
  uint32_t linear; /* x + y * ntid.x + z * ntid.x * ntid.y */
  uint32_t status; /* executor-private */
  char *frame;     /* this thread's frame: spill slots and allocations
                      live across sync points (16-byte aligned) */
} hetgpu_thread_state;

struct hetgpu_block_ctx;
typedef uint32_t (*hetgpu_thread_fn)(void **args, struct hetgpu_block_ctx *ctx,
                                     hetgpu_thread_state *ts);

/* Runs every thread of block ctx->block_idx through \p fn. \p frame_size is
 * the bytes of frame each thread needs (a multiple of 16); \p kernel names
 * the kernel in error messages (divergent barriers). */
void __hetgpu_exec_block(void **args, struct hetgpu_block_ctx *ctx,
                         hetgpu_thread_fn fn, uint32_t frame_size,
                         const char *kernel);

#ifdef __cplusplus
}
#endif

#endif /* HETGPU_TRANSFORMS_SIMTTOMIMDABI_H */
