//===- Resumable.cpp - Split a thread function at its sync points ---------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Step 4 of `hetgpu-simt-to-mimd`, for kernels with sync points (barriers
/// and warp operations): the thread function becomes resumable. Each sync
/// call is replaced by: store the values live across it into the thread's
/// frame, store the operation and its operands into the thread state
/// (ABI/BlockExecutor.h), return its id. A new block per sync point reloads
/// the values and continues; the setup block dispatches on `ts->resume`.
///
/// * Values live across a barrier go to the offsets of the barrier's
///   `"hetgpu.live"` bundle in `!hetgpu.state` (the record the checkpoint
///   code uses); anything else live gets a slot after the record.
/// * Values computed from setup values alone are recomputed after the sync
///   point instead (Rematerializer).
/// * Allocations live across a sync point move into the frame.
/// * SSA form is repaired with SSAUpdater; spill slots get an alias scope
///   of their own (separateSpillSlots).
///
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "hetgpu/ABI/BlockExecutor.h"
#include "hetgpu/Transforms/SIMTToMIMD.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"

#include <cstddef>
#include <optional>

using namespace llvm;
using namespace hetgpu::container;

#define DEBUG_TYPE "hetgpu-simt-to-mimd"

STATISTIC(NumSyncPoints, "Sync points split");
STATISTIC(NumSpills, "Values stored across sync points");
STATISTIC(NumRemat, "Values recomputed after sync points");
STATISTIC(NumFrameAllocas, "Allocations moved into the thread frame");

namespace hetgpu {
namespace simt {

/// The kernel's SafePointInfo with id \p Id, if any.
static const SafePointInfo *findSafePoint(const KernelInfo *KI, int Id) {
  if (!KI || Id < 0)
    return nullptr;
  for (const SafePointInfo &SP : KI->SafePoints)
    if (SP.Id == unsigned(Id))
      return &SP;
  return nullptr;
}

/// Marks \p Access as a spill access of the sync point \p Tag names.
static Value *tagSpill(Value *Access, MDNode *Tag) {
  cast<Instruction>(Access)->setMetadata(SpillMD, Tag);
  return Access;
}

// ---- Frame slots and rematerialisation ------------------------------------

uint64_t Lowering::FrameLayout::extraSlot(Instruction *V,
                                          const DataLayout &DL) {
  auto [It, New] = Extra.try_emplace(V, 0);
  if (New) {
    Type *Ty = V->getType();
    Cursor = alignTo(Cursor, DL.getABITypeAlign(Ty));
    It->second = Cursor;
    Cursor += DL.getTypeAllocSize(Ty);
  }
  return It->second;
}

bool Lowering::Rematerializer::canRemat(Value *V, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || I->getParent() == Setup)
    return true;
  if (auto It = Memo.find(I); It != Memo.end())
    return It->second;
  bool OK =
      Depth < 8 && (isa<GetElementPtrInst, CastInst, CmpInst, SelectInst>(I) ||
                    (isa<BinaryOperator>(I) && !I->isIntDivRem()));
  for (unsigned Op = 0; OK && Op < I->getNumOperands(); ++Op)
    OK = canRemat(I->getOperand(Op), Depth + 1);
  Memo[I] = OK;
  return OK;
}

Instruction *Lowering::Rematerializer::remat(Instruction *V, BasicBlock *BB) {
  DenseMap<Instruction *, Instruction *> Done;
  return clone(V, BB, Done);
}

Instruction *
Lowering::Rematerializer::clone(Instruction *I, BasicBlock *BB,
                                DenseMap<Instruction *, Instruction *> &Done) {
  if (Instruction *C = Done.lookup(I))
    return C;
  Instruction *C = I->clone();
  for (Use &Op : C->operands())
    if (auto *OI = dyn_cast<Instruction>(Op.get()))
      if (OI->getParent() != Setup)
        Op.set(clone(OI, BB, Done));
  C->insertInto(BB, BB->end());
  C->setName(I->getName() + ".remat");
  Done[I] = C;
  return C;
}

Value *Lowering::tsField(Env &E, IRBuilder<> &B, size_t Off) {
  return B.CreateConstInBoundsGEP1_64(I8, E.TS, Off);
}

// ---- The resumable form ---------------------------------------------------

bool Lowering::makeResumable(Function &K, Env &E, const KernelInfo *KI,
                             const SmallPtrSetImpl<CallInst *> &KernelBarriers,
                             uint64_t &FrameSize) {
  Function &T = *E.T;
  BasicBlock *OldEntry = E.Setup->getTerminator()->getSuccessor(0);

  SmallVector<Sync, 8> Syncs;
  if (!collectSyncs(K, KI, KernelBarriers, T, Syncs))
    return false;

  FrameLayout FL;
  FL.Cursor = alignTo(KI ? KI->StateRecordSize : 0, 16);
  if (!moveAllocasToFrame(K, E, OldEntry, Syncs, FL))
    return false;

  // Live values after each sync point (values of setup excluded: they are
  // recomputed on every entry).
  {
    Liveness LV(T, E.Setup);
    for (Sync &S : Syncs)
      S.Live = LV.liveAfter(*S.Call);
  }

  Rematerializer RM(E.Setup);
  DenseMap<Value *, Value *> Replaced;
  for (Sync &S : Syncs)
    splitSyncPoint(E, S, FL, RM, Replaced);
  for (Sync &S : Syncs)
    for (auto &[V, R] : S.Reloads)
      if (Value *N = Replaced.lookup(V))
        V = cast<Instruction>(N);

  emitResumeDispatch(E, OldEntry, Syncs);
  repairSSA(Syncs);
  separateSpillSlots(T);
  FrameSize = alignTo(FL.Cursor, FL.MaxAlign);
  return true;
}

bool Lowering::collectSyncs(Function &K, const KernelInfo *KI,
                            const SmallPtrSetImpl<CallInst *> &KernelBarriers,
                            Function &T, SmallVectorImpl<Sync> &Syncs) {
  for (Instruction &I : instructions(T))
    if (uint32_t Kind = syncKindOf(I)) {
      Sync S;
      S.Call = cast<CallInst>(&I);
      S.Kind = Kind;
      S.Id = Syncs.size() + 1;
      if (KernelBarriers.count(S.Call)) {
        if (auto B = S.Call->getOperandBundle(LiveBundle)) {
          S.SP = findSafePoint(KI, getSafePointId(*S.Call));
          S.Bundle.assign(B->Inputs.begin(), B->Inputs.end());
          if (S.SP && S.SP->Slots.size() != S.Bundle.size()) {
            Fail.add(K, "kernel '" + K.getName() + "': safe point " +
                            Twine(S.SP->Id) + " has " +
                            Twine(S.SP->Slots.size()) +
                            " slots in !hetgpu.state but its barrier's "
                            "\"hetgpu.live\" bundle has " +
                            Twine(S.Bundle.size()) + " values");
            return false;
          }
        }
      }
      Syncs.push_back(std::move(S));
    }
  return true;
}

SmallSetVector<AllocaInst *, 8>
Lowering::allocasLiveAcrossSyncs(Env &E, ArrayRef<Sync> Syncs) {
  SmallVector<AllocaInst *, 8> Allocas;
  for (Instruction &I : instructions(*E.T))
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      Allocas.push_back(AI);
  SmallSetVector<AllocaInst *, 8> InFrame;
  Liveness LV(*E.T, E.Setup);
  bool Escapes = llvm::any_of(Allocas, allocaEscapes);
  for (const Sync &S : Syncs)
    for (Instruction *V : LV.liveAfter(*S.Call)) {
      if (!V->getType()->isPtrOrPtrVectorTy())
        continue;
      SmallVector<const Value *, 4> Objs;
      getUnderlyingObjects(V, Objs);
      bool Unknown = false;
      for (const Value *O : Objs) {
        if (auto *AI = dyn_cast<AllocaInst>(O))
          InFrame.insert(const_cast<AllocaInst *>(AI));
        else if (!isa<GlobalValue, Argument, ConstantPointerNull>(O) &&
                 !(isa<Instruction>(O) &&
                   cast<Instruction>(O)->getParent() == E.Setup))
          Unknown = true;
      }
      // A pointer loaded from memory may point to any allocation whose
      // address was stored.
      if (Unknown && Escapes)
        for (AllocaInst *AI : Allocas)
          InFrame.insert(AI);
    }
  return InFrame;
}

bool Lowering::moveAllocasToFrame(Function &K, Env &E, BasicBlock *OldEntry,
                                  ArrayRef<Sync> Syncs, FrameLayout &FL) {
  // Allocations live across a sync point move into the frame.
  SmallSetVector<AllocaInst *, 8> InFrame = allocasLiveAcrossSyncs(E, Syncs);
  IRBuilder<> SB(E.Setup->getTerminator());
  for (AllocaInst *AI : InFrame) {
    std::optional<TypeSize> Size = AI->getAllocationSize(DL);
    if (!Size || Size->isScalable() || AI->getParent() != OldEntry) {
      Fail.add(K, "kernel '" + K.getName() + "': allocation '" + AI->getName() +
                      "' of variable size (or outside the "
                      "entry block) is live across a barrier or warp "
                      "operation: not supported");
      return false;
    }
    if (AI->getAlign().value() > 64) {
      Fail.add(K, "kernel '" + K.getName() + "': allocation '" + AI->getName() +
                      "' needs alignment above 64 bytes");
      return false;
    }
    FL.Cursor = alignTo(FL.Cursor, AI->getAlign());
    FL.MaxAlign = std::max<uint64_t>(FL.MaxAlign, AI->getAlign().value());
    Value *Addr = SB.CreateConstInBoundsGEP1_64(I8, E.Frame, FL.Cursor,
                                                AI->getName() + ".frame");
    if (Addr->getType() != AI->getType())
      Addr = SB.CreateAddrSpaceCast(Addr, AI->getType());
    FL.Cursor += Size->getFixedValue();
    SmallVector<Instruction *, 4> Markers;
    for (User *U : AI->users())
      if (auto *II = dyn_cast<IntrinsicInst>(U))
        if (II->isLifetimeStartOrEnd())
          Markers.push_back(II);
    for (Instruction *Mk : Markers)
      Mk->eraseFromParent();
    AI->replaceAllUsesWith(Addr);
    AI->eraseFromParent();
    ++NumFrameAllocas;
  }
  // The other static allocations are per activation of the thread function.
  for (Instruction &I : make_early_inc_range(*OldEntry))
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (AI->isStaticAlloca() || isa<ConstantInt>(AI->getArraySize()))
        AI->moveBefore(E.Setup->getFirstInsertionPt());
  return true;
}

// ---- One sync point -------------------------------------------------------

void Lowering::splitSyncPoint(Env &E, Sync &S, FrameLayout &FL,
                              Rematerializer &RM,
                              DenseMap<Value *, Value *> &Replaced) {
  ++NumSyncPoints;
  // Results of sync points already split are their result loads now.
  for (Instruction *&V : S.Live)
    if (Value *N = Replaced.lookup(V))
      V = cast<Instruction>(N);
  for (Value *&V : S.Bundle)
    if (Value *N = Replaced.lookup(V))
      V = N;
  CallInst *CI = S.Call;
  BasicBlock *Pre = CI->getParent();
  BasicBlock *Cont =
      Pre->splitBasicBlock(CI->getNextNode(), "sync" + Twine(S.Id) + ".cont");
  S.Resume = BasicBlock::Create(C, "sync" + Twine(S.Id) + ".resume", E.T, Cont);
  IRBuilder<> B(CI);
  IRBuilder<> RB(S.Resume);
  // Spill accesses carry the sync id (SpillMD).
  MDNode *SpillTag =
      MDNode::get(C, ConstantAsMetadata::get(ConstantInt::get(I32, S.Id)));

  RecordSlots InRecord = storeRecordSlots(E, S, B, RM, SpillTag);
  reloadLiveValues(E, S, B, RB, FL, RM, InRecord, SpillTag);
  storeSyncOperation(E, S, B);
  Pre->getTerminator()->eraseFromParent();
  ReturnInst::Create(C, ConstantInt::get(I32, S.Id), Pre);
  if (!CI->getType()->isVoidTy()) {
    Value *Res = RB.CreateLoad(
        I32, tsField(E, RB, offsetof(hetgpu_thread_state, result)),
        CI->getName() + ".result");
    CI->replaceAllUsesWith(Res);
    Replaced[CI] = Res;
  }
  RB.CreateBr(Cont);
  CI->eraseFromParent();
}

/// The record of the safe point, at the offsets of !hetgpu.state: stores
/// (before the sync call, at \p B) every bundle value that is live or an
/// operand of the call and cannot be recomputed.
Lowering::RecordSlots Lowering::storeRecordSlots(Env &E, Sync &S,
                                                 IRBuilder<> &B,
                                                 Rematerializer &RM,
                                                 MDNode *Tag) {
  RecordSlots InRecord;
  if (!S.SP)
    return InRecord;
  SmallPtrSet<Instruction *, 16> LiveSet(S.Live.begin(), S.Live.end());
  SmallPtrSet<Value *, 8> CallOps(S.Call->arg_begin(), S.Call->arg_end());
  for (auto [V, Slot] : zip(S.Bundle, S.SP->Slots)) {
    auto *I = dyn_cast<Instruction>(V);
    bool Tracked = I && I->getParent() != E.Setup;
    if (Tracked && !LiveSet.count(I) && !CallOps.count(I))
      continue;
    if (Tracked && RM.canRemat(I))
      continue;
    if (Slot.Kind == SlotKind::Value &&
        DL.getTypeStoreSize(V->getType()) <= Slot.Size) {
      tagSpill(B.CreateAlignedStore(
                   V, B.CreateConstInBoundsGEP1_64(I8, E.Frame, Slot.Offset),
                   Align(1)),
               Tag);
      if (Tracked)
        InRecord[I] = {Slot.Offset, false};
    } else if (Slot.Kind == SlotKind::SharedPtr && Slot.Size == 8 &&
               V->getType()->isPointerTy()) {
      Value *P = B.CreatePtrToInt(V, I64);
      Value *Base = B.CreatePtrToInt(sharedBase(E), I64);
      tagSpill(B.CreateAlignedStore(
                   B.CreateSub(P, Base),
                   B.CreateConstInBoundsGEP1_64(I8, E.Frame, Slot.Offset),
                   Align(1)),
               Tag);
      if (Tracked)
        InRecord[I] = {Slot.Offset, true};
    }
  }
  return InRecord;
}

/// Every value live after the sync point: recomputed in the resume block,
/// reloaded from its record slot, or stored (at \p B) into a slot after the
/// record and reloaded (at \p RB).
void Lowering::reloadLiveValues(Env &E, Sync &S, IRBuilder<> &B,
                                IRBuilder<> &RB, FrameLayout &FL,
                                Rematerializer &RM, const RecordSlots &InRecord,
                                MDNode *Tag) {
  for (Instruction *V : S.Live) {
    Instruction *Reload;
    if (RM.canRemat(V)) {
      ++NumRemat;
      S.Reloads.emplace_back(V, RM.remat(V, S.Resume));
      continue;
    }
    ++NumSpills;
    if (auto It = InRecord.find(V); It != InRecord.end()) {
      auto [Off, IsShared] = It->second;
      Value *Addr = RB.CreateConstInBoundsGEP1_64(I8, E.Frame, Off);
      if (IsShared) {
        Value *Delta = tagSpill(RB.CreateAlignedLoad(I64, Addr, Align(1)), Tag);
        Value *P = RB.CreateInBoundsGEP(I8, sharedBase(E), Delta);
        Reload = cast<Instruction>(
            RB.CreateAddrSpaceCast(P, V->getType(), V->getName() + ".reload"));
      } else {
        Reload = cast<Instruction>(
            tagSpill(RB.CreateAlignedLoad(V->getType(), Addr, Align(1),
                                          V->getName() + ".reload"),
                     Tag));
      }
    } else {
      uint64_t Off = FL.extraSlot(V, DL);
      Value *Addr = B.CreateConstInBoundsGEP1_64(I8, E.Frame, Off);
      tagSpill(B.CreateStore(V, Addr), Tag);
      Reload = cast<Instruction>(tagSpill(
          RB.CreateLoad(V->getType(),
                        RB.CreateConstInBoundsGEP1_64(I8, E.Frame, Off),
                        V->getName() + ".reload"),
          Tag));
    }
    S.Reloads.emplace_back(V, Reload);
  }
}

/// The operation and its operands, into the thread state.
void Lowering::storeSyncOperation(Env &E, const Sync &S, IRBuilder<> &B) {
  CallInst *CI = S.Call;
  B.CreateStore(B.getInt32(S.Kind),
                tsField(E, B, offsetof(hetgpu_thread_state, kind)));
  auto StoreArg = [&](unsigned Slot, Value *V) {
    B.CreateStore(V,
                  tsField(E, B, offsetof(hetgpu_thread_state, arg) + 4 * Slot));
  };
  switch (S.Kind) {
  case HETGPU_SYNC_BARRIER_COUNT:
  case HETGPU_SYNC_BARRIER_AND:
  case HETGPU_SYNC_BARRIER_OR:
    StoreArg(1, CI->getArgOperand(0));
    break;
  case HETGPU_SYNC_BARRIER:
  case HETGPU_SYNC_ACTIVEMASK:
    break;
  default:
    for (unsigned A = 0; A < CI->arg_size(); ++A)
      StoreArg(A, CI->getArgOperand(A));
    break;
  }
}

// ---- Dispatch and SSA repair ----------------------------------------------

/// Dispatch on the resume point: the setup block's branch to the old entry
/// becomes a switch on ts->resume.
void Lowering::emitResumeDispatch(Env &E, BasicBlock *OldEntry,
                                  ArrayRef<Sync> Syncs) {
  Instruction *Br = E.Setup->getTerminator();
  IRBuilder<> B(Br);
  Value *Resume = B.CreateLoad(
      I32, tsField(E, B, offsetof(hetgpu_thread_state, resume)), "resume");
  SwitchInst *SW = B.CreateSwitch(Resume, OldEntry, Syncs.size());
  for (const Sync &S : Syncs)
    SW->addCase(B.getInt32(S.Id), S.Resume);
  Br->eraseFromParent();
}

/// SSA repair: each value is defined by its instruction and by its reloads.
void Lowering::repairSSA(ArrayRef<Sync> Syncs) {
  MapVector<Instruction *, SmallVector<std::pair<BasicBlock *, Value *>, 4>>
      Defs;
  for (const Sync &S : Syncs)
    for (auto &[V, R] : S.Reloads)
      Defs[V].emplace_back(S.Resume, R);
  for (auto &[V, List] : Defs) {
    SSAUpdater SSA;
    SSA.Initialize(V->getType(), V->getName());
    SSA.AddAvailableValue(V->getParent(), V);
    for (auto &[BB, R] : List)
      SSA.AddAvailableValue(BB, R);
    SmallVector<Use *, 8> Uses;
    for (Use &U : V->uses())
      Uses.push_back(&U);
    for (Use *U : Uses) {
      auto *UI = cast<Instruction>(U->getUser());
      if (!isa<PHINode>(UI) && UI->getParent() == V->getParent())
        continue;
      SSA.RewriteUse(*U);
    }
  }
}

/// Spill slots are memory nothing but the spill code touches: their
/// accesses get an alias scope of their own, every other memory access of
/// \p T is marked as not aliasing it. LLVM then drops the store of a value
/// back to the slot it was reloaded from when nothing in between wrote
/// there (a value carried unchanged across a sync point, a chunked loop's
/// chunk number across the barriers of its iterations, say).
void Lowering::separateSpillSlots(Function &T) {
  LLVMContext &C = T.getContext();
  MDBuilder MDB(C);
  MDNode *Domain = MDB.createAnonymousAliasScopeDomain("hetgpu.frame");
  MDNode *Scope = MDB.createAnonymousAliasScope(Domain, "hetgpu.spill.slots");
  MDNode *List = MDNode::get(C, Scope);
  for (Instruction &I : instructions(T)) {
    if (!I.mayReadOrWriteMemory())
      continue;
    if (I.getMetadata(SpillMD))
      I.setMetadata(LLVMContext::MD_alias_scope,
                    MDNode::concatenate(
                        I.getMetadata(LLVMContext::MD_alias_scope), List));
    else
      I.setMetadata(
          LLVMContext::MD_noalias,
          MDNode::concatenate(I.getMetadata(LLVMContext::MD_noalias), List));
  }
}

} // namespace simt
} // namespace hetgpu
