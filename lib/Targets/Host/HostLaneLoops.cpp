//===- HostLaneLoops.cpp - Lane-loop functions of the host target ---------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// addLaneLoops (HostLaneLoops.h): for each thread function the block
/// executor runs, a lane-loop function `<T>.lanes` (ABI/BlockExecutor.h)
/// that runs the lanes of a warp in one call, one loop per resume point
/// with the thread function inlined and pruned to what that point reaches,
/// plus row loops for warps whose lanes share a row of the block.
/// HETGPU_HOST_LANE_LOOPS=0, HETGPU_HOST_ROW_LOOPS=0 and
/// HETGPU_HOST_WARP_ARRAYS=0 turn the pieces off (comparisons).
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
#include "llvm/IR/Dominators.h"
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
#include <optional>
#include <set>
#include <tuple>

using namespace llvm;

namespace hetgpu {
namespace host {

bool isBlockBarrierKind(Value *V) {
  auto *K = dyn_cast<ConstantInt>(V);
  return K && K->getZExtValue() >= HETGPU_SYNC_BARRIER &&
         K->getZExtValue() <= HETGPU_SYNC_BARRIER_OR;
}

namespace {

/// Name of the executor entry that also takes a lane-loop function.
constexpr StringLiteral ExecBlockLanesName = "__hetgpu_exec_block_lanes";

/// Above this many instructions (thread function size times the number of
/// its resume points) no lane-loop function is built: every resume point
/// gets its own inlined copy of the thread function before O3 prunes it.
constexpr unsigned MaxLaneLoopInstructions = 40000;

/// Whether the kernel of thread function \p T (`K.hetgpu.thread`) is listed
/// in `!hetgpu.unwatched.copies` (hetgpu-instrument-state, BarrierPoint.cpp).
bool hasUnwatchedCopy(const Module &M, const Function &T) {
  const NamedMDNode *N = M.getNamedMetadata("hetgpu.unwatched.copies");
  StringRef K = T.getName();
  if (!N || !K.consume_back(".hetgpu.thread"))
    return false;
  for (const MDNode *Op : N->operands())
    if (Op->getNumOperands())
      if (auto *S = dyn_cast<MDString>(Op->getOperand(0)))
        if (S->getString() == K)
          return true;
  return false;
}

/// The `switch (ts->resume)` that the thread function \p T dispatches on
/// (default: the kernel entry, resume point 0), or null.
SwitchInst *resumeSwitch(Function &T) {
  if (T.isDeclaration() || T.arg_size() != 3)
    return nullptr;
  for (BasicBlock &BB : T) {
    auto *SW = dyn_cast<SwitchInst>(BB.getTerminator());
    auto *L = SW ? dyn_cast<LoadInst>(SW->getCondition()) : nullptr;
    if (L && L->getPointerOperand()->stripPointerCasts() == T.getArg(2))
      return SW;
  }
  return nullptr;
}

/// The sync ids the thread function \p T dispatches on, 0 first; empty
/// when \p T has another shape.
SmallVector<uint32_t, 16> resumePoints(Function &T) {
  SmallVector<uint32_t, 16> Ids;
  SwitchInst *SW = resumeSwitch(T);
  if (!SW)
    return Ids;
  Ids.push_back(0);
  for (auto &Case : SW->cases())
    Ids.push_back(uint32_t(Case.getCaseValue()->getZExtValue()));
  return Ids;
}

/// Inlines \p Call (a call of the thread function \p T) after pruning a
/// copy of \p T to what resume point \p Id reaches, so that O3 does not
/// have to optimise the other regions in every loop.
bool inlineRegion(CallInst &Call, Function &T, uint32_t Id) {
  ValueToValueMapTy VM;
  Function *R = CloneFunction(&T, VM);
  if (SwitchInst *SW = resumeSwitch(*R)) {
    BasicBlock *Dest = Id == 0 ? SW->getDefaultDest()
                               : SW->findCaseValue(ConstantInt::get(
                                     cast<IntegerType>(
                                         SW->getCondition()->getType()),
                                     Id))
                                     ->getCaseSuccessor();
    bool Kept = false; // one edge to Dest stays
    for (BasicBlock *Succ : successors(SW->getParent())) {
      if (Succ == Dest && !Kept)
        Kept = true;
      else
        Succ->removePredecessor(SW->getParent());
    }
    BranchInst::Create(Dest, SW->getIterator());
    SW->eraseFromParent();
    removeUnreachableBlocks(*R);
  }
  Call.setCalledFunction(R);
  InlineFunctionInfo IFI;
  bool Ok = InlineFunction(Call, IFI).isSuccess();
  R->eraseFromParent();
  return Ok;
}

/// HETGPU_HOST_ROW_LOOPS=0 builds one loop per resume point only (no
/// second loop for warps whose lanes share a row, see buildLaneFunction).
bool rowLoopsDisabled() {
  const char *Env = std::getenv("HETGPU_HOST_ROW_LOOPS");
  return Env && StringRef(Env) == "0";
}

/// HETGPU_HOST_WARP_ARRAYS=0 keeps the lanes' operations and frame values
/// in the thread states during lane loops (comparisons).
bool soaDisabled() {
  const char *Env = std::getenv("HETGPU_HOST_WARP_ARRAYS");
  return Env && StringRef(Env) == "0";
}

/// In the row loop \p RL, the loads of the lane's tid and linear id become
/// lane 0's (\p X0, \p Y0, \p Z0, \p Lin0) plus the lane index where it
/// counts.
SmallVector<Instruction *, 4> useRowIds(Module &M, const LaneLoop &RL,
                                        Value *X0, Value *Y0, Value *Z0,
                                        Value *Lin0) {
  const DataLayout &DL = M.getDataLayout();
  Type *I32 = Type::getInt32Ty(M.getContext());
  SmallVector<std::pair<Value *, uint64_t>, 8> Work{{RL.Lane, 0}};
  SmallVector<std::pair<LoadInst *, Value *>, 8> Repl;
  SmallVector<Instruction *, 4> TidX;
  while (!Work.empty()) {
    auto [V, Off] = Work.pop_back_val();
    for (User *U : V->users()) {
      if (auto *GEP = dyn_cast<GetElementPtrInst>(U)) {
        APInt A(64, 0);
        if (GEP->getPointerOperand() == V &&
            GEP->accumulateConstantOffset(DL, A))
          Work.push_back({GEP, Off + A.getZExtValue()});
        continue;
      }
      auto *LI = dyn_cast<LoadInst>(U);
      if (!LI || LI->getPointerOperand() != V || LI->getType() != I32 ||
          !LI->isSimple())
        continue;
      IRBuilder<> RB(LI);
      // x0 + 31 < blockDim.x: no wrap.
      if (Off == offsetof(hetgpu_thread_state, tid)) {
        TidX.push_back(cast<Instruction>(RB.CreateAdd(X0, RL.I, "tid.x.row",
                                                      /*HasNUW=*/true,
                                                      /*HasNSW=*/true)));
        Repl.push_back({LI, TidX.back()});
      } else if (Off == offsetof(hetgpu_thread_state, tid) + 4)
        Repl.push_back({LI, Y0});
      else if (Off == offsetof(hetgpu_thread_state, tid) + 8)
        Repl.push_back({LI, Z0});
      else if (Off == offsetof(hetgpu_thread_state, linear))
        Repl.push_back({LI, RB.CreateAdd(Lin0, RL.I, "linear.row")});
    }
  }
  for (auto [LI, V] : Repl) {
    LI->replaceAllUsesWith(V);
    LI->eraseFromParent();
  }
  return TidX;
}

/// A copy of \p V before \p At when V is invariant in the loops of a
/// lane-loop function: constants, arguments, values defined in a block
/// that dominates At, invariant loads of the block context, and pure
/// arithmetic on those (depth <= 8); null otherwise.
Value *invariantCopy(Value *V, Instruction *At, DominatorTree &DT,
                     unsigned Depth = 0) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return V;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8)
    return nullptr;
  if (DT.dominates(I, At))
    return I;
  auto *LI = dyn_cast<LoadInst>(I);
  if (LI &&
      !(LI->isSimple() && LI->hasMetadata(LLVMContext::MD_invariant_load)))
    return nullptr;
  if (!LI && !isa<CastInst>(I) && !isa<GetElementPtrInst>(I) &&
      !(isa<BinaryOperator>(I) && !I->isIntDivRem()))
    return nullptr;
  SmallVector<Value *, 2> Ops;
  for (Value *Op : I->operands()) {
    Value *C = invariantCopy(Op, At, DT, Depth + 1);
    if (!C)
      return nullptr;
    Ops.push_back(C);
  }
  Instruction *Copy = I->clone();
  for (unsigned K = 0; K < Ops.size(); ++K)
    Copy->setOperand(K, Ops[K]);
  Copy->insertBefore(At->getIterator());
  return Copy;
}

/// In the row loop \p RL (threadIdx.x = x0 + i, \p TidX), an index
/// `C + threadIdx.x` with C invariant, as CUDA's `blockIdx.x * 32 +
/// threadIdx.x`, is unsigned arithmetic without wrap flags: its sign
/// extension is no induction of the loop, so `a[x]` in a region is a
/// gather or scatter (or, conditional, stays scalar). The row loop is taken
/// only when C + x0 .. C + x0 + 31 also fits in an int (C computed before
/// the loops), and the add gets nsw: consecutive accesses.
void markRowIndices(LaneLoop &RL, ArrayRef<Instruction *> TidX, Value *X0,
                    DominatorTree &DT) {
  auto *Br = dyn_cast<BranchInst>(RL.Pick->getTerminator());
  if (!Br || !Br->isConditional())
    return;
  IRBuilder<> B(Br);
  Value *Ok = nullptr;
  for (Instruction *T : TidX)
    for (User *U : T->users()) {
      auto *Add = dyn_cast<BinaryOperator>(U);
      if (!Add || Add->getOpcode() != Instruction::Add ||
          Add->hasNoSignedWrap())
        continue;
      Value *C = Add->getOperand(Add->getOperand(0) == T ? 1 : 0);
      Value *CC = invariantCopy(C, Br, DT);
      if (!CC)
        continue;
      // One instruction per statement: a fixed order.
      Value *CS = B.CreateSExt(CC, B.getInt64Ty());
      Value *XS = B.CreateZExt(X0, B.getInt64Ty());
      Value *Lo = B.CreateAdd(CS, XS);
      Value *GE = B.CreateICmpSGE(Lo, B.getInt64(INT32_MIN));
      Value *LE = B.CreateICmpSLE(Lo, B.getInt64(INT32_MAX - 31));
      Value *Fits = B.CreateAnd(GE, LE);
      Ok = Ok ? B.CreateAnd(Ok, Fits) : Fits;
      Add->setHasNoSignedWrap(true);
    }
  if (Ok)
    Br->setCondition(B.CreateAnd(Br->getCondition(), Ok, "row.fits"));
}

/// The invariant loads of the inlined setups in \p LF that read the
/// argument buffer (arg 0) or a parameter through a pointer read from it
/// become one load each before the loop(s) of their resume point (the
/// block that picks between a point's loops). Every lane runs its thread's
/// setup, which reads them all (SIMTToMIMD), so they may be read once per
/// entry of a loop; inside it O3 would sink them into the conditional code
/// that uses them, where they cannot be speculated and keep the region
/// from vectorising (warpVote's `i < n ? in[i] : 0`). Block-context loads
/// stay where they are (hoisting those as well cost bench.cu's transpose
/// 2 instructions per thread and gained nothing).
void hoistParamLoads(Function &LF, ArrayRef<LaneLoop> Loops) {
  const DataLayout &DL = LF.getDataLayout();
  DominatorTree DT(LF);
  // Per loop entry: loads of the same address, type and alignment.
  using Key = std::tuple<BasicBlock *, Value *, uint64_t, Type *, uint64_t>;
  std::map<Key, LoadInst *> Hoisted;
  auto PickOf = [&](Instruction *I) -> BasicBlock * {
    for (const LaneLoop &LL : Loops)
      if (DT.dominates(LL.I->getParent(), I->getParent()))
        return LL.Pick;
    return nullptr;
  };
  auto Hoist = [&](LoadInst *LI, BasicBlock *Pick, Value *Base, uint64_t Off) {
    Key K{Pick, Base, Off, LI->getType(), LI->getAlign().value()};
    LoadInst *&H = Hoisted[K];
    if (!H) {
      IRBuilder<> B(Pick->getTerminator());
      H = B.CreateAlignedLoad(
          LI->getType(), B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, Off),
          LI->getAlign(), LI->getName());
      H->setMetadata(LLVMContext::MD_invariant_load,
                     MDNode::get(LF.getContext(), {}));
    }
    LI->replaceAllUsesWith(H);
    LI->eraseFromParent();
    return H;
  };
  auto Invariant = [](Value *V) -> LoadInst * {
    auto *LI = dyn_cast<LoadInst>(V);
    return LI && LI->isSimple() &&
                   LI->hasMetadata(LLVMContext::MD_invariant_load)
               ? LI
               : nullptr;
  };
  // First the argument buffer's pointers, then what is read through them.
  SmallVector<std::tuple<LoadInst *, BasicBlock *, uint64_t>, 32> Slots;
  for (Instruction &I : instructions(LF))
    if (LoadInst *LI = Invariant(&I)) {
      APInt A(DL.getIndexTypeSizeInBits(LI->getPointerOperandType()), 0);
      Value *Base = LI->getPointerOperand()->stripAndAccumulateConstantOffsets(
          DL, A, /*AllowNonInbounds=*/true);
      if (Base == LF.getArg(0) && !A.isNegative())
        if (BasicBlock *Pick = PickOf(LI))
          Slots.push_back({LI, Pick, A.getZExtValue()});
    }
  SmallVector<std::pair<LoadInst *, BasicBlock *>, 32> Params;
  std::set<LoadInst *> Seen;
  for (auto [LI, Pick, Off] : Slots) {
    LoadInst *H = Hoist(LI, Pick, LF.getArg(0), Off);
    if (Seen.insert(H).second)
      for (User *U : H->users())
        if (LoadInst *PL = Invariant(U); PL && PL->getPointerOperand() == H)
          Params.push_back({PL, Pick});
  }
  for (auto [LI, Pick] : Params)
    Hoist(LI, Pick, LI->getPointerOperand(), 0);
}

/// The OR and the AND of the ids that the lanes of one inlined loop return,
/// carried in registers over its iterations into `stopped` (buildLoopEnds).
struct IdFold {
  PHINode *Or = nullptr, *And = nullptr; ///< head: the lanes before this one
  Value *OrLane = nullptr, *AndLane = nullptr; ///< body: with this lane's id
  BasicBlock *BodyEnd = nullptr;

  void atHead(IRBuilder<> &B) {
    Or = B.CreatePHI(B.getInt32Ty(), 2, "ids.or");
    And = B.CreatePHI(B.getInt32Ty(), 2, "ids.and");
  }
  void atBody(IRBuilder<> &B, Value *Id) {
    OrLane = B.CreateOr(Or, Id, "ids.or.lane");
    AndLane = B.CreateAnd(And, Id, "ids.and.lane");
    BodyEnd = B.GetInsertBlock();
  }
  /// At the start of the loop's latch; \p Skip: the head, when lanes
  /// outside the mask branch past the body.
  void atLatch(IRBuilder<> &B, BasicBlock *Skip, BasicBlock *Pred,
               PHINode *OutOr, PHINode *OutAnd) {
    BasicBlock *Latch = B.GetInsertBlock();
    auto Next = [&](PHINode *Head, Value *Lane, const char *Name, PHINode *Out,
                    int32_t Init) {
      PHINode *N = B.CreatePHI(Head->getType(), 2, Name);
      N->addIncoming(Lane, BodyEnd);
      if (Skip)
        N->addIncoming(Head, Skip);
      Head->addIncoming(B.getInt32(Init), Pred);
      Head->addIncoming(N, Latch);
      Out->addIncoming(N, Latch);
    };
    Next(Or, OrLane, "ids.or.next", OutOr, 0);
    Next(And, AndLane, "ids.and.next", OutAnd, -1);
  }
};

/// The ends of the lane loops of \p LF (arguments: ts 2, mask 3, ids 5,
/// fuse 6). Done: a warp operation that all lanes stopped at is performed
/// through \p Fuse (when fusing is on) and they go on from it at \p Dispatch
/// (\p At). Returned: `stopped`, where the inlined loops end with the OR and
/// the AND of the ids they returned in \p IdsOr and \p IdsAnd (IdFold adds
/// their incoming values); when every lane of the mask exited (OR 0: a
/// kernel's last region) the call returns at once, and the uniform warp
/// operations take "all lanes at one id" from AND == OR. Reading the ids
/// back from memory instead waits for the lane-by-lane stores just made (no
/// store forwarding into a vector load: warpVote, docs/Benchmarks-CPU.md).
/// Exited lanes copy nothing out and fuse no operation: no result changes.
BasicBlock *buildLoopEnds(Function &LF, FunctionCallee Fuse,
                          BasicBlock *Dispatch, PHINode *At, BasicBlock *Done,
                          BasicBlock *Exit, PHINode *&IdsOr, PHINode *&IdsAnd) {
  LLVMContext &C = LF.getContext();
  BasicBlock *TryFuse = BasicBlock::Create(C, "fuse", &LF, Exit);
  IRBuilder<> B(Done);
  B.CreateCondBr(B.CreateICmpNE(LF.getArg(6), B.getInt32(0)), TryFuse, Exit);
  B.SetInsertPoint(TryFuse);
  Value *Next =
      B.CreateCall(Fuse, {LF.getArg(2), LF.getArg(3), LF.getArg(5)}, "next");
  B.CreateCondBr(B.CreateICmpNE(Next, B.getInt32(0)), Dispatch, Exit);
  At->addIncoming(Next, TryFuse);

  BasicBlock *Stopped = BasicBlock::Create(C, "stopped", &LF, Done);
  BasicBlock *AllExited = BasicBlock::Create(C, "allexited", &LF, Exit);
  BranchInst::Create(Exit, AllExited);
  B.SetInsertPoint(Stopped);
  IdsOr = B.CreatePHI(B.getInt32Ty(), 4, "ids.or.out");
  IdsAnd = B.CreatePHI(B.getInt32Ty(), 4, "ids.and.out");
  B.CreateCondBr(B.CreateICmpEQ(IdsOr, B.getInt32(0), "all.exited"), AllExited,
                 Done);
  return Stopped;
}

/// The returns of \p LF give the executor the id that every lane of the
/// mask stored where it is known, HETGPU_LANES_IDS_MIXED elsewhere (the
/// executor then reads the ids back; reading them right after the lanes
/// stored them one by one waits for those stores, hetgpu_warp_sched.h). It
/// is known after `stopped` (AND == OR there: all equal) until a loop runs
/// again; the generic loop (any resume point) ends at \p Done without it,
/// so `done` gets a phi. Every loop ends at `stopped` or `done`, or the
/// generic one at the exit, so dominance by either says which value holds.
void returnSameIds(Function &LF, BasicBlock *Stopped, BasicBlock *Done,
                   PHINode *IdsOr, PHINode *IdsAnd) {
  IRBuilder<> B(Stopped, Stopped->getFirstInsertionPt());
  Value *Mixed = B.getInt32(HETGPU_LANES_IDS_MIXED);
  Value *Same =
      B.CreateSelect(B.CreateICmpEQ(IdsAnd, IdsOr), IdsOr, Mixed, "ids.same");
  DominatorTree DT(LF);
  // The value known at the end of \p BB (Done's phi set below).
  Value *AtDone = nullptr;
  auto KnownAt = [&](BasicBlock *BB) -> Value * {
    if (DT.dominates(Stopped, BB))
      return Same;
    if (AtDone && DT.dominates(Done, BB))
      return AtDone;
    return Mixed;
  };
  // One value per predecessor of \p BB, in a phi at its top.
  auto Join = [&](BasicBlock *BB, const Twine &Name) -> Value * {
    if (pred_empty(BB))
      return Mixed;
    PHINode *P = PHINode::Create(B.getInt32Ty(), 4, Name);
    P->insertBefore(BB->begin());
    for (BasicBlock *Pred : predecessors(BB))
      P->addIncoming(KnownAt(Pred), Pred);
    return P;
  };
  if (!DT.dominates(Stopped, Done))
    AtDone = Join(Done, "ids.done");
  SmallVector<ReturnInst *, 4> Rets;
  for (BasicBlock &BB : LF)
    if (auto *RI = dyn_cast<ReturnInst>(BB.getTerminator()))
      Rets.push_back(RI);
  for (ReturnInst *RI : Rets) {
    BasicBlock *RB = RI->getParent();
    Value *V = KnownAt(RB);
    RI->setOperand(0, V != Mixed || RB == Done ? V : Join(RB, "ids.ret"));
  }
}

/// Lane 0's thread indices and whether a call may take the row loops.
struct RowIds {
  llvm::Value *Row = nullptr, *X0 = nullptr, *Y0 = nullptr, *Z0 = nullptr,
              *Lin0 = nullptr;
};

/// Row: all 32 lanes run and are in the row of lane 0 (tid.x of lane 0
/// plus 31 < blockDim.x). Lanes of a warp have consecutive linear ids, so
/// lane i then has tid (x0 + i, y0, z0) and linear id lin0 + i: the row
/// loops compute them instead of loading them from the states, have no
/// mask test, and accesses indexed by threadIdx.x become consecutive
/// (vector loads and stores instead of gathers and masked operations).
/// Computed in \p Entry from lane 0's state \p TS, \p Ctx and \p Mask.
RowIds rowCondition(BasicBlock *Entry, Value *TS, Value *Ctx, Value *Mask) {
  IRBuilder<> B(Entry);
  Type *I32 = B.getInt32Ty(), *I8 = B.getInt8Ty();
  auto Field = [&](Value *Base, size_t Off, const Twine &Name) {
    return B.CreateLoad(I32, B.CreateConstInBoundsGEP1_64(I8, Base, Off), Name);
  };
  RowIds R;
  R.X0 = Field(TS, offsetof(hetgpu_thread_state, tid), "x0");
  R.Y0 = Field(TS, offsetof(hetgpu_thread_state, tid) + 4, "y0");
  R.Z0 = Field(TS, offsetof(hetgpu_thread_state, tid) + 8, "z0");
  R.Lin0 = Field(TS, offsetof(hetgpu_thread_state, linear), "lin0");
  Value *BX = Field(Ctx, offsetof(hetgpu_block_ctx, block_dim), "ntid.x");
  R.Row = B.CreateAnd(
      B.CreateICmpEQ(Mask, B.getInt32(-1)),
      B.CreateICmpULT(B.CreateAdd(R.X0, B.getInt32(31)), BX), "row");
  return R;
}

/// Builds `void T.lanes(void **args, ctx *, hetgpu_thread_state *ts,
/// uint32_t mask, uint32_t resume, uint32_t *ids, uint32_t fuse)`
/// (ABI/BlockExecutor.h): a switch on the resume point around one loop per
/// resume point over the 32 lanes of a warp, each calling \p T with
/// ts[i].resume set to that point, and the calls inlined. O3 then folds T's
/// dispatch per loop, hoists T's setup (parameters, block values) out of
/// the loop and may vectorise the region. Unknown resume values run the
/// plain loop. With `fuse`, a warp operation all lanes stopped at is done by
/// __hetgpu_exec_fuse and the switch is entered again at its id. Returns
/// null when \p T is not a thread function of the expected shape or too
/// large.
Function *buildLaneFunction(Module &M, Function &T) {
  SmallVector<uint32_t, 16> Ids = resumePoints(T);
  // A kernel instrumented with barrier or per-thread safe points holds its
  // body twice (the unwatched copy, docs/Migration.md "Barrier safe
  // points") and about twice the resume points: four times the budget keeps the
  // lane loops the kernel had before instrumentation (its unwatched launches
  // run the copy).
  uint64_t Budget = MaxLaneLoopInstructions;
  if (hasUnwatchedCopy(M, T))
    Budget *= 4;
  if (Ids.empty() || uint64_t(T.getInstructionCount()) * Ids.size() > Budget)
    return nullptr;
  // Two loops per resume point (see Row below) when small enough, for
  // barrier-only kernels too: their accesses indexed by threadIdx.x become
  // consecutive in the row loop (bench.cu's tiled transpose: 43.9 -> 34.5
  // instructions per thread), for twice the translation time of their
  // lane loops (cached).
  bool TwoLoops = !rowLoopsDisabled() &&
                  uint64_t(T.getInstructionCount()) * Ids.size() * 2 <= Budget;
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C), *I8 = Type::getInt8Ty(C);
  PointerType *Ptr = PointerType::getUnqual(C);
  FunctionType *FT =
      FunctionType::get(I32, {Ptr, Ptr, Ptr, I32, I32, Ptr, I32}, false);
  FunctionCallee Fuse = M.getOrInsertFunction(
      "__hetgpu_exec_fuse", FunctionType::get(I32, {Ptr, I32, Ptr}, false));
  Function *LF = Function::Create(FT, GlobalValue::InternalLinkage,
                                  T.getName() + ".lanes", M);
  LF->addFnAttr(Attribute::NoUnwind);
  for (unsigned A : {0u, 1u, 2u, 5u})
    LF->addParamAttr(A, Attribute::NoAlias);

  Argument *Args = LF->getArg(0), *Ctx = LF->getArg(1), *TS = LF->getArg(2),
           *Mask = LF->getArg(3), *Resume = LF->getArg(4), *Out = LF->getArg(5);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", LF);
  BasicBlock *Dispatch = BasicBlock::Create(C, "dispatch", LF);
  BasicBlock *Done = BasicBlock::Create(C, "done", LF);
  BasicBlock *Exit = BasicBlock::Create(C, "exit", LF);
  ReturnInst::Create(C, ConstantInt::get(I32, HETGPU_LANES_IDS_MIXED), Exit);
  RowIds R;
  if (TwoLoops)
    R = rowCondition(Entry, TS, Ctx, Mask);
  Value *Row = R.Row, *X0 = R.X0, *Y0 = R.Y0, *Z0 = R.Z0, *Lin0 = R.Lin0;
  BranchInst::Create(Dispatch, Entry);
  PHINode *At = PHINode::Create(I32, 2, "at", Dispatch);
  At->addIncoming(Resume, Entry);
  PHINode *IdsOr = nullptr, *IdsAnd = nullptr;
  BasicBlock *Stopped =
      buildLoopEnds(*LF, Fuse, Dispatch, At, Done, Exit, IdsOr, IdsAnd);
  SmallVector<std::pair<CallInst *, uint32_t>, 16> Calls;
  SmallVector<LaneLoop, 16> Loops, RowLoops;
  BasicBlock *GenericLatch = nullptr;
  // One loop per resume point (Point < 0: any resume value, not inlined),
  // entered from Pred. The inlined ones OR their ids (buildLoopEnds).
  auto makeLoop = [&](int64_t Point, BasicBlock *Pred, bool IsRow) {
    BasicBlock *Head = BasicBlock::Create(C, IsRow ? "rowlanes" : "lanes",
                                          LF, Done);
    BasicBlock *Body = BasicBlock::Create(C, "lane", LF, Done);
    BasicBlock *Latch = BasicBlock::Create(C, "next", LF, Done);
    IRBuilder<> B(Head);
    PHINode *I = B.CreatePHI(I32, 2, "i");
    std::optional<IdFold> Fold;
    if (Point >= 0)
      Fold.emplace().atHead(B);
    if (IsRow) {
      B.CreateBr(Body);
    } else {
      Value *On = B.CreateTrunc(B.CreateLShr(Mask, I), B.getInt1Ty());
      B.CreateCondBr(On, Body, Latch);
    }
    B.SetInsertPoint(Body);
    Value *Lane = B.CreateGEP(
        I8, TS, B.CreateMul(B.CreateZExt(I, B.getInt64Ty()),
                            B.getInt64(sizeof(hetgpu_thread_state))));
    // No store of Point to ts[i].resume: the inlined region does not read
    // it (inlineRegion drops T's dispatch) and the executor reads only the
    // resume points of lanes it stopped itself (hetgpu_warp_sched.h); the
    // store, 56 bytes apart per lane, kept barrier-only regions scalar.
    CallInst *Call = B.CreateCall(&T, {Args, Ctx, Lane});
    B.CreateStore(Call, B.CreateGEP(I32, Out, I));
    if (Fold)
      Fold->atBody(B, Call);
    B.CreateBr(Latch);
    if (Point >= 0) {
      Calls.push_back({Call, uint32_t(Point)});
      (IsRow ? RowLoops : Loops)
          .push_back({uint32_t(Point), Pred, cast<Instruction>(Lane), I});
    } else { // Never taken in practice: no second copy of T to optimise.
      Call->setIsNoInline();
      GenericLatch = Latch;
    }
    B.SetInsertPoint(Latch);
    if (Fold)
      Fold->atLatch(B, IsRow ? nullptr : Head, Pred, IdsOr, IdsAnd);
    Value *N = B.CreateAdd(I, B.getInt32(1), "i.next", /*HasNUW=*/true,
                           /*HasNSW=*/true);
    B.CreateCondBr(B.CreateICmpULT(N, B.getInt32(32)), Head,
                   Fold ? Stopped : Done);
    I->addIncoming(B.getInt32(0), Pred);
    I->addIncoming(N, Latch);
    return Head;
  };
  BasicBlock *Generic = makeLoop(-1, Dispatch, false);
  IRBuilder<> B(Dispatch);
  SwitchInst *SW = B.CreateSwitch(At, Generic, Ids.size());
  for (uint32_t Id : Ids) {
    BasicBlock *Pick = BasicBlock::Create(C, "at" + Twine(Id), LF, Done);
    SW->addCase(B.getInt32(Id), Pick);
    BasicBlock *Plain = makeLoop(Id, Pick, false);
    if (Row)
      BranchInst::Create(makeLoop(Id, Pick, true), Plain, Row, Pick);
    else
      BranchInst::Create(Plain, Pick);
  }
  for (auto [Call, Id] : Calls)
    if (!inlineRegion(*Call, T, Id)) {
      LF->eraseFromParent();
      return nullptr;
    }
  // Row loops: tid and linear id from lane 0's.
  SmallVector<SmallVector<Instruction *, 4>, 16> RowTidX;
  for (LaneLoop &RL : RowLoops)
    RowTidX.push_back(useRowIds(M, RL, X0, Y0, Z0, Lin0));
  Loops.append(RowLoops.begin(), RowLoops.end());
  hoistParamLoads(*LF, Loops);
  if (!RowLoops.empty()) {
    DominatorTree DT(*LF);
    for (unsigned K = 0; K < RowLoops.size(); ++K)
      markRowIndices(RowLoops[K], RowTidX[K], X0, DT);
  }
  LaneLoopFunction LLF{LF,
                       Entry,
                       Dispatch,
                       At,
                       Done,
                       Exit,
                       GenericLatch,
                       std::move(Loops),
                       findUniformWarpOps(T),
                       IdsOr,
                       IdsAnd};
  if (!soaDisabled())
    convertToWarpArrays(M, LLF);
  returnSameIds(*LF, Stopped, Done, IdsOr, IdsAnd);
  return LF;
}

} // namespace

/// Block functions that call the executor with a thread function call the
/// lane-loop entry instead, with T's lane-loop function.
/// HETGPU_HOST_LANE_LOOPS=0 keeps the one-call-per-lane executor (for
/// comparisons; translations are cached, so use a separate cache).
void addLaneLoops(Module &M) {
  Function *Exec = M.getFunction(ExecBlockName);
  if (!Exec)
    return;
  if (const char *Env = std::getenv("HETGPU_HOST_LANE_LOOPS"))
    if (StringRef(Env) == "0")
      return;
  SmallVector<CallInst *, 8> Calls;
  for (User *U : Exec->users())
    if (auto *CI = dyn_cast<CallInst>(U))
      if (CI->getCalledFunction() == Exec && CI->arg_size() == 5)
        Calls.push_back(CI);
  if (Calls.empty())
    return;
  LLVMContext &C = M.getContext();
  PointerType *Ptr = PointerType::getUnqual(C);
  Type *I32 = Type::getInt32Ty(C);
  FunctionCallee Lanes = M.getOrInsertFunction(
      ExecBlockLanesName,
      FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, Ptr, Ptr, I32, Ptr},
                        false));
  for (CallInst *CI : Calls) {
    auto *T = dyn_cast<Function>(CI->getArgOperand(2)->stripPointerCasts());
    if (!T)
      continue;
    Function *LF = buildLaneFunction(M, *T);
    if (!LF)
      continue;
    IRBuilder<> B(CI);
    B.CreateCall(Lanes, {CI->getArgOperand(0), CI->getArgOperand(1), T, LF,
                         CI->getArgOperand(3), CI->getArgOperand(4)});
    CI->eraseFromParent();
  }
}

} // namespace host
} // namespace hetgpu
