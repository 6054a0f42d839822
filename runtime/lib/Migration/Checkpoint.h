//===- Checkpoint.h - The checkpoint format of live migration ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// What a checkpoint holds (a suspended launch and its device's memory, or
/// a device's memory alone), its byte image (versioned, checksummed;
/// docs/Migration.md), checkpoint files, and the capture of a CUDA
/// device's allocations into a checkpoint.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_MIGRATION_CHECKPOINT_H
#define HETGPU_RUNTIME_MIGRATION_CHECKPOINT_H

#include "Core/Device.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hetgpu {
namespace rt {

struct DeviceContext;

/// One device allocation captured in a checkpoint.
struct CheckpointAlloc {
  uint64_t Base = 0;
  std::vector<char> Bytes;
};

/// A suspended launch, or (Kernel empty) a device's memory alone: what a
/// checkpoint file holds.
struct Checkpoint {
  std::string Kernel;
  uint32_t CudaDevice = 0;  ///< the CUDA device number it belongs to
  std::string TakenOn;      ///< backend it was taken on (information)
  uint32_t Grid[3] = {1, 1, 1};
  uint32_t Block[3] = {1, 1, 1};
  uint64_t DynShared = 0;
  std::vector<char> Args;       ///< packed user arguments (container offsets)
  std::vector<char> State;      ///< the launch's state buffer
  std::vector<CheckpointAlloc> Allocs;
};

inline constexpr uint32_t CheckpointMagic = 0x4b434748; // "HGCK"
/// 4: XXH3-128 checksum (3 had a word-wise FNV-1a and is refused).
inline constexpr uint32_t CheckpointVersion = 4;
inline constexpr size_t CheckpointHeaderSize = 32;

std::vector<char> serializeCheckpoint(const Checkpoint &C);
/// Refuses a truncated, corrupted or other-version image with a message,
/// and one whose fields contradict each other (launch shape out of CUDA's
/// bounds, dynamic shared size past MaxCheckpointDynShared, allocations
/// empty, overlapping or wrapping around).
Status parseCheckpoint(const std::vector<char> &Bytes, Checkpoint &Out);
/// Same, from \p Size bytes at \p Data.
Status parseCheckpoint(const char *Data, size_t Size, Checkpoint &Out);

/// The largest dynamic shared size a checkpoint may hold (the device's own
/// limit is checked when it is restored).
inline constexpr uint64_t MaxCheckpointDynShared = 1ull << 30;

/// Checkpoint files.
Status writeCheckpointFile(const std::string &Path,
                           const std::vector<char> &Bytes);
Status readCheckpointFile(const std::string &Path, std::vector<char> &Bytes);

/// Copies the bytes of every allocation of \p Ctx into \p C (on \p Q).
Status captureAllocations(DeviceContext &Ctx, Queue &Q, Checkpoint &C);

/// Refuses a checkpoint whose allocations are not live allocations of the
/// same size on CUDA device \p Index (nothing is written then).
Status checkAllocationsMatch(const Checkpoint &C, int Index);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_MIGRATION_CHECKPOINT_H
