//===- HostWarpArrays.cpp - Per-warp arrays in host lane-loop functions ---===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// convertToWarpArrays (HostLaneLoops.h): in a lane-loop function of a
/// kernel with warp operations, what the lanes exchange with the block
/// executor (sync kind and operands, results, values spilled across sync
/// points) moves from the lanes' thread states into arrays indexed by the
/// lane, copied in when the function is entered and out when it returns.
///
//===----------------------------------------------------------------------===//

#include "HostLaneLoops.h"

#include "hetgpu/ABI/BlockABI.h"
#include "hetgpu/ABI/BlockExecutor.h"
#include "hetgpu/Transforms/SIMTToMIMD.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <cstddef>
#include <cstdlib>
#include <map>
#include <set>

using namespace llvm;

namespace hetgpu {
namespace host {

namespace {

/// One run of convertToWarpArrays on a lane-loop function: the accesses
/// found (analyse), the arrays (rewriteAccesses), the copies in and out,
/// and the rewired exits.
class WarpArrays {
public:
  WarpArrays(Module &M, LaneLoopFunction &L)
      : M(M), DL(M.getDataLayout()), C(M.getContext()), L(L), F(*L.F),
        I32(Type::getInt32Ty(C)), I8(Type::getInt8Ty(C)),
        I64(Type::getInt64Ty(C)), Ptr(PointerType::getUnqual(C)) {}
  void run();

private:
  enum What { Kind, Arg, Result, Slot, Erase };
  struct Access {
    Instruction *I;
    unsigned Loop;
    What W;
    uint64_t Off; // Arg: operand number; Slot: frame offset
    Type *Ty;
    uint32_t Sync; // Slot: the sync id of SpillMD
  };
  static constexpr uint64_t KindOff = offsetof(hetgpu_thread_state, kind);
  static constexpr uint64_t ArgOff = offsetof(hetgpu_thread_state, arg);
  static constexpr uint64_t ResultOff = offsetof(hetgpu_thread_state, result);
  static constexpr uint64_t FrameOff = offsetof(hetgpu_thread_state, frame);
  static constexpr uint64_t TidOff = offsetof(hetgpu_thread_state, tid);
  static constexpr uint64_t LinearOff =
      offsetof(hetgpu_thread_state, linear);

  bool analyseSpills(unsigned Loop, LoadInst *FrameLoad);
  bool analyse(unsigned Loop, Instruction *Lane);
  CallInst *findFuse();
  AllocaInst *array(Type *Ty, unsigned N, const Twine &Name);
  AllocaInst *slotArray(uint64_t Off, Type *Ty);
  Value *elem(IRBuilder<> &B, AllocaInst *A, Value *Idx) {
    return B.CreateInBoundsGEP(A->getAllocatedType(), A,
                               {B.getInt32(0), Idx});
  }
  Value *fieldPtr(IRBuilder<> &B, Value *Lane, uint64_t Off) {
    return B.CreateConstInBoundsGEP1_64(I8, Lane, Off);
  }
  void rewriteAccesses();
  std::tuple<BasicBlock *, PHINode *, BasicBlock *>
  laneLoopBlocks(const Twine &Name, BasicBlock *After,
                 function_ref<void(IRBuilder<> &, Value *, Value *)> Body);
  void buildCopyIn();
  BasicBlock *buildCopyOut();
  CallInst *rewire(BasicBlock *CopyOut, CallInst *Fuse);

  Module &M;
  const DataLayout &DL;
  LLVMContext &C;
  LaneLoopFunction &L;
  Function &F;
  Type *I32, *I8, *I64;
  PointerType *Ptr;
  Argument *TS = nullptr, *Mask = nullptr, *Resume = nullptr, *Out = nullptr;

  SmallVector<Access, 64> Accesses;
  unsigned SpillsFound = 0;
  AllocaInst *KindA = nullptr, *ArgA = nullptr, *ResA = nullptr;
  MapVector<std::pair<uint64_t, Type *>, AllocaInst *> Slots;
  // Per loop: what the entry copies in; per sync id: what the exit copies
  // out.
  std::map<uint32_t, SetVector<std::pair<uint64_t, Type *>>> LoadsIn;
  std::map<uint32_t, bool> ResultIn;
  std::map<uint32_t, SetVector<std::pair<uint64_t, Type *>>> StoredAt;
  bool ArgUsed[4] = {false, false, false, false};
};

/// Spill accesses below a lane's frame pointer.
bool WarpArrays::analyseSpills(unsigned Loop, LoadInst *FrameLoad) {
  SmallVector<std::pair<Value *, uint64_t>, 8> Work{{FrameLoad, 0}};
  while (!Work.empty()) {
    auto [V, Off] = Work.pop_back_val();
    for (User *U : V->users()) {
      auto *UI = dyn_cast<Instruction>(U);
      if (!UI)
        return false;
      if (auto *GEP = dyn_cast<GetElementPtrInst>(UI)) {
        APInt A(64, 0);
        if (GEP->getPointerOperand() == V &&
            GEP->accumulateConstantOffset(DL, A))
          Work.push_back({GEP, Off + A.getZExtValue()});
        continue; // an allocation in the frame, say
      }
      MDNode *MD = UI->getMetadata(SpillMD);
      if (!MD)
        continue;
      Type *Ty = nullptr;
      if (auto *LI = dyn_cast<LoadInst>(UI);
          LI && LI->getPointerOperand() == V && LI->isSimple())
        Ty = LI->getType();
      else if (auto *SI = dyn_cast<StoreInst>(UI);
               SI && SI->getPointerOperand() == V && SI->isSimple() &&
               SI->getValueOperand() != V)
        Ty = SI->getValueOperand()->getType();
      if (!Ty || MD->getNumOperands() != 1)
        return false;
      auto *Id = mdconst::dyn_extract<ConstantInt>(MD->getOperand(0));
      if (!Id)
        return false;
      Accesses.push_back(
          {UI, Loop, Slot, Off, Ty, uint32_t(Id->getZExtValue())});
      ++SpillsFound;
    }
  }
  return true;
}

/// The accesses of loop \p Loop to its lane's thread state \p Lane (and,
/// through the frame pointer, to the spill slots); false when one has
/// another shape.
bool WarpArrays::analyse(unsigned Loop, Instruction *Lane) {
  SmallVector<std::pair<Value *, uint64_t>, 8> Work{{Lane, 0}};
  while (!Work.empty()) {
    auto [V, Off] = Work.pop_back_val();
    for (User *U : V->users()) {
      if (auto *GEP = dyn_cast<GetElementPtrInst>(U)) {
        APInt A(64, 0);
        if (GEP->getPointerOperand() != V ||
            !GEP->accumulateConstantOffset(DL, A))
          return false;
        Work.push_back({GEP, Off + A.getZExtValue()});
        continue;
      }
      if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getPointerOperand() != V || SI->getValueOperand() == V ||
            !SI->isSimple())
          return false;
        bool IsI32 = SI->getValueOperand()->getType() == I32;
        if (Off == offsetof(hetgpu_thread_state, resume) && IsI32)
          Accesses.push_back({SI, Loop, Erase, 0, I32, 0});
        else if (Off == KindOff && IsI32)
          Accesses.push_back({SI, Loop, Kind, 0, I32, 0});
        else if (Off >= ArgOff && Off < ArgOff + 16 && Off % 4 == 0 && IsI32)
          Accesses.push_back({SI, Loop, Arg, (Off - ArgOff) / 4, I32, 0});
        else
          return false;
        continue;
      }
      auto *LI = dyn_cast<LoadInst>(U);
      if (!LI || !LI->isSimple())
        return false;
      if (Off == offsetof(hetgpu_thread_state, resume) && LI->use_empty())
        Accesses.push_back({LI, Loop, Erase, 0, I32, 0});
      else if (Off == ResultOff && LI->getType() == I32)
        Accesses.push_back({LI, Loop, Result, 0, I32, 0});
      else if (Off >= TidOff && Off <= LinearOff && Off % 4 == 0)
        continue; // read only: stays in the thread state
      else if (Off == FrameOff && LI->getType()->isPointerTy()) {
        if (!analyseSpills(Loop, LI))
          return false;
      } else {
        return false;
      }
    }
  }
  return true;
}

/// The one __hetgpu_exec_fuse call of F, or null (leave F alone) when there
/// is none, more than one, or spill accesses analyse() did not see.
CallInst *WarpArrays::findFuse() {
  unsigned SpillsInF = 0;
  CallInst *Fuse = nullptr;
  for (Instruction &I : instructions(F)) {
    SpillsInF += I.hasMetadata(SpillMD);
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (CI->getCalledFunction() &&
          CI->getCalledFunction()->getName() == "__hetgpu_exec_fuse") {
        if (Fuse)
          return nullptr;
        Fuse = CI;
      }
  }
  if (SpillsInF != SpillsFound)
    return nullptr;
  return Fuse;
}

AllocaInst *WarpArrays::array(Type *Ty, unsigned N, const Twine &Name) {
  IRBuilder<> AB(L.Entry->getTerminator());
  AllocaInst *A = AB.CreateAlloca(ArrayType::get(Ty, N), nullptr, Name);
  A->setAlignment(Align(64));
  return A;
}

AllocaInst *WarpArrays::slotArray(uint64_t Off, Type *Ty) {
  AllocaInst *&A = Slots[{Off, Ty}];
  if (!A)
    A = array(Ty, 32, "warp.slot." + Twine(Off));
  return A;
}

/// Points every access found at its lane's element of the arrays.
void WarpArrays::rewriteAccesses() {
  for (Access &A : Accesses) {
    Instruction *I = A.I;
    if (A.W == Erase) {
      I->eraseFromParent();
      continue;
    }
    IRBuilder<> B(I);
    Value *Idx = L.Loops[A.Loop].I;
    Value *P;
    switch (A.W) {
    case Kind:
      P = elem(B, KindA, Idx);
      break;
    case Arg:
      P = elem(B, ArgA, B.CreateAdd(Idx, B.getInt32(uint32_t(32 * A.Off))));
      ArgUsed[A.Off] = true;
      break;
    case Result:
      P = elem(B, ResA, Idx);
      ResultIn[L.Loops[A.Loop].Point] = true;
      break;
    default:
      P = elem(B, slotArray(A.Off, A.Ty), Idx);
      if (isa<LoadInst>(I))
        LoadsIn[L.Loops[A.Loop].Point].insert({A.Off, A.Ty});
      else
        StoredAt[A.Sync].insert({A.Off, A.Ty});
      break;
    }
    Align Al = DL.getABITypeAlign(A.Ty);
    if (auto *LI = dyn_cast<LoadInst>(I)) {
      LI->setOperand(LI->getPointerOperandIndex(), P);
      LI->setAlignment(Al);
    } else {
      auto *SI = cast<StoreInst>(I);
      SI->setOperand(SI->getPointerOperandIndex(), P);
      SI->setAlignment(Al);
    }
  }
}

/// A loop over the lanes of the mask; Body(B, lane index, lane state)
/// fills the body and leaves B in the block that ends it.
std::tuple<BasicBlock *, PHINode *, BasicBlock *> WarpArrays::laneLoopBlocks(
    const Twine &Name, BasicBlock *After,
    function_ref<void(IRBuilder<> &, Value *, Value *)> Body) {
  BasicBlock *Head = BasicBlock::Create(C, Name + ".head", &F, L.Exit);
  BasicBlock *Work = BasicBlock::Create(C, Name + ".lane", &F, L.Exit);
  BasicBlock *Next = BasicBlock::Create(C, Name + ".next", &F, L.Exit);
  IRBuilder<> B(Head);
  PHINode *J = B.CreatePHI(I32, 2, "j");
  B.CreateCondBr(B.CreateTrunc(B.CreateLShr(Mask, J), B.getInt1Ty()), Work,
                 Next);
  B.SetInsertPoint(Work);
  Value *Lane = B.CreateInBoundsGEP(
      I8, TS,
      B.CreateMul(B.CreateZExt(J, I64),
                  B.getInt64(sizeof(hetgpu_thread_state))));
  Body(B, J, Lane);
  B.CreateBr(Next);
  B.SetInsertPoint(Next);
  Value *N = B.CreateAdd(J, B.getInt32(1), "j.next", true, true);
  B.CreateCondBr(B.CreateICmpULT(N, B.getInt32(32)), Head, After);
  J->addIncoming(N, Next);
  return std::make_tuple(Head, J, Next);
}

/// Entry: copy in, then the loop of the resume point.
void WarpArrays::buildCopyIn() {
  auto *OldSW = cast<SwitchInst>(L.Dispatch->getTerminator());
  BasicBlock *Generic = OldSW->getDefaultDest();
  BasicBlock *EntrySwitch =
      BasicBlock::Create(C, "entry.dispatch", &F, L.Dispatch);
  L.Entry->getTerminator()->eraseFromParent();
  BranchInst::Create(EntrySwitch, L.Entry);
  L.At->removeIncomingValue(L.Entry);
  IRBuilder<> EB(EntrySwitch);
  SwitchInst *ESW = EB.CreateSwitch(Resume, Generic, L.Loops.size());
  cast<PHINode>(&Generic->front())->addIncoming(EB.getInt32(0), EntrySwitch);
  std::set<uint32_t> Entered;
  for (LaneLoop &LL : L.Loops) {
    uint32_t P = LL.Point;
    if (!Entered.insert(P).second)
      continue;
    auto &Keys = LoadsIn[P];
    bool Res = ResultIn[P];
    if (Keys.empty() && !Res) {
      ESW->addCase(EB.getInt32(P), LL.Pick);
      continue;
    }
    auto [Head, J, Last] = laneLoopBlocks(
        "copyin" + Twine(P), LL.Pick,
        [&](IRBuilder<> &B, Value *J, Value *Lane) {
          if (!Keys.empty()) {
            Value *Frame = B.CreateLoad(Ptr, fieldPtr(B, Lane, FrameOff));
            for (auto [Off, Ty] : Keys)
              B.CreateStore(B.CreateAlignedLoad(
                                Ty, fieldPtr(B, Frame, Off), Align(1)),
                            elem(B, slotArray(Off, Ty), J));
          }
          if (Res)
            B.CreateStore(B.CreateLoad(I32, fieldPtr(B, Lane, ResultOff)),
                          elem(B, ResA, J));
        });
    J->addIncoming(EB.getInt32(0), EntrySwitch);
    ESW->addCase(EB.getInt32(P), Head);
    (void)Last;
  }
}

/// Back to the executor: copy out what it and the next resume read. A
/// lane's values are those saved at the sync point it stopped at (Out[j]);
/// a lane that exited (Out[j] == 0) has nothing the executor reads, so the
/// common end of a kernel (every lane done) copies nothing.
BasicBlock *WarpArrays::buildCopyOut() {
  auto [Head, J, Last] = laneLoopBlocks(
      "copyout", L.Exit, [&](IRBuilder<> &B, Value *J, Value *Lane) {
        BasicBlock *Live = BasicBlock::Create(C, "copyout.live", &F, L.Exit);
        BasicBlock *Join = BasicBlock::Create(C, "copyout.join", &F, L.Exit);
        Value *Id = B.CreateLoad(I32, B.CreateInBoundsGEP(I32, Out, J), "id");
        B.CreateCondBr(B.CreateICmpEQ(Id, B.getInt32(0)), Join, Live);
        B.SetInsertPoint(Live);
        B.CreateStore(B.CreateLoad(I32, elem(B, KindA, J)),
                      fieldPtr(B, Lane, KindOff));
        for (unsigned K = 0; K < 4; ++K)
          if (ArgUsed[K])
            B.CreateStore(
                B.CreateLoad(I32, elem(B, ArgA,
                                       B.CreateAdd(J, B.getInt32(32 * K)))),
                fieldPtr(B, Lane, ArgOff + 4 * K));
        if (StoredAt.empty()) {
          B.CreateBr(Join);
          B.SetInsertPoint(Join);
          return;
        }
        SwitchInst *SW = B.CreateSwitch(Id, Join, StoredAt.size());
        for (auto &[Sync, Keys] : StoredAt) {
          BasicBlock *Case = BasicBlock::Create(
              C, "copyout.sync" + Twine(Sync), &F, Join);
          SW->addCase(B.getInt32(Sync), Case);
          IRBuilder<> CB(Case);
          Value *Frame = CB.CreateLoad(Ptr, fieldPtr(CB, Lane, FrameOff));
          for (auto [Off, Ty] : Keys)
            CB.CreateAlignedStore(
                CB.CreateLoad(Ty, elem(CB, slotArray(Off, Ty), J)),
                fieldPtr(CB, Frame, Off), Align(1));
          CB.CreateBr(Join);
        }
        B.SetInsertPoint(Join);
      });
  // First, in one pass that vectorises, whether any lane of the mask is
  // still alive: if none is, there is nothing to copy.
  // A full mask (the common case) needs no mask test: one OR over the ids.
  BasicBlock *CopyOut = BasicBlock::Create(C, "copyout", &F, Head);
  BasicBlock *Full = BasicBlock::Create(C, "copyout.full", &F, Head);
  BasicBlock *Any = BasicBlock::Create(C, "copyout.any", &F, Head);
  BasicBlock *Check = BasicBlock::Create(C, "copyout.check", &F, Head);
  IRBuilder<> B(CopyOut);
  B.CreateCondBr(B.CreateICmpEQ(Mask, B.getInt32(-1)), Full, Any);
  B.SetInsertPoint(Full);
  Value *AllIds = B.CreateAlignedLoad(FixedVectorType::get(I32, 32), Out,
                                      Align(4), "ids.all");
  Value *AnyAlive = B.CreateOrReduce(AllIds);
  B.CreateCondBr(B.CreateICmpEQ(AnyAlive, B.getInt32(0)), L.Exit, Head);
  J->addIncoming(ConstantInt::get(I32, 0), Full);
  B.SetInsertPoint(Any);
  PHINode *K = B.CreatePHI(I32, 2, "k");
  PHINode *Acc = B.CreatePHI(I32, 2, "alive");
  Value *In = B.CreateTrunc(B.CreateLShr(Mask, K), B.getInt1Ty());
  Value *Id = B.CreateLoad(I32, B.CreateInBoundsGEP(I32, Out, K));
  Value *Acc2 = B.CreateOr(Acc, B.CreateSelect(In, Id, B.getInt32(0)));
  Value *K2 = B.CreateAdd(K, B.getInt32(1), "k.next", true, true);
  B.CreateCondBr(B.CreateICmpULT(K2, B.getInt32(32)), Any, Check);
  K->addIncoming(B.getInt32(0), CopyOut);
  K->addIncoming(K2, Any);
  Acc->addIncoming(B.getInt32(0), CopyOut);
  Acc->addIncoming(Acc2, Any);
  B.SetInsertPoint(Check);
  B.CreateCondBr(B.CreateICmpEQ(Acc2, B.getInt32(0)), L.Exit, Head);
  J->addIncoming(ConstantInt::get(I32, 0), Check);
  (void)Last;
  return CopyOut;
}

/// Every way back to the executor from the inlined loops passes CopyOut;
/// fused operations work on the arrays. Returns the new fuse call.
CallInst *WarpArrays::rewire(BasicBlock *CopyOut, CallInst *Fuse) {
  // The generic loop (plain calls) wrote the states itself.
  for (BasicBlock *BB : {L.Done, Fuse->getParent()}) {
    Instruction *Term = BB->getTerminator();
    for (unsigned S = 0; S < Term->getNumSuccessors(); ++S)
      if (Term->getSuccessor(S) == L.Exit)
        Term->setSuccessor(S, CopyOut);
  }
  if (L.GenericLatch) {
    Instruction *Term = L.GenericLatch->getTerminator();
    for (unsigned S = 0; S < Term->getNumSuccessors(); ++S)
      if (Term->getSuccessor(S) == L.Done)
        Term->setSuccessor(S, L.Exit);
  }
  // After a fused operation the next sync id is always one of the loops';
  // anything else returns to the executor.
  auto *OldSW = cast<SwitchInst>(L.Dispatch->getTerminator());
  BasicBlock *Generic = OldSW->getDefaultDest();
  cast<PHINode>(&Generic->front())->removeIncomingValue(L.Dispatch);
  OldSW->setDefaultDest(CopyOut);

  FunctionCallee FuseSoA = M.getOrInsertFunction(
      "__hetgpu_exec_fuse_soa",
      FunctionType::get(I32, {I32, Ptr, Ptr, Ptr, Ptr}, false));
  IRBuilder<> FB(Fuse);
  CallInst *Next =
      FB.CreateCall(FuseSoA, {Mask, Out, KindA, ArgA, ResA}, "next");
  Fuse->replaceAllUsesWith(Next);
  Fuse->eraseFromParent();
  return Next;
}

void WarpArrays::run() {
  for (unsigned I = 0; I < L.Loops.size(); ++I)
    if (!analyse(I, L.Loops[I].Lane))
      return;
  // Only kernels with warp operations gain (fused operations on the
  // arrays); with block barriers alone the copies would only add work.
  bool WarpOps = false;
  for (Access &A : Accesses)
    if (A.W == Kind)
      WarpOps |= !isBlockBarrierKind(cast<StoreInst>(A.I)->getValueOperand());
  if (!WarpOps)
    return;
  CallInst *Fuse = findFuse();
  if (!Fuse)
    return;

  // The arrays.
  TS = F.getArg(2);
  Mask = F.getArg(3);
  Resume = F.getArg(4);
  Out = F.getArg(5);
  KindA = array(I32, 32, "warp.kind");
  ArgA = array(I32, 128, "warp.args");
  ResA = array(I32, 32, "warp.result");
  rewriteAccesses();
  buildCopyIn();
  CallInst *FuseSoA = rewire(buildCopyOut(), Fuse);
  inlineUniformWarpOps(M, L, FuseSoA, ArgA, ResA);
}

} // namespace

void convertToWarpArrays(Module &M, LaneLoopFunction &L) {
  WarpArrays(M, L).run();
}

} // namespace host
} // namespace hetgpu
