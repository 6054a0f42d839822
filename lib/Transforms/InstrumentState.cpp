//===- InstrumentState.cpp - Checkpoint/resume code at safe points --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements `hetgpu-instrument-state` (docs/Migration.md). The pass works
/// on hetIR after `hetgpu-state-layout`, so every target runs the same
/// checkpoint code and a state buffer written on one device is read on any
/// other. Per kernel:
///
/// * three hidden parameters are appended: `ptr %hetgpu.state` (the
///   launch's state buffer, docs/StateMetadata.md), `ptr %hetgpu.ctrl` (a
///   MigrationControl block) and `i32 %hetgpu.round`; the kernel entry of
///   `!hetgpu.kernels` gets `!"instrumented", i1 true` (the parameter list
///   stays the user's);
/// * at entry a fresh launch (round 0, a parameter: no memory access) runs
///   the block-entry test (BlockEntry.cpp: one volatile load of the control
///   word; in a watched launch a block that starts after the yield flag was
///   raised writes {R + 1, BlockStartId} and returns), then the body
///   untouched; a resumed launch of round R continues only the
///   blocks whose header says "suspended in round R - 1" (status R): every
///   thread copies its share of the saved shared memory back, reloads the
///   live values of the saved safe point and enters it through the loop
///   headers of a copy of the loop nest around it; other blocks return;
/// * the loop safe points (`__hetgpu_safepoint`, inserted every 2^k
///   iterations of block-uniform loops by hetgpu-insert-loop-safepoints)
///   become `__hetgpu_barrier_or(yield flag)`; when it returns nonzero every
///   thread stores its live values at their slot offsets, the block stores
///   its shared memory, the header becomes {R + 1, id} and the block
///   returns;
/// * block barriers outside loop nests with such a loop safe point are
///   the same test in watched launches only (BarrierPoint.cpp): such a
///   kernel's unwatched launches run a copy of the body with plain barriers
///   and no loop safe points (a yield test at every barrier cost
///   barrier-dense kernels 20-90% on the H200);
/// * nothing else: a block that runs to its end writes nothing (the host
///   clears the headers of a launch it watches), so a launch that is never
///   asked to yield pays a loop's chunk bookkeeping (or back-edge counter)
///   and, once per period, one load and one barrier_or (none of it in a
///   kernel with an unwatched copy).
///
/// The resume edges break SSA dominance of the live values; they are repaired
/// by demoting the values to stack slots and promoting them back.
///
/// `hetgpu-instrument-state<grid-sync>` (GridSync) instruments only the
/// kernels that call `__hetgpu_grid_sync`, and plans their grid barriers
/// instead of the loop safe points (which it erases): each grid barrier
/// suspends every block unconditionally, so a launch run round after round
/// (runtime/lib/Core/GridRounds.cpp) holds the barrier without residency.
///
/// The pieces live in InstrumentState/, one per file (Instrumenter.h lists
/// them): Planning.cpp (the safe points and their layouts), BlockEntry.cpp
/// (the block-entry safe point), BarrierPoint.cpp (barriers of watched
/// launches), SafePoint.cpp
/// (yield test, save path, resume landing, the chunked loop's early flag
/// read), SavePaths.cpp (the state buffer's addresses, saving and
/// restoring values and shared memory), ResumeDispatch.cpp (entry dispatch,
/// loop-nest copies, SSA repair). This file is the driver: the hidden
/// parameters, the steps in order, the `!hetgpu.kernels` mark, and the pass.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Transforms/InstrumentState.h"
#include "InstrumentState/Instrumenter.h"

#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Support/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "hetgpu-instrument-state"

using namespace llvm;
using namespace hetgpu::container;

namespace hetgpu {

STATISTIC(NumInstrumentedKernels, "Kernels instrumented for migration");

namespace instrument {

void KernelInstrumenter::cloneWithHiddenParams() {
  FunctionType *FT = K->getFunctionType();
  SmallVector<Type *, 8> Params(FT->params());
  Params.push_back(Ptr);
  Params.push_back(Ptr);
  Params.push_back(I32);
  auto *NFT = FunctionType::get(FT->getReturnType(), Params, false);
  NF = Function::Create(NFT, K->getLinkage(), K->getAddressSpace(), "");
  M->getFunctionList().insert(K->getIterator(), NF);
  NF->copyAttributesFrom(K);
  NF->copyMetadata(K, 0);
  NF->splice(NF->begin(), K);
  for (unsigned I = 0, E = FT->getNumParams(); I != E; ++I) {
    K->getArg(I)->replaceAllUsesWith(NF->getArg(I));
    NF->getArg(I)->takeName(K->getArg(I));
  }
  State = NF->getArg(FT->getNumParams());
  Ctrl = NF->getArg(FT->getNumParams() + 1);
  Round = RoundArg = NF->getArg(FT->getNumParams() + 2);
  State->setName("hetgpu.state");
  Ctrl->setName("hetgpu.ctrl");
  Round->setName("hetgpu.round");
  NF->takeName(K);
  // Opaque pointers: the metadata lists (and any other reference) follow.
  K->replaceAllUsesWith(NF);
  K->eraseFromParent();
  K = NF;
}

void KernelInstrumenter::stripBundles() {
  SmallVector<CallBase *, 8> Calls;
  for (Instruction &I : instructions(*NF))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (CB->getOperandBundle(LiveBundle))
        Calls.push_back(CB);
  for (CallBase *CB : Calls) {
    SmallVector<OperandBundleDef, 2> Bundles;
    CB->getOperandBundlesAsDefs(Bundles);
    erase_if(Bundles, [](const OperandBundleDef &B) {
      return B.getTag() == LiveBundle;
    });
    CallBase *New = CallBase::Create(CB, Bundles, CB->getIterator());
    New->takeName(CB);
    New->copyMetadata(*CB);
    New->setMetadata(SafePointMD, nullptr);
    CB->replaceAllUsesWith(New);
    CB->eraseFromParent();
  }
}

void KernelInstrumenter::markInstrumented() {
  NamedMDNode *KMD = M->getNamedMetadata(KernelsMD);
  if (!KMD)
    return;
  for (unsigned I = 0; I < KMD->getNumOperands(); ++I) {
    MDNode *N = KMD->getOperand(I);
    if (N->getNumOperands() == 0)
      continue;
    auto *VM = dyn_cast_or_null<ValueAsMetadata>(N->getOperand(0).get());
    if (!VM || VM->getValue() != NF)
      continue;
    SmallVector<Metadata *, 16> Ops(N->op_begin(), N->op_end());
    Ops.push_back(MDString::get(*C, InstrumentedKey));
    Ops.push_back(ConstantAsMetadata::get(ConstantInt::getTrue(*C)));
    KMD->setOperand(I, MDNode::get(*C, Ops));
  }
}

bool KernelInstrumenter::run() {
  M = K->getParent();
  C = &K->getContext();
  I8 = Type::getInt8Ty(*C);
  I32 = Type::getInt32Ty(*C);
  I64 = Type::getInt64Ty(*C);
  Ptr = PointerType::get(*C, AS_Generic);
  if (!K->getReturnType()->isVoidTy()) {
    reportFailure(*K, "cannot instrument kernel '" + K->getName() +
                          "': kernels must return void");
    return false;
  }
  if (!collectPlans())
    return false;
  cloneWithHiddenParams();
  if (EarlyFlagRead && !GridSync)
    findChunkHeaders();
  buildEntry();
  if (!checkLiveAllocas())
    return false;
  wireResumes();
  hoistRecomputable();
  repairSSA();
  stripBundles();
  markInstrumented();
  ++NumInstrumentedKernels;
  return true;
}

} // namespace instrument

/// Whether \p F's `!hetgpu.kernels` entry says it is instrumented already
/// (the pass runs once per kernel: `-passes=p,p` is `-passes=p`).
static bool isInstrumented(const Function &F) {
  NamedMDNode *KMD = F.getParent()->getNamedMetadata(KernelsMD);
  if (!KMD)
    return false;
  for (const MDNode *N : KMD->operands()) {
    if (N->getNumOperands() == 0)
      continue;
    auto *VM = dyn_cast_or_null<ValueAsMetadata>(N->getOperand(0).get());
    if (!VM || VM->getValue() != &F)
      continue;
    for (unsigned I = 1; I + 1 < N->getNumOperands(); I += 2)
      if (auto *S = dyn_cast_or_null<MDString>(N->getOperand(I).get()))
        if (S->getString() == instrument::InstrumentedKey)
          return true;
  }
  return false;
}

/// Whether \p K calls `__hetgpu_grid_sync` itself.
static bool callsGridSync(const Function &K) {
  for (const Instruction &I : instructions(K))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (auto BI = getCalledBuiltin(*CB); BI && BI->ID == BuiltinID::grid_sync)
        return true;
  return false;
}

/// `<grid-sync>` turns the grid barriers of kernels into ends of rounds; one
/// in a function that is not a kernel (not inlined) has no state layout and
/// would be a spin barrier, which a device without residency does not hold.
static bool
checkGridSyncCallers(Module &M,
                     ArrayRef<std::pair<Function *, KernelInfo>> Infos) {
  Function *GS = M.getFunction(getBuiltinInfo(BuiltinID::grid_sync).Name);
  if (!GS)
    return true;
  for (User *U : GS->users()) {
    auto *CB = dyn_cast<CallBase>(U);
    if (!CB)
      continue;
    Function *F = CB->getFunction();
    if (any_of(Infos, [&](const auto &E) { return E.first == F; }))
      continue;
    reportFailure(*F,
                  "cannot run grid_group::sync() in rounds: function '" +
                      F->getName() +
                      "' calls it but is not a kernel (it must be inlined "
                      "into its kernel)",
                  CB);
    return false;
  }
  return true;
}

using instrument::KernelInstrumenter;

PreservedAnalyses InstrumentStatePass::run(Module &M, ModuleAnalysisManager &) {
#ifdef HETGPU_NO_STATE_INSTRUMENTATION
  M.getContext().emitError(
      "hetgpu-instrument-state: this hetGPU was built with "
      "-DHETGPU_ENABLE_STATE_INSTRUMENTATION=OFF (no live-migration "
      "instrumentation)");
  return PreservedAnalyses::all();
#endif
  auto Infos = readKernelInfo(M);
  if (!Infos) {
    M.getContext().emitError("hetgpu-instrument-state: " +
                             toString(Infos.takeError()));
    return PreservedAnalyses::all();
  }
  bool Changed = false;
  if (GridSync && !checkGridSyncCallers(M, *Infos))
    return PreservedAnalyses::all();
  for (auto &[F, KI] : *Infos) {
    if (F->isDeclaration() || isInstrumented(*F) ||
        (GridSync && !callsGridSync(*F)))
      continue;
    KernelInstrumenter KIr(*F, KI, EarlyFlagRead, GridSync);
    Changed |= KIr.run();
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace hetgpu
