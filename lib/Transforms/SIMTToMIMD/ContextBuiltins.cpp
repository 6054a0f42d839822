//===- ContextBuiltins.cpp - Builtins lowered against the block context ---===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The builtins of a thread function that are not sync points, lowered for
/// `hetgpu-simt-to-mimd` against the block context (ABI/BlockABI.h):
/// thread and block indices and sizes, lane id, static and dynamic shared
/// memory (an offset from `ctx->shared`), fences, and the device services
/// (printf, assert, trap, malloc, free, clock, globaltimer) called through
/// `ctx->services`. Math builtins are left to the target; sync points are
/// Resumable.cpp's.
///
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "hetgpu/ABI/BlockABI.h"
#include "hetgpu/ABI/BlockExecutor.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/ReplaceConstant.h"

#include <cstddef>

using namespace llvm;
using namespace hetgpu::container;

namespace hetgpu {
namespace simt {

/// Static shared variables: ctx->shared + their offset in the layout.
bool Lowering::rewriteSharedVariables(Function &K, Env &E,
                                      const SharedLayout &SL) {
  Function &T = *E.T;
  SmallVector<Constant *, 8> SharedGVs;
  for (GlobalVariable &G : M.globals())
    if (G.getAddressSpace() == AS_Shared)
      SharedGVs.push_back(&G);
  if (SharedGVs.empty())
    return true;
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
  return true;
}

/// A call of the host service at offset \p Off of `ctx->services`, with the
/// service table's runtime handle as first argument.
CallInst *Lowering::callService(Env &E, IRBuilder<> &B, size_t Off,
                                FunctionType *FTy, ArrayRef<Value *> Args) {
  Value *Svc = ctxField(E, offsetof(hetgpu_block_ctx, services), Ptr);
  Value *Rt = B.CreateLoad(Ptr, Svc, "svc.rt");
  Value *Fn = B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_64(I8, Svc, Off));
  SmallVector<Value *, 6> All{Rt};
  All.append(Args.begin(), Args.end());
  return B.CreateCall(FTy, Fn, All);
}

bool Lowering::lowerBuiltins(Function &K, Env &E, const SharedLayout &SL) {
  if (!rewriteSharedVariables(K, E, SL))
    return false;
  SmallVector<CallInst *, 32> Calls;
  for (Instruction &I : instructions(*E.T))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (getCalledBuiltin(*CI))
        Calls.push_back(CI);
  for (CallInst *CI : Calls) {
    BuiltinInfo BI = *getCalledBuiltin(*CI);
    if (syncKind(BI.ID) != HETGPU_SYNC_EXIT || BI.Group == "math")
      continue;
    if (!lowerBuiltinCall(K, E, CI, BI))
      return false;
  }
  return true;
}

/// Replaces the builtin call \p CI (one switch case per builtin: the table
/// of what each becomes, kept in one place rather than split).
bool Lowering::lowerBuiltinCall(Function &K, Env &E, CallInst *CI,
                                const BuiltinInfo &BI) {
  IRBuilder<> B(CI);
  Value *R = nullptr;
  size_t Grid = offsetof(hetgpu_block_ctx, grid_dim);
  size_t Dim = offsetof(hetgpu_block_ctx, block_dim);
  size_t Idx = offsetof(hetgpu_block_ctx, block_idx);
  auto Services = [&](size_t Off, FunctionType *FTy, ArrayRef<Value *> Args) {
    return callService(E, B, Off, FTy, Args);
  };
  Type *Void = Type::getVoidTy(C);
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
    R = Services(offsetof(hetgpu_host_services, printf),
                 FunctionType::get(I32, {Ptr, Ptr, Ptr}, false),
                 {CI->getArgOperand(0), CI->getArgOperand(1)});
    break;
  case BuiltinID::assert_fail:
    Services(offsetof(hetgpu_host_services, assert_fail),
             FunctionType::get(Void, {Ptr, Ptr, Ptr, I32, Ptr}, false),
             {CI->getArgOperand(0), CI->getArgOperand(1), CI->getArgOperand(2),
              CI->getArgOperand(3)})
        ->setDoesNotReturn();
    break;
  case BuiltinID::trap:
    Services(offsetof(hetgpu_host_services, trap),
             FunctionType::get(Void, {Ptr}, false), {})
        ->setDoesNotReturn();
    break;
  case BuiltinID::malloc:
    R = Services(offsetof(hetgpu_host_services, malloc),
                 FunctionType::get(Ptr, {Ptr, I64}, false),
                 {CI->getArgOperand(0)});
    break;
  case BuiltinID::free:
    Services(offsetof(hetgpu_host_services, free),
             FunctionType::get(Void, {Ptr, Ptr}, false),
             {CI->getArgOperand(0)});
    break;
  case BuiltinID::clock:
  case BuiltinID::clock64: {
    Value *V = Services(offsetof(hetgpu_host_services, clock64),
                        FunctionType::get(I64, {Ptr}, false), {});
    R = BI.ID == BuiltinID::clock ? B.CreateTrunc(V, I32) : V;
    break;
  }
  case BuiltinID::globaltimer:
    R = Services(offsetof(hetgpu_host_services, globaltimer),
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
  return true;
}

} // namespace simt
} // namespace hetgpu
