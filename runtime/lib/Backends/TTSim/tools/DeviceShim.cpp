//===- DeviceShim.cpp - Device.h out-of-line members for standalone tools -===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// hetgpu-ttsim-run drives the tt-sim backend through Device.h without the
/// runtime core library (which owns these definitions in libhetgpu-rt).
///
//===----------------------------------------------------------------------===//

#include "../../../Core/Device.h"

namespace hetgpu {
namespace rt {
Kernel::~Kernel() = default;
Module::~Module() = default;
Event::~Event() = default;
Queue::~Queue() = default;
Device::~Device() = default;
Backend::~Backend() = default;
} // namespace rt
} // namespace hetgpu

namespace hetgpu {
namespace rt {
Status Device::allocateManaged(size_t, void *&) {
  return Status(ErrorCode::NotSupported, "managed memory");
}
} // namespace rt
} // namespace hetgpu
