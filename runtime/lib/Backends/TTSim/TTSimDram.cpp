//===- TTSimDram.cpp - tt-sim device DRAM ---------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Device DRAM: the process-wide device memory arena (Core/UnifiedMemory.h),
/// a memfd at RVMC_DRAM_BASE shared with the other devices' memory, so
/// device pointers keep their meaning when a context migrates to or from
/// tt-sim. HETGPU_TTSIM_DRAM_MB is this device's quota in it.
///
//===----------------------------------------------------------------------===//
#include "Backends/TTSim/TTSimDevice.h"
#include "Core/UnifiedMemory.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::ttsim;

std::string ttsim::hex(uint64_t V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "0x%llx", (unsigned long long)V);
  return Buf;
}

Status Dram::ensureMapped() {
  std::call_once(MapOnce, [this] {
    MapStatus = Arena::get().ensureMapped(/*RequireFixedBase=*/true);
    if (MapStatus)
      MapStatus =
          Status(ErrorCode::DriverFailure,
                 "tt-sim: cannot map device DRAM: " + MapStatus.Message);
    else
      Tag = Arena::get().newTag();
  });
  return MapStatus;
}

Status Dram::allocate(uint64_t Bytes, uint64_t &Addr, uint64_t Align,
                      unsigned ChunkTag) {
  if (Status S = ensureMapped())
    return S;
  Bytes = (std::max<uint64_t>(Bytes, 1) + 255) & ~uint64_t(255);
  {
    std::lock_guard<std::mutex> G(M);
    if (InUse + Bytes > Size)
      return Status(ErrorCode::OutOfMemory,
                    "tt-sim: out of device DRAM allocating " +
                        std::to_string(Bytes) +
                        " bytes (HETGPU_TTSIM_DRAM_MB)");
  }
  if (Status S =
          Arena::get().allocate(Bytes, Align, ChunkTag ? ChunkTag : Tag, Addr))
    return S;
  std::lock_guard<std::mutex> G(M);
  Used[Addr] = Bytes;
  InUse += Bytes;
  return Status::ok();
}

Status Dram::release(uint64_t Addr) {
  {
    std::lock_guard<std::mutex> G(M);
    if (auto It = Used.find(Addr); It != Used.end()) {
      InUse -= It->second;
      Used.erase(It);
    }
  }
  if (!Arena::get().contains(reinterpret_cast<void *>(Addr)))
    return Status(ErrorCode::InvalidDevicePointer,
                  "tt-sim: " + hex(Addr) + " is not a device allocation");
  return Arena::get().release(Addr);
}

uint64_t Dram::highWater() {
  uint64_t End = Arena::get().highWater();
  End = (End + (2u << 20) - 1) & ~uint64_t((2u << 20) - 1);
  return std::max<uint64_t>(std::min(End, Arena::get().size()),
                            std::min<uint64_t>(2u << 20, Arena::get().size()));
}

uint64_t Dram::inUse() {
  std::lock_guard<std::mutex> G(M);
  return InUse;
}

bool Dram::contains(const void *P, uint64_t Bytes) const {
  uint64_t A = reinterpret_cast<uint64_t>(P);
  uint64_t N = Arena::get().size();
  return A >= RVMC_DRAM_BASE && A - RVMC_DRAM_BASE <= N &&
         Bytes <= N - (A - RVMC_DRAM_BASE);
}

Status TTSimDevice::allocate(size_t Bytes, void *&Ptr) {
  uint64_t A = 0;
  if (Status S = Mem.allocate(Bytes, A))
    return S;
  Ptr = reinterpret_cast<void *>(A);
  return Status::ok();
}

Status TTSimDevice::release(void *Ptr) {
  if (!Ptr)
    return Status::ok();
  return Mem.release(reinterpret_cast<uint64_t>(Ptr));
}

Status TTSimDevice::allocateHost(size_t Bytes, void *&Ptr) {
  Ptr = std::malloc(Bytes ? Bytes : 1);
  return Ptr ? Status::ok()
             : Status(ErrorCode::OutOfMemory, "tt-sim: host allocation");
}

Status TTSimDevice::releaseHost(void *Ptr) {
  std::free(Ptr);
  return Status::ok();
}

Status TTSimDevice::allocateManaged(size_t Bytes, void *&Ptr) {
  // Chunks of their own: managed memory stays host memory when the
  // context migrates to a GPU (Core/UnifiedMemory.h).
  uint64_t A = 0;
  if (Status S = Mem.allocate(Bytes, A, 4096, Arena::get().managedTag()))
    return S;
  Ptr = reinterpret_cast<void *>(A);
  return Status::ok();
}

Status TTSimDevice::memoryInfo(size_t &Free, size_t &Total) {
  Total = Cfg.DramBytes;
  Free = Cfg.DramBytes - Mem.inUse();
  return Status::ok();
}
