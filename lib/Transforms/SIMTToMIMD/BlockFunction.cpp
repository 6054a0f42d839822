//===- BlockFunction.cpp - The exported per-block entry of a kernel -------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The last step of `hetgpu-simt-to-mimd` for a kernel K: the exported
/// `void __hetgpu_block_K(void **args, hetgpu_block_ctx *ctx)` that runs
/// every thread of one block (ABI/BlockABI.h). Without sync points it is a
/// z/y/x loop around a call of the (always-inlined) thread function, which
/// LLVM can vectorise; with sync points it is one call of the block
/// executor `__hetgpu_exec_block` (ABI/BlockExecutor.h) with the resumable
/// thread function and its frame size. Either way K's uses move to it.
///
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "hetgpu/ABI/BlockABI.h"
#include "hetgpu/Transforms/SIMTToMIMD.h"

#include <cstddef>

using namespace llvm;

namespace hetgpu {
namespace simt {

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

} // namespace simt
} // namespace hetgpu
