//===- MigrationService.cpp - Core's seam for live migration --------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The registration point of the migration service (Core/MigrationService.h).
/// The pointer is constant-initialised, so registration from another static
/// initialiser of the library is safe in any order.
///
//===----------------------------------------------------------------------===//

#include "Core/KernelMemCheck.h"
#include "Core/MigrationService.h"

#include <atomic>

using namespace hetgpu::rt;

namespace {
std::atomic<MigrationService *> Service{nullptr};
} // namespace

MigrationService::~MigrationService() = default;

void hetgpu::rt::registerMigrationService(MigrationService *S) {
  Service.store(S, std::memory_order_release);
}

MigrationService *hetgpu::rt::activeMigrationService() {
  MigrationService *S = Service.load(std::memory_order_acquire);
  // Memcheck's translations are not instrumented for migration.
  return S && S->enabled() && !memCheckEnabled() ? S : nullptr;
}

MigrationService *hetgpu::rt::registeredMigrationService() {
  return Service.load(std::memory_order_acquire);
}
