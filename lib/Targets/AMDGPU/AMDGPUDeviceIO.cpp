//===- AMDGPUDeviceIO.cpp - printf, assert, trap and malloc on AMDGPU -----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Device side of printf/assert/trap/malloc for the AMDGPU target (see
/// AMDGPUDeviceIO.h; the record layout is in LowerToAMDGPU.h). A printf
/// record is self-contained: the format text, the vprintf argument buffer
/// and a copy of every %s string, so the host never reads device memory
/// other than the buffer. Which arguments are strings is read from the
/// constant format at compile time, with CUDA's vprintf layout rules.
///
//===----------------------------------------------------------------------===//

#include "AMDGPUDeviceIO.h"
#include "LowerToAMDGPU.h"

#include "hetgpu/IR/Metadata.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace hetgpu {

namespace {

namespace pf = amdgpu_printf;

/// The vprintf buffer layout of \p Fmt: total size and the offsets of the
/// %s arguments. Integers without a length modifier, %c and `*` are 4
/// bytes, l/ll/j/z/t/q integers, floating values, %s, %p and %n 8 bytes,
/// each at its natural alignment (runtime/lib/Core/Printf.h).
struct PrintfLayout {
  uint64_t Size = 0;
  unsigned NumArgs = 0;
  SmallVector<unsigned, 4> StringOffsets;
};

bool layoutPrintf(StringRef Fmt, PrintfLayout &L, std::string &Why) {
  auto Take = [&](unsigned Bytes) {
    L.Size = alignTo(L.Size, Bytes);
    unsigned Off = L.Size;
    L.Size += Bytes;
    ++L.NumArgs;
    return Off;
  };
  for (size_t I = 0; I < Fmt.size(); ++I) {
    if (Fmt[I] != '%')
      continue;
    if (++I >= Fmt.size())
      break;
    if (Fmt[I] == '%')
      continue;
    while (I < Fmt.size() && StringRef("-+ #0'").contains(Fmt[I]))
      ++I;
    if (I < Fmt.size() && Fmt[I] == '*') {
      Take(4);
      ++I;
    }
    while (I < Fmt.size() && isDigit(Fmt[I]))
      ++I;
    if (I < Fmt.size() && Fmt[I] == '.') {
      ++I;
      if (I < Fmt.size() && Fmt[I] == '*') {
        Take(4);
        ++I;
      }
      while (I < Fmt.size() && isDigit(Fmt[I]))
        ++I;
    }
    bool Long = false;
    while (I < Fmt.size() && StringRef("hljztqL").contains(Fmt[I])) {
      Long |= StringRef("ljztq").contains(Fmt[I]);
      ++I;
    }
    if (I >= Fmt.size())
      break;
    char C = Fmt[I];
    switch (C) {
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
      Take(Long ? 8 : 4);
      break;
    case 'c':
      Take(4);
      break;
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
    case 'p': case 'n':
      Take(8);
      break;
    case 's':
      L.StringOffsets.push_back(Take(8));
      break;
    default:
      Why = std::string("unknown conversion '%") + C + "'";
      return false;
    }
  }
  return true;
}

/// The constant C string \p V points to, if it is one.
std::optional<StringRef> constantString(Value *V) {
  StringRef S;
  if (!getConstantStringInfo(V->stripPointerCasts(), S, /*TrimAtNul=*/true))
    return std::nullopt;
  return S;
}

Constant *constantI8Ptr(Module &M, StringRef Text, StringRef Name) {
  auto *Init = ConstantDataArray::getString(M.getContext(), Text, true);
  auto *GV = new GlobalVariable(M, Init->getType(), true,
                                GlobalValue::PrivateLinkage, Init, Name,
                                nullptr, GlobalValue::NotThreadLocal,
                                AS_Constant);
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  GV->setAlignment(Align(1));
  return ConstantExpr::getAddrSpaceCast(GV, PointerType::get(M.getContext(), 0));
}

GlobalVariable *printfBuffer(Module &M) {
  if (GlobalVariable *GV = M.getGlobalVariable(AMDGPUPrintfBufferName))
    return GV;
  LLVMContext &Ctx = M.getContext();
  auto *Ty = StructType::get(Ctx, {Type::getInt64Ty(Ctx), Type::getInt32Ty(Ctx),
                                   Type::getInt32Ty(Ctx),
                                   ArrayType::get(Type::getInt8Ty(Ctx),
                                                  pf::Capacity)});
  auto *GV = new GlobalVariable(M, Ty, false, GlobalValue::ExternalLinkage,
                                Constant::getNullValue(Ty),
                                AMDGPUPrintfBufferName, nullptr,
                                GlobalValue::NotThreadLocal, AS_Global);
  GV->setAlignment(Align(16));
  GV->setVisibility(GlobalValue::ProtectedVisibility);
  return GV;
}

/// `i32 __hetgpu_amdgpu_strlen(ptr)`: 0 for null.
Function *strlenHelper(Module &M) {
  StringRef Name = "__hetgpu_amdgpu_strlen";
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &Ctx = M.getContext();
  auto *I32 = Type::getInt32Ty(Ctx);
  auto *P = PointerType::get(Ctx, 0);
  Function *F = Function::Create(FunctionType::get(I32, {P}, false),
                                 GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", F);
  BasicBlock *Loop = BasicBlock::Create(Ctx, "loop", F);
  BasicBlock *Done = BasicBlock::Create(Ctx, "done", F);
  IRBuilder<> B(Entry);
  Value *S = F->getArg(0);
  B.CreateCondBr(B.CreateIsNull(S), Done, Loop);
  B.SetInsertPoint(Loop);
  PHINode *N = B.CreatePHI(I32, 2, "n");
  N->addIncoming(B.getInt32(0), Entry);
  Value *C = B.CreateLoad(B.getInt8Ty(), B.CreateGEP(B.getInt8Ty(), S, N));
  Value *Next = B.CreateAdd(N, B.getInt32(1));
  N->addIncoming(Next, Loop);
  BasicBlock *Exit = BasicBlock::Create(Ctx, "exit", F);
  B.CreateCondBr(B.CreateIsNull(C), Exit, Loop);
  B.SetInsertPoint(Exit);
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  PHINode *R = B.CreatePHI(I32, 2);
  R->addIncoming(B.getInt32(0), Entry);
  R->addIncoming(N, Exit);
  B.CreateRet(R);
  return F;
}

/// Emits, before \p At, the code that appends one record; returns an i1
/// that is true when the record was written (false: buffer full).
Value *emitRecord(CallInst *At, unsigned Kind, Value *Fmt, uint64_t FmtLen,
                  Value *Args, const PrintfLayout &L) {
  Module &M = *At->getModule();
  LLVMContext &Ctx = M.getContext();
  IRBuilder<> B(At);
  Type *I8 = B.getInt8Ty(), *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  SyncScope::ID Agent = Ctx.getOrInsertSyncScopeID("agent");
  GlobalVariable *Buf = printfBuffer(M);

  uint64_t ArgsOff = alignTo(pf::HeaderSize + FmtLen, 8);
  uint64_t ArgsLen = Args ? L.Size : 0;
  uint64_t TableOff = alignTo(ArgsOff + ArgsLen, 8);
  uint64_t StrOff = TableOff + 8 * L.StringOffsets.size();

  // The strings' sizes (with NUL; 0 for null pointers).
  SmallVector<Value *, 4> StrPtr, StrSize;
  Function *Strlen = L.StringOffsets.empty() ? nullptr : strlenHelper(M);
  for (unsigned Off : L.StringOffsets) {
    Value *P = B.CreateAlignedLoad(B.getPtrTy(),
                                   B.CreateConstInBoundsGEP1_64(I8, Args, Off),
                                   Align(8), "printf.str");
    Value *Len = B.CreateCall(Strlen, {P});
    StrPtr.push_back(P);
    StrSize.push_back(B.CreateSelect(B.CreateIsNull(P), B.getInt32(0),
                                     B.CreateAdd(Len, B.getInt32(1))));
  }
  Value *Total = B.getInt32(StrOff);
  for (Value *S : StrSize)
    Total = B.CreateAdd(Total, S);
  Total = B.CreateAnd(B.CreateAdd(Total, B.getInt32(7)), B.getInt32(~7u),
                      "record.size");

  Value *Head = B.CreateAtomicRMW(AtomicRMWInst::Add, Buf, B.CreateZExt(Total, I64),
                                  Align(8), AtomicOrdering::Monotonic, Agent);
  Value *End = B.CreateAdd(Head, B.CreateZExt(Total, I64));
  Value *Fits = B.CreateICmpULE(End, B.getInt64(pf::Capacity), "record.fits");

  Instruction *ThenTerm = SplitBlockAndInsertIfThen(Fits, At->getIterator(), false);
  B.SetInsertPoint(ThenTerm);
  Value *Rec = B.CreateInBoundsGEP(
      I8, B.CreateConstInBoundsGEP1_64(I8, Buf, pf::DataOffset), Head, "record");
  auto Store32 = [&](unsigned Off, Value *V) {
    B.CreateAlignedStore(V, B.CreateConstInBoundsGEP1_64(I8, Rec, Off), Align(4));
  };
  Store32(0, Total);
  Store32(4, B.getInt32(Kind));
  Store32(8, B.getInt32(pf::HeaderSize));
  Store32(12, B.getInt32(FmtLen));
  Store32(16, B.getInt32(ArgsOff));
  Store32(20, B.getInt32(ArgsLen));
  Store32(24, B.getInt32(L.StringOffsets.size()));
  Store32(28, B.getInt32(TableOff));
  B.CreateMemCpy(B.CreateConstInBoundsGEP1_64(I8, Rec, pf::HeaderSize), Align(8),
                 Fmt, Align(1), FmtLen);
  if (ArgsLen)
    B.CreateMemCpy(B.CreateConstInBoundsGEP1_64(I8, Rec, ArgsOff), Align(8),
                   Args, Align(8), ArgsLen);
  Value *Cursor = B.getInt32(StrOff);
  for (unsigned I = 0; I < L.StringOffsets.size(); ++I) {
    Store32(TableOff + 8 * I, B.getInt32(L.StringOffsets[I]));
    Value *IsNull = B.CreateIsNull(StrPtr[I]);
    Store32(TableOff + 8 * I + 4, B.CreateSelect(IsNull, B.getInt32(0), Cursor));
    B.CreateMemCpy(B.CreateInBoundsGEP(I8, Rec, Cursor), Align(1), StrPtr[I],
                   Align(1), B.CreateZExt(StrSize[I], I64));
    Cursor = B.CreateAdd(Cursor, StrSize[I]);
  }
  (void)I32;
  return Fits;
}

void setFlagAndEnd(CallInst *CI, unsigned Flag) {
  Module &M = *CI->getModule();
  IRBuilder<> B(CI);
  GlobalVariable *Buf = printfBuffer(M);
  B.CreateAtomicRMW(AtomicRMWInst::Or,
                    B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Buf, 8),
                    B.getInt32(Flag), Align(4), AtomicOrdering::Release,
                    M.getContext().getOrInsertSyncScopeID("agent"));
  // The launch fails: this wavefront stops here (s_endpgm); the others
  // finish (the HIP backend reports the flag after synchronising).
  B.CreateIntrinsic(Intrinsic::amdgcn_endpgm, ArrayRef<Type *>(), ArrayRef<Value *>());
  CI->eraseFromParent();
}

} // namespace

void lowerAMDGPUPrintf(CallInst *CI, AMDGPUFailFn Fail) {
  Function *Caller = CI->getFunction();
  Value *Fmt = CI->getArgOperand(0);
  Value *Args = CI->getArgOperand(1);
  std::optional<StringRef> Text = constantString(Fmt);
  if (!Text) {
    Fail(Caller, "printf with a format that is not a constant string is not "
                 "supported on amdgpu (the format says which arguments are "
                 "strings to copy for the host)");
    return;
  }
  PrintfLayout L;
  std::string Why;
  if (!layoutPrintf(*Text, L, Why)) {
    Fail(Caller, "printf format \"" + *Text + "\": " + Why);
    return;
  }
  if (isa<ConstantPointerNull>(Args))
    Args = nullptr;
  if (L.Size && !Args) {
    Fail(Caller, "printf format \"" + *Text + "\" takes arguments but none "
                 "were passed");
    return;
  }
  Value *Fits = emitRecord(CI, pf::KindPrintf, Fmt, Text->size() + 1, Args, L);
  IRBuilder<> B(CI);
  Value *R = B.CreateSelect(Fits, B.getInt32(L.NumArgs), B.getInt32(-1));
  R->takeName(CI);
  CI->replaceAllUsesWith(R);
  CI->eraseFromParent();
}

void lowerAMDGPUAssert(CallInst *CI, AMDGPUFailFn) {
  Module &M = *CI->getModule();
  const char *Format = "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] "
                       "Assertion `%s` failed.\n";
  PrintfLayout L;
  std::string Why;
  bool Ok = layoutPrintf(Format, L, Why);
  assert(Ok && L.Size == 56 && "assert format layout");
  (void)Ok;
  Function *F = CI->getFunction();
  IRBuilder<> EB(&*F->getEntryBlock().getFirstInsertionPt());
  AllocaInst *Buf = EB.CreateAlloca(ArrayType::get(EB.getInt8Ty(), L.Size),
                                    AS_Private, nullptr, "assert.args");
  Buf->setAlignment(Align(8));
  IRBuilder<> B(CI);
  Value *Args = B.CreateAddrSpaceCast(Buf, B.getPtrTy());
  auto Put = [&](unsigned Off, Value *V) {
    B.CreateAlignedStore(V, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Args, Off),
                         Align(4));
  };
  Put(0, CI->getArgOperand(1));  // file
  Put(8, CI->getArgOperand(2));  // line
  Put(16, CI->getArgOperand(3)); // function
  Put(24, B.CreateIntrinsic(Intrinsic::amdgcn_workgroup_id_x, ArrayRef<Type *>(), ArrayRef<Value *>()));
  Put(28, B.CreateIntrinsic(Intrinsic::amdgcn_workgroup_id_y, ArrayRef<Type *>(), ArrayRef<Value *>()));
  Put(32, B.CreateIntrinsic(Intrinsic::amdgcn_workgroup_id_z, ArrayRef<Type *>(), ArrayRef<Value *>()));
  Put(36, B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_x, ArrayRef<Type *>(), ArrayRef<Value *>()));
  Put(40, B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_y, ArrayRef<Type *>(), ArrayRef<Value *>()));
  Put(44, B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_z, ArrayRef<Type *>(), ArrayRef<Value *>()));
  Put(48, CI->getArgOperand(0)); // message
  Constant *Fmt = constantI8Ptr(M, Format, "__hetgpu_amdgpu_assert_fmt");
  emitRecord(CI, pf::KindAssert, Fmt, StringRef(Format).size() + 1, Args, L);
  setFlagAndEnd(CI, pf::FlagAssert);
}

void lowerAMDGPUTrap(CallInst *CI) { setFlagAndEnd(CI, amdgpu_printf::FlagTrap); }

void lowerAMDGPUMalloc(CallInst *CI) {
  Module &M = *CI->getModule();
  LLVMContext &Ctx = M.getContext();
  GlobalVariable *Heap = M.getGlobalVariable(AMDGPUHeapName);
  if (!Heap) {
    auto *Ty = StructType::get(
        Ctx, {Type::getInt64Ty(Ctx), Type::getInt64Ty(Ctx),
              ArrayType::get(Type::getInt8Ty(Ctx), AMDGPUHeapSize)});
    Heap = new GlobalVariable(M, Ty, false, GlobalValue::ExternalLinkage,
                              Constant::getNullValue(Ty), AMDGPUHeapName,
                              nullptr, GlobalValue::NotThreadLocal, AS_Global);
    Heap->setAlignment(Align(16));
    Heap->setVisibility(GlobalValue::ProtectedVisibility);
  }
  IRBuilder<> B(CI);
  Type *I64 = B.getInt64Ty();
  Value *N = CI->getArgOperand(0);
  Value *Small = B.CreateICmpULE(N, B.getInt64(AMDGPUHeapSize));
  Value *Size = B.CreateSelect(
      Small, B.CreateAnd(B.CreateAdd(N, B.getInt64(15)), B.getInt64(~15ull)),
      B.getInt64(0));
  Value *Off = B.CreateAtomicRMW(AtomicRMWInst::Add, Heap, Size, Align(8),
                                 AtomicOrdering::Monotonic,
                                 Ctx.getOrInsertSyncScopeID("agent"));
  Value *Fits = B.CreateAnd(
      Small, B.CreateICmpULE(B.CreateAdd(Off, Size), B.getInt64(AMDGPUHeapSize)));
  Value *P = B.CreateInBoundsGEP(
      B.getInt8Ty(), B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Heap, 16), Off);
  Value *Flat = B.CreateAddrSpaceCast(P, CI->getType());
  Value *R = B.CreateSelect(Fits, Flat, ConstantPointerNull::get(B.getPtrTy()),
                            "malloc");
  (void)I64;
  if (CI->hasName())
    R->takeName(CI);
  CI->replaceAllUsesWith(R);
  CI->eraseFromParent();
}

void lowerAMDGPUFree(CallInst *CI) {
  // The bump allocator never reuses memory.
  CI->eraseFromParent();
}

} // namespace hetgpu
