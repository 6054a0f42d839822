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
/// warp-synchronous code written before CUDA 9, and before the accesses of
/// warp-synchronous exchanges through non-volatile shared memory.
///
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "hetgpu/ABI/BlockExecutor.h"
#include "hetgpu/Transforms/SIMTToMIMD.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
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

/// An __activemask() in front of each of \p Points: a warp regrouping
/// point, a sync point that needs no other lane, so it cannot wait for
/// lanes that never come. Returns the number of points.
static unsigned addRegroupPoints(Function &K, ArrayRef<Instruction *> Points) {
  if (Points.empty())
    return 0;
  Function *AM = getOrDeclareBuiltin(*K.getParent(), BuiltinID::activemask);
  for (Instruction *I : Points)
    CallInst::Create(AM, {}, "", I->getIterator());
  return Points.size();
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
  return addRegroupPoints(K, Points);
}

/// Warp-synchronous exchanges through shared memory without `volatile`
/// (lanes of a warp write a tile and read each other's values back with no
/// barrier between, legal only by NVIDIA's lock-step): the accesses
/// findUnorderedSharedExchanges returns become warp regrouping points, as
/// volatile ones are. Returns the number of points added.
unsigned addSharedExchangeSyncPoints(Function &K) {
  SmallVector<Instruction *, 16> Points;
  findUnorderedSharedExchanges(K, Points);
  return addRegroupPoints(K, Points);
}

} // namespace simt

namespace {

/// Whether \p Ptr provably points into shared memory: a shared pointer, or
/// a generic one whose every underlying object is a shared variable or the
/// dynamic shared memory. (Generic pointers that merely may be shared, like
/// kernel parameters, are global in practice: treating them as exchanges
/// would regroup every kernel that stores and then loads.)
bool isProvablyShared(const Value *Ptr) {
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  if (AS == AS_Shared)
    return true;
  if (AS != 0)
    return false;
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(Ptr, Objs);
  if (Objs.empty())
    return false;
  for (const Value *O : Objs) {
    O = O->stripPointerCasts();
    if (O->getType()->getPointerAddressSpace() == AS_Shared)
      continue;
    if (auto *GV = dyn_cast<GlobalVariable>(O);
        GV && GV->getAddressSpace() == AS_Shared)
      continue;
    return false;
  }
  return true;
}

const Value *sharedAccessPointer(const Instruction &I, bool &IsStore) {
  const Value *Ptr = nullptr;
  IsStore = false;
  if (auto *LI = dyn_cast<LoadInst>(&I); LI && !LI->isVolatile())
    Ptr = LI->getPointerOperand();
  else if (auto *SI = dyn_cast<StoreInst>(&I); SI && !SI->isVolatile()) {
    Ptr = SI->getPointerOperand();
    IsStore = true;
  }
  return Ptr && isProvablyShared(Ptr) ? Ptr : nullptr;
}

/// Whether \p V differs between the lanes of a warp: computed from
/// threadIdx.x or the lane by operations that keep distinct inputs distinct
/// (add, sub, xor, or, multiplication and left shift by a constant,
/// extensions, GEP indices). Then one pointer value is each lane's own
/// element. Anything else (`s[0]`, `s[threadIdx.x / 32]`, loads, phis) may
/// be one element for several lanes: a store and a load through it are an
/// exchange (a broadcast).
bool variesAcrossLanes(const Value *V, unsigned Depth = 0) {
  if (Depth > 16)
    return false;
  if (auto *CB = dyn_cast<CallBase>(V)) {
    auto BI = getCalledBuiltin(*CB);
    return BI && (BI->ID == BuiltinID::tid_x || BI->ID == BuiltinID::lane_id);
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return false;
  auto Varies = [&](unsigned Op) {
    return variesAcrossLanes(I->getOperand(Op), Depth + 1);
  };
  auto NonZeroConst = [&](unsigned Op) {
    auto *C = dyn_cast<ConstantInt>(I->getOperand(Op));
    return C && !C->isZero();
  };
  switch (I->getOpcode()) {
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Xor:
  case Instruction::Or:
    return Varies(0) || Varies(1);
  case Instruction::Mul:
    return (Varies(0) && NonZeroConst(1)) || (Varies(1) && NonZeroConst(0));
  case Instruction::Shl:
    return Varies(0) && isa<ConstantInt>(I->getOperand(1));
  case Instruction::ZExt:
  case Instruction::SExt:
  case Instruction::AddrSpaceCast:
    return Varies(0);
  case Instruction::GetElementPtr:
    for (unsigned Op = 1; Op < I->getNumOperands(); ++Op)
      if (Varies(Op))
        return true;
    return false;
  default:
    return false;
  }
}

/// Whether \p I orders the lanes of a warp: a barrier, __syncwarp or any
/// other warp operation (every lane of the warp arrives before any goes
/// on).
bool ordersWarp(const Instruction &I) {
  return simt::syncKindOf(I) != HETGPU_SYNC_EXIT;
}

} // namespace

void findUnorderedSharedExchanges(Function &F,
                                  SmallVectorImpl<Instruction *> &Out) {
  // Each shared access A is followed forward, over every path that does
  // not pass a warp-ordering instruction, to the shared accesses of the
  // other kind; one through another pointer value may be another lane's
  // element, and so may one through the same pointer unless that pointer
  // is each lane's own element (variesAcrossLanes).
  // The shared accesses, classified once (the walks below visit each
  // instruction once per access).
  struct Access {
    const Value *Ptr;
    bool IsStore;
  };
  DenseMap<const Instruction *, Access> Accesses;
  for (Instruction &I : instructions(F)) {
    bool IsStore;
    if (const Value *Ptr = sharedAccessPointer(I, IsStore))
      Accesses[&I] = {Ptr, IsStore};
  }
  SmallPtrSet<Instruction *, 16> Marked;
  for (auto &[AI, A] : Accesses) {
    Instruction *Start = const_cast<Instruction *>(AI);
    SmallVector<std::pair<BasicBlock *, BasicBlock::iterator>, 8> Work;
    SmallPtrSet<BasicBlock *, 16> Entered;
    Work.push_back({Start->getParent(), std::next(Start->getIterator())});
    while (!Work.empty()) {
      auto [BB, It] = Work.pop_back_val();
      bool Stopped = false;
      for (; It != BB->end(); ++It) {
        Instruction &B = *It;
        if (&B == Start && It != std::next(Start->getIterator())) {
          Stopped = true; // back at the start: the rest was walked
          break;
        }
        if (ordersWarp(B)) {
          Stopped = true;
          break;
        }
        auto Found = Accesses.find(&B);
        if (Found != Accesses.end() && Found->second.IsStore != A.IsStore &&
            (Found->second.Ptr != A.Ptr || !variesAcrossLanes(A.Ptr)))
          Marked.insert(&B);
      }
      if (Stopped)
        continue;
      for (BasicBlock *Succ : successors(BB))
        if (Entered.insert(Succ).second)
          Work.push_back({Succ, Succ->begin()});
    }
  }
  for (Instruction &I : instructions(F))
    if (Marked.count(&I))
      Out.push_back(&I);
}

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
