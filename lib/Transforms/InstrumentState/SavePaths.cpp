//===- SavePaths.cpp - Save and restore a block's state at a safe point ---===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The state-buffer side of `hetgpu-instrument-state` (docs/StateMetadata.md,
/// ABI/Migration.h): where a block's header, saved shared memory and each
/// thread's record sit in the launch's state buffer, how a thread stores and
/// reloads the live values of a safe point by slot kind (value, private
/// memory, private pointer as {slot, offset}, shared pointer as a layout
/// offset), and the strided copy of the block's shared memory to and from
/// the buffer that every thread of the block takes part in.
///
//===----------------------------------------------------------------------===//

#include "Instrumenter.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"

using namespace llvm;
using namespace hetgpu::container;

namespace hetgpu {
namespace instrument {

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
  Value *BLin = B.CreateAdd(
      Cx, B.CreateMul(Gx, B.CreateAdd(Cy, B.CreateMul(Gy, Cz))), "hetgpu.blin");
  DynShared = B.CreateZExt(B.CreateLoad(I32, ctrlField(B, CF_DynShared)), I64,
                           "hetgpu.dynshared");
  uint64_t Static16 = alignTo(KI.StaticShared, 16);
  Value *SharedBytes =
      B.CreateAnd(B.CreateAdd(DynShared, B.getInt64(Static16 + 15)),
                  B.getInt64(~15ull), "hetgpu.sharedbytes");
  Value *BlockBytes = B.CreateAdd(
      B.CreateAdd(SharedBytes, B.getInt64(abi::StateBlockHeaderBytes)),
      B.CreateMul(NThreads, B.getInt64(RecordSize)), "hetgpu.blockbytes");
  Header = byteGEP(B, State, B.CreateMul(BLin, BlockBytes), "hetgpu.header");
  SharedSave =
      byteGEP(B, Header, abi::StateBlockHeaderBytes, "hetgpu.sharedsave");
  Record = byteGEP(
      B, SharedSave,
      B.CreateAdd(SharedBytes, B.CreateMul(TLin, B.getInt64(RecordSize))),
      "hetgpu.record");
  if (UsesDynShared)
    DynBase = builtin(B, BuiltinID::dynamic_shared);
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

void KernelInstrumenter::emitStridedCopy(IRBuilder<> &B, Value *Dst, Value *Src,
                                         Value *N) {
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
          B.CreatePtrToInt(
              castTo(B, Base, V->getType()->getPointerAddressSpace()), I64));
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
          In = B.CreateAnd(
              In, B.CreateICmpULE(VI, B.CreateAdd(BI, B.getInt64(R.Size))));
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
      R = byteGEP(B, castTo(B, Base, V->getType()->getPointerAddressSpace()),
                  Off);
      break;
    }
    case SlotKind::SharedPtr: {
      unsigned AS = V->getType()->getPointerAddressSpace();
      Value *Off = B.CreateLoad(I64, Src);
      auto Regions = sharedRegions(B, AS);
      R = Regions.empty()
              ? static_cast<Value *>(
                    ConstantPointerNull::get(cast<PointerType>(V->getType())))
              : byteGEP(B, Regions.front().Base,
                        B.CreateSub(Off, B.getInt64(Regions.front().Offset)));
      for (const SharedRegion &Reg : drop_begin(Regions)) {
        Value *In = B.CreateICmpUGE(Off, B.getInt64(Reg.Offset));
        if (Reg.Size)
          In = B.CreateAnd(
              In, B.CreateICmpULE(Off, B.getInt64(Reg.Offset + Reg.Size)));
        R = B.CreateSelect(
            In, byteGEP(B, Reg.Base, B.CreateSub(Off, B.getInt64(Reg.Offset))),
            R);
      }
      break;
    }
    }
    if (auto *VI = dyn_cast<Instruction>(V))
      Out.emplace_back(VI, R);
  }
}

} // namespace instrument
} // namespace hetgpu
