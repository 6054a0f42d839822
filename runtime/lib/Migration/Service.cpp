//===- Service.cpp - Live migration as Core's MigrationService ------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements Core/MigrationService.h with the components of this folder
/// and registers it while libhetgpu-rt is loaded (a static initialiser of
/// the library, so before the program's own constructors register their
/// containers). HETGPU_MIGRATE is read at the first question, not at
/// registration.
///
//===----------------------------------------------------------------------===//

#include "Core/MigrationService.h"
#include "Migration/Launch.h"
#include "Migration/StateBuffers.h"
#include "Migration/Trigger.h"
#include "hetgpu/Translate/Translate.h"

using namespace hetgpu;
using namespace hetgpu::rt;

namespace {

class LiveMigration final : public MigrationService {
public:
  bool enabled() const override { return migrationEnabled(); }
  const std::vector<std::string> &targetDevices() const override {
    return migrationConfig().To;
  }
  unsigned translateFlags() const override {
    return HETGPU_TRANSLATE_INSTRUMENT;
  }
  container::ModuleInfo
  loadedModuleInfo(const container::ModuleInfo &MI) const override {
    return instrumentedModuleInfo(MI);
  }
  Status launch(DeviceContext &Ctx, StreamObj &S, Kernel &K, KernelRecord &KR,
                const LaunchParams &P) override {
    return migratableLaunch(Ctx, S, K, KR, P);
  }
  void releaseDevice(Device &D) override { releaseMigrationBuffers(D); }
};

/// Registers the service at load time.
struct Registrar {
  Registrar() {
    static LiveMigration *S = new LiveMigration();
    registerMigrationService(S);
  }
} TheRegistrar;

} // namespace
