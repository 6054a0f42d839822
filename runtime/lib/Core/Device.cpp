//===- Device.cpp - Out-of-line parts of the device interface -------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Anchors the vtables of the device interface and its default methods.
///
//===----------------------------------------------------------------------===//

#include "Core/Device.h"
#include "Core/UnifiedMemory.h"

using namespace hetgpu::rt;

Kernel::~Kernel() = default;
Module::~Module() = default;
Event::~Event() = default;
Queue::~Queue() = default;
Device::~Device() = default;
Backend::~Backend() = default;
DeviceGraph::~DeviceGraph() = default;

Status Device::createGraph(std::unique_ptr<DeviceGraph> &Out) {
  Out.reset();
  return Status(ErrorCode::NotSupported,
                properties().Name + " has no device graphs");
}

Status Device::finalizeBinary(std::vector<char> &) { return Status::ok(); }

std::string Device::binaryCacheTag() { return ""; }

Status Device::allocateManaged(size_t, void *&Ptr) {
  Ptr = nullptr;
  return Status(ErrorCode::NotSupported,
                "managed memory is not supported by this device");
}

Status Device::reset() { return Status::ok(); }
Status Device::forgetFault() { return reset(); }

bool Device::sharesArena() { return false; }

Status Device::attachArenaRange(void *, size_t) {
  return Status(ErrorCode::NotSupported,
                properties().Name +
                    " cannot map its memory at unified (arena) addresses");
}

Status Device::detachArenaRange(void *, size_t) {
  return Status(ErrorCode::NotSupported,
                properties().Name +
                    " cannot map its memory at unified (arena) addresses");
}

Status Device::attachHostRange(void *, size_t) {
  if (sharesArena())
    return Status::ok();
  return Status(ErrorCode::NotSupported,
                properties().Name + " cannot use host memory of the arena");
}

Status Device::detachHostRange(void *) { return Status::ok(); }

Status Queue::copyInBulk(void *Dst, const void *Src, size_t Bytes) {
  if (Status S = memcpy(Dst, Src, Bytes, CopyKind::HostToDevice))
    return S;
  return synchronize();
}

Status Queue::copyOutBulk(void *Dst, const void *Src, size_t Bytes) {
  Arena::populate(Dst, Bytes);
  if (Status S = memcpy(Dst, Src, Bytes, CopyKind::DeviceToHost))
    return S;
  return synchronize();
}

Status Queue::copyPeer(void *, Device &DstDev, const void *, Device &SrcDev,
                       size_t) {
  return Status(ErrorCode::NotSupported,
                "no direct copy from " + SrcDev.properties().Name + " to " +
                    DstDev.properties().Name);
}

Status Device::allocateRuntime(size_t Bytes, void *&Ptr) {
  if (sharesArena())
    return allocateManaged(Bytes, Ptr);
  return allocate(Bytes, Ptr);
}

bool Device::canAccessPeer(Device &) { return false; }

Status Device::enablePeerAccess(Device &Peer) {
  return Status(ErrorCode::NotSupported,
                properties().Name + " cannot access the memory of " +
                    Peer.properties().Name);
}

Status Device::disablePeerAccess(Device &Peer) { return enablePeerAccess(Peer); }

Status Device::transferArenaRange(Device &To, void *, size_t) {
  return Status(ErrorCode::NotSupported,
                "no direct move of device memory from " + properties().Name +
                    " to " + To.properties().Name);
}
