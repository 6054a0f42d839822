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

#include "Core/CudaErrors.h"
#include "Core/MigrationService.h"
#include "Core/Runtime.h"
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
    // A watched launch runs to its end inside the call, so a fault of the
    // kernel (device-side assert, trap, bad address) surfaces here. As for
    // an asynchronous launch it becomes the device's sticky error, reported
    // by the next call, and the launch itself succeeds (test/Runtime/
    // assert.cu under HETGPU_MIGRATE=random).
    if (KR.Info && (KR.Info->Features & container::FeatMalloc)) {
      std::lock_guard<std::recursive_mutex> L(Ctx.M);
      if (Ctx.HeapKernel.empty())
        Ctx.HeapKernel = KR.Name;
    }
    Status St = migratableLaunch(Ctx, S, K, KR, P);
    if (!St.isOk() && isStickyError(toCudaError(St.Code))) {
      Runtime::get().absorb(Ctx, St);
      return Status::ok();
    }
    return St;
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
