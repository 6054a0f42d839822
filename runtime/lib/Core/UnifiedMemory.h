//===- UnifiedMemory.h - One device address layout for all devices -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The process-wide device memory arena (docs/Migration.md, "One address
/// layout"): a sparse memfd mapped at RVMC_DRAM_BASE (0x10_0000_0000, the
/// tt-sim DRAM window, so tt-sim's DRAM *is* the arena) with one range
/// allocator for every device. Devices whose memory is host memory (CPU,
/// tt-sim, OpenCL CPU devices that pass the SVM probe) hand out arena memory
/// directly, so a device pointer means the same bytes on all of them and an
/// allocation changes device without a copy. A device with its own memory
/// (NVIDIA) *borrows* arena ranges: the host mapping of a 32 MiB chunk is
/// removed (lend) and the driver maps device memory at the same addresses;
/// giving the chunk back (reclaim) maps the host file there again. Either
/// way every allocation of every device has one address in one layout, so
/// pointers stored in device memory stay valid when the memory moves.
///
/// Chunks carry a tag (the device that allocates there), so lent chunks
/// never hold another device's allocations.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_CORE_UNIFIEDMEMORY_H
#define HETGPU_RUNTIME_CORE_UNIFIEDMEMORY_H

#include "Core/Device.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace hetgpu {
namespace rt {

/// Whether devices should allocate from the arena: HETGPU_MIGRATE is set (a
/// migratable process) or HETGPU_ARENA=1. tt-sim always does (its DRAM is the
/// arena).
bool arenaWanted();

class Arena {
public:
  /// Bytes of one chunk: the unit lent to devices with their own memory (the
  /// NVIDIA driver honours a fixed address in cuMemAddressReserve only from
  /// 32 MiB up; measured on driver 580, bench/migration/vmm-probe.cpp).
  static constexpr uint64_t ChunkBytes = uint64_t(32) << 20;

  static Arena &get();

  /// Maps the arena once (HETGPU_ARENA_MB, default 64 GiB, sparse). Tries
  /// RVMC_DRAM_BASE first; if that range is taken and \p RequireFixedBase is
  /// false, lets the kernel choose the base.
  Status ensureMapped(bool RequireFixedBase = false);
  bool mapped() const { return Base != 0; }
  /// Bytes ensureMapped maps (HETGPU_ARENA_MB, whole chunks); 0 when the
  /// setting is out of range.
  static uint64_t configuredBytes();
  /// A driver holds a reservation of [RVMC_DRAM_BASE, +configuredBytes())
  /// whose placeholder mapping the arena may replace (the NVIDIA backend's
  /// whole-arena reservation): ensureMapped maps over it, and reclaim maps a
  /// chunk back over what the driver leaves after unmapping its memory.
  /// Call before the arena is mapped.
  void mapOverReservation() { OverReservation = true; }
  uint64_t base() const { return Base; }
  uint64_t size() const { return Size; }
  int fd() const { return Fd; }

  /// A new tag for a device's chunks.
  unsigned newTag();
  /// The tag of managed memory (host memory on every device, never lent).
  unsigned managedTag();

  /// Allocates \p Bytes (rounded to 256) aligned to \p Align in chunks that
  /// are free or carry \p Tag.
  Status allocate(uint64_t Bytes, uint64_t Align, unsigned Tag, uint64_t &Addr);
  /// Frees the allocation starting at \p Addr. The whole pages of a block of
  /// 64 KiB or more stay resident until ResidentLimit bytes of freed pages
  /// have piled up, then all of them are dropped from the file at once:
  /// punching every free out made the next allocation at the same place
  /// fault in every page again (a malloc + launch + free loop of 4 MiB
  /// ran 1.65x slower than without the arena). A chunk still lent is not
  /// touched here: its borrower reclaims it.
  Status release(uint64_t Addr);
  /// Size of the allocation starting at \p Addr, or 0.
  uint64_t allocationSize(uint64_t Addr);
  bool contains(const void *P) const {
    uint64_t A = reinterpret_cast<uint64_t>(P);
    return Base && A >= Base && A - Base < Size;
  }

  /// Chunks [First, Last] covering [Addr, Addr + Bytes).
  static void chunkRange(uint64_t Off, uint64_t Bytes, uint64_t &First,
                         uint64_t &Last) {
    First = Off / ChunkBytes;
    Last = (Off + (Bytes ? Bytes : 1) - 1) / ChunkBytes;
  }
  /// Allocations (start, bytes) overlapping [Addr, Addr + Bytes).
  std::vector<std::pair<uint64_t, uint64_t>> overlapping(uint64_t Addr,
                                                         uint64_t Bytes);
  /// Sets the tag of every chunk covering [Addr, Addr + Bytes).
  void retag(uint64_t Addr, uint64_t Bytes, unsigned Tag);

  /// Removes the host mapping of the chunk at \p ChunkAddr (a device maps
  /// its own memory there) / maps the host file there again. The file keeps
  /// its bytes while a chunk is lent (a move copies them to the device
  /// through alias() and keeps the pages as a shadow, keepShadow).
  Status lend(uint64_t ChunkAddr);
  Status reclaim(uint64_t ChunkAddr);
  bool isLent(uint64_t ChunkAddr);
  /// Drops the file's bytes under [Addr, Addr + Bytes) (whole pages).
  void discard(uint64_t Addr, uint64_t Bytes);
  /// The allocation at \p Addr now lives in a device's own memory: its
  /// file pages are kept (a shadow, stale but allocated), so that a move
  /// back to host memory copies into existing pages; allocating them then
  /// cost 8x the copy (bench/migration/staging-cost.cpp). Past ShadowLimit
  /// bytes of shadows the pages are discarded instead. release() drops a
  /// shadow with its allocation.
  void keepShadow(uint64_t Addr, uint64_t Bytes);
  /// The allocation at \p Addr is in host memory again: its pages are live.
  void dropShadow(uint64_t Addr);
  /// A second host mapping of the file bytes under [Addr, Addr + Bytes),
  /// valid also while the range is lent: a move copies between it and the
  /// device memory at Addr (Queue::copyInBulk / copyOutBulk, which populate
  /// what they touch). Returns the pointer for Addr (null on failure);
  /// unalias() takes \p MapBase and \p MapLen.
  void *alias(uint64_t Addr, uint64_t Bytes, void *&MapBase, size_t &MapLen);
  /// Faults in the pages of [P, P + Len) for writing, by several threads
  /// for large ranges (one thread allocated a shared file's pages at about
  /// 1.4 GB/s on the H200 machine). Returns false when it could not.
  static bool populate(void *P, size_t Len);
  static void unalias(void *MapBase, size_t MapLen);

  /// Bytes from the base to the end of the highest allocation.
  uint64_t highWater();

private:
  Arena() = default;
  struct Chunk {
    unsigned Tag = 0;
    unsigned Users = 0; ///< allocations overlapping the chunk
    bool Lent = false;
  };
  bool chunksFit(uint64_t Off, uint64_t Bytes, unsigned Tag,
                 uint64_t &NextTry);
  void useChunks(uint64_t Off, uint64_t Bytes, unsigned Tag, int Delta);
  /// The resident pages (Resident) that [Off, Off + Bytes) uses again are no
  /// longer free: only the whole pages outside it stay listed.
  void claimResident(uint64_t Off, uint64_t Bytes);
  /// Drops every listed page from the file.
  void punchResident();

  /// Freed bytes kept resident before they are dropped together (release).
  static constexpr uint64_t ResidentLimit = 256ull << 20;
  /// Shadow pages kept at most (keepShadow): a quarter of the machine's
  /// memory.
  static uint64_t shadowLimit();

  std::once_flag MapOnce;
  Status MapStatus;
  bool OverReservation = false;
  int Fd = -1;
  uint64_t Base = 0, Size = 0;
  std::mutex M;
  unsigned NextTag = 1;
  std::map<uint64_t, uint64_t> Free, Used; ///< offset -> bytes
  std::map<uint64_t, Chunk> Chunks;        ///< chunk index -> state
  /// Whole pages of freed blocks not yet dropped from the file: offset ->
  /// bytes, page-aligned; ResidentBytes is their sum.
  std::map<uint64_t, uint64_t> Resident;
  uint64_t ResidentBytes = 0;
  /// Allocations whose pages are kept while a device holds them: offset ->
  /// bytes; ShadowBytes is their sum.
  std::map<uint64_t, uint64_t> Shadows;
  uint64_t ShadowBytes = 0;
};

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_CORE_UNIFIEDMEMORY_H
