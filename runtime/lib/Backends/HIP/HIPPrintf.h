//===- HIPPrintf.h - Drains the device printf buffer of a code object -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Host side of printf/assert/__trap for code objects of the amdgpu target
/// (record layout in ABI/AMDGPUDevice.h).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_HIP_HIPPRINTF_H
#define HETGPU_RUNTIME_BACKENDS_HIP_HIPPRINTF_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hetgpu {
namespace rt {
namespace hip {

/// What one drain found.
struct DrainResult {
  uint32_t Flags = 0;   ///< amdgpu_printf::Flag* bits
  uint64_t Dropped = 0; ///< bytes of records that did not fit
};

/// Prints the records in \p Data (\p Bytes of the buffer's Data, as written
/// by the device): printf records to stdout (formatted as CUDA's vprintf),
/// assert records to stderr. Malformed records stop the walk.
void printRecords(const unsigned char *Data, size_t Bytes);

} // namespace hip
} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_HIP_HIPPRINTF_H
