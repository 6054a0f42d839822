//===- VisibleDevices.h - CUDA_VISIBLE_DEVICES, applied by hetGPU ---------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// hetGPU applies `CUDA_VISIBLE_DEVICES` to the NVIDIA backend's GPUs
/// itself, with CUDA's rules (docs/Runtime.md, "Several devices"), and keeps
/// the driver from applying it a second time.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_NVIDIA_VISIBLEDEVICES_H
#define HETGPU_RUNTIME_BACKENDS_NVIDIA_VISIBLEDEVICES_H

#include <string>
#include <vector>

namespace hetgpu {
namespace rt {
namespace cu {

/// The driver ordinals \p Spec (CUDA_VISIBLE_DEVICES' value) makes visible,
/// in its order: comma-separated entries, each a device index or `GPU-`
/// followed by a prefix of one device's UUID (\p Uuids[i] is ordinal i's,
/// "GPU-xxxxxxxx-xxxx-..."). As CUDA does, the list ends at the first entry
/// that names no device (out of range, unknown or ambiguous UUID, a device
/// already listed, anything else); \p Stopped gets that entry. (A list
/// with MIG- entries is left to the driver: NVIDIABackend.cpp.)
std::vector<int> visibleOrdinals(const std::string &Spec,
                                 const std::vector<std::string> &Uuids,
                                 std::string &Stopped);

/// "GPU-" and the 16 bytes as CUDA prints them (8-4-4-4-12 hex digits).
std::string formatUuid(const unsigned char Bytes[16]);

} // namespace cu
} // namespace rt
} // namespace hetgpu

#endif
