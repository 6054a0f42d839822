//===- SIMTToMIMD.cpp - Lower SIMT kernels to per-block CPU code ----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-simt-to-mimd` (see SIMTToMIMD.h). For each kernel K:
///
/// 1. Device functions that use thread-context builtins (indices, shared
///    memory, barriers, warp operations, services) are inlined into K.
/// 2. K's body moves into a thread function whose first block ("setup")
///    computes everything that is constant for a thread: parameters, thread
///    and block indices, shared-memory addresses, the frame pointer.
/// 3. Without sync points, `__hetgpu_block_K` is a z/y/x loop calling the
///    (always-inlined) thread function, which LLVM can vectorise.
/// 4. With sync points (barriers and warp operations), each sync call is
///    replaced by: store the values live across it into the thread's frame,
///    store the operation and its operands into the thread state, return its
///    id. A new block per sync point reloads them and continues; the setup
///    block dispatches on ts->resume. SSA form is repaired with SSAUpdater.
///    Values live across a barrier go to the offsets of the barrier's
///    `"hetgpu.live"` bundle in `!hetgpu.state` (the record the checkpoint
///    code uses); anything else live gets a slot after the record.
///    Allocations live across a sync point move into the frame.
///    `__hetgpu_block_K` calls the block executor (ABI/BlockExecutor.h).
///
/// USAGE: hetgpu-opt -passes=hetgpu-simt-to-mimd in.ll -S
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Transforms/SIMTToMIMD.h"
#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Support/Diagnostics.h"
#include "hetgpu/ABI/BlockExecutor.h"
// The block context layout is the runtime's (ABI/BlockABI.h, plain C).
#include "hetgpu/ABI/BlockABI.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"

#include <cstddef>
#include <functional>
#include <map>

using namespace llvm;
using namespace hetgpu::container;

#define DEBUG_TYPE "hetgpu-simt-to-mimd"

STATISTIC(NumLoopKernels, "Kernels lowered to a plain thread loop");
STATISTIC(NumResumableKernels,
          "Kernels lowered to a resumable thread function");
STATISTIC(NumSyncPoints, "Sync points split");
STATISTIC(NumSpills, "Values stored across sync points");
STATISTIC(NumRemat, "Values recomputed after sync points");
STATISTIC(NumFrameAllocas, "Allocations moved into the thread frame");
STATISTIC(NumInlined, "Device functions inlined into kernels");
STATISTIC(NumVolatileSyncs,
          "Warp regrouping points before volatile shared accesses");

namespace hetgpu {
namespace {

// ---- Classification of builtins ------------------------------------------

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

/// Builtins whose lowering needs the thread's context (everything but the
/// math library and fences).
bool needsContext(const BuiltinInfo &BI) {
  return BI.Group != "math" && BI.Group != "fence";
}

uint32_t syncKindOf(const Instruction &I) {
  if (auto *CB = dyn_cast<CallBase>(&I))
    if (auto BI = getCalledBuiltin(*CB))
      return syncKind(BI->ID);
  return HETGPU_SYNC_EXIT;
}

bool refersToShared(const Value *V, SmallPtrSetImpl<const Value *> &Seen) {
  if (!isa<Constant>(V) || !Seen.insert(V).second)
    return false;
  if (auto *GV = dyn_cast<GlobalVariable>(V))
    return GV->getAddressSpace() == AS_Shared;
  if (auto *CE = dyn_cast<ConstantExpr>(V))
    for (const Value *Op : CE->operands())
      if (refersToShared(Op, Seen))
        return true;
  return false;
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

bool usesContextDirectly(const Function &F) {
  SmallPtrSet<const Value *, 32> Seen;
  for (const Instruction &I : instructions(F)) {
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (auto BI = getCalledBuiltin(*CB))
        if (needsContext(*BI))
          return true;
    for (const Value *Op : I.operands())
      if (refersToShared(Op, Seen))
        return true;
  }
  return false;
}

// ---- Errors ----------------------------------------------------------------

struct Failures {
  SmallVector<std::pair<const Function *, std::string>, 4> List;
  void add(const Function &F, const Twine &Msg) {
    List.emplace_back(&F, Msg.str());
  }
  bool empty() const { return List.empty(); }
};

// ---- Liveness of SSA values (setup-block values excluded) -----------------

class Liveness {
public:
  Liveness(Function &F, const BasicBlock *Setup) {
    for (BasicBlock &BB : F) {
      if (&BB == Setup)
        continue;
      for (Instruction &I : BB) {
        Index[&I] = Values.size();
        Values.push_back(&I);
      }
    }
    unsigned N = Values.size();
    for (BasicBlock &BB : F) {
      In[&BB] = BitVector(N);
      Out[&BB] = BitVector(N);
    }
    bool Changed = true;
    while (Changed) {
      Changed = false;
      for (BasicBlock &BB : reverse(F)) {
        BitVector O(N);
        for (BasicBlock *S : successors(&BB)) {
          O |= In[S];
          for (PHINode &P : S->phis())
            mark(P.getIncomingValueForBlock(&BB), O);
        }
        BitVector L = O;
        for (Instruction &I : reverse(BB))
          step(I, L);
        if (O != Out[&BB] || L != In[&BB]) {
          Out[&BB] = std::move(O);
          In[&BB] = std::move(L);
          Changed = true;
        }
      }
    }
  }

  /// Values live immediately after \p At (not including \p At itself), in
  /// definition order.
  SmallVector<Instruction *, 16> liveAfter(Instruction &At) {
    BasicBlock *BB = At.getParent();
    BitVector L = Out[BB];
    for (Instruction &I : reverse(*BB)) {
      if (&I == &At)
        break;
      step(I, L);
    }
    if (auto It = Index.find(&At); It != Index.end())
      L.reset(It->second);
    SmallVector<Instruction *, 16> R;
    for (unsigned B : L.set_bits())
      R.push_back(Values[B]);
    return R;
  }

private:
  void mark(Value *V, BitVector &L) {
    if (auto *I = dyn_cast<Instruction>(V))
      if (auto It = Index.find(I); It != Index.end())
        L.set(It->second);
  }
  /// Backward transfer over one instruction. Operand bundles record
  /// liveness and do not create it.
  void step(Instruction &I, BitVector &L) {
    if (auto It = Index.find(&I); It != Index.end())
      L.reset(It->second);
    if (isa<PHINode>(I))
      return;
    if (auto *CB = dyn_cast<CallBase>(&I)) {
      for (Value *A : CB->args())
        mark(A, L);
      mark(CB->getCalledOperand(), L);
      return;
    }
    for (Value *Op : I.operands())
      mark(Op, L);
  }

  DenseMap<Instruction *, unsigned> Index;
  SmallVector<Instruction *, 64> Values;
  DenseMap<BasicBlock *, BitVector> In, Out;
};

// ---- Helpers ---------------------------------------------------------------

/// True when the pointer \p Root (an alloca) may be stored, compared as an
/// integer or passed to a call that keeps it: then pointers to it can come
/// back from memory and every allocation must stay in the frame.
bool allocaEscapes(Instruction *Root) {
  SmallVector<Value *, 8> Work{Root};
  SmallPtrSet<Value *, 16> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (User *U : V->users()) {
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
              SelectInst>(U)) {
        Work.push_back(U);
      } else if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getValueOperand() == V)
          return true;
      } else if (auto *II = dyn_cast<IntrinsicInst>(U)) {
        if (!II->isLifetimeStartOrEnd() && !isa<MemIntrinsic>(II))
          return true;
      } else if (auto *CB = dyn_cast<CallBase>(U)) {
        // Liveness bundles record the pointer; they do not keep it.
        bool OnlyBundle = true;
        for (const Use &Op : CB->operands())
          if (Op.get() == V && !CB->isBundleOperand(Op.getOperandNo()))
            OnlyBundle = false;
        if (!OnlyBundle)
          return true;
      } else if (isa<PtrToIntInst, ReturnInst>(U)) {
        return true;
      } else if (auto *AI = dyn_cast<AtomicCmpXchgInst>(U)) {
        if (AI->getNewValOperand() == V || AI->getCompareOperand() == V)
          return true;
      } else if (auto *RMW = dyn_cast<AtomicRMWInst>(U)) {
        if (RMW->getValOperand() == V)
          return true;
      }
    }
  }
  return false;
}

/// True when the byval argument \p A is only read.
bool onlyRead(Argument &A) {
  SmallVector<Value *, 8> Work{&A};
  SmallPtrSet<Value *, 16> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (User *U : V->users()) {
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
              SelectInst>(U))
        Work.push_back(U);
      else if (isa<LoadInst>(U))
        continue;
      else if (auto *MT = dyn_cast<MemTransferInst>(U)) {
        if (MT->getDest() == V)
          return false;
      } else
        return false;
    }
  }
  return true;
}

/// The kernel's SafePointInfo with id \p Id, if any.
const SafePointInfo *findSafePoint(const KernelInfo *KI, int Id) {
  if (!KI || Id < 0)
    return nullptr;
  for (const SafePointInfo &SP : KI->SafePoints)
    if (SP.Id == unsigned(Id))
      return &SP;
  return nullptr;
}

// ---- The lowering
// ------------------------------------------------------------

class Lowering {
public:
  Lowering(Module &M, Failures &Fail)
      : M(M), C(M.getContext()), DL(M.getDataLayout()), Fail(Fail),
        I8(Type::getInt8Ty(C)), I32(Type::getInt32Ty(C)),
        I64(Type::getInt64Ty(C)), Ptr(PointerType::get(C, 0)) {}

  bool run();

private:
  /// Everything a thread function knows about its thread.
  struct Env {
    Function *T = nullptr;
    BasicBlock *Setup = nullptr;
    Value *Ctx = nullptr;
    Value *TS = nullptr; ///< thread state (resumable form only)
    Value *Tid[3] = {nullptr, nullptr, nullptr};
    Value *Linear = nullptr;
    Value *Frame = nullptr;
    DenseMap<unsigned, Value *> Fields;
  };

  /// A sync point of a resumable thread function.
  struct Sync {
    CallInst *Call = nullptr;
    uint32_t Kind = 0;
    unsigned Id = 0;
    const SafePointInfo *SP = nullptr;
    SmallVector<Value *, 8> Bundle;
    SmallVector<Instruction *, 16> Live;
    BasicBlock *Resume = nullptr;
    SmallVector<std::pair<Instruction *, Instruction *>, 16> Reloads;
  };

  bool computeContextFunctions();
  bool inlineContextCalls(Function &K);
  void copyWrittenByVal(Function &K);
  Function *makeThreadFunction(Function &K, bool Resumable, Env &E);
  Value *ctxField(Env &E, size_t Offset, Type *Ty);
  Value *linearId(Env &E);
  Value *sharedBase(Env &E);
  bool lowerBuiltins(Function &K, Env &E, const SharedLayout &SL);
  void buildLoopBlockFunction(Function &K, Function &T);
  void separateSpillSlots(Function &T);
  bool makeResumable(Function &K, Env &E, const KernelInfo *KI,
                     const SmallPtrSetImpl<CallInst *> &KernelBarriers,
                     uint64_t &FrameSize);
  void buildExecBlockFunction(Function &K, Function &T, uint64_t FrameSize);
  Function *createBlockFunction(Function &K);
  void finish();

  Module &M;
  LLVMContext &C;
  const DataLayout &DL;
  Failures &Fail;
  Type *I8, *I32, *I64;
  PointerType *Ptr;
  SetVector<Function *> ContextFns;
  std::map<Function *, KernelInfo> Infos;
};

bool Lowering::computeContextFunctions() {
  for (Function &F : M)
    if (!F.isDeclaration() && usesContextDirectly(F))
      ContextFns.insert(&F);
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Function &F : M) {
      if (F.isDeclaration() || ContextFns.count(&F))
        continue;
      for (Instruction &I : instructions(F))
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *Callee = CB->getCalledFunction())
            if (ContextFns.count(Callee)) {
              ContextFns.insert(&F);
              Changed = true;
              break;
            }
    }
  }
  bool OK = true;
  for (Function *F : ContextFns) {
    if (isKernel(*F))
      continue;
    for (User *U : F->users()) {
      auto *CB = dyn_cast<CallBase>(U);
      if (!CB || CB->getCalledOperand() != F) {
        Fail.add(*F, "device function '" + F->getName() +
                         "' uses thread-context builtins (thread indices, "
                         "shared memory, barriers, warp operations or device "
                         "services) and its address is taken: indirect calls "
                         "to such functions are not supported");
        OK = false;
        break;
      }
    }
  }
  // Recursion among context functions cannot be inlined.
  DenseMap<Function *, int> State; // 1 = on stack, 2 = done
  std::function<bool(Function *)> Visit = [&](Function *F) -> bool {
    State[F] = 1;
    for (Instruction &I : instructions(*F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          if (ContextFns.count(Callee) && !isKernel(*Callee)) {
            int S = State.lookup(Callee);
            if (S == 1) {
              Fail.add(*Callee, "device function '" + Callee->getName() +
                                    "' is recursive and uses thread-context "
                                    "builtins (thread indices, shared memory, "
                                    "barriers, warp operations or device "
                                    "services): not supported by the "
                                    "SIMT->MIMD lowering");
              return false;
            }
            if (S == 0 && !Visit(Callee))
              return false;
          }
    State[F] = 2;
    return true;
  };
  for (Function *F : ContextFns)
    if (!State.lookup(F) && !Visit(F))
      OK = false;
  return OK;
}

bool Lowering::inlineContextCalls(Function &K) {
  for (;;) {
    CallBase *Site = nullptr;
    for (Instruction &I : instructions(K))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          if (!Callee->isDeclaration() && ContextFns.count(Callee)) {
            Site = CB;
            break;
          }
    if (!Site)
      return true;
    Function *Callee = Site->getCalledFunction();
    if (isKernel(*Callee)) {
      Fail.add(K, "kernel '" + K.getName() + "' calls kernel '" +
                      Callee->getName() + "': not supported");
      return false;
    }
    InlineFunctionInfo IFI;
    InlineResult R = InlineFunction(*Site, IFI);
    if (!R.isSuccess()) {
      Fail.add(K, "kernel '" + K.getName() + "': cannot inline '" +
                      Callee->getName() +
                      "', which uses thread-context "
                      "builtins: " +
                      R.getFailureReason());
      return false;
    }
    ++NumInlined;
  }
}

void Lowering::copyWrittenByVal(Function &K) {
  for (Argument &A : K.args()) {
    if (!A.hasByValAttr() || onlyRead(A))
      continue;
    Type *Ty = K.getParamByValType(A.getArgNo());
    IRBuilder<> B(&*K.getEntryBlock().getFirstInsertionPt());
    AllocaInst *Copy = B.CreateAlloca(Ty, nullptr, A.getName() + ".copy");
    Align Al = K.getParamAlign(A.getArgNo()).valueOrOne();
    Copy->setAlignment(std::max(Al, DL.getPrefTypeAlign(Ty)));
    A.replaceAllUsesWith(Copy);
    B.CreateMemCpy(Copy, Copy->getAlign(), &A, Al, DL.getTypeAllocSize(Ty));
  }
}

Value *Lowering::ctxField(Env &E, size_t Offset, Type *Ty) {
  if (Value *V = E.Fields.lookup(Offset))
    return V;
  IRBuilder<> B(E.Setup->getTerminator());
  Value *Addr = B.CreateConstInBoundsGEP1_64(I8, E.Ctx, Offset);
  LoadInst *L = B.CreateLoad(Ty, Addr);
  L->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(C, {}));
  E.Fields[Offset] = L;
  return L;
}

Value *Lowering::linearId(Env &E) {
  if (E.Linear)
    return E.Linear;
  IRBuilder<> B(E.Setup->getTerminator());
  Value *BX = ctxField(E, offsetof(hetgpu_block_ctx, block_dim), I32);
  Value *BY = ctxField(E, offsetof(hetgpu_block_ctx, block_dim) + 4, I32);
  Value *Row = B.CreateAdd(E.Tid[1], B.CreateMul(E.Tid[2], BY));
  E.Linear = B.CreateAdd(E.Tid[0], B.CreateMul(Row, BX), "linear.tid");
  return E.Linear;
}

Value *Lowering::sharedBase(Env &E) {
  return ctxField(E, offsetof(hetgpu_block_ctx, shared), Ptr);
}

Function *Lowering::makeThreadFunction(Function &K, bool Resumable, Env &E) {
  FunctionType *FTy;
  if (Resumable) {
    FTy = FunctionType::get(I32, {Ptr, Ptr, Ptr}, false);
  } else {
    SmallVector<Type *, 8> Params(K.getFunctionType()->params());
    Params.append({Ptr, I32, I32, I32});
    FTy = FunctionType::get(Type::getVoidTy(C), Params, false);
  }
  Function *T = Function::Create(FTy, GlobalValue::InternalLinkage,
                                 K.getName() + ".hetgpu.thread", M);
  // Only the kernel's string attributes carry over: its memory effects and
  // the like describe the SIMT function, not this one.
  for (const Attribute &A : K.getAttributes().getFnAttrs())
    if (A.isStringAttribute() && A.getKindAsString() != KernelAttr)
      T->addFnAttr(A);
  T->addFnAttr(Attribute::NoUnwind);
  T->setDSOLocal(true);

  E.T = T;
  E.Setup = BasicBlock::Create(C, "setup", T);
  BasicBlock *OldEntry = &K.getEntryBlock();
  T->splice(T->end(), &K);
  IRBuilder<> B(E.Setup);
  BranchInst *Br = B.CreateBr(OldEntry);
  B.SetInsertPoint(Br);

  SmallVector<Value *, 8> ParamVals;
  if (Resumable) {
    Value *Args = T->getArg(0);
    E.Ctx = T->getArg(1);
    E.TS = T->getArg(2);
    T->getArg(0)->setName("args");
    T->getArg(1)->setName("ctx");
    T->getArg(2)->setName("ts");
    for (Argument &A : K.args()) {
      Value *Slot = B.CreateConstInBoundsGEP1_64(Ptr, Args, A.getArgNo());
      auto *P = B.CreateLoad(Ptr, Slot, A.getName() + ".addr");
      P->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(C, {}));
      if (A.hasByValAttr()) {
        ParamVals.push_back(P);
      } else {
        auto *V = B.CreateLoad(A.getType(), P, A.getName());
        V->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(C, {}));
        ParamVals.push_back(V);
      }
    }
    auto Field = [&](size_t Off, Type *Ty, const Twine &Name) {
      Value *Addr = B.CreateConstInBoundsGEP1_64(I8, E.TS, Off);
      return B.CreateLoad(Ty, Addr, Name);
    };
    const char *Names[3] = {"tid.x", "tid.y", "tid.z"};
    for (unsigned D = 0; D < 3; ++D)
      E.Tid[D] =
          Field(offsetof(hetgpu_thread_state, tid) + 4 * D, I32, Names[D]);
    E.Linear = Field(offsetof(hetgpu_thread_state, linear), I32, "linear.tid");
    E.Frame = Field(offsetof(hetgpu_thread_state, frame), Ptr, "frame");
  } else {
    unsigned N = K.arg_size();
    for (Argument &A : K.args()) {
      T->getArg(A.getArgNo())->setName(A.getName());
      ParamVals.push_back(T->getArg(A.getArgNo()));
    }
    E.Ctx = T->getArg(N);
    E.Ctx->setName("ctx");
    const char *Names[3] = {"tid.x", "tid.y", "tid.z"};
    for (unsigned D = 0; D < 3; ++D) {
      E.Tid[D] = T->getArg(N + 1 + D);
      E.Tid[D]->setName(Names[D]);
    }
    T->addFnAttr(Attribute::AlwaysInline);
  }
  for (Argument &A : K.args())
    A.replaceAllUsesWith(ParamVals[A.getArgNo()]);

  if (Resumable) {
    // `ret void` becomes "exited".
    SmallVector<ReturnInst *, 4> Rets;
    for (BasicBlock &BB : *T)
      if (auto *R = dyn_cast<ReturnInst>(BB.getTerminator()))
        Rets.push_back(R);
    for (ReturnInst *R : Rets) {
      ReturnInst::Create(C, ConstantInt::get(I32, HETGPU_SYNC_EXIT),
                         R->getIterator());
      R->eraseFromParent();
    }
  }
  return T;
}

bool Lowering::lowerBuiltins(Function &K, Env &E, const SharedLayout &SL) {
  Function &T = *E.T;
  // Static shared variables: ctx->shared + their offset in the layout.
  SmallVector<Constant *, 8> SharedGVs;
  for (GlobalVariable &G : M.globals())
    if (G.getAddressSpace() == AS_Shared)
      SharedGVs.push_back(&G);
  if (!SharedGVs.empty()) {
    convertUsersOfConstantsToInstructions(SharedGVs, &T);
    for (Constant *CG : SharedGVs) {
      auto *G = cast<GlobalVariable>(CG);
      SmallVector<Use *, 8> Uses;
      for (Use &U : G->uses())
        if (auto *I = dyn_cast<Instruction>(U.getUser()))
          if (I->getFunction() == &T)
            Uses.push_back(&U);
      if (Uses.empty())
        continue;
      auto It = llvm::find_if(SL.Vars, [&](auto &P) { return P.first == G; });
      if (It == SL.Vars.end()) {
        Fail.add(K, "kernel '" + K.getName() + "': shared variable '" +
                        G->getName() +
                        "' is not in the kernel's shared "
                        "memory layout");
        return false;
      }
      IRBuilder<> B(E.Setup->getTerminator());
      Value *Addr = B.CreateConstInBoundsGEP1_64(I8, sharedBase(E), It->second);
      Value *Repl = B.CreateAddrSpaceCast(Addr, G->getType(), G->getName());
      for (Use *U : Uses)
        U->set(Repl);
    }
  }

  SmallVector<CallInst *, 32> Calls;
  for (Instruction &I : instructions(T))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (getCalledBuiltin(*CI))
        Calls.push_back(CI);

  auto Services = [&](IRBuilder<> &B, size_t Off, FunctionType *FTy,
                      ArrayRef<Value *> Args) {
    Value *Svc = ctxField(E, offsetof(hetgpu_block_ctx, services), Ptr);
    Value *Rt = B.CreateLoad(Ptr, Svc, "svc.rt");
    Value *Fn = B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_64(I8, Svc, Off));
    SmallVector<Value *, 6> All{Rt};
    All.append(Args.begin(), Args.end());
    return B.CreateCall(FTy, Fn, All);
  };

  for (CallInst *CI : Calls) {
    BuiltinInfo BI = *getCalledBuiltin(*CI);
    if (syncKind(BI.ID) != HETGPU_SYNC_EXIT || BI.Group == "math")
      continue;
    IRBuilder<> B(CI);
    Value *R = nullptr;
    size_t Grid = offsetof(hetgpu_block_ctx, grid_dim);
    size_t Dim = offsetof(hetgpu_block_ctx, block_dim);
    size_t Idx = offsetof(hetgpu_block_ctx, block_idx);
    switch (BI.ID) {
    case BuiltinID::tid_x:
      R = E.Tid[0];
      break;
    case BuiltinID::tid_y:
      R = E.Tid[1];
      break;
    case BuiltinID::tid_z:
      R = E.Tid[2];
      break;
    case BuiltinID::ntid_x:
      R = ctxField(E, Dim, I32);
      break;
    case BuiltinID::ntid_y:
      R = ctxField(E, Dim + 4, I32);
      break;
    case BuiltinID::ntid_z:
      R = ctxField(E, Dim + 8, I32);
      break;
    case BuiltinID::ctaid_x:
      R = ctxField(E, Idx, I32);
      break;
    case BuiltinID::ctaid_y:
      R = ctxField(E, Idx + 4, I32);
      break;
    case BuiltinID::ctaid_z:
      R = ctxField(E, Idx + 8, I32);
      break;
    case BuiltinID::nctaid_x:
      R = ctxField(E, Grid, I32);
      break;
    case BuiltinID::nctaid_y:
      R = ctxField(E, Grid + 4, I32);
      break;
    case BuiltinID::nctaid_z:
      R = ctxField(E, Grid + 8, I32);
      break;
    case BuiltinID::lane_id: {
      IRBuilder<> SB(E.Setup->getTerminator());
      R = SB.CreateAnd(linearId(E), 31, "lane");
      break;
    }
    case BuiltinID::dynamic_shared: {
      IRBuilder<> SB(E.Setup->getTerminator());
      Value *Off =
          ctxField(E, offsetof(hetgpu_block_ctx, dynamic_shared_offset), I64);
      Value *Addr = SB.CreateInBoundsGEP(I8, sharedBase(E), Off);
      R = SB.CreateAddrSpaceCast(Addr, CI->getType(), "dynamic.shared");
      break;
    }
    case BuiltinID::fence_block:
      B.CreateFence(AtomicOrdering::SequentiallyConsistent,
                    SyncScope::SingleThread);
      break;
    case BuiltinID::fence_device:
    case BuiltinID::fence_system:
      B.CreateFence(AtomicOrdering::SequentiallyConsistent);
      break;
    case BuiltinID::printf:
      R = Services(B, offsetof(hetgpu_host_services, printf),
                   FunctionType::get(I32, {Ptr, Ptr, Ptr}, false),
                   {CI->getArgOperand(0), CI->getArgOperand(1)});
      break;
    case BuiltinID::assert_fail: {
      CallInst *N =
          Services(B, offsetof(hetgpu_host_services, assert_fail),
                   FunctionType::get(Type::getVoidTy(C),
                                     {Ptr, Ptr, Ptr, I32, Ptr}, false),
                   {CI->getArgOperand(0), CI->getArgOperand(1),
                    CI->getArgOperand(2), CI->getArgOperand(3)});
      N->setDoesNotReturn();
      break;
    }
    case BuiltinID::trap: {
      CallInst *N =
          Services(B, offsetof(hetgpu_host_services, trap),
                   FunctionType::get(Type::getVoidTy(C), {Ptr}, false), {});
      N->setDoesNotReturn();
      break;
    }
    case BuiltinID::malloc:
      R = Services(B, offsetof(hetgpu_host_services, malloc),
                   FunctionType::get(Ptr, {Ptr, I64}, false),
                   {CI->getArgOperand(0)});
      break;
    case BuiltinID::free:
      Services(B, offsetof(hetgpu_host_services, free),
               FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr}, false),
               {CI->getArgOperand(0)});
      break;
    case BuiltinID::clock:
    case BuiltinID::clock64: {
      Value *V = Services(B, offsetof(hetgpu_host_services, clock64),
                          FunctionType::get(I64, {Ptr}, false), {});
      R = BI.ID == BuiltinID::clock ? B.CreateTrunc(V, I32) : V;
      break;
    }
    case BuiltinID::globaltimer:
      R = Services(B, offsetof(hetgpu_host_services, globaltimer),
                   FunctionType::get(I64, {Ptr}, false), {});
      break;
    default:
      Fail.add(K, "kernel '" + K.getName() + "': builtin '" + BI.Name +
                      "' is not supported by the SIMT->MIMD lowering");
      return false;
    }
    if (R) {
      if (auto *RI = dyn_cast<Instruction>(R))
        if (RI->getParent() != E.Setup && !RI->hasName())
          RI->takeName(CI);
      CI->replaceAllUsesWith(R);
    }
    CI->eraseFromParent();
  }
  return true;
}

Function *Lowering::createBlockFunction(Function &K) {
  FunctionType *FTy = FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr}, false);
  std::string Name = (BlockFunctionPrefix + K.getName()).str();
  Function *BF = Function::Create(FTy, GlobalValue::ExternalLinkage, Name, M);
  BF->setVisibility(GlobalValue::DefaultVisibility);
  BF->addFnAttr(Attribute::NoUnwind);
  BF->addFnAttr("hetgpu-block");
  BF->getArg(0)->setName("args");
  BF->getArg(1)->setName("ctx");
  for (unsigned I = 0; I < 2; ++I) {
    BF->addParamAttr(I, Attribute::NoAlias);
    BF->addParamAttr(I, Attribute::NoUndef);
  }
  BF->addDereferenceableParamAttr(1, sizeof(hetgpu_block_ctx));
  // Keep the kernel's non-ABI function attributes (e.g. denormal modes).
  for (const Attribute &A : K.getAttributes().getFnAttrs())
    if (A.isStringAttribute() && A.getKindAsString() != KernelAttr)
      BF->addFnAttr(A);
  return BF;
}

void Lowering::buildLoopBlockFunction(Function &K, Function &T) {
  Function *BF = createBlockFunction(K);
  Value *Args = BF->getArg(0), *Ctx = BF->getArg(1);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", BF);
  BasicBlock *ZLoop = BasicBlock::Create(C, "z.loop", BF);
  BasicBlock *YLoop = BasicBlock::Create(C, "y.loop", BF);
  BasicBlock *XLoop = BasicBlock::Create(C, "x.loop", BF);
  BasicBlock *YLatch = BasicBlock::Create(C, "y.latch", BF);
  BasicBlock *ZLatch = BasicBlock::Create(C, "z.latch", BF);
  BasicBlock *Exit = BasicBlock::Create(C, "exit", BF);

  IRBuilder<> B(Entry);
  SmallVector<Value *, 12> CallArgs;
  for (Argument &A : K.args()) {
    Value *Slot = B.CreateConstInBoundsGEP1_64(Ptr, Args, A.getArgNo());
    Value *P = B.CreateLoad(Ptr, Slot, A.getName() + ".addr");
    CallArgs.push_back(
        A.hasByValAttr() ? P : B.CreateLoad(A.getType(), P, A.getName()));
  }
  CallArgs.push_back(Ctx);
  Value *Dim[3];
  const char *DimNames[3] = {"ntid.x", "ntid.y", "ntid.z"};
  for (unsigned D = 0; D < 3; ++D)
    Dim[D] = B.CreateLoad(
        I32,
        B.CreateConstInBoundsGEP1_64(
            I8, Ctx, offsetof(hetgpu_block_ctx, block_dim) + 4 * D),
        DimNames[D]);
  Value *Empty = B.CreateOr(B.CreateOr(B.CreateICmpEQ(Dim[0], B.getInt32(0)),
                                       B.CreateICmpEQ(Dim[1], B.getInt32(0))),
                            B.CreateICmpEQ(Dim[2], B.getInt32(0)));
  B.CreateCondBr(Empty, Exit, ZLoop);

  B.SetInsertPoint(ZLoop);
  PHINode *Z = B.CreatePHI(I32, 2, "z");
  B.CreateBr(YLoop);
  B.SetInsertPoint(YLoop);
  PHINode *Y = B.CreatePHI(I32, 2, "y");
  B.CreateBr(XLoop);
  B.SetInsertPoint(XLoop);
  PHINode *X = B.CreatePHI(I32, 2, "x");
  CallArgs.append({X, Y, Z});
  B.CreateCall(&T, CallArgs);
  Value *XN = B.CreateAdd(X, B.getInt32(1), "x.next", /*NUW=*/true);
  B.CreateCondBr(B.CreateICmpULT(XN, Dim[0]), XLoop, YLatch);
  B.SetInsertPoint(YLatch);
  Value *YN = B.CreateAdd(Y, B.getInt32(1), "y.next", true);
  B.CreateCondBr(B.CreateICmpULT(YN, Dim[1]), YLoop, ZLatch);
  B.SetInsertPoint(ZLatch);
  Value *ZN = B.CreateAdd(Z, B.getInt32(1), "z.next", true);
  B.CreateCondBr(B.CreateICmpULT(ZN, Dim[2]), ZLoop, Exit);
  B.SetInsertPoint(Exit);
  B.CreateRetVoid();

  Z->addIncoming(B.getInt32(0), Entry);
  Z->addIncoming(ZN, ZLatch);
  Y->addIncoming(B.getInt32(0), ZLoop);
  Y->addIncoming(YN, YLatch);
  X->addIncoming(B.getInt32(0), YLoop);
  X->addIncoming(XN, XLoop);
  K.replaceAllUsesWith(BF);
}

void Lowering::buildExecBlockFunction(Function &K, Function &T,
                                      uint64_t FrameSize) {
  Function *BF = createBlockFunction(K);
  FunctionType *ExecTy =
      FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, Ptr, I32, Ptr}, false);
  FunctionCallee Exec = M.getOrInsertFunction(ExecBlockName, ExecTy);
  IRBuilder<> B(BasicBlock::Create(C, "entry", BF));
  Constant *Name = B.CreateGlobalString(K.getName(), K.getName() + ".name");
  B.CreateCall(Exec,
               {BF->getArg(0), BF->getArg(1), &T, B.getInt32(FrameSize), Name});
  B.CreateRetVoid();
  K.replaceAllUsesWith(BF);
}

bool Lowering::makeResumable(Function &K, Env &E, const KernelInfo *KI,
                             const SmallPtrSetImpl<CallInst *> &KernelBarriers,
                             uint64_t &FrameSize) {
  Function &T = *E.T;
  BasicBlock *OldEntry = E.Setup->getTerminator()->getSuccessor(0);

  SmallVector<Sync, 8> Syncs;
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

  // Allocations live across a sync point move into the frame.
  SmallVector<AllocaInst *, 8> Allocas;
  for (Instruction &I : instructions(T))
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      Allocas.push_back(AI);
  SmallSetVector<AllocaInst *, 8> InFrame;
  {
    Liveness LV(T, E.Setup);
    bool Escapes = llvm::any_of(Allocas, allocaEscapes);
    for (Sync &S : Syncs)
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
  }

  uint64_t RecordSize = KI ? KI->StateRecordSize : 0;
  uint64_t Cursor = alignTo(RecordSize, 16);
  uint64_t MaxAlign = 16; // frames are 16-byte aligned, up to 64 on request
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
    Cursor = alignTo(Cursor, AI->getAlign());
    MaxAlign = std::max<uint64_t>(MaxAlign, AI->getAlign().value());
    Value *Addr = SB.CreateConstInBoundsGEP1_64(I8, E.Frame, Cursor,
                                                AI->getName() + ".frame");
    if (Addr->getType() != AI->getType())
      Addr = SB.CreateAddrSpaceCast(Addr, AI->getType());
    Cursor += Size->getFixedValue();
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

  // Live values after each sync point (values of setup excluded: they are
  // recomputed on every entry).
  {
    Liveness LV(T, E.Setup);
    for (Sync &S : Syncs)
      S.Live = LV.liveAfter(*S.Call);
  }

  // Slots of values not placed by the state record.
  DenseMap<Instruction *, uint64_t> Extra;
  auto ExtraSlot = [&](Instruction *V) {
    auto [It, New] = Extra.try_emplace(V, 0);
    if (New) {
      Type *Ty = V->getType();
      Cursor = alignTo(Cursor, DL.getABITypeAlign(Ty));
      It->second = Cursor;
      Cursor += DL.getTypeAllocSize(Ty);
    }
    return It->second;
  };

  auto TSField = [&](IRBuilder<> &B, size_t Off) {
    return B.CreateConstInBoundsGEP1_64(I8, E.TS, Off);
  };

  // Values computed from the thread's setup values alone (addresses of
  // shared or frame memory from thread indices, say) are recomputed after a
  // sync point instead of being stored and reloaded.
  DenseMap<Instruction *, bool> RematMemo;
  std::function<bool(Value *, unsigned)> CanRemat = [&](Value *V,
                                                        unsigned Depth) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || I->getParent() == E.Setup)
      return true;
    if (auto It = RematMemo.find(I); It != RematMemo.end())
      return It->second;
    bool OK = Depth < 8 &&
              (isa<GetElementPtrInst, CastInst, CmpInst, SelectInst>(I) ||
               (isa<BinaryOperator>(I) && !I->isIntDivRem()));
    for (unsigned Op = 0; OK && Op < I->getNumOperands(); ++Op)
      OK = CanRemat(I->getOperand(Op), Depth + 1);
    RematMemo[I] = OK;
    return OK;
  };
  auto Remat = [&](Instruction *V, BasicBlock *BB) {
    DenseMap<Instruction *, Instruction *> Done;
    std::function<Instruction *(Instruction *)> Clone =
        [&](Instruction *I) -> Instruction * {
      if (Instruction *C = Done.lookup(I))
        return C;
      Instruction *C = I->clone();
      for (Use &Op : C->operands())
        if (auto *OI = dyn_cast<Instruction>(Op.get()))
          if (OI->getParent() != E.Setup)
            Op.set(Clone(OI));
      C->insertInto(BB, BB->end());
      C->setName(I->getName() + ".remat");
      Done[I] = C;
      return C;
    };
    return Clone(V);
  };

  DenseMap<Value *, Value *> Replaced;
  for (Sync &S : Syncs) {
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
    S.Resume =
        BasicBlock::Create(C, "sync" + Twine(S.Id) + ".resume", &T, Cont);
    IRBuilder<> B(CI);
    IRBuilder<> RB(S.Resume);
    SmallPtrSet<Instruction *, 16> LiveSet(S.Live.begin(), S.Live.end());
    SmallPtrSet<Value *, 8> CallOps(CI->arg_begin(), CI->arg_end());
    // Spill accesses carry the sync id (SpillMD).
    MDNode *SpillTag =
        MDNode::get(C, ConstantAsMetadata::get(ConstantInt::get(I32, S.Id)));
    auto Tag = [&](Value *Access) {
      cast<Instruction>(Access)->setMetadata(SpillMD, SpillTag);
      return Access;
    };

    // The record of the safe point, at the offsets of !hetgpu.state.
    DenseMap<Instruction *, std::pair<uint64_t, bool>> InRecord;
    if (S.SP) {
      for (auto [V, Slot] : zip(S.Bundle, S.SP->Slots)) {
        auto *I = dyn_cast<Instruction>(V);
        bool Tracked = I && I->getParent() != E.Setup;
        if (Tracked && !LiveSet.count(I) && !CallOps.count(I))
          continue;
        if (Tracked && CanRemat(I, 0))
          continue;
        if (Slot.Kind == SlotKind::Value &&
            DL.getTypeStoreSize(V->getType()) <= Slot.Size) {
          Tag(B.CreateAlignedStore(
              V, B.CreateConstInBoundsGEP1_64(I8, E.Frame, Slot.Offset),
              Align(1)));
          if (Tracked)
            InRecord[I] = {Slot.Offset, false};
        } else if (Slot.Kind == SlotKind::SharedPtr && Slot.Size == 8 &&
                   V->getType()->isPointerTy()) {
          Value *P = B.CreatePtrToInt(V, I64);
          Value *Base = B.CreatePtrToInt(sharedBase(E), I64);
          Tag(B.CreateAlignedStore(
              B.CreateSub(P, Base),
              B.CreateConstInBoundsGEP1_64(I8, E.Frame, Slot.Offset),
              Align(1)));
          if (Tracked)
            InRecord[I] = {Slot.Offset, true};
        }
      }
    }
    for (Instruction *V : S.Live) {
      Instruction *Reload;
      if (CanRemat(V, 0)) {
        ++NumRemat;
        S.Reloads.emplace_back(V, Remat(V, S.Resume));
        continue;
      }
      ++NumSpills;
      if (auto It = InRecord.find(V); It != InRecord.end()) {
        auto [Off, IsShared] = It->second;
        Value *Addr = RB.CreateConstInBoundsGEP1_64(I8, E.Frame, Off);
        if (IsShared) {
          Value *Delta = Tag(RB.CreateAlignedLoad(I64, Addr, Align(1)));
          Value *P = RB.CreateInBoundsGEP(I8, sharedBase(E), Delta);
          Reload = cast<Instruction>(RB.CreateAddrSpaceCast(
              P, V->getType(), V->getName() + ".reload"));
        } else {
          Reload = cast<Instruction>(Tag(RB.CreateAlignedLoad(
              V->getType(), Addr, Align(1), V->getName() + ".reload")));
        }
      } else {
        uint64_t Off = ExtraSlot(V);
        Value *Addr = B.CreateConstInBoundsGEP1_64(I8, E.Frame, Off);
        Tag(B.CreateStore(V, Addr));
        Reload = cast<Instruction>(
            Tag(RB.CreateLoad(V->getType(),
                              RB.CreateConstInBoundsGEP1_64(I8, E.Frame, Off),
                              V->getName() + ".reload")));
      }
      S.Reloads.emplace_back(V, Reload);
    }
    // The operation and its operands.
    B.CreateStore(B.getInt32(S.Kind),
                  TSField(B, offsetof(hetgpu_thread_state, kind)));
    auto StoreArg = [&](unsigned Slot, Value *V) {
      B.CreateStore(V,
                    TSField(B, offsetof(hetgpu_thread_state, arg) + 4 * Slot));
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
    Pre->getTerminator()->eraseFromParent();
    ReturnInst::Create(C, ConstantInt::get(I32, S.Id), Pre);
    if (!CI->getType()->isVoidTy()) {
      Value *Res =
          RB.CreateLoad(I32,
                        RB.CreateConstInBoundsGEP1_64(
                            I8, E.TS, offsetof(hetgpu_thread_state, result)),
                        CI->getName() + ".result");
      CI->replaceAllUsesWith(Res);
      Replaced[CI] = Res;
    }
    RB.CreateBr(Cont);
    CI->eraseFromParent();
  }
  for (Sync &S : Syncs)
    for (auto &[V, R] : S.Reloads)
      if (Value *N = Replaced.lookup(V))
        V = cast<Instruction>(N);

  // Dispatch on the resume point.
  {
    Instruction *Br = E.Setup->getTerminator();
    IRBuilder<> B(Br);
    Value *Resume = B.CreateLoad(
        I32, TSField(B, offsetof(hetgpu_thread_state, resume)), "resume");
    SwitchInst *SW = B.CreateSwitch(Resume, OldEntry, Syncs.size());
    for (Sync &S : Syncs)
      SW->addCase(B.getInt32(S.Id), S.Resume);
    Br->eraseFromParent();
  }

  // SSA repair: each value is defined by its instruction and by its reloads.
  MapVector<Instruction *, SmallVector<std::pair<BasicBlock *, Value *>, 4>>
      Defs;
  for (Sync &S : Syncs)
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
  separateSpillSlots(T);
  FrameSize = alignTo(Cursor, MaxAlign);
  return true;
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

void Lowering::finish() {
  // Device functions that were inlined everywhere are dead now.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Function *F : ContextFns)
      if (F->getParent() && !F->isDeclaration() && F->use_empty() &&
          !isKernel(*F)) {
        F->eraseFromParent();
        ContextFns.remove(F);
        Changed = true;
        break;
      }
  }
  for (Function *F : ContextFns)
    if (!isKernel(*F))
      Fail.add(*F, "device function '" + F->getName() +
                       "' uses thread-context builtins but is not called "
                       "from a kernel it could be inlined into");
  for (GlobalVariable &G : make_early_inc_range(M.globals()))
    if (G.getAddressSpace() == AS_Shared) {
      G.removeDeadConstantUsers();
      if (G.use_empty())
        G.eraseFromParent();
    }
  for (Function &F : make_early_inc_range(M))
    if (F.isDeclaration() && F.use_empty() && lookupBuiltin(F))
      F.eraseFromParent();
}

bool Lowering::run() {
  SmallVector<Function *, 8> Kernels;
  for (Function &F : M)
    if (isKernel(F) && !F.isDeclaration())
      Kernels.push_back(&F);
  if (Kernels.empty())
    return true;

  if (M.getNamedMetadata(StateMD) || M.getNamedMetadata(KernelsMD)) {
    auto InfosOr = readKernelInfo(M);
    if (!InfosOr) {
      Fail.add(*Kernels.front(), toString(InfosOr.takeError()));
      return false;
    }
    for (auto &[F, KI] : *InfosOr)
      Infos[F] = std::move(KI);
  }
  if (!computeContextFunctions())
    return false;

  for (Function *K : Kernels) {
    SharedLayout SL = computeSharedLayout(*K);
    SmallPtrSet<CallInst *, 8> KernelBarriers;
    for (Instruction &I : instructions(*K))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (CI->getOperandBundle(LiveBundle))
          KernelBarriers.insert(CI);
    if (!inlineContextCalls(*K))
      return false;
    copyWrittenByVal(*K);
    NumVolatileSyncs += addVolatileWarpSyncPoints(*K);
    bool HasSync = false;
    for (Instruction &I : instructions(*K))
      if (syncKindOf(I)) {
        HasSync = true;
        break;
      }
    Env E;
    Function *T = makeThreadFunction(*K, HasSync, E);
    if (!lowerBuiltins(*K, E, SL))
      return false;
    if (!HasSync) {
      // Static allocations to the entry block, so inlining keeps them static.
      BasicBlock *OldEntry = E.Setup->getTerminator()->getSuccessor(0);
      for (Instruction &I : make_early_inc_range(*OldEntry))
        if (auto *AI = dyn_cast<AllocaInst>(&I))
          if (isa<ConstantInt>(AI->getArraySize()))
            AI->moveBefore(E.Setup->getFirstInsertionPt());
      buildLoopBlockFunction(*K, *T);
      ++NumLoopKernels;
    } else {
      auto It = Infos.find(K);
      uint64_t FrameSize = 0;
      if (!makeResumable(*K, E, It == Infos.end() ? nullptr : &It->second,
                         KernelBarriers, FrameSize))
        return false;
      buildExecBlockFunction(*K, *T, FrameSize);
      ++NumResumableKernels;
    }
    ContextFns.remove(K);
    K->eraseFromParent();
  }
  finish();
  return Fail.empty();
}

} // namespace

Error lowerSIMTToMIMD(Module &M) {
  Failures Fail;
  Lowering L(M, Fail);
  L.run();
  Error Err = Error::success();
  for (auto &[F, Msg] : Fail.List)
    Err = joinErrors(std::move(Err),
                     createStringError(inconvertibleErrorCode(), Msg));
  return Err;
}

PreservedAnalyses SIMTToMIMDPass::run(Module &M, ModuleAnalysisManager &) {
  Failures Fail;
  Lowering L(M, Fail);
  bool HadKernels = llvm::any_of(
      M, [](Function &F) { return isKernel(F) && !F.isDeclaration(); });
  L.run();
  for (auto &[F, Msg] : Fail.List)
    reportFailure(*F, Msg);
  return HadKernels ? PreservedAnalyses::none() : PreservedAnalyses::all();
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
