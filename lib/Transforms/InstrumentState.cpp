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
///   the body untouched; a resumed launch of round R continues only the
///   blocks whose header says "suspended in round R - 1" (status R): every
///   thread copies its share of the saved shared memory back, reloads the
///   live values of the saved safe point and enters it through the loop
///   headers of a copy of the loop nest around it; other blocks return;
/// * the loop safe points (`__hetgpu_safepoint`, inserted every 2^k
///   iterations of block-uniform loops by hetgpu-insert-loop-safepoints)
///   become `__hetgpu_barrier_or(yield flag)`; when it returns nonzero every
///   thread stores its live values at their slot offsets, the block stores
///   its shared memory, the header becomes {R + 1, id} and the block
///   returns. Barriers stay plain barriers: a yield test at every barrier
///   cost barrier-dense kernels 20-90% on the H200;
/// * nothing else: a block that runs to its end writes nothing (the host
///   clears the headers of a launch it watches), so a launch that is never
///   asked to yield pays a loop's chunk bookkeeping (or back-edge counter)
///   and, once per period, one load and one barrier_or.
///
/// The resume edges break SSA dominance of the live values; they are repaired
/// by demoting the values to stack slots and promoting them back.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Transforms/InstrumentState.h"
#include "hetgpu/Transforms/StateLayout.h"
#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Support/Diagnostics.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#define DEBUG_TYPE "hetgpu-instrument-state"

/// Marks the yield-flag read that instrumentSafePoint moved to the header of
/// a chunked loop.
static constexpr llvm::StringLiteral EarlyFlagMD = "hetgpu.early.flag";

using namespace llvm;
using namespace hetgpu::container;

namespace hetgpu {

STATISTIC(NumInstrumentedKernels, "Kernels instrumented for migration");
STATISTIC(NumInstrumentedSafePoints, "Safe points given save/restore code");

namespace {

constexpr StringLiteral InstrumentedKey = "instrumented";

struct SafePointPlan {
  CallBase *Call = nullptr;
  const SafePointInfo *Info = nullptr;
  SmallVector<Value *, 16> Values; ///< bundle operands, slot order
  /// The chunk header the safe point's block returns to, when it dominates
  /// the safe point (a chunked loop): the yield flag is read there.
  BasicBlock *ChunkHeader = nullptr;
};

/// A shared-memory region of the kernel's layout, as seen from one address
/// space: Base points at its first byte, Offset is its layout offset, Size
/// 0 means "unbounded" (dynamic shared memory).
struct SharedRegion {
  Value *Base;
  uint64_t Offset;
  uint64_t Size;
};

class KernelInstrumenter {
public:
  KernelInstrumenter(Function &K, const KernelInfo &KI, bool EarlyFlagRead)
      : K(&K), KI(KI), EarlyFlagRead(EarlyFlagRead) {}

  /// False (after a diagnostic) when the kernel cannot be instrumented.
  bool run();

private:
  Function *K;
  const KernelInfo &KI;
  bool EarlyFlagRead; ///< see InstrumentStatePass
  Module *M = nullptr;
  LLVMContext *C = nullptr;
  Type *I8 = nullptr, *I32 = nullptr, *I64 = nullptr, *Ptr = nullptr;
  SmallVector<SafePointPlan, 8> Plans;
  uint64_t RecordSize = 0;

  Function *NF = nullptr;
  Value *State = nullptr, *Ctrl = nullptr, *Round = nullptr;
  Value *TLin = nullptr, *NThreads = nullptr, *DynShared = nullptr;
  Value *Header = nullptr, *SharedSave = nullptr, *Record = nullptr;
  Value *DynBase = nullptr; ///< __hetgpu_dynamic_shared(), when used
  BasicBlock *RetBB = nullptr;
  /// Resume path of one safe point: the block that ends the shared-memory
  /// restore (entered from the entry dispatch), the landing blocks that
  /// reload the live values (first and last), the safe point's block, the
  /// map to the copy of its loop nest (wireResumes; null outside loops), and
  /// the reloaded value of each live SSA value.
  struct ResumePath {
    BasicBlock *RestoreEnd;
    BasicBlock *Land, *LandEnd;
    BasicBlock *SP;
    unsigned Id;
    ValueToValueMapTy *Copy = nullptr;
    SmallVector<std::pair<Instruction *, Value *>, 16> Reloaded;
  };
  SmallVector<ResumePath, 8> ResumePaths;
  /// Safe point id being resumed (0: none); promoted to SSA with the rest.
  AllocaInst *ResumeId = nullptr;
  /// Stack slots of values that leave a loop copied for resumption, by
  /// value (the original; its copy stores to the same slot).
  MapVector<Instruction *, AllocaInst *> EscapeSlots;
  /// Original -> copy, per loop nest copied for resumption.
  SmallVector<std::unique_ptr<ValueToValueMapTy>, 4> CopyMaps;

  bool UsesDynShared = false;

  bool collectPlans();
  void emitAddressing(IRBuilder<> &B);
  void cloneWithHiddenParams();
  void buildEntry();
  void instrumentSafePoint(SafePointPlan &P, BasicBlock *RestoreBB);
  void emitSave(IRBuilder<> &B, SafePointPlan &P);
  void emitRestore(IRBuilder<> &B, SafePointPlan &P,
                   SmallVectorImpl<std::pair<Instruction *, Value *>> &Out);
  void emitSharedCopy(IRBuilder<> &B, bool ToBuffer);
  void emitStridedCopy(IRBuilder<> &B, Value *Dst, Value *Src, Value *N);
  SmallVector<SharedRegion, 4> sharedRegions(IRBuilder<> &B, unsigned AS);
  void wireResumes();
  ValueToValueMapTy &copyLoopNest(Loop *L);
  void hoistRecomputable();
  void repairSSA();
  void stripBundles();
  void markInstrumented();

  Value *builtin(IRBuilder<> &B, BuiltinID ID, ArrayRef<Value *> Args = {}) {
    return B.CreateCall(getOrDeclareBuiltin(*M, ID), Args);
  }
  Value *byteGEP(IRBuilder<> &B, Value *P, Value *Off, const Twine &N = "") {
    return B.CreateGEP(I8, P, Off, N);
  }
  Value *byteGEP(IRBuilder<> &B, Value *P, uint64_t Off, const Twine &N = "") {
    return B.CreateGEP(I8, P, B.getInt64(Off), N);
  }
  /// Words of the control block (abi::MigrationControl).
  enum ControlField : unsigned {
    CF_Yield = abi::MCW_Yield,
    CF_YieldAfter = abi::MCW_YieldAfter,
    CF_Visits = abi::MCW_Visits,
    CF_DynShared = abi::MCW_DynShared,
  };
  /// A word of the control block, addressed as global memory: the CPU
  /// device's SIMT -> MIMD lowering regroups warps at volatile accesses
  /// that may touch shared memory, which a generic pointer could.
  Value *ctrlField(IRBuilder<> &B, unsigned Index) {
    Value *G = castTo(B, Ctrl, AS_Global);
    return Index ? B.CreateGEP(I8, G, B.getInt64(Index * 4)) : G;
  }
  Value *castTo(IRBuilder<> &B, Value *P, unsigned AS) {
    if (P->getType()->getPointerAddressSpace() == AS)
      return P;
    return B.CreateAddrSpaceCast(P, PointerType::get(*C, AS));
  }
};

bool KernelInstrumenter::collectPlans() {
  DenseMap<unsigned, const SafePointInfo *> ById;
  for (const SafePointInfo &SP : KI.SafePoints) {
    ById[SP.Id] = &SP;
    RecordSize = std::max<uint64_t>(RecordSize, SP.RecordSize);
  }
  for (Instruction &I : instructions(*K)) {
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB)
      continue;
    // Barriers keep their layout (hetgpu-objdump shows it) but are not
    // tested: only the loop safe points are.
    auto BI = getCalledBuiltin(*CB);
    if (!BI || BI->ID != BuiltinID::safepoint)
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
  return true;
}

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
  Round = NF->getArg(FT->getNumParams() + 2);
  State->setName("hetgpu.state");
  Ctrl->setName("hetgpu.ctrl");
  Round->setName("hetgpu.round");
  NF->takeName(K);
  // Opaque pointers: the metadata lists (and any other reference) follow.
  K->replaceAllUsesWith(NF);
  K->eraseFromParent();
  K = NF;
}

/// Emits the block's addresses in the state buffer at \p B's position and
/// makes them current (TLin, NThreads, DynShared, Header, SharedSave,
/// Record, DynBase). Every save, restore and "finished" site recomputes
/// them from the index builtins, so no value of the entry block is live
/// across a barrier (on the CPU device such values cost a per-thread spill).
void KernelInstrumenter::emitAddressing(IRBuilder<> &B) {
  auto Z = [&](BuiltinID ID) { return B.CreateZExt(builtin(B, ID), I64); };
  Value *Tx = Z(BuiltinID::tid_x), *Ty = Z(BuiltinID::tid_y),
        *Tz = Z(BuiltinID::tid_z);
  Value *Nx = Z(BuiltinID::ntid_x), *Ny = Z(BuiltinID::ntid_y),
        *Nz = Z(BuiltinID::ntid_z);
  Value *Cx = Z(BuiltinID::ctaid_x), *Cy = Z(BuiltinID::ctaid_y),
        *Cz = Z(BuiltinID::ctaid_z);
  Value *Gx = Z(BuiltinID::nctaid_x), *Gy = Z(BuiltinID::nctaid_y);
  TLin = B.CreateAdd(Tx, B.CreateMul(Nx, B.CreateAdd(Ty, B.CreateMul(Ny, Tz))),
                     "hetgpu.tlin");
  NThreads = B.CreateMul(B.CreateMul(Nx, Ny), Nz, "hetgpu.nthreads");
  Value *BLin =
      B.CreateAdd(Cx, B.CreateMul(Gx, B.CreateAdd(Cy, B.CreateMul(Gy, Cz))),
                  "hetgpu.blin");
  DynShared = B.CreateZExt(B.CreateLoad(I32, ctrlField(B, CF_DynShared)), I64,
                           "hetgpu.dynshared");
  uint64_t Static16 = alignTo(KI.StaticShared, 16);
  Value *SharedBytes = B.CreateAnd(
      B.CreateAdd(DynShared, B.getInt64(Static16 + 15)), B.getInt64(~15ull),
      "hetgpu.sharedbytes");
  Value *BlockBytes = B.CreateAdd(
      B.CreateAdd(SharedBytes, B.getInt64(abi::StateBlockHeaderBytes)),
      B.CreateMul(NThreads, B.getInt64(RecordSize)), "hetgpu.blockbytes");
  Header = byteGEP(B, State, B.CreateMul(BLin, BlockBytes), "hetgpu.header");
  SharedSave = byteGEP(B, Header, abi::StateBlockHeaderBytes, "hetgpu.sharedsave");
  Record = byteGEP(
      B, SharedSave,
      B.CreateAdd(SharedBytes, B.CreateMul(TLin, B.getInt64(RecordSize))),
      "hetgpu.record");
  if (UsesDynShared)
    DynBase = builtin(B, BuiltinID::dynamic_shared);
}

void KernelInstrumenter::buildEntry() {
  BasicBlock *Body = &NF->getEntryBlock();
  Body->setName("hetgpu.body");
  BasicBlock *Entry = BasicBlock::Create(*C, "hetgpu.entry", NF, Body);
  for (Instruction &I : make_early_inc_range(*Body))
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (AI->isStaticAlloca() || isa<Constant>(AI->getArraySize()))
        AI->moveBefore(*Entry, Entry->end());
  if (Function *DS = M->getFunction(getBuiltinInfo(BuiltinID::dynamic_shared).Name))
    UsesDynShared = !DS->use_empty();

  IRBuilder<> B(Entry);
  // Without a safe point a block cannot be suspended, and a launch whose
  // blocks all run to their end is never resumed: no entry code at all.
  if (Plans.empty()) {
    B.CreateBr(Body);
    return;
  }
  // A fresh launch (round 0, a parameter) goes straight to the body:
  // nothing else runs unless a block suspends. A resumed launch of round R
  // continues the blocks whose status is R (they suspended in the previous
  // round) at their safe point; every other block already ran to its end
  // and returns. Nothing is written here, so no barrier orders the header
  // reads of the block's threads. (One branch, then one switch: deeper
  // nests of branches before the first barrier crash PoCL 3.1's
  // work-group functions.)
  RetBB = BasicBlock::Create(*C, "hetgpu.return", NF);
  ReturnInst::Create(*C, RetBB);
  BasicBlock *Resume = BasicBlock::Create(*C, "hetgpu.resume", NF, Body);
  B.CreateCondBr(B.CreateICmpEQ(Round, B.getInt32(0), "hetgpu.fresh"), Body,
                 Resume);

  B.SetInsertPoint(Resume);
  emitAddressing(B);
  Value *Status = B.CreateLoad(I32, Header, "hetgpu.status");
  Value *SPId = B.CreateLoad(I32, byteGEP(B, Header, 4), "hetgpu.spid");
  // Safe point ids start at 1: 0 (status other than R) returns.
  SwitchInst *RS = B.CreateSwitch(
      B.CreateSelect(B.CreateICmpEQ(Status, Round), SPId, B.getInt32(0)), RetBB,
      Plans.size());
  for (SafePointPlan &P : Plans) {
    BasicBlock *RB = BasicBlock::Create(
        *C, "hetgpu.restore." + Twine(P.Info->Id), NF, Body);
    RS->addCase(B.getInt32(P.Info->Id), RB);
    instrumentSafePoint(P, RB);
  }
}

SmallVector<SharedRegion, 4> KernelInstrumenter::sharedRegions(IRBuilder<> &B,
                                                               unsigned AS) {
  const DataLayout &DL = M->getDataLayout();
  SharedLayout SL = computeSharedLayout(*NF);
  SmallVector<SharedRegion, 4> R;
  for (auto &[GV, Off] : SL.Vars)
    R.push_back({castTo(B, GV, AS), Off,
                 DL.getTypeAllocSize(GV->getValueType()).getFixedValue()});
  if (DynBase)
    R.push_back({castTo(B, DynBase, AS), SL.dynamicOffset(), 0});
  return R;
}

void KernelInstrumenter::emitStridedCopy(IRBuilder<> &B, Value *Dst,
                                         Value *Src, Value *N) {
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Head = BasicBlock::Create(*C, "hetgpu.copy", NF);
  BasicBlock *Body = BasicBlock::Create(*C, "hetgpu.copy.body", NF);
  BasicBlock *Exit = BasicBlock::Create(*C, "hetgpu.copy.end", NF);
  B.CreateBr(Head);
  B.SetInsertPoint(Head);
  PHINode *I = B.CreatePHI(I64, 2, "hetgpu.i");
  I->addIncoming(TLin, Pre);
  B.CreateCondBr(B.CreateICmpULT(I, N), Body, Exit);
  B.SetInsertPoint(Body);
  Value *V = B.CreateLoad(I8, byteGEP(B, Src, I));
  B.CreateStore(V, byteGEP(B, Dst, I));
  I->addIncoming(B.CreateAdd(I, NThreads), Body);
  B.CreateBr(Head);
  B.SetInsertPoint(Exit);
}

void KernelInstrumenter::emitSharedCopy(IRBuilder<> &B, bool ToBuffer) {
  for (const SharedRegion &R : sharedRegions(B, AS_Generic)) {
    Value *Saved = byteGEP(B, SharedSave, R.Offset);
    Value *N = R.Size ? static_cast<Value *>(B.getInt64(R.Size)) : DynShared;
    if (ToBuffer)
      emitStridedCopy(B, Saved, R.Base, N);
    else
      emitStridedCopy(B, R.Base, Saved, N);
  }
}

/// Index of the memory slot of \p AI in \p P, or -1.
static int memorySlotOf(const SafePointPlan &P, const Value *AI) {
  for (unsigned I = 0; I < P.Values.size(); ++I)
    if (P.Values[I] == AI && P.Info->Slots[I].Kind == SlotKind::Memory)
      return I;
  return -1;
}

void KernelInstrumenter::emitSave(IRBuilder<> &B, SafePointPlan &P) {
  for (unsigned I = 0; I < P.Values.size(); ++I) {
    Value *V = P.Values[I];
    const SlotInfo &S = P.Info->Slots[I];
    Value *Dst = byteGEP(B, Record, S.Offset);
    switch (S.Kind) {
    case SlotKind::Value:
      B.CreateStore(V, Dst);
      break;
    case SlotKind::Memory:
      B.CreateMemCpy(Dst, MaybeAlign(1), V, MaybeAlign(S.Align), S.Size);
      break;
    case SlotKind::PrivatePtr: {
      Value *Base = getUnderlyingObject(V, 0);
      int Slot = memorySlotOf(P, Base);
      Value *Off = B.CreateSub(
          B.CreatePtrToInt(V, I64),
          B.CreatePtrToInt(castTo(B, Base, V->getType()->getPointerAddressSpace()),
                           I64));
      Value *Enc = B.CreateOr(B.CreateAnd(Off, B.getInt64(0xffffffffull)),
                              B.getInt64(uint64_t(std::max(Slot, 0)) << 32));
      B.CreateStore(Enc, Dst);
      break;
    }
    case SlotKind::SharedPtr: {
      unsigned AS = V->getType()->getPointerAddressSpace();
      Value *VI = B.CreatePtrToInt(V, I64);
      Value *Res = B.getInt64(0);
      // Earlier regions win: walk them backwards so the first match is last.
      auto Regions = sharedRegions(B, AS);
      for (const SharedRegion &R : reverse(Regions)) {
        Value *BI = B.CreatePtrToInt(R.Base, I64);
        Value *In = B.CreateICmpUGE(VI, BI);
        if (R.Size)
          In = B.CreateAnd(In, B.CreateICmpULE(
                                   VI, B.CreateAdd(BI, B.getInt64(R.Size))));
        Res = B.CreateSelect(
            In, B.CreateAdd(B.CreateSub(VI, BI), B.getInt64(R.Offset)), Res);
      }
      B.CreateStore(Res, Dst);
      break;
    }
    }
  }
}

void KernelInstrumenter::emitRestore(
    IRBuilder<> &B, SafePointPlan &P,
    SmallVectorImpl<std::pair<Instruction *, Value *>> &Out) {
  for (unsigned I = 0; I < P.Values.size(); ++I) {
    Value *V = P.Values[I];
    const SlotInfo &S = P.Info->Slots[I];
    Value *Src = byteGEP(B, Record, S.Offset);
    Value *R = nullptr;
    switch (S.Kind) {
    case SlotKind::Value:
      R = B.CreateLoad(V->getType(), Src);
      break;
    case SlotKind::Memory:
      B.CreateMemCpy(V, MaybeAlign(S.Align), Src, MaybeAlign(1), S.Size);
      continue; // the alloca itself dominates every block
    case SlotKind::PrivatePtr: {
      Value *Base = getUnderlyingObject(V, 0);
      Value *Enc = B.CreateLoad(I64, Src);
      Value *Off = B.CreateAnd(Enc, B.getInt64(0xffffffffull));
      R = byteGEP(B, castTo(B, Base, V->getType()->getPointerAddressSpace()), Off);
      break;
    }
    case SlotKind::SharedPtr: {
      unsigned AS = V->getType()->getPointerAddressSpace();
      Value *Off = B.CreateLoad(I64, Src);
      auto Regions = sharedRegions(B, AS);
      R = Regions.empty() ? static_cast<Value *>(
                                ConstantPointerNull::get(cast<PointerType>(V->getType())))
                          : byteGEP(B, Regions.front().Base,
                                    B.CreateSub(Off, B.getInt64(Regions.front().Offset)));
      for (const SharedRegion &Reg : drop_begin(Regions)) {
        Value *In = B.CreateICmpUGE(Off, B.getInt64(Reg.Offset));
        if (Reg.Size)
          In = B.CreateAnd(In, B.CreateICmpULE(Off, B.getInt64(Reg.Offset + Reg.Size)));
        R = B.CreateSelect(
            In, byteGEP(B, Reg.Base, B.CreateSub(Off, B.getInt64(Reg.Offset))), R);
      }
      break;
    }
    }
    if (auto *VI = dyn_cast<Instruction>(V))
      Out.emplace_back(VI, R);
  }
}

void KernelInstrumenter::instrumentSafePoint(SafePointPlan &P,
                                             BasicBlock *RestoreBB) {
  CallBase *CB = P.Call;
  unsigned Id = P.Info->Id;
  BasicBlock *Pre = CB->getParent();
  BasicBlock *SP = Pre->splitBasicBlock(CB, "hetgpu.sp." + Twine(Id));

  // Every thread reads {Yield, YieldAfter} with one volatile 64-bit load of
  // the same word (no branch, so no divergence in warp 0 on a GPU), and the
  // barrier_or makes the decision block-uniform even if the threads saw the
  // flag change. Volatile because the host may raise the flag while the
  // kernel runs (host memory, or a copy on another queue into device
  // memory: a GPU's L1 is not coherent with that); at one test per loop
  // safe point it costs nothing measurable. A block that raises the flag
  // (the random trigger) yields itself; blocks that see it later, or not at
  // all, still run correctly (to their end, or to a later safe point). Only
  // when the random trigger is armed (YieldAfter != 0, the same for every
  // thread) does thread 0 count the visit.
  // Between two chunks of a loop (InsertLoopSafePoints' chunkLoop, the
  // safe point's block goes back to the chunk header) the word is read when
  // the chunk starts: its latency (a GPU's L2, a few hundred ns on the H200,
  // in every block) overlaps the chunk's iterations instead of standing
  // between two of them (the stencil of bench/migration/overhead.cu: 1.06 on
  // the H200 with the read at the safe point). The flag is then seen one
  // chunk later at most.
  // (wireResumes keeps such a read ahead of a copied header's dispatch, so
  // a block resumed deeper in the nest still passes it.)
  IRBuilder<> B(Pre->getTerminator());
  bool Early = P.ChunkHeader;
  if (Early)
    B.SetInsertPoint(P.ChunkHeader->getFirstNonPHIIt());
  LoadInst *Both = B.CreateLoad(I64, ctrlField(B, CF_Yield),
                                /*isVolatile=*/true, "hetgpu.ctrlword");
  if (Early)
    Both->setMetadata(EarlyFlagMD, MDNode::get(*C, {}));
  B.SetInsertPoint(Pre->getTerminator());
  Value *Y0 = B.CreateTrunc(Both, I32, "hetgpu.yield");
  Value *After = B.CreateTrunc(B.CreateLShr(Both, 32), I32, "hetgpu.after");
  BasicBlock *TestBB = BasicBlock::Create(*C, "hetgpu.count.test", NF, SP);
  BasicBlock *CountBB = BasicBlock::Create(*C, "hetgpu.count", NF, SP);
  BasicBlock *SetBB = BasicBlock::Create(*C, "hetgpu.count.set", NF, SP);
  Pre->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Pre);
  B.CreateCondBr(B.CreateICmpNE(After, B.getInt32(0)), TestBB, SP);
  // The thread test uses the index builtins, so no value of the entry
  // block stays live across the barrier.
  B.SetInsertPoint(TestBB);
  Value *T0 = B.CreateICmpEQ(
      B.CreateOr(builtin(B, BuiltinID::tid_x),
                 B.CreateOr(builtin(B, BuiltinID::tid_y),
                            builtin(B, BuiltinID::tid_z))),
      B.getInt32(0), "hetgpu.t0");
  B.CreateCondBr(T0, CountBB, SP);
  B.SetInsertPoint(CountBB);
  Value *Old = B.CreateAtomicRMW(AtomicRMWInst::Add, ctrlField(B, CF_Visits),
                                 B.getInt32(1), MaybeAlign(4),
                                 AtomicOrdering::Monotonic);
  B.CreateCondBr(B.CreateICmpUGE(B.CreateAdd(Old, B.getInt32(1)), After), SetBB,
                 SP);
  B.SetInsertPoint(SetBB);
  B.CreateStore(B.getInt32(1), ctrlField(B, CF_Yield), /*isVolatile=*/true);
  B.CreateBr(SP);

  // The yield test: a barrier_or of the flag in place of the call.
  B.SetInsertPoint(SP, SP->begin());
  PHINode *Y = B.CreatePHI(I32, 5, "hetgpu.y");
  Y->addIncoming(Y0, Pre);
  Y->addIncoming(Y0, TestBB);
  Y->addIncoming(Y0, CountBB);
  Y->addIncoming(B.getInt32(1), SetBB);
  B.SetInsertPoint(CB);
  Instruction *Any = cast<Instruction>(builtin(B, BuiltinID::barrier_or, {Y}));
  // A loop safe point (__hetgpu_safepoint) is only this test.
  Any->takeName(CB);
  CB->eraseFromParent();
  P.Call = nullptr;
  BasicBlock *Cont = SP->splitBasicBlock(std::next(Any->getIterator()),
                                         "hetgpu.cont." + Twine(Id));
  BasicBlock *Save = BasicBlock::Create(*C, "hetgpu.save." + Twine(Id), NF, Cont);
  SP->getTerminator()->eraseFromParent();
  B.SetInsertPoint(SP);
  B.CreateCondBr(B.CreateICmpNE(Any, B.getInt32(0)), Save, Cont);

  B.SetInsertPoint(Save);
  emitAddressing(B);
  emitSave(B, P);
  emitSharedCopy(B, /*ToBuffer=*/true);
  B.CreateStore(B.getInt32(Id), byteGEP(B, Header, 4));
  // Suspended in round R: status R + 1, what round R + 1 resumes.
  B.CreateStore(B.CreateAdd(Round, B.getInt32(1)), Header);
  B.CreateRetVoid();

  // Resume: the shared memory is copied back here; the live values are
  // reloaded in a landing block right before the safe point, which the
  // resume path reaches through the headers of the loops around the safe
  // point (wireResumes), so the CFG stays reducible.
  B.SetInsertPoint(RestoreBB);
  emitAddressing(B);
  emitSharedCopy(B, /*ToBuffer=*/false);
  BasicBlock *RestoreEnd = B.GetInsertBlock();
  new UnreachableInst(*C, RestoreEnd); // replaced by wireResumes
  BasicBlock *Land =
      BasicBlock::Create(*C, "hetgpu.land." + Twine(Id), NF, SP);
  B.SetInsertPoint(Land);
  emitAddressing(B);
  ResumePath RP{RestoreEnd, Land, nullptr, SP, Id};
  emitRestore(B, P, RP.Reloaded);
  RP.LandEnd = B.GetInsertBlock();
  B.CreateBr(SP);
  Y->addIncoming(B.getInt32(0), RP.LandEnd);
  ResumePaths.push_back(std::move(RP));
  ++NumInstrumentedSafePoints;
}

/// Copies the loop nest \p L (all its blocks) for the resume paths into
/// it and returns the map from original to copied values. The copy leaves
/// to the same exits; values of the nest used outside it first go through
/// stack slots (EscapeSlots, promoted again by repairSSA), so both copies
/// feed the same uses. The copy is entered only from wireResumes' edges.
ValueToValueMapTy &KernelInstrumenter::copyLoopNest(Loop *L) {
  SmallPtrSet<BasicBlock *, 32> In(L->block_begin(), L->block_end());
  BasicBlock::iterator SlotPt = NF->getEntryBlock().begin();
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : make_early_inc_range(*BB)) {
      if (I.getType()->isVoidTy() || isa<AllocaInst>(I))
        continue;
      bool Escapes = any_of(I.uses(), [&](const Use &U) {
        auto *UI = cast<Instruction>(U.getUser());
        BasicBlock *UB = UI->getParent();
        if (auto *Phi = dyn_cast<PHINode>(UI))
          UB = Phi->getIncomingBlock(U);
        return !In.count(UB);
      });
      if (!Escapes)
        continue;
      // (Phis too: the instruction stays, the live-value lists refer to it.)
      EscapeSlots[&I] = DemoteRegToStack(I, false, SlotPt);
    }

  CopyMaps.push_back(std::make_unique<ValueToValueMapTy>());
  ValueToValueMapTy &VM = *CopyMaps.back();
  SmallVector<BasicBlock *, 32> Copies;
  for (BasicBlock *BB : L->blocks()) {
    BasicBlock *Copy = CloneBasicBlock(BB, VM, ".resume", NF);
    VM[BB] = Copy;
    Copies.push_back(Copy);
  }
  remapInstructionsInBlocks(Copies, VM);
  // Exits reached from the copy: their phis get the copied incoming values
  // (after the demotion above these are the values the phi already had, or
  // their copies).
  SmallVector<BasicBlock *, 8> Exits;
  L->getExitBlocks(Exits);
  SmallPtrSet<BasicBlock *, 8> Done;
  for (BasicBlock *Exit : Exits) {
    if (!Done.insert(Exit).second)
      continue;
    for (PHINode &Phi : Exit->phis())
      for (unsigned I = 0, E = Phi.getNumIncomingValues(); I != E; ++I) {
        BasicBlock *From = Phi.getIncomingBlock(I);
        if (!In.count(From))
          continue;
        Value *V = Phi.getIncomingValue(I);
        auto It = VM.find(V);
        Phi.addIncoming(It != VM.end() ? static_cast<Value *>(It->second) : V,
                        cast<BasicBlock>(VM[From]));
      }
  }
  // The copy's header is entered from the resume path only: its phis'
  // values from the preheader side are replaced in wireResumes.
  SmallPtrSet<BasicBlock *, 32> CopySet(Copies.begin(), Copies.end());
  BasicBlock *H = cast<BasicBlock>(VM[L->getHeader()]);
  for (PHINode &Phi : H->phis())
    for (unsigned I = Phi.getNumIncomingValues(); I-- > 0;)
      if (!CopySet.count(Phi.getIncomingBlock(I)))
        Phi.removeIncomingValue(I, /*DeletePHIIfEmpty=*/false);
  return VM;
}

/// Connects each resume path to its safe point. A safe point inside a loop
/// nest is entered in a copy of the nest (copyLoopNest) through the copy's
/// loop headers, outermost first: a jump from the entry straight into a
/// loop body would make the loop irreducible, which OpenCL compilers that
/// form work-item loops between barriers (PoCL) reject, and a dispatch in
/// the original headers would cost every iteration of every launch. Each
/// copied header gets a dispatch on the resumed safe point id (0 after the
/// safe point: one phi and one switch per iteration of the copy, which
/// only resumed blocks run).
void KernelInstrumenter::wireResumes() {
  if (ResumePaths.empty())
    return;
  BasicBlock &Entry = NF->getEntryBlock();
  ResumeId = new AllocaInst(I32, 0, "hetgpu.resumeid", Entry.begin());
  new StoreInst(ConstantInt::get(I32, 0), ResumeId,
                Entry.getTerminator()->getIterator());
  DominatorTree DT(*NF);
  LoopInfo LI(DT);
  // One copy per outermost loop with a resumed safe point.
  DenseMap<Loop *, ValueToValueMapTy *> Copied;
  for (ResumePath &RP : ResumePaths)
    if (Loop *L = LI.getLoopFor(RP.SP)) {
      Loop *Top = L->getOutermostLoop();
      if (!Copied.count(Top))
        Copied[Top] = &copyLoopNest(Top);
    }
  DenseMap<BasicBlock *, SwitchInst *> Dispatch;
  auto DispatchOf = [&](BasicBlock *H) {
    SwitchInst *&SW = Dispatch[H];
    if (!SW) {
      // After the chunk's early read of the yield flag, if the header has
      // one (instrumentSafePoint): every way through the header reads it.
      BasicBlock::iterator At = H->getFirstNonPHIIt();
      for (Instruction &I : *H)
        if (I.getMetadata(EarlyFlagMD))
          At = std::next(I.getIterator());
      BasicBlock *Run = H->splitBasicBlock(At, H->getName() + ".run");
      H->getTerminator()->eraseFromParent();
      IRBuilder<> B(H);
      SW = B.CreateSwitch(B.CreateLoad(I32, ResumeId, "hetgpu.rid"), Run);
    }
    return SW;
  };
  // A new edge into a block with phis: the phis' values on it are never
  // used (the landing block reloads every value live at the safe point).
  auto AddEdge = [](BasicBlock *From, BasicBlock *To) {
    for (PHINode &Phi : To->phis())
      Phi.addIncoming(PoisonValue::get(Phi.getType()), From);
  };
  for (ResumePath &RP : ResumePaths) {
    SmallVector<BasicBlock *, 4> Headers;
    Loop *L = LI.getLoopFor(RP.SP);
    ValueToValueMapTy *VM = L ? Copied[L->getOutermostLoop()] : nullptr;
    for (; L; L = L->getParentLoop())
      Headers.push_back(cast<BasicBlock>((*VM)[L->getHeader()]));
    std::reverse(Headers.begin(), Headers.end());
    BasicBlock *SP = VM ? cast<BasicBlock>((*VM)[RP.SP]) : RP.SP;
    if (VM) {
      // The landing block now continues in the copy.
      for (PHINode &Phi : RP.SP->phis())
        Phi.removeIncomingValue(RP.LandEnd, /*DeletePHIIfEmpty=*/false);
      RP.LandEnd->getTerminator()->replaceUsesOfWith(RP.SP, SP);
      RP.SP = SP;
      RP.Copy = VM;
    }
    RP.RestoreEnd->getTerminator()->eraseFromParent();
    IRBuilder<> B(RP.RestoreEnd);
    B.CreateStore(B.getInt32(RP.Id), ResumeId);
    BasicBlock *First = Headers.empty() ? RP.Land : Headers.front();
    B.CreateBr(First);
    AddEdge(RP.RestoreEnd, First);
    for (unsigned I = 0; I < Headers.size(); ++I) {
      BasicBlock *Next = I + 1 < Headers.size() ? Headers[I + 1] : RP.Land;
      DispatchOf(Headers[I])->addCase(B.getInt32(RP.Id), Next);
      AddEdge(Headers[I], Next);
    }
    new StoreInst(B.getInt32(0), ResumeId, SP->getFirstInsertionPt());
  }
}

/// Values the state layout left out because a resumed launch can recompute
/// them (isRecomputable) lose dominance over their uses once the resume
/// edges exist: they move to the entry block (with their operands), which
/// dominates every path. They stay plain SSA values, so no phi joins them at
/// the safe points (the CPU device recomputes such values after each sync
/// point instead of spilling them).
void KernelInstrumenter::hoistRecomputable() {
  DominatorTree DT(*NF);
  DenseMap<const Value *, bool> Cache;
  BasicBlock &Entry = NF->getEntryBlock();
  SmallPtrSet<Instruction *, 32> Hoist;
  SmallVector<Instruction *, 32> Work;
  for (BasicBlock &BB : *NF) {
    if (&BB == &Entry)
      continue;
    for (Instruction &I : BB) {
      if (I.getType()->isVoidTy() || isa<PHINode>(I))
        continue;
      if (all_of(I.uses(), [&](const Use &U) { return DT.dominates(&I, U); }))
        continue;
      if (isRecomputable(&I, Cache) && Hoist.insert(&I).second)
        Work.push_back(&I);
    }
  }
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    for (Value *Op : I->operands())
      if (auto *OI = dyn_cast<Instruction>(Op))
        if (OI->getParent() != &Entry && Hoist.insert(OI).second)
          Work.push_back(OI);
  }
  if (Hoist.empty())
    return;
  // Dominators come first in a depth-first preorder of the CFG, and a
  // block's instructions in their order: operands move before their users.
  SmallVector<Instruction *, 32> Order;
  for (BasicBlock *BB : depth_first(&Entry))
    for (Instruction &I : *BB)
      if (Hoist.count(&I))
        Order.push_back(&I);
  for (Instruction *I : Order)
    I->moveBefore(Entry.getTerminator()->getIterator());
}

void KernelInstrumenter::repairSSA() {
  // A safe point in a copied loop nest restores the copies of its values,
  // and the stack slot through which a value leaves the nest (its store
  // right after the value's definition is skipped on the resume path).
  for (ResumePath &RP : ResumePaths)
    if (RP.Copy)
      for (auto &[V, R] : RP.Reloaded) {
        if (AllocaInst *Slot = EscapeSlots.lookup(V))
          new StoreInst(R, Slot, RP.LandEnd->getTerminator()->getIterator());
        if (auto It = RP.Copy->find(V); It != RP.Copy->end())
          V = cast<Instruction>(It->second);
      }
  SetVector<Instruction *> Live;
  for (ResumePath &RP : ResumePaths)
    for (auto &[V, R] : RP.Reloaded)
      Live.insert(V);
  DenseMap<Instruction *, AllocaInst *> Slots;
  SmallVector<AllocaInst *, 16> Allocas;
  BasicBlock::iterator AllocaPt = NF->getEntryBlock().begin();
  for (Instruction *V : Live) {
    AllocaInst *A = DemoteRegToStack(*V, false, AllocaPt);
    Slots[V] = A;
    Allocas.push_back(A);
  }
  for (ResumePath &RP : ResumePaths)
    for (auto &[V, R] : RP.Reloaded)
      new StoreInst(R, Slots[V], RP.LandEnd->getTerminator()->getIterator());
  if (ResumeId)
    Allocas.push_back(ResumeId);
  for (auto &[V, Slot] : EscapeSlots)
    Allocas.push_back(Slot);
  DominatorTree DT(*NF);
  PromoteMemToReg(Allocas, DT);
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
  if (EarlyFlagRead) {
    DominatorTree DT(*NF);
    for (SafePointPlan &P : Plans) {
      BasicBlock *Pre = P.Call->getParent();
      BasicBlock *H = Pre->getSingleSuccessor();
      if (H && H != Pre && DT.dominates(H, Pre))
        P.ChunkHeader = H;
    }
  }
  buildEntry();
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
  wireResumes();
  hoistRecomputable();
  repairSSA();
  stripBundles();
  markInstrumented();
  ++NumInstrumentedKernels;
  return true;
}

bool isInstrumented(const Function &F) {
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
        if (S->getString() == InstrumentedKey)
          return true;
  }
  return false;
}

} // namespace

PreservedAnalyses InstrumentStatePass::run(Module &M,
                                           ModuleAnalysisManager &) {
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
  for (auto &[F, KI] : *Infos) {
    if (F->isDeclaration() || isInstrumented(*F))
      continue;
    KernelInstrumenter KIr(*F, KI, EarlyFlagRead);
    Changed |= KIr.run();
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace hetgpu
