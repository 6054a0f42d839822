//===- LinkContracts.h - Contract checks of the device link -----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Private to lib/Link: the checks the device link makes between components
/// beyond their symbols (docs/SeparateCompilation.md, "Contracts"). Each
/// error names the fact and the components involved.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_LIB_LINK_LINKCONTRACTS_H
#define HETGPU_LIB_LINK_LINKCONTRACTS_H

#include "hetgpu/Link/DeviceLink.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace hetgpu {
namespace link {

/// `'f(int)' ('_Z1fi')`, or `'f'` for an unmangled name.
std::string describeSymbol(llvm::StringRef Name);

/// Named facts (hetgpu/IR/Contracts.h) agree across \p Mods: one export per
/// fact, every requirement and import met by it.
llvm::Error checkFacts(llvm::ArrayRef<std::unique_ptr<llvm::Module>> Mods,
                       llvm::ArrayRef<Component> Components);

/// Before linking: tags the functions, `__shared__` variables and barrier
/// calls of component \p I with `!hetgpu.origin !{i64 I}`, which the checks
/// below read after the link.
void tagOrigins(llvm::Module &M, size_t I);
/// Removes the tags of tagOrigins.
void clearOrigins(llvm::Module &M);

/// Each kernel's static shared memory, laid out over its call graph across
/// components, fits abi::StaticSharedLimit.
llvm::Error checkJointSharedMemory(llvm::Module &M,
                                   llvm::ArrayRef<Component> Components);

/// No function calls a function of another component that executes a
/// block-wide barrier under a branch that depends on the thread index (the
/// threads that skip it leave the others waiting forever). A conservative
/// check, not a proof: divergence comes from the thread and lane indices
/// through data flow; arguments are taken as uniform; threads that skip the
/// call only to leave the kernel (`if (i >= n) return;`) are not counted.
llvm::Error checkUniformBarriers(llvm::Module &M,
                                 llvm::ArrayRef<Component> Components);

/// The geometric facts of one component (HETGPU_REQUIRE_BLOCK_SIZE,
/// HETGPU_MAX_BLOCK_SIZE, HETGPU_REQUIRE_FULL_WARPS; hetgpu/IR/Contracts.h).
struct Geometry {
  uint32_t BlockSize = 0;    ///< exact threads per block, 0 = any
  uint32_t MaxBlockSize = 0; ///< at most, 0 = no bound
  bool FullWarps = false;
};
/// The geometric facts of `!hetgpu.contract` of \p M.
Geometry readGeometry(const llvm::Module &M);

/// Over each kernel's call graph, no two components address overlapping
/// bytes of the dynamic shared segment (`!hetgpu.dynamic_shared`).
llvm::Error checkDynamicShared(llvm::Module &M,
                               llvm::ArrayRef<Component> Components);

/// Over each kernel's call graph: the components' block sizes, bounds and
/// full-warp assumptions agree with each other and with the kernel's
/// `__launch_bounds__`; then records them as the kernel's launch rules
/// (container::LaunchRule), which the runtime checks at each launch.
llvm::Error checkLaunchGeometry(llvm::Module &M,
                                llvm::ArrayRef<Component> Components,
                                llvm::ArrayRef<Geometry> Geometries);

} // namespace link
} // namespace hetgpu

#endif // HETGPU_LIB_LINK_LINKCONTRACTS_H
