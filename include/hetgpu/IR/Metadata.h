//===- Metadata.h - hetIR kernel and state metadata -------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Readers and writers of the module-level metadata that docs/hetIR.md
/// specifies: `!hetgpu.ir.version`, `!hetgpu.kernels` and `!hetgpu.state`,
/// plus the per-kernel shared-memory layout every target shares. The
/// in-memory form is the container's KernelInfo, so what hetgpu-cc writes
/// into the fat binary is exactly what the IR says.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_IR_METADATA_H
#define HETGPU_IR_METADATA_H

#include "hetgpu/IR/Container.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <utility>
#include <vector>

namespace llvm {
class CallBase;
class Function;
class GlobalVariable;
class Module;
} // namespace llvm

namespace hetgpu {

inline constexpr unsigned IRVersionMajor = 1;
inline constexpr unsigned IRVersionMinor = 0;
inline constexpr llvm::StringLiteral HetIRTriple = "unknown-hetgpu-unknown";
inline constexpr llvm::StringLiteral HetIRDataLayout =
    "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64";
inline constexpr llvm::StringLiteral KernelAttr = "hetgpu-kernel";
inline constexpr llvm::StringLiteral KernelsMD = "hetgpu.kernels";
inline constexpr llvm::StringLiteral StateMD = "hetgpu.state";
inline constexpr llvm::StringLiteral VersionMD = "hetgpu.ir.version";
inline constexpr llvm::StringLiteral SafePointMD = "hetgpu.safepoint";
inline constexpr llvm::StringLiteral LiveBundle = "hetgpu.live";
/// Present (empty) on relocatable hetIR (`hetgpu-cc -dc`): the module may
/// call and use device symbols other components define, and its state
/// layout is decided at device link (docs/SeparateCompilation.md).
inline constexpr llvm::StringLiteral RelocatableMD = "hetgpu.relocatable";

/// hetIR address spaces (docs/hetIR.md).
enum AddrSpace : unsigned {
  AS_Generic = 0,
  AS_Global = 1,
  AS_Shared = 3,
  AS_Constant = 4,
  AS_Private = 5,
};

void setIRVersion(llvm::Module &M);
/// (major, minor) of the module, or an error when absent or malformed.
llvm::Expected<std::pair<unsigned, unsigned>> getIRVersion(const llvm::Module &M);

/// Whether \p M is relocatable hetIR (`!hetgpu.relocatable`).
bool isRelocatable(const llvm::Module &M);
/// Marks \p M relocatable, or removes the mark (after the device link).
void setRelocatable(llvm::Module &M, bool Relocatable);

bool isKernel(const llvm::Function &F);
/// Kernels listed in `!hetgpu.kernels`, in metadata order.
std::vector<llvm::Function *> getKernels(const llvm::Module &M);

/// Replaces \p F's entry in `!hetgpu.kernels` with \p Info (name, params,
/// shared size, features, launch bounds; safe points are not written here).
void writeKernelMetadata(llvm::Function &F, const container::KernelInfo &Info);
/// Replaces \p F's entry in `!hetgpu.state` with \p SafePoints.
void writeStateMetadata(llvm::Function &F,
                        llvm::ArrayRef<container::SafePointInfo> SafePoints);

/// Reads every kernel's metadata (both lists) into KernelInfo; errors name
/// the kernel and the malformed field.
llvm::Expected<std::vector<std::pair<llvm::Function *, container::KernelInfo>>>
readKernelInfo(const llvm::Module &M);

/// The `__device__`/`__constant__` variables of \p M, for the container.
std::vector<container::GlobalInfo> collectGlobals(const llvm::Module &M);

/// The safe-point id attached to a barrier call, or -1.
int getSafePointId(const llvm::CallBase &CB);

/// Static shared memory of a kernel: the addrspace(3) globals reachable
/// from \p Kernel (through the functions it calls), in module order, each
/// at its alignment. Every target and the state layout use this layout.
struct SharedLayout {
  std::vector<std::pair<llvm::GlobalVariable *, uint64_t>> Vars;
  uint64_t Size = 0;
  /// Offset where dynamic shared memory starts (Size rounded up to 16).
  uint64_t dynamicOffset() const { return (Size + 15) & ~uint64_t(15); }
};
SharedLayout computeSharedLayout(const llvm::Function &Kernel);

/// \p Root and every defined function it reaches through direct calls, in
/// discovery order (Root first).
std::vector<const llvm::Function *>
reachableFunctions(const llvm::Function &Root);

} // namespace hetgpu

#endif // HETGPU_IR_METADATA_H
