//===- Container.h - Byte-level constants of the hetGPU container -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The numbers that the compiler writes into a hetGPU container and the
/// runtime reads back (docs/Container.md): the magic, the format version, the
/// fixed header size, and the enumerations stored in kernel tables (parameter
/// kinds, state slot kinds, safe point kinds, feature bits). The container
/// library (include/hetgpu/IR/Container.h) builds its records on these.
/// Plain C++, no LLVM.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_ABI_CONTAINER_H
#define HETGPU_ABI_CONTAINER_H

#include <cstddef>
#include <cstdint>

namespace hetgpu {
namespace container {

constexpr char Magic[8] = {'H', 'E', 'T', 'G', 'P', 'U', 'F', 'B'};
/// 2.0: XXH3-128 checksums (1.x used FNV-1a 64 and is refused); kernel
/// records end with their launch rules. 2.1: each module ends with a list
/// of ahead-of-time native images (2.0 containers are still read: no images).
/// 2.2: each image names the kernels it holds (an image per kernel group;
/// 2.1 images are whole-module images).
constexpr uint16_t VersionMajor = 2;
constexpr uint16_t VersionMinor = 2;
/// Size of the fixed file header; the total size is read from it.
constexpr size_t HeaderSize = 64;

/// How a kernel parameter is passed (`!hetgpu.kernels` "params").
enum class ParamKind : uint32_t {
  Value = 0,   ///< scalar or vector passed by value
  Pointer = 1, ///< pointer (device address)
  ByVal = 2,   ///< aggregate passed by value (bytes copied)
};

/// What a state slot holds (`!hetgpu.state`).
enum class SlotKind : uint32_t {
  Value = 0,      ///< SSA value, its bytes
  PrivatePtr = 1, ///< pointer into a thread's private memory: slot + offset
  SharedPtr = 2,  ///< pointer into block shared memory: offset from base
  Memory = 3,     ///< contents of a private allocation (alloca)
};

/// Kinds of safe points (`!hetgpu.state`). ThreadLoop (3): a per-thread
/// safe point on the back edge of a divergent loop (docs/Migration.md,
/// "Per-thread safe points"); containers written before it exist never hold
/// it, so they read as before.
enum class SafePointKind : uint32_t {
  Entry = 0,
  Barrier = 1,
  LoopLatch = 2,
  ThreadLoop = 3,
};

/// Feature bits of a kernel ("features" in `!hetgpu.kernels`).
enum Feature : uint32_t {
  FeatBarrier = 1u << 0,
  FeatWarp = 1u << 1,
  FeatAtomicGlobal = 1u << 2,
  FeatAtomicShared = 1u << 3,
  FeatAtomicFloat = 1u << 4,
  FeatPrintf = 1u << 5,
  FeatAssert = 1u << 6,
  FeatMalloc = 1u << 7,
  FeatDynamicShared = 1u << 8,
  FeatDouble = 1u << 9,
  FeatMath = 1u << 10,
  FeatClock = 1u << 11,
  FeatFence = 1u << 12,
  FeatGrid = 1u << 13, ///< grid_group::sync (__hetgpu_grid_sync)
};
/// Number of feature bits (featureName() spells each).
constexpr unsigned NumFeatures = 14;

} // namespace container
} // namespace hetgpu

#endif // HETGPU_ABI_CONTAINER_H
