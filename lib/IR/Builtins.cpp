//===- Builtins.cpp - Query and declare hetIR builtins ---------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Expands Builtins.def into a lookup table and builds the declarations.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/IR/Builtins.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace hetgpu {

namespace {
enum class TypeTok { Void, I1, I32, I64, F32, F64, Ptr, PtrShared };

struct TableEntry {
  BuiltinInfo Info;
  TypeTok Ret;
  SmallVector<TypeTok, 4> Params;
};

template <typename... Ts> SmallVector<TypeTok, 4> mk(Ts... Toks) {
  SmallVector<TypeTok, 4> V;
  (V.push_back(Toks), ...);
  return V;
}

std::vector<TableEntry> buildTable() {
  std::vector<TableEntry> T;
#define Void TypeTok::Void
#define I1 TypeTok::I1
#define I32 TypeTok::I32
#define I64 TypeTok::I64
#define F32 TypeTok::F32
#define F64 TypeTok::F64
#define Ptr TypeTok::Ptr
#define PtrShared TypeTok::PtrShared
#define HETGPU_BUILTIN(Name, Ret, Params, Group, Flags)                        \
  T.push_back({{BuiltinID::Name, "__hetgpu_" #Name, Group, Flags},             \
               Ret,                                                            \
               mk Params});
#define HETGPU_MATH_F(Name, Arity)                                             \
  T.push_back({{BuiltinID::math_##Name##f, "__hetgpu_math_" #Name "f", "math", \
                BF_ReadNone},                                                  \
               F32,                                                            \
               SmallVector<TypeTok, 4>(Arity, F32)});
#define HETGPU_MATH_D(Name, Arity)                                             \
  T.push_back({{BuiltinID::math_##Name, "__hetgpu_math_" #Name, "math",        \
                BF_ReadNone},                                                  \
               F64,                                                            \
               SmallVector<TypeTok, 4>(Arity, F64)});
#include "hetgpu/IR/Builtins.def"
#undef Void
#undef I1
#undef I32
#undef I64
#undef F32
#undef F64
#undef Ptr
#undef PtrShared
  return T;
}

// The tables are never destroyed: a program that calls exit() while another
// thread translates (a CUDA program whose error check exits while its
// other device threads launch) would otherwise have that thread look up
// builtins in freed memory.
const std::vector<TableEntry> &table() {
  static const auto *T = new std::vector<TableEntry>(buildTable());
  return *T;
}

const StringMap<unsigned> &nameIndex() {
  static const auto *Index = [] {
    auto *M = new StringMap<unsigned>();
    for (unsigned I = 0; I < table().size(); ++I)
      (*M)[table()[I].Info.Name] = I;
    return M;
  }();
  return *Index;
}

Type *toType(LLVMContext &Ctx, TypeTok T) {
  switch (T) {
  case TypeTok::Void:
    return Type::getVoidTy(Ctx);
  case TypeTok::I1:
    return Type::getInt1Ty(Ctx);
  case TypeTok::I32:
    return Type::getInt32Ty(Ctx);
  case TypeTok::I64:
    return Type::getInt64Ty(Ctx);
  case TypeTok::F32:
    return Type::getFloatTy(Ctx);
  case TypeTok::F64:
    return Type::getDoubleTy(Ctx);
  case TypeTok::Ptr:
    return PointerType::get(Ctx, 0);
  case TypeTok::PtrShared:
    return PointerType::get(Ctx, 3);
  }
  llvm_unreachable("unknown type token");
}
} // namespace

std::optional<BuiltinInfo> lookupBuiltin(StringRef Name) {
  if (!Name.starts_with(BuiltinPrefix))
    return std::nullopt;
  auto It = nameIndex().find(Name);
  if (It == nameIndex().end())
    return std::nullopt;
  return table()[It->second].Info;
}

std::optional<BuiltinInfo> lookupBuiltin(const Function &F) {
  return lookupBuiltin(F.getName());
}

std::optional<BuiltinInfo> getCalledBuiltin(const CallBase &CB) {
  if (const Function *F = CB.getCalledFunction())
    return lookupBuiltin(*F);
  return std::nullopt;
}

const BuiltinInfo &getBuiltinInfo(BuiltinID ID) {
  return table()[static_cast<unsigned>(ID)].Info;
}

FunctionType *getBuiltinType(LLVMContext &Ctx, BuiltinID ID) {
  const TableEntry &E = table()[static_cast<unsigned>(ID)];
  SmallVector<Type *, 4> Params;
  for (TypeTok T : E.Params)
    Params.push_back(toType(Ctx, T));
  return FunctionType::get(toType(Ctx, E.Ret), Params, false);
}

bool hasBuiltinType(const Function &F, BuiltinID ID) {
  return F.getFunctionType() == getBuiltinType(F.getContext(), ID);
}

Function *getOrDeclareBuiltin(Module &M, BuiltinID ID) {
  const BuiltinInfo &Info = getBuiltinInfo(ID);
  FunctionType *FT = getBuiltinType(M.getContext(), ID);
  FunctionCallee C = M.getOrInsertFunction(Info.Name, FT);
  Function *F = cast<Function>(C.getCallee());
  F->addFnAttr(Attribute::NoUnwind);
  if (Info.Flags & BF_Convergent)
    F->addFnAttr(Attribute::Convergent);
  if (Info.Flags & BF_NoReturn)
    F->addFnAttr(Attribute::NoReturn);
  if (Info.Flags & BF_ReadNone)
    F->setDoesNotAccessMemory();
  return F;
}

} // namespace hetgpu
