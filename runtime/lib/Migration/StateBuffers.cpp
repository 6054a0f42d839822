//===- StateBuffers.cpp - State buffers kept per device -------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The pool of state buffers and control blocks of watched launches and the
/// shared zero control block of unwatched ones (Migration/StateBuffers.h).
///
//===----------------------------------------------------------------------===//

#include "Migration/StateBuffers.h"
#include "Migration/Migration.h"

#include <mutex>
#include <vector>

using namespace hetgpu;
using namespace hetgpu::rt;

namespace {

/// One pooled state buffer and control block of a device.
struct PooledBuffers {
  std::shared_ptr<Device> Dev;
  void *State = nullptr;
  uint64_t Bytes = 0;
  void *Ctrl = nullptr;
  bool Busy = false;
};
std::mutex PoolM;
std::vector<PooledBuffers> Pool;

/// The idle control block of a device (idleControl).
struct IdleControl {
  std::shared_ptr<Device> Dev;
  void *Ctrl = nullptr;
};
std::vector<IdleControl> IdleCtrls;

} // namespace

Status hetgpu::rt::takeBuffers(const std::shared_ptr<Device> &Dev,
                               uint64_t Bytes, void *&State, void *&Ctrl,
                               size_t &Slot) {
  std::lock_guard<std::mutex> L(PoolM);
  size_t Pick = Pool.size();
  for (size_t I = 0; I < Pool.size(); ++I)
    if (Pool[I].Dev == Dev && !Pool[I].Busy &&
        (Pick == Pool.size() || Pool[I].Bytes >= Bytes))
      Pick = I;
  if (Pick == Pool.size()) {
    Pool.push_back(PooledBuffers());
    Pool.back().Dev = Dev;
  }
  PooledBuffers &E = Pool[Pick];
  if (E.Bytes < Bytes) {
    if (E.State)
      Dev->release(E.State);
    E.State = nullptr;
    E.Bytes = 0;
    if (Status St = Dev->allocateRuntime(Bytes, E.State))
      return St;
    E.Bytes = Bytes;
  }
  if (!E.Ctrl)
    if (Status St = Dev->allocateRuntime(sizeof(MigrationControl), E.Ctrl))
      return St;
  E.Busy = true;
  State = E.State;
  Ctrl = E.Ctrl;
  Slot = Pick;
  return Status::ok();
}

Status hetgpu::rt::idleControl(const std::shared_ptr<Device> &Dev, Queue &Q,
                               void *&Out) {
  std::lock_guard<std::mutex> L(PoolM);
  for (IdleControl &E : IdleCtrls)
    if (E.Dev == Dev) {
      Out = E.Ctrl;
      return Status::ok();
    }
  void *Ctrl = nullptr;
  if (Status St = Dev->allocateRuntime(sizeof(MigrationControl), Ctrl))
    return St;
  MigrationControl Zero = {};
  if (Status St = Q.memcpy(Ctrl, &Zero, sizeof Zero, CopyKind::HostToDevice))
    return St;
  if (Status St = Q.synchronize())
    return St;
  IdleCtrls.push_back({Dev, Ctrl});
  Out = Ctrl;
  return Status::ok();
}

void hetgpu::rt::returnBuffers(size_t Slot) {
  std::lock_guard<std::mutex> L(PoolM);
  if (Slot < Pool.size())
    Pool[Slot].Busy = false;
}

void hetgpu::rt::releaseMigrationBuffers(Device &D) {
  std::lock_guard<std::mutex> L(PoolM);
  for (size_t I = 0; I < Pool.size();) {
    PooledBuffers &E = Pool[I];
    if (E.Dev.get() != &D || E.Busy) {
      ++I;
      continue;
    }
    if (E.State)
      D.release(E.State);
    if (E.Ctrl)
      D.release(E.Ctrl);
    Pool.erase(Pool.begin() + I);
  }
  for (size_t I = 0; I < IdleCtrls.size();) {
    if (IdleCtrls[I].Dev.get() != &D) {
      ++I;
      continue;
    }
    D.release(IdleCtrls[I].Ctrl);
    IdleCtrls.erase(IdleCtrls.begin() + I);
  }
}
