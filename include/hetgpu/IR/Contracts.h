//===- Contracts.h - Named facts of device-link components -----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A component (one `-dc` object) states the compile-time facts it shares
/// with the others through the macros of <hetgpu/contract.h>; hetgpu-raise
/// records them as `!hetgpu.contract` (docs/hetIR.md), the device link
/// checks them across components (docs/SeparateCompilation.md) and
/// hetgpu-finalize-link folds exported values into the components that
/// import them.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_IR_CONTRACTS_H
#define HETGPU_IR_CONTRACTS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace hetgpu {

inline constexpr llvm::StringLiteral ContractMD = "hetgpu.contract";
/// `HETGPU_EXPORT_FACT(N, V)` defines `__hetgpu_fact_N`; an import declares it.
inline constexpr llvm::StringLiteral FactPrefix = "__hetgpu_fact_";
/// `HETGPU_REQUIRE_FACT(N, V)` defines a static `__hetgpu_require_fact_N`.
inline constexpr llvm::StringLiteral RequireFactPrefix =
    "__hetgpu_require_fact_";

/// The geometric facts of a component (hetgpu/contract.h): static variables
/// `__hetgpu_block_size`, `__hetgpu_max_block_size`, `__hetgpu_full_warps`.
inline constexpr llvm::StringLiteral BlockSizeVar = "__hetgpu_block_size";
inline constexpr llvm::StringLiteral MaxBlockSizeVar =
    "__hetgpu_max_block_size";
inline constexpr llvm::StringLiteral FullWarpsVar = "__hetgpu_full_warps";

struct Fact {
  /// Export, Require, Import: named facts. BlockSize (the component's code
  /// needs exactly Value threads per block), MaxBlockSize (it was compiled
  /// for at most Value), FullWarps (it needs a multiple of 32): geometric
  /// facts of the whole component, with no name.
  enum Kind { Export, Require, Import, BlockSize, MaxBlockSize, FullWarps };
  bool isGeometric() const { return K >= BlockSize; }
  Kind K = Export;
  std::string Name;  ///< the fact's name, without prefix
  int64_t Value = 0; ///< unused for Import
};

/// Spelling of \p K in `!hetgpu.contract` ("export", "require", "import",
/// "block.size", "max.block.size", "full.warps").
const char *factKindName(Fact::Kind K);

/// Records the facts the contract macros left in \p M as `!hetgpu.contract`
/// (replacing the list) and erases the `require` variables. Returns the
/// problems of this module alone (a fact required with a value other than
/// the one it exports itself), one string each.
std::vector<std::string> recordFacts(llvm::Module &M);

/// The facts of `!hetgpu.contract`.
std::vector<Fact> readFacts(const llvm::Module &M);

/// Replaces every load of an exported fact with its value (the host cannot
/// write a fact), so importers are compiled as if they had the constant.
/// Returns the number of loads folded.
unsigned foldFacts(llvm::Module &M);

} // namespace hetgpu

#endif // HETGPU_IR_CONTRACTS_H
