//===- PTXParser.h - Parse the PTX text of an inline asm statement -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The PTX subset hetgpu-lower-inline-ptx understands, as data. The input is
/// the asm string as it appears in LLVM IR (clang has already rewritten the
/// GCC syntax: `%0` is `$0`, `%%laneid` is `%laneid`, `%=` is `${:uid}`).
/// One string becomes a flat list of statements: instructions, `.reg`
/// declarations and the `{` / `}` that open and close register scopes.
/// The parser knows no instruction semantics; LowerInlinePTX.cpp decides
/// what is supported.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_LIB_TRANSFORMS_INLINEPTX_PTXPARSER_H
#define HETGPU_LIB_TRANSFORMS_INLINEPTX_PTXPARSER_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hetgpu {
namespace ptx {

struct Operand {
  enum KindTy {
    Arg,     ///< `$N`: operand N of the asm call (constraint order)
    Reg,     ///< a register name: declared in the asm, or a special register
    Imm,     ///< integer literal
    FImm,    ///< floating-point literal (`0fXXXXXXXX`, `0dX...`, `1.5`)
    Address, ///< `[base+offset]` (Elems[0] is the base, if any)
    Vector,  ///< `{a, b, ...}`
    Pair,    ///< `a|b` (two destinations)
    Sink,    ///< `_`
  };
  KindTy Kind = Imm;
  unsigned ArgNo = 0;
  std::string Name; ///< Reg: name without a leading '%' for specials kept
  int64_t Int = 0;  ///< Imm value; Address offset
  double FP = 0;    ///< FImm value (decimal literal)
  uint64_t FBits = 0;
  unsigned FBitsWidth = 0; ///< 32/64 when FImm was written as raw bits
  bool Negated = false;    ///< `!p`
  std::vector<Operand> Elems;
};

struct Instr {
  std::string Opcode;                ///< `shfl` in `shfl.sync.up.b32`
  llvm::SmallVector<std::string, 6> Mods; ///< `sync`, `up`, `b32` (no dots)
  std::vector<Operand> Ops;
  bool Guarded = false;
  Operand Guard; ///< `@p` / `@!p`
  unsigned Line = 0; ///< 0-based line within the asm string
  std::string Text;  ///< the statement as written, for messages
  /// Set when an operand could not be parsed: the instruction is then
  /// reported by name (usually it is outside the subset, e.g. `tex`).
  std::string OperandError;

  bool hasMod(llvm::StringRef M) const;
  /// The full name, `shfl.sync.up.b32`, for messages.
  std::string fullName() const;
};

struct RegDecl {
  std::string Type; ///< `u32`, `pred`, ...
  std::vector<std::string> Names;
};

struct Stmt {
  enum KindTy { Instruction, Decl, BeginScope, EndScope } Kind;
  Instr I;
  RegDecl D;
  unsigned Line = 0;
};

/// A parse error: what is wrong and on which line of the asm string.
struct ParseError {
  std::string Msg;
  unsigned Line = 0;
};

/// Parses \p Asm. On failure returns false and fills \p Err.
bool parse(llvm::StringRef Asm, std::vector<Stmt> &Out, ParseError &Err);

} // namespace ptx
} // namespace hetgpu

#endif // HETGPU_LIB_TRANSFORMS_INLINEPTX_PTXPARSER_H
