//===- Builtins.h - Query and declare hetIR builtins ------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Access to the table in Builtins.def: look a `__hetgpu_*` function up,
/// declare one in a module with its exact type, and test its flags.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_IR_BUILTINS_H
#define HETGPU_IR_BUILTINS_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace llvm {
class CallBase;
class Function;
class FunctionType;
class LLVMContext;
class Module;
} // namespace llvm

namespace hetgpu {

/// Prefix of every builtin, and of the math builtins.
inline constexpr llvm::StringLiteral BuiltinPrefix = "__hetgpu_";
inline constexpr llvm::StringLiteral MathPrefix = "__hetgpu_math_";

enum BuiltinFlags : unsigned {
  BF_None = 0,
  BF_ReadNone = 1u << 0,   ///< no memory effects
  BF_Convergent = 1u << 1, ///< must not be made control dependent on more values
  BF_SafePoint = 1u << 2,  ///< block-uniform safe point (barriers)
  BF_NoReturn = 1u << 3,
};

enum class BuiltinID : unsigned {
#define HETGPU_BUILTIN(Name, Ret, Params, Group, Flags) Name,
#define HETGPU_MATH_F(Name, Arity) math_##Name##f,
#define HETGPU_MATH_D(Name, Arity) math_##Name,
#include "hetgpu/IR/Builtins.def"
  NumBuiltins
};

struct BuiltinInfo {
  BuiltinID ID;
  llvm::StringRef Name;  ///< full function name, with the prefix
  llvm::StringRef Group; ///< feature group
  unsigned Flags;
};

/// The builtin called \p FunctionName, if it is one.
std::optional<BuiltinInfo> lookupBuiltin(llvm::StringRef FunctionName);
/// The builtin \p F is a declaration of, if any.
std::optional<BuiltinInfo> lookupBuiltin(const llvm::Function &F);
/// The builtin \p CB calls directly, if any.
std::optional<BuiltinInfo> getCalledBuiltin(const llvm::CallBase &CB);
const BuiltinInfo &getBuiltinInfo(BuiltinID ID);
/// The function type of builtin \p ID.
llvm::FunctionType *getBuiltinType(llvm::LLVMContext &Ctx, BuiltinID ID);
/// Declares (or finds) builtin \p ID in \p M with its type and attributes.
llvm::Function *getOrDeclareBuiltin(llvm::Module &M, BuiltinID ID);
/// True when \p F's type is the one the table gives for its builtin.
bool hasBuiltinType(const llvm::Function &F, BuiltinID ID);

} // namespace hetgpu

#endif // HETGPU_IR_BUILTINS_H
