//===- SPIRVModuleInfo.cpp - Module table and helper kernels --------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Step 6 of hetgpu-lower-spirv (SPIRVLowering.h): the module table the
/// runtime reads (ABI/SPIRVKernel.h: globals block, kernels, printf formats)
/// and the helper kernels (info, init).
///
//===----------------------------------------------------------------------===//

#include "SPIRVLowering.h"

#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Targets/ExpandIntrinsics.h"
#include "hetgpu/Targets/TargetDiagnostics.h"
#include "hetgpu/Transforms/SIMTToMIMD.h"
#include "hetgpu/ABI/BlockExecutor.h"
// The block context the SIMT->MIMD thread functions read (plain C).
#include "hetgpu/ABI/BlockABI.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <cstddef>
#include <map>


#define DEBUG_TYPE "hetgpu-lower-spirv"

using namespace llvm;

namespace hetgpu {
namespace spirv {

//===----------------------------------------------------------------------===//
// Step 6: helper kernels, address space inference
//===----------------------------------------------------------------------===//

void SPIRVLowering::addHelperKernels() {
  auto *GPtr = PointerType::get(Ctx, ASGlobal);

  // The module table.
  std::string Table;
  raw_string_ostream OS(Table);
  OS << "hetgpu-spirv " << spirv_abi::ABIVersion << "\n";
  OS << "block " << alignTo(BlockSize, 16) << " " << BlockAlign << "\n";
  for (const BlockVar &BV : BlockVars)
    OS << "global " << BV.Name << " " << BV.Offset << " " << BV.Size << "\n";
  for (Function *K : Kernels) {
    auto WL = WarpLoopShared.find(K->getName().str());
    if (WL != WarpLoopShared.end())
      OS << "kernel " << K->getName() << " 2 " << WL->second.first << " "
         << WL->second.second << "\n";
    else
      OS << "kernel " << K->getName() << " "
         << (WarpEmulated.count(K) ? 1 : 0) << "\n";
  }
  if (UsesHeap)
    OS << "heap 1\n";
  for (const auto &[Name, Why] : Unsupported)
    OS << "unsupported " << Name << " " << toHex(Why, /*LowerCase=*/true)
       << "\n";
  for (size_t I = 0; I < Formats.size(); ++I) {
    OS << "printf " << I << " " << Formats[I].ArgsSize << " "
       << Formats[I].StringOffsets.size();
    for (uint64_t Off : Formats[I].StringOffsets)
      OS << " " << Off;
    OS << " " << toHex(Formats[I].Text, /*LowerCase=*/true) << "\n";
    if (Formats[I].Stderr)
      OS << "stderr " << I << "\n";
  }

  {
    auto *FT = FunctionType::get(Type::getVoidTy(Ctx), {GPtr, I64}, false);
    Function *F = Function::Create(FT, GlobalValue::ExternalLinkage,
                                   spirv_abi::InfoKernel, &M);
    F->setCallingConv(CallingConv::SPIR_KERNEL);
    // The text lives in byte arrays of at most ChunkBytes elements each: a
    // SPIR-V constant composite has at most 65535 operands without
    // SPV_INTEL_long_composites (modules with hundreds of kernels have
    // tables of that size). It is copied byte by byte, truncated to cap - 8.
    constexpr uint64_t ChunkBytes = 60000;
    uint64_t Len = Table.size();
    BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", F);
    IRBuilder<> B(Entry);
    Value *Out = F->getArg(0), *Cap = F->getArg(1);
    B.CreateStore(B.getInt64(Len), Out);
    Value *Room = B.CreateSub(Cap, B.getInt64(8));
    Value *N = B.CreateSelect(B.CreateICmpULT(Room, B.getInt64(Len)), Room,
                              B.getInt64(Len), "n");
    for (uint64_t First = 0; First < Len; First += ChunkBytes) {
      uint64_t Count = std::min<uint64_t>(ChunkBytes, Len - First);
      Constant *Data = ConstantDataArray::getString(
          Ctx, StringRef(Table).substr(First, Count), false);
      auto *G = new GlobalVariable(
          M, Data->getType(), true, GlobalValue::InternalLinkage, Data,
          First ? "__hetgpu_spirv_table." + Twine(First / ChunkBytes)
                : Twine("__hetgpu_spirv_table"),
          nullptr, GlobalValue::NotThreadLocal, ASConstant);
      BasicBlock *Copy = BasicBlock::Create(Ctx, "copy", F);
      BasicBlock *Next = BasicBlock::Create(Ctx, "next", F);
      Value *Begin = B.getInt64(First);
      BasicBlock *From = B.GetInsertBlock();
      B.CreateCondBr(B.CreateICmpULT(Begin, N), Copy, Next);
      B.SetInsertPoint(Copy);
      PHINode *I = B.CreatePHI(I64, 2);
      I->addIncoming(B.getInt64(0), From);
      Value *C = B.CreateLoad(I8, B.CreateInBoundsGEP(I8, G, I));
      Value *At = B.CreateAdd(I, Begin);
      B.CreateStore(C, B.CreateInBoundsGEP(I8, Out,
                                           B.CreateAdd(At, B.getInt64(8))));
      Value *INext = B.CreateAdd(I, B.getInt64(1));
      I->addIncoming(INext, Copy);
      Value *More = B.CreateAnd(B.CreateICmpULT(INext, B.getInt64(Count)),
                                B.CreateICmpULT(B.CreateAdd(INext, Begin), N));
      B.CreateCondBr(More, Copy, Next);
      B.SetInsertPoint(Next);
    }
    B.CreateRetVoid();
  }
  {
    auto *FT = FunctionType::get(Type::getVoidTy(Ctx), {GPtr}, false);
    Function *F = Function::Create(FT, GlobalValue::ExternalLinkage,
                                   spirv_abi::InitKernel, &M);
    F->setCallingConv(CallingConv::SPIR_KERNEL);
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
    for (const BlockVar &BV : BlockVars) {
      if (!BV.Init)
        continue;
      auto *Img = new GlobalVariable(M, BV.Init->getType(), true,
                                     GlobalValue::InternalLinkage, BV.Init,
                                     BV.Name + ".init", nullptr,
                                     GlobalValue::NotThreadLocal, ASGlobal);
      B.CreateMemCpy(
          B.CreateInBoundsGEP(I8, F->getArg(0), B.getInt64(BV.Offset)),
          Align(1), Img, Align(1), BV.Size);
    }
    B.CreateRetVoid();
  }
}

} // namespace spirv
} // namespace hetgpu
