//===- ThreadFunction.cpp - The per-thread function of a kernel -----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Step 2 of `hetgpu-simt-to-mimd`: the kernel's body moves into a thread
/// function `K.hetgpu.thread` whose first block ("setup") computes what is
/// constant for a thread: its parameters, thread indices, block-context
/// fields (loaded once, invariant), the linear thread id, and in the
/// resumable form its frame pointer. Two signatures:
///
/// * loop form: `void (kernel params..., ptr ctx, i32 x, i32 y, i32 z)`,
///   always inlined into the block function's thread loop;
/// * resumable form: `i32 (ptr args, ptr ctx, ptr ts)`, called by the block
///   executor, returning the id of the sync point it stopped at (or EXIT).
///
/// Byval parameters the kernel writes get a private copy first, since the
/// threads of a block share the argument buffer.
///
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "hetgpu/ABI/BlockABI.h"
#include "hetgpu/ABI/BlockExecutor.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"

#include <cstddef>

using namespace llvm;

namespace hetgpu {
namespace simt {

/// True when the byval argument \p A is only read.
static bool onlyRead(Argument &A) {
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

/// Resumable form: parameters come from the argument buffer (a pointer per
/// parameter; byval ones are used in place), the thread's indices and frame
/// from its thread state.
void Lowering::bindResumableParams(Function &K, Env &E, IRBuilder<> &B,
                                   SmallVectorImpl<Value *> &ParamVals) {
  Function *T = E.T;
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
    E.Tid[D] = Field(offsetof(hetgpu_thread_state, tid) + 4 * D, I32, Names[D]);
  E.Linear = Field(offsetof(hetgpu_thread_state, linear), I32, "linear.tid");
  E.Frame = Field(offsetof(hetgpu_thread_state, frame), Ptr, "frame");
}

/// Loop form: the kernel's parameters, then the block context and the
/// thread's indices, are parameters of the thread function.
void Lowering::bindLoopParams(Function &K, Env &E,
                              SmallVectorImpl<Value *> &ParamVals) {
  Function *T = E.T;
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
  if (Resumable)
    bindResumableParams(K, E, B, ParamVals);
  else
    bindLoopParams(K, E, ParamVals);
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

} // namespace simt
} // namespace hetgpu
