//===- Planning.cpp - Safe points to instrument and their layouts ---------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Planning for `hetgpu-instrument-state`: the loop safe points of a kernel
/// (`__hetgpu_safepoint` calls) and its block barriers outside loop nests
/// that have a block-uniform loop safe point (tested in watched launches
/// only, BarrierPoint.cpp), or with `<grid-sync>` its grid barriers
/// (`__hetgpu_grid_sync`; the loop safe points are erased, the block
/// barriers stay plain), each matched with its layout in
/// `!hetgpu.state` and its `"hetgpu.live"` bundle, slot for slot; for a
/// chunked loop, the chunk header where the yield flag is read (the early
/// flag read, see SafePoint.cpp); and the check that every private
/// allocation live across a safe point has a fixed place in the entry
/// block.
///
//===----------------------------------------------------------------------===//

#include "Instrumenter.h"

#include "hetgpu/Support/Diagnostics.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"

using namespace llvm;
using namespace hetgpu::container;

namespace hetgpu {
namespace instrument {

/// The block barriers of CUDA (`__syncthreads` and its count/and/or forms).
static bool isBlockBarrier(BuiltinID ID) {
  return ID == BuiltinID::barrier || ID == BuiltinID::barrier_count ||
         ID == BuiltinID::barrier_and || ID == BuiltinID::barrier_or;
}

/// Whether the barrier \p CB becomes a safe point: not when its outermost
/// loop has a block-uniform loop safe point (\p Covered: the nest is
/// suspended there every 32 iterations, a test at the barrier too would
/// double the bar.red.or per iteration of a watched launch), nor when a
/// private allocation live across it has no fixed place in the entry block
/// (left as a plain barrier rather than refusing the kernel).
static bool testsBarrier(CallBase &CB, const LoopInfo &LI,
                         const SmallPtrSetImpl<const Loop *> &Covered) {
  if (const Loop *L = LI.getLoopFor(CB.getParent()))
    if (Covered.count(L->getOutermostLoop()))
      return false;
  BasicBlock &Entry = CB.getFunction()->getEntryBlock();
  if (auto Bundle = CB.getOperandBundle(LiveBundle))
    for (const Use &U : Bundle->Inputs)
      if (auto *AI = dyn_cast<AllocaInst>(U.get()))
        if (AI->getParent() != &Entry ||
            !(AI->isStaticAlloca() || isa<Constant>(AI->getArraySize())))
          return false;
  return true;
}

bool KernelInstrumenter::collectPlans() {
  DenseMap<unsigned, const SafePointInfo *> ById;
  for (const SafePointInfo &SP : KI.SafePoints) {
    ById[SP.Id] = &SP;
    RecordSize = std::max<uint64_t>(RecordSize, SP.RecordSize);
  }
  // The loop safe points are tested, and the block barriers outside loop
  // nests that have a block-uniform one; or (GridSync) only the grid
  // barriers: the loop safe points are erased and never suspend, the block
  // barriers stay plain.
  BuiltinID Planned = GridSync ? BuiltinID::grid_sync : BuiltinID::safepoint;
  DominatorTree DT(*K);
  LoopInfo LI(DT);
  SmallPtrSet<const Loop *, 4> Covered;
  for (Instruction &I : instructions(*K))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (auto BI = getCalledBuiltin(*CB); BI && BI->ID == BuiltinID::safepoint)
        if (const Loop *L = LI.getLoopFor(CB->getParent()))
          if (const SafePointInfo *SP =
                  ById.lookup(unsigned(std::max(getSafePointId(*CB), 0)));
              SP && SP->Kind == SafePointKind::LoopLatch)
            Covered.insert(L->getOutermostLoop());
  SmallVector<CallBase *, 8> LoopSafePoints;
  for (Instruction &I : instructions(*K)) {
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB)
      continue;
    auto BI = getCalledBuiltin(*CB);
    if (BI && GridSync && BI->ID == BuiltinID::safepoint)
      LoopSafePoints.push_back(CB);
    bool IsBarrier = !GridSync && BI && isBlockBarrier(BI->ID);
    if (!BI || (BI->ID != Planned && !IsBarrier))
      continue;
    if (IsBarrier && !testsBarrier(*CB, LI, Covered))
      continue;
    int Id = getSafePointId(*CB);
    const SafePointInfo *SP = Id > 0 ? ById.lookup(unsigned(Id)) : nullptr;
    // A block barrier without a layout stays a plain barrier: the ones
    // made after hetgpu-state-layout ran (the spin grid barrier of
    // hetgpu-lower-grid-sync in cooperative kernels, which are never
    // migrated) have none.
    if (!SP && IsBarrier)
      continue;
    if (!SP) {
      reportFailure(*K,
                    "cannot instrument kernel '" + K->getName() +
                        "' for migration: safe point without a layout (run "
                        "hetgpu-state-layout first)",
                    CB);
      return false;
    }
    SafePointPlan P;
    P.Call = CB;
    P.Info = SP;
    P.PerThread = SP->Kind == SafePointKind::ThreadLoop;
    P.Barrier = IsBarrier;
    if (auto Bundle = CB->getOperandBundle(LiveBundle))
      for (const Use &U : Bundle->Inputs)
        P.Values.push_back(U.get());
    if (P.Values.size() != SP->Slots.size()) {
      reportFailure(*K,
                    "cannot instrument kernel '" + K->getName() +
                        "': safe point " + Twine(SP->Id) + " lists " +
                        Twine(SP->Slots.size()) + " slots but its call " +
                        "carries " + Twine(P.Values.size()) + " live values",
                    CB);
      return false;
    }
    Plans.push_back(std::move(P));
  }
  for (CallBase *CB : LoopSafePoints)
    CB->eraseFromParent();
  return true;
}

/// A safe point whose block goes back to a header that dominates it (the
/// chunk header of InsertLoopSafePoints' chunkLoop) reads the yield flag
/// when the chunk starts (EarlyFlagRead).
void KernelInstrumenter::findChunkHeaders() {
  DominatorTree DT(*NF);
  for (SafePointPlan &P : Plans) {
    // A barrier's flag read is behind its watched test (BarrierPoint.cpp).
    if (P.Barrier)
      continue;
    BasicBlock *Pre = P.Call->getParent();
    BasicBlock *H = Pre->getSingleSuccessor();
    if (H && H != Pre && DT.dominates(H, Pre))
      P.ChunkHeader = H;
  }
}

/// After buildEntry moved the static allocations to the entry block: a
/// private allocation live across a safe point elsewhere has no fixed size
/// to save.
bool KernelInstrumenter::checkLiveAllocas() {
  for (SafePointPlan &P : Plans)
    for (Value *V : P.Values)
      if (auto *AI = dyn_cast<AllocaInst>(V))
        if (AI->getParent() != &NF->getEntryBlock()) {
          reportFailure(*NF,
                        "cannot instrument kernel '" + NF->getName() +
                            "': a variable-sized private allocation is live "
                            "across a safe point",
                        AI);
          return false;
        }
  return true;
}

} // namespace instrument
} // namespace hetgpu
