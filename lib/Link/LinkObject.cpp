//===- LinkObject.cpp - The host-side object of a device link -------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// What nvlink's output is to nvcc: a host object that holds the linked
/// container and defines the `__cudaRegisterLinkedBinary<id>` functions the
/// relocatable objects' constructors call (docs/SeparateCompilation.md):
///
///   static void **Handle;
///   void __cudaRegisterLinkedBinary<id>(void (*Reg)(void **), void *,
///                                       void *, void (*)(void *)) {
///     if (!Handle) Handle = __cudaRegisterFatBinary(&LinkedWrapper);
///     Reg(Handle); // the component's __cudaRegisterFunction/Var calls
///   }
///
/// The linked container is in `.nv_fatbin` with its wrapper in
/// `.nvFatBinSegment`, as clang lays out a whole-TU object, so
/// hetgpu-objdump and the runtime read it like any other. The functions are
/// hidden: a shared library's device link serves only its own objects.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Link/DeviceLink.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace hetgpu {
namespace link {
namespace {

/// clang's `__cuda_fatbin_wrapper` magic (runtime/lib/API/Registration.cpp).
constexpr uint32_t FatbinWrapperMagic = 0x466243b1;

/// `void **hetgpu.linked.handle()`: registers the linked container once.
Function *buildHandleGetter(Module &M, const container::Container &Linked) {
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C);
  PointerType *Ptr = PointerType::getUnqual(C);
  std::string Bytes = container::write(Linked);
  auto *Data = new GlobalVariable(
      M, ArrayType::get(Type::getInt8Ty(C), Bytes.size()), true,
      GlobalValue::PrivateLinkage,
      ConstantDataArray::getString(C, Bytes, /*AddNull=*/false),
      "hetgpu.linked.fatbin");
  Data->setSection(".nv_fatbin");
  Data->setAlignment(Align(8));
  StructType *WrapperTy = StructType::get(C, {I32, I32, Ptr, Ptr});
  auto *Wrapper = new GlobalVariable(
      M, WrapperTy, true, GlobalValue::InternalLinkage,
      ConstantStruct::get(WrapperTy, {ConstantInt::get(I32, FatbinWrapperMagic),
                                      ConstantInt::get(I32, 1), Data,
                                      ConstantPointerNull::get(Ptr)}),
      "hetgpu.linked.wrapper");
  Wrapper->setSection(".nvFatBinSegment");
  Wrapper->setAlignment(Align(8));
  auto *Handle =
      new GlobalVariable(M, Ptr, false, GlobalValue::InternalLinkage,
                         ConstantPointerNull::get(Ptr), "hetgpu.linked.handle");
  FunctionCallee Register = M.getOrInsertFunction(
      "__cudaRegisterFatBinary", FunctionType::get(Ptr, {Ptr}, false));

  Function *Get =
      Function::Create(FunctionType::get(Ptr, false),
                       GlobalValue::InternalLinkage, "hetgpu.linked.get", M);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", Get);
  BasicBlock *Reg = BasicBlock::Create(C, "register", Get);
  BasicBlock *Done = BasicBlock::Create(C, "done", Get);
  IRBuilder<> B(Entry);
  Value *H = B.CreateLoad(Ptr, Handle);
  B.CreateCondBr(B.CreateIsNull(H), Reg, Done);
  B.SetInsertPoint(Reg);
  Value *New = B.CreateCall(Register, {Wrapper});
  B.CreateStore(New, Handle);
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  PHINode *Phi = B.CreatePHI(Ptr, 2);
  Phi->addIncoming(H, Entry);
  Phi->addIncoming(New, Reg);
  B.CreateRet(Phi);
  return Get;
}

void buildRegisterFunction(Module &M, StringRef Id, Function *Get) {
  LLVMContext &C = M.getContext();
  PointerType *Ptr = PointerType::getUnqual(C);
  Function *F = Function::Create(
      FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, Ptr, Ptr}, false),
      GlobalValue::ExternalLinkage, RegisterLinkedBinaryPrefix + Id, M);
  F->setVisibility(GlobalValue::HiddenVisibility);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Value *H = Get ? static_cast<Value *>(B.CreateCall(Get))
                 : ConstantPointerNull::get(Ptr);
  B.CreateCall(FunctionType::get(Type::getVoidTy(C), {Ptr}, false),
               F->getArg(0), {H});
  B.CreateRetVoid();
}

} // namespace

std::string buildLinkObject(const container::Container *Linked,
                            const std::set<std::string> &ModuleIds,
                            StringRef HostTriple) {
  LLVMContext C;
  Module M("hetgpu-dlink", C);
  M.setTargetTriple(Triple(HostTriple));
  Function *Get = Linked ? buildHandleGetter(M, *Linked) : nullptr;
  for (const std::string &Id : ModuleIds)
    buildRegisterFunction(M, Id, Get);
  std::string Out;
  raw_string_ostream OS(Out);
  WriteBitcodeToFile(M, OS);
  return Out;
}

} // namespace link
} // namespace hetgpu
