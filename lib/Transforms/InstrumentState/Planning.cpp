//===- Planning.cpp - Safe points to instrument and their layouts ---------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Planning for `hetgpu-instrument-state`: the loop safe points of a kernel
/// (`__hetgpu_safepoint` calls; barriers keep their layout but are not
/// tested), or with `<grid-sync>` its grid barriers (`__hetgpu_grid_sync`;
/// the loop safe points are erased), each matched with its layout in
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
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"

using namespace llvm;
using namespace hetgpu::container;

namespace hetgpu {
namespace instrument {

bool KernelInstrumenter::collectPlans() {
  DenseMap<unsigned, const SafePointInfo *> ById;
  for (const SafePointInfo &SP : KI.SafePoints) {
    ById[SP.Id] = &SP;
    RecordSize = std::max<uint64_t>(RecordSize, SP.RecordSize);
  }
  // Barriers keep their layout (hetgpu-objdump shows it) but are not
  // tested: only the loop safe points are, or (GridSync) only the grid
  // barriers, whose loop safe points are erased: they never suspend.
  BuiltinID Planned = GridSync ? BuiltinID::grid_sync : BuiltinID::safepoint;
  SmallVector<CallBase *, 8> LoopSafePoints;
  for (Instruction &I : instructions(*K)) {
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB)
      continue;
    auto BI = getCalledBuiltin(*CB);
    if (BI && GridSync && BI->ID == BuiltinID::safepoint)
      LoopSafePoints.push_back(CB);
    if (!BI || BI->ID != Planned)
      continue;
    int Id = getSafePointId(*CB);
    const SafePointInfo *SP = Id > 0 ? ById.lookup(unsigned(Id)) : nullptr;
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
