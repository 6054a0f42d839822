//===- Registry.h - Device backends and device discovery --------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The backends of Backends/Backends.def that were built, their discovery
/// status and the devices they found, numbered in Backends.def order.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_CORE_REGISTRY_H
#define HETGPU_RUNTIME_CORE_REGISTRY_H

#include "Core/Device.h"

#include <memory>
#include <string>
#include <vector>

namespace hetgpu {
namespace rt {

struct BackendReport {
  std::string Name;       ///< "cpu", "nvidia", ...
  bool Built = false;     ///< compiled into this libhetgpu-rt
  bool Probed = false;    ///< discover() was called
  Status Discovery;       ///< its result
  unsigned NumDevices = 0;
  std::string Version;    ///< Backend::version(), after discover()
};

struct DiscoveredDevice {
  std::unique_ptr<Device> Dev;
  std::string Backend;
};

/// Names of all backends of Backends.def, in order.
const std::vector<std::string> &allBackendNames();

/// Discovers devices. \p Only, when non-empty, restricts discovery to those
/// backends. Devices come in Backends.def order.
void discoverDevices(const std::vector<std::string> &Only,
                     std::vector<DiscoveredDevice> &Devices,
                     std::vector<BackendReport> &Reports);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_CORE_REGISTRY_H
