//===- LowerGridSync.cpp - grid_group::sync() as a spin barrier -----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements `hetgpu-lower-grid-sync` (LowerGridSync.h). The barrier's
/// words, `@hetgpu.grid.barrier` (one pair per module, zero at load):
/// threads arrived, then the generation. Thread 0 of each block reads the
/// generation, then counts its block in; the last block zeroes the count
/// and bumps the generation (release), the others spin until the
/// generation changes (acquire). The block barriers around it order the
/// block's other threads.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Transforms/LowerGridSync.h"

#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#define DEBUG_TYPE "hetgpu-lower-grid-sync"

using namespace llvm;
using namespace hetgpu::container;

STATISTIC(NumLowered, "Grid barriers lowered to spin barriers");

namespace hetgpu {

namespace {

/// The module's barrier words, created at first use.
GlobalVariable *barrierWords(Module &M) {
  constexpr StringLiteral Name = "hetgpu.grid.barrier";
  if (GlobalVariable *G = M.getNamedGlobal(Name))
    return G;
  auto *Ty = ArrayType::get(Type::getInt32Ty(M.getContext()), 2);
  auto *G = new GlobalVariable(M, Ty, /*isConstant=*/false,
                               GlobalValue::InternalLinkage,
                               Constant::getNullValue(Ty), Name, nullptr,
                               GlobalValue::NotThreadLocal, AS_Global);
  G->setAlignment(Align(4));
  return G;
}

void expand(CallBase *CB, GlobalVariable *Words) {
  Module &M = *CB->getModule();
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C);
  auto Builtin = [&](IRBuilder<> &B, BuiltinID ID) {
    return B.CreateCall(getOrDeclareBuiltin(M, ID));
  };
  BasicBlock *Pre = CB->getParent();
  BasicBlock *After = Pre->splitBasicBlock(CB, "hetgpu.grid.after");
  Function *F = Pre->getParent();
  BasicBlock *Arrive = BasicBlock::Create(C, "hetgpu.grid.arrive", F, After);
  BasicBlock *Last = BasicBlock::Create(C, "hetgpu.grid.last", F, After);
  BasicBlock *Wait = BasicBlock::Create(C, "hetgpu.grid.wait", F, After);

  Pre->getTerminator()->eraseFromParent();
  IRBuilder<> B(Pre);
  B.SetCurrentDebugLocation(CB->getDebugLoc());
  Builtin(B, BuiltinID::barrier);
  Value *TX = Builtin(B, BuiltinID::tid_x);
  Value *TY = Builtin(B, BuiltinID::tid_y);
  Value *TZ = Builtin(B, BuiltinID::tid_z);
  Value *T0 = B.CreateICmpEQ(B.CreateOr(TX, B.CreateOr(TY, TZ)), B.getInt32(0),
                             "hetgpu.grid.t0");
  B.CreateCondBr(T0, Arrive, After);

  B.SetInsertPoint(Arrive);
  Value *Count =
      B.CreateConstInBoundsGEP2_32(Words->getValueType(), Words, 0, 0);
  Value *Gen = B.CreateConstInBoundsGEP2_32(Words->getValueType(), Words, 0, 1);
  LoadInst *G0 = B.CreateAlignedLoad(I32, Gen, Align(4), "hetgpu.grid.gen");
  G0->setAtomic(AtomicOrdering::Acquire);
  Value *NX = Builtin(B, BuiltinID::nctaid_x);
  Value *NY = Builtin(B, BuiltinID::nctaid_y);
  Value *NZ = Builtin(B, BuiltinID::nctaid_z);
  Value *Blocks = B.CreateMul(NX, B.CreateMul(NY, NZ), "hetgpu.grid.blocks");
  Value *Old = B.CreateAtomicRMW(AtomicRMWInst::Add, Count, B.getInt32(1),
                                 Align(4), AtomicOrdering::AcquireRelease);
  B.CreateCondBr(B.CreateICmpEQ(Old, B.CreateSub(Blocks, B.getInt32(1))), Last,
                 Wait);

  // The last block to arrive: the count is zero again before the next
  // generation starts.
  B.SetInsertPoint(Last);
  StoreInst *Zero = B.CreateAlignedStore(B.getInt32(0), Count, Align(4));
  Zero->setAtomic(AtomicOrdering::Monotonic);
  B.CreateAtomicRMW(AtomicRMWInst::Add, Gen, B.getInt32(1), Align(4),
                    AtomicOrdering::Release);
  B.CreateBr(After);

  B.SetInsertPoint(Wait);
  LoadInst *G1 = B.CreateAlignedLoad(I32, Gen, Align(4), "hetgpu.grid.now");
  G1->setAtomic(AtomicOrdering::Acquire);
  B.CreateCondBr(B.CreateICmpEQ(G1, G0), Wait, After);

  B.SetInsertPoint(CB);
  Builtin(B, BuiltinID::barrier);
  CB->eraseFromParent();
  ++NumLowered;
}

} // namespace

bool lowerGridSync(Module &M) {
  Function *F = M.getFunction(getBuiltinInfo(BuiltinID::grid_sync).Name);
  if (!F)
    return false;
  SmallVector<CallBase *, 8> Calls;
  for (User *U : F->users())
    if (auto *CB = dyn_cast<CallBase>(U))
      Calls.push_back(CB);
  GlobalVariable *Words = Calls.empty() ? nullptr : barrierWords(M);
  for (CallBase *CB : Calls)
    expand(CB, Words);
  if (F->use_empty())
    F->eraseFromParent();
  return !Calls.empty();
}

} // namespace hetgpu
