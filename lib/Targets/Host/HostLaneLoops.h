//===- HostLaneLoops.h - Lane-loop functions of the host target -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Private to lib/Targets/Host. The block executor (ABI/BlockExecutor.h)
/// runs a warp by calling a thread function once per lane; a lane-loop
/// function runs all the lanes of a warp between two sync points in one
/// call, with the thread function inlined per resume point so that O3 can
/// hoist and vectorise across lanes (HostLaneLoops.cpp). Kernels with warp
/// operations then keep what the lanes exchange with the executor in
/// per-warp arrays (HostWarpArrays.cpp).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TARGETS_HOST_HOSTLANELOOPS_H
#define HETGPU_TARGETS_HOST_HOSTLANELOOPS_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <map>

namespace llvm {
class AllocaInst;
class BasicBlock;
class CallInst;
class Function;
class Instruction;
class Module;
class PHINode;
class Value;
} // namespace llvm

namespace hetgpu {
namespace host {

/// One loop of a lane-loop function: its resume point, header, lane i's
/// thread state (`ts + i * sizeof(hetgpu_thread_state)`) and i.
struct LaneLoop {
  uint32_t Point;
  llvm::BasicBlock *Pick; ///< where both dispatches enter the loop(s) of Point
  llvm::Instruction *Lane;
  llvm::PHINode *I;
};

/// A warp operation whose kind and operands other than the value are
/// constants where the thread function stops at it (sync id \p Sync), with
/// the full mask (or none): reached by all 32 lanes, it has one result per
/// lane that a few vector instructions compute (HostUniformWarpOps.cpp).
struct UniformWarpOp {
  uint32_t Kind;
  int32_t Src = 0;   ///< shuffles: source lane, delta or lane mask
  int32_t Width = 0; ///< shuffles: width
};

/// The parts of a lane-loop function that convertToWarpArrays rewires.
struct LaneLoopFunction {
  llvm::Function *F;
  llvm::BasicBlock *Entry, *Dispatch;
  llvm::PHINode *At;
  llvm::BasicBlock *Done, *Exit, *GenericLatch;
  llvm::SmallVector<LaneLoop, 16> Loops;
  /// By sync id: the thread function's uniform warp operations.
  std::map<uint32_t, UniformWarpOp> Uniform;
  /// In `stopped`, where the inlined loops end: the OR and the AND of the
  /// sync ids the lanes of the mask returned.
  llvm::PHINode *IdsOr = nullptr, *IdsAnd = nullptr;
};

/// The sync points of the thread function \p T (a SIMT->MIMD thread
/// function) that are uniform warp operations.
std::map<uint32_t, UniformWarpOp> findUniformWarpOps(llvm::Function &T);

/// In the lane-loop function \p L with per-warp arrays \p ArgA (operand k
/// of lane i at 32 * k + i) and \p ResA, before the call \p FuseSoA of
/// __hetgpu_exec_fuse_soa: when all 32 lanes run and stopped at the same
/// uniform warp operation, it is computed right there as vector operations
/// on the arrays and the lanes go on at its resume point; anything else
/// (a partial mask, lanes at different sync points or exited, other
/// operations) takes the call as before.
void inlineUniformWarpOps(llvm::Module &M, LaneLoopFunction &L,
                          llvm::CallInst *FuseSoA, llvm::AllocaInst *ArgA,
                          llvm::AllocaInst *ResA);

/// Whether a value stored to ts->kind is a block barrier's sync kind (not
/// a warp operation's); a kind only known at run time counts as a warp's.
bool isBlockBarrierKind(llvm::Value *V);

/// Block functions that call the executor with a thread function call the
/// lane-loop entry instead, with the thread function's lane-loop function
/// (HostLaneLoops.cpp).
void addLaneLoops(llvm::Module &M);

/// Keeps, for the duration of one call of the lane-loop function \p L, what
/// the lanes exchange with the executor in per-warp arrays (allocations of
/// the function, indexed by the lane) instead of their thread states and
/// frames: the operation (kind, arg[0..3]) of the sync point each lane
/// stopped at, its result, and the values spilled across sync points (the
/// accesses SIMTToMIMD tagged with SpillMD). Entering at resume point p
/// copies the values p reloads (and the result) from the states of the
/// lanes of the mask; returning to the executor copies kind, operands and
/// the values saved at the sync point each lane stopped at back; in between
/// fused warp operations work on the arrays (__hetgpu_exec_fuse_soa). The
/// loops then read and write consecutive memory that nothing else can
/// alias, which the vectoriser can use. Leaves \p L alone when an access
/// to a thread state or a spill slot has another shape, and for kernels
/// whose only sync points are block barriers.
void convertToWarpArrays(llvm::Module &M, LaneLoopFunction &L);

} // namespace host
} // namespace hetgpu

#endif // HETGPU_TARGETS_HOST_HOSTLANELOOPS_H
