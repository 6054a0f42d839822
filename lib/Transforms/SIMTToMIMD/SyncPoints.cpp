//===- SyncPoints.cpp - Sync points of the SIMT -> MIMD lowering ----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Sync-point discovery for `hetgpu-simt-to-mimd`: which builtins stop a
/// thread until the other threads of its block or warp arrive (barriers,
/// warp shuffles, votes, matches, activemask) and which block-executor
/// operation each becomes (ABI/BlockExecutor.h); and the warp regrouping
/// points added before volatile accesses that may touch shared memory, for
/// warp-synchronous code written before CUDA 9.
///
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "hetgpu/ABI/BlockExecutor.h"
#include "hetgpu/Transforms/SIMTToMIMD.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"

using namespace llvm;
using namespace hetgpu::container;

namespace hetgpu {
namespace simt {

/// The executor's operation for a sync builtin, or EXIT when \p ID is none.
uint32_t syncKind(BuiltinID ID) {
  switch (ID) {
  case BuiltinID::barrier:
    return HETGPU_SYNC_BARRIER;
  case BuiltinID::barrier_count:
    return HETGPU_SYNC_BARRIER_COUNT;
  case BuiltinID::barrier_and:
    return HETGPU_SYNC_BARRIER_AND;
  case BuiltinID::barrier_or:
    return HETGPU_SYNC_BARRIER_OR;
  case BuiltinID::syncwarp:
    return HETGPU_SYNC_SYNCWARP;
  case BuiltinID::shfl_idx_i32:
    return HETGPU_SYNC_SHFL_IDX;
  case BuiltinID::shfl_up_i32:
    return HETGPU_SYNC_SHFL_UP;
  case BuiltinID::shfl_down_i32:
    return HETGPU_SYNC_SHFL_DOWN;
  case BuiltinID::shfl_xor_i32:
    return HETGPU_SYNC_SHFL_XOR;
  case BuiltinID::vote_any:
    return HETGPU_SYNC_VOTE_ANY;
  case BuiltinID::vote_all:
    return HETGPU_SYNC_VOTE_ALL;
  case BuiltinID::vote_ballot:
    return HETGPU_SYNC_VOTE_BALLOT;
  case BuiltinID::activemask:
    return HETGPU_SYNC_ACTIVEMASK;
  case BuiltinID::match_any_i32:
    return HETGPU_SYNC_MATCH_ANY;
  default:
    return HETGPU_SYNC_EXIT;
  }
}

uint32_t syncKindOf(const Instruction &I) {
  if (auto *CB = dyn_cast<CallBase>(&I))
    if (auto BI = getCalledBuiltin(*CB))
      return syncKind(BI->ID);
  return HETGPU_SYNC_EXIT;
}

/// Warp-synchronous code written before CUDA 9 (warp scans and the last
/// steps of tree reductions through `volatile` shared memory, without
/// __syncwarp) relies on the lanes of a warp executing each access in
/// lockstep. A thread loop runs one lane to its next sync point at a time,
/// so every volatile access that may touch shared memory becomes a warp
/// regrouping point: an __activemask() in front of it (a sync point that
/// needs no other lane, so it cannot wait for lanes that never come). The
/// lanes that reach it execute it together, in lane order, as SIMT
/// hardware does. Returns the number of points added.
unsigned addVolatileWarpSyncPoints(Function &K) {
  SmallVector<Instruction *, 16> Points;
  for (Instruction &I : instructions(K)) {
    const Value *Ptr = nullptr;
    if (auto *LI = dyn_cast<LoadInst>(&I); LI && LI->isVolatile())
      Ptr = LI->getPointerOperand();
    else if (auto *SI = dyn_cast<StoreInst>(&I); SI && SI->isVolatile())
      Ptr = SI->getPointerOperand();
    if (Ptr && mayBeShared(Ptr))
      Points.push_back(&I);
  }
  if (Points.empty())
    return 0;
  Function *AM = getOrDeclareBuiltin(*K.getParent(), BuiltinID::activemask);
  for (Instruction *I : Points)
    CallInst::Create(AM, {}, "", I->getIterator());
  return Points.size();
}

} // namespace simt

/// Whether a volatile access through \p Ptr may touch shared memory: a
/// shared pointer, or a generic one whose object is not provably a global
/// of another space or a private allocation.
bool mayBeShared(const llvm::Value *Ptr) {
  if (Ptr->getType()->getPointerAddressSpace() == AS_Shared)
    return true;
  if (Ptr->getType()->getPointerAddressSpace() != 0)
    return false;
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(Ptr, Objs);
  for (const Value *O : Objs) {
    O = O->stripPointerCasts();
    if (auto *GV = dyn_cast<GlobalVariable>(O)) {
      if (GV->getAddressSpace() == AS_Shared)
        return true;
      continue;
    }
    if (isa<AllocaInst>(O))
      continue;
    return true;
  }
  return false;
}

} // namespace hetgpu
