//===- MigrationService.h - Core's seam for live migration ------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The interface through which Core and the CUDA API layer reach live
/// migration without depending on it. Migration (runtime/lib/Migration/)
/// implements MigrationService and registers it from a static initialiser
/// of libhetgpu-rt (Migration/Service.cpp), before any host code of the
/// program runs; Core includes no Migration header, and Migration depends
/// on Core only. With no service registered, or the registered one
/// disabled (HETGPU_MIGRATE unset or unparsable), Core behaves as a
/// runtime without migration: plain translations, plain launches.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_CORE_MIGRATIONSERVICE_H
#define HETGPU_RUNTIME_CORE_MIGRATIONSERVICE_H

#include "Core/Device.h"

#include <string>
#include <vector>

namespace hetgpu {
namespace rt {

struct DeviceContext;
struct KernelRecord;
struct StreamObj;

/// What Core asks of live migration.
class MigrationService {
public:
  virtual ~MigrationService();

  /// Whether this process is migratable (HETGPU_MIGRATE parsed). The answer
  /// never changes during the process.
  virtual bool enabled() const = 0;

  /// Device names (HETGPU_DEVICE-style) that must be discovered even when
  /// HETGPU_DEVICE left their backend out: the migration targets (the to=
  /// devices HETGPU_MIGRATE names, also when the rest of it was refused).
  virtual const std::vector<std::string> &targetDevices() const = 0;

  /// Translation flags for every module (HETGPU_TRANSLATE_INSTRUMENT) and
  /// the module description as loaded (the hidden state parameters appended
  /// to every kernel; the container keeps the user's list).
  virtual unsigned translateFlags() const = 0;
  virtual container::ModuleInfo
  loadedModuleInfo(const container::ModuleInfo &MI) const = 0;

  /// Runs \p P of kernel \p K (registered as \p KR) on stream \p S in place
  /// of `S.Q->launch`. The caller has ordered \p S after the legacy stream.
  virtual Status launch(DeviceContext &Ctx, StreamObj &S, Kernel &K,
                        KernelRecord &KR, const LaunchParams &P) = 0;

  /// Frees what the service keeps for device \p D (cudaDeviceReset).
  virtual void releaseDevice(Device &D) = 0;
};

/// Installs \p S as the process's migration service (at start-up, once).
void registerMigrationService(MigrationService *S);

/// The registered service when it is enabled, else null: the one test Core
/// and the API layer make before taking a migration path.
MigrationService *activeMigrationService();

/// The registered service, enabled or not (null when none is registered).
MigrationService *registeredMigrationService();

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_CORE_MIGRATIONSERVICE_H
