//===- ComponentUses.h - What a device-link component's code assumes -*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Contracts of a relocatable component that hetgpu-raise derives from its
/// code and records on each function (docs/hetIR.md, "Contracts"): which
/// bytes of the dynamic shared segment it addresses and whether it uses
/// warp operations that assume full warps. The device link reads them over
/// each kernel's call graph (docs/SeparateCompilation.md).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_IR_COMPONENTUSES_H
#define HETGPU_IR_COMPONENTUSES_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace hetgpu {

/// `!hetgpu.dynamic_shared !{i64 Begin, i64 End}` on a function: the bytes
/// of the dynamic shared segment it addresses; End -1 = to the end.
inline constexpr llvm::StringLiteral DynamicSharedMD = "hetgpu.dynamic_shared";
/// `!hetgpu.full_warps !{!"shfl_down_i32"}` on a function: a warp operation
/// of it names the full mask 0xffffffff (every lane of a 32-lane warp).
inline constexpr llvm::StringLiteral FullWarpsMD = "hetgpu.full_warps";

/// The part of the dynamic shared segment a function addresses.
struct SegmentRange {
  uint64_t Begin = 0;
  std::optional<uint64_t> End; ///< exclusive; none = up to the segment's end
  bool overlaps(const SegmentRange &O) const {
    return (!O.End || Begin < *O.End) && (!End || O.Begin < *End);
  }
};

/// Records the two function contracts above on every function of \p M that
/// has them (for relocatable components; the whole-TU pipeline needs none).
void recordComponentUses(llvm::Module &M);

/// What recordComponentUses recorded on \p F.
std::optional<SegmentRange> dynamicSharedRange(const llvm::Function &F);
std::optional<llvm::StringRef> fullWarpOperation(const llvm::Function &F);

} // namespace hetgpu

#endif // HETGPU_IR_COMPONENTUSES_H
