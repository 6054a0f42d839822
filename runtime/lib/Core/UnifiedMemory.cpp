//===- UnifiedMemory.cpp - One device address layout for all devices -----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The process-wide device memory arena (UnifiedMemory.h).
///
//===----------------------------------------------------------------------===//

#include "Core/UnifiedMemory.h"

#include "hetgpu/ABI/RVManycore.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace hetgpu;
using namespace hetgpu::rt;

namespace {
std::string hexStr(uint64_t V) {
  char B[32];
  snprintf(B, sizeof B, "0x%llx", (unsigned long long)V);
  return B;
}
} // namespace

bool hetgpu::rt::arenaWanted() {
  static const bool W = [] {
    const char *M = getenv("HETGPU_MIGRATE");
    const char *A = getenv("HETGPU_ARENA");
    if (A && *A)
      return std::string(A) != "0";
    return M && *M;
  }();
  return W;
}

Arena &Arena::get() {
  static Arena *A = new Arena();
  return *A;
}

uint64_t Arena::configuredBytes() {
  uint64_t Bytes = RVMC_DRAM_MAX;
  if (const char *E = getenv("HETGPU_ARENA_MB"); E && *E)
    Bytes = strtoull(E, nullptr, 0) << 20;
  Bytes = (Bytes + ChunkBytes - 1) & ~(ChunkBytes - 1);
  return Bytes > RVMC_DRAM_MAX ? 0 : Bytes;
}

Status Arena::ensureMapped(bool RequireFixedBase) {
  std::call_once(MapOnce, [this, RequireFixedBase] {
    uint64_t Bytes = configuredBytes();
    if (!Bytes) {
      MapStatus = Status(ErrorCode::InvalidValue,
                         "HETGPU_ARENA_MB out of range (1..65536)");
      return;
    }
    int Raw = memfd_create("hetgpu-arena", MFD_CLOEXEC);
    // Keep it off the low descriptors the tt-sim cores dup2 onto.
    int F = Raw < 0 ? -1 : fcntl(Raw, F_DUPFD_CLOEXEC, 10);
    if (Raw >= 0)
      close(Raw);
    if (F < 0 || ftruncate(F, off_t(Bytes)) != 0) {
      MapStatus = Status(ErrorCode::DriverFailure,
                         std::string("device memory arena: memfd failed: ") +
                             strerror(errno));
      if (F >= 0)
        close(F);
      return;
    }
    // Over a driver's reservation the range holds its placeholder.
    void *P = mmap(
        reinterpret_cast<void *>(RVMC_DRAM_BASE), Bytes, PROT_READ | PROT_WRITE,
        MAP_SHARED | (OverReservation ? MAP_FIXED : MAP_FIXED_NOREPLACE), F, 0);
    if (P != MAP_FAILED && reinterpret_cast<uint64_t>(P) != RVMC_DRAM_BASE) {
      munmap(P, Bytes); // an old kernel ignoring MAP_FIXED_NOREPLACE
      P = MAP_FAILED;
    }
    if (P == MAP_FAILED && !RequireFixedBase)
      P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE, MAP_SHARED, F, 0);
    if (P == MAP_FAILED) {
      MapStatus = Status(ErrorCode::DriverFailure,
                         "device memory arena: cannot map " +
                             std::to_string(Bytes >> 20) + " MiB at " +
                             hexStr(RVMC_DRAM_BASE) + ": " + strerror(errno));
      close(F);
      return;
    }
    std::lock_guard<std::mutex> L(M);
    Fd = F;
    Size = Bytes;
    Free[0] = Bytes;
    Base = reinterpret_cast<uint64_t>(P);
  });
  if (MapStatus)
    return MapStatus;
  if (RequireFixedBase && Base != RVMC_DRAM_BASE)
    return Status(ErrorCode::DriverFailure,
                  "device memory arena: mapped at " + hexStr(Base) +
                      ", not at " + hexStr(RVMC_DRAM_BASE) +
                      " (the range was taken)");
  return Status::ok();
}

unsigned Arena::managedTag() {
  static const unsigned T = newTag();
  return T;
}

unsigned Arena::newTag() {
  std::lock_guard<std::mutex> L(M);
  return NextTag++;
}

bool Arena::chunksFit(uint64_t Off, uint64_t Bytes, unsigned Tag,
                      uint64_t &NextTry) {
  uint64_t First, Last;
  chunkRange(Off, Bytes, First, Last);
  for (auto It = Chunks.lower_bound(First);
       It != Chunks.end() && It->first <= Last; ++It) {
    const Chunk &C = It->second;
    if (C.Lent || (C.Users && C.Tag != Tag)) {
      NextTry = (It->first + 1) * ChunkBytes;
      return false;
    }
  }
  return true;
}

void Arena::useChunks(uint64_t Off, uint64_t Bytes, unsigned Tag, int Delta) {
  uint64_t First, Last;
  chunkRange(Off, Bytes, First, Last);
  for (uint64_t I = First; I <= Last; ++I) {
    Chunk &C = Chunks[I];
    if (Delta > 0) {
      if (!C.Users)
        C.Tag = Tag;
      ++C.Users;
    } else if (C.Users) {
      --C.Users;
    }
    if (!C.Users && !C.Lent)
      Chunks.erase(I);
  }
}

Status Arena::allocate(uint64_t Bytes, uint64_t Align, unsigned Tag,
                       uint64_t &Addr) {
  if (Status S = ensureMapped())
    return S;
  Bytes = (std::max<uint64_t>(Bytes, 1) + 255) & ~uint64_t(255);
  Align = std::max<uint64_t>(Align, 256);
  std::lock_guard<std::mutex> L(M);
  for (auto It = Free.begin(); It != Free.end(); ++It) {
    uint64_t BlockStart = It->first, End = It->first + It->second;
    uint64_t Start = (BlockStart + Align - 1) & ~(Align - 1);
    while (Start + Bytes <= End) {
      uint64_t Next = 0;
      if (chunksFit(Start, Bytes, Tag, Next))
        break;
      Start = (Next + Align - 1) & ~(Align - 1);
    }
    if (Start + Bytes > End)
      continue;
    Free.erase(It);
    if (Start > BlockStart)
      Free[BlockStart] = Start - BlockStart;
    if (Start + Bytes < End)
      Free[Start + Bytes] = End - (Start + Bytes);
    Used[Start] = Bytes;
    useChunks(Start, Bytes, Tag, +1);
    claimResident(Start, Bytes);
    Addr = Base + Start;
    return Status::ok();
  }
  return Status(ErrorCode::OutOfMemory,
                "device memory arena: no room for " + std::to_string(Bytes) +
                    " bytes (HETGPU_ARENA_MB)");
}

Status Arena::release(uint64_t Addr) {
  std::lock_guard<std::mutex> L(M);
  auto It = Addr >= Base ? Used.find(Addr - Base) : Used.end();
  if (It == Used.end())
    return Status(ErrorCode::InvalidDevicePointer,
                  "device memory arena: " + hexStr(Addr) +
                      " is not an allocation");
  uint64_t Start = It->first, Bytes = It->second;
  Used.erase(It);
  if (auto Sh = Shadows.find(Start); Sh != Shadows.end()) {
    // Its device freed the memory; the kept pages go with it.
    ShadowBytes -= Sh->second;
    Shadows.erase(Sh);
    discard(Base + Start, Bytes);
  }
  uint64_t First, Last;
  chunkRange(Start, Bytes, First, Last);
  bool AnyLent = false;
  for (uint64_t I = First; I <= Last; ++I)
    if (auto C = Chunks.find(I); C != Chunks.end() && C->second.Lent)
      AnyLent = true;
  useChunks(Start, Bytes, 0, -1);
  // The whole pages of large blocks go back to the system, in batches
  // (cudaMalloc'ed memory has no defined contents, so reusing them is fine).
  if (!AnyLent && Bytes >= (64u << 10)) {
    uint64_t PS = 4096, A = (Start + PS - 1) & ~(PS - 1),
             E = (Start + Bytes) & ~(PS - 1);
    if (E > A) {
      Resident[A] = E - A;
      ResidentBytes += E - A;
      if (ResidentBytes > ResidentLimit)
        punchResident();
    }
  }
  auto Next = Free.lower_bound(Start);
  if (Next != Free.end() && Next->first == Start + Bytes) {
    Bytes += Next->second;
    Free.erase(Next);
  }
  auto Prev = Free.lower_bound(Start);
  if (Prev != Free.begin()) {
    --Prev;
    if (Prev->first + Prev->second == Start) {
      Prev->second += Bytes;
      return Status::ok();
    }
  }
  Free[Start] = Bytes;
  return Status::ok();
}

void Arena::claimResident(uint64_t Off, uint64_t Bytes) {
  uint64_t PS = 4096, End = Off + Bytes;
  // The first listed range that may overlap: the one before Off, if any.
  auto It = Resident.upper_bound(Off);
  if (It != Resident.begin())
    --It;
  while (It != Resident.end() && It->first < End) {
    uint64_t RA = It->first, RE = RA + It->second;
    if (RE <= Off) {
      ++It;
      continue;
    }
    ResidentBytes -= It->second;
    It = Resident.erase(It);
    // Keep the whole pages on either side (a partial page holds bytes of
    // the new block: punching it would zero them).
    uint64_t LeftEnd = Off & ~(PS - 1), RightStart = (End + PS - 1) & ~(PS - 1);
    if (LeftEnd > RA) {
      Resident[RA] = LeftEnd - RA;
      ResidentBytes += LeftEnd - RA;
    }
    if (RE > RightStart) {
      It = Resident.emplace(RightStart, RE - RightStart).first;
      ResidentBytes += RE - RightStart;
      ++It;
    }
  }
}

void Arena::punchResident() {
  for (const auto &[Off, Bytes] : Resident)
    fallocate(Fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off_t(Off),
              off_t(Bytes));
  Resident.clear();
  ResidentBytes = 0;
}

uint64_t Arena::allocationSize(uint64_t Addr) {
  std::lock_guard<std::mutex> L(M);
  if (!Base || Addr < Base)
    return 0;
  auto It = Used.find(Addr - Base);
  return It == Used.end() ? 0 : It->second;
}

std::vector<std::pair<uint64_t, uint64_t>>
Arena::overlapping(uint64_t Addr, uint64_t Bytes) {
  std::vector<std::pair<uint64_t, uint64_t>> R;
  std::lock_guard<std::mutex> L(M);
  if (!Base || Addr < Base)
    return R;
  uint64_t Off = Addr - Base;
  auto It = Used.upper_bound(Off);
  if (It != Used.begin())
    --It;
  for (; It != Used.end() && It->first < Off + Bytes; ++It)
    if (It->first + It->second > Off)
      R.push_back({Base + It->first, It->second});
  return R;
}

void Arena::retag(uint64_t Addr, uint64_t Bytes, unsigned Tag) {
  std::lock_guard<std::mutex> L(M);
  uint64_t First, Last;
  chunkRange(Addr - Base, Bytes, First, Last);
  for (uint64_t I = First; I <= Last; ++I)
    if (auto C = Chunks.find(I); C != Chunks.end())
      C->second.Tag = Tag;
}

Status Arena::lend(uint64_t ChunkAddr) {
  std::lock_guard<std::mutex> L(M);
  uint64_t Off = ChunkAddr - Base;
  Chunk &C = Chunks[Off / ChunkBytes];
  if (C.Lent)
    return Status::ok();
  if (munmap(reinterpret_cast<void *>(ChunkAddr), ChunkBytes) != 0)
    return Status(ErrorCode::DriverFailure,
                  "device memory arena: cannot unmap " + hexStr(ChunkAddr) +
                      ": " + strerror(errno));
  C.Lent = true;
  return Status::ok();
}

Status Arena::reclaim(uint64_t ChunkAddr) {
  std::lock_guard<std::mutex> L(M);
  uint64_t Off = ChunkAddr - Base;
  auto It = Chunks.find(Off / ChunkBytes);
  if (It == Chunks.end() || !It->second.Lent)
    return Status::ok();
  // Inside a driver's reservation the chunk holds the placeholder the
  // driver left on unmapping its memory there.
  void *P = mmap(
      reinterpret_cast<void *>(ChunkAddr), ChunkBytes, PROT_READ | PROT_WRITE,
      MAP_SHARED | (OverReservation ? MAP_FIXED : MAP_FIXED_NOREPLACE), Fd,
      off_t(Off));
  if (P != reinterpret_cast<void *>(ChunkAddr)) {
    if (P != MAP_FAILED)
      munmap(P, ChunkBytes);
    return Status(ErrorCode::DriverFailure,
                  "device memory arena: cannot map " + hexStr(ChunkAddr) +
                      " again: " + strerror(errno));
  }
  It->second.Lent = false;
  if (!It->second.Users)
    Chunks.erase(It);
  return Status::ok();
}

bool Arena::isLent(uint64_t ChunkAddr) {
  std::lock_guard<std::mutex> L(M);
  auto It = Chunks.find((ChunkAddr - Base) / ChunkBytes);
  return It != Chunks.end() && It->second.Lent;
}

uint64_t Arena::highWater() {
  std::lock_guard<std::mutex> L(M);
  return Used.empty() ? 0 : Used.rbegin()->first + Used.rbegin()->second;
}

void Arena::discard(uint64_t Addr, uint64_t Bytes) {
  uint64_t PS = 4096, A = (Addr - Base + PS - 1) & ~(PS - 1),
           E = (Addr - Base + Bytes) & ~(PS - 1);
  if (E > A)
    fallocate(Fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off_t(A),
              off_t(E - A));
}

/// MADV_POPULATE_WRITE (Linux 5.14) in parts of 16 MiB, else one
/// touching write per page.
bool Arena::populate(void *Ptr, size_t Len) {
  // From the page that holds Ptr (madvise takes page-aligned ranges).
  uintptr_t Start = reinterpret_cast<uintptr_t>(Ptr) & ~uintptr_t(4095);
  Len += reinterpret_cast<uintptr_t>(Ptr) - Start;
  char *P = reinterpret_cast<char *>(Start);
#ifdef MADV_POPULATE_WRITE
  constexpr size_t Part = 16u << 20;
  unsigned Threads = std::min<unsigned>(
      8, std::max(1u, std::thread::hardware_concurrency() / 2));
  if (Len < 2 * Part || Threads == 1)
    return madvise(P, Len, MADV_POPULATE_WRITE) == 0;
  std::atomic<size_t> Next{0};
  std::atomic<bool> OK{true};
  auto Work = [&] {
    for (size_t Off; (Off = Next.fetch_add(Part)) < Len;)
      if (madvise(P + Off, std::min(Part, Len - Off), MADV_POPULATE_WRITE))
        OK = false;
  };
  std::vector<std::thread> Ts;
  for (unsigned I = 1; I < Threads; ++I)
    Ts.emplace_back(Work);
  Work();
  for (std::thread &T : Ts)
    T.join();
  return OK;
#else
  for (size_t Off = 0; Off < Len; Off += 4096)
    reinterpret_cast<volatile char *>(P)[Off] += 0;
  return true;
#endif
}

void *Arena::alias(uint64_t Addr, uint64_t Bytes, void *&MapBase,
                   size_t &MapLen) {
  uint64_t Off = Addr - Base, PS = 4096, A = Off & ~(PS - 1),
           E = (Off + Bytes + PS - 1) & ~(PS - 1);
  MapLen = size_t(E - A);
  MapBase =
      mmap(nullptr, MapLen, PROT_READ | PROT_WRITE, MAP_SHARED, Fd, off_t(A));
  if (MapBase == MAP_FAILED) {
    MapBase = nullptr;
    return nullptr;
  }
  return static_cast<char *>(MapBase) + (Off - A);
}

uint64_t Arena::shadowLimit() {
  static const uint64_t Limit = [] {
    long Pages = sysconf(_SC_PHYS_PAGES), PS = sysconf(_SC_PAGESIZE);
    return Pages > 0 && PS > 0 ? uint64_t(Pages) * uint64_t(PS) / 4
                               : uint64_t(1) << 30;
  }();
  return Limit;
}

void Arena::keepShadow(uint64_t Addr, uint64_t Bytes) {
  std::lock_guard<std::mutex> L(M);
  uint64_t Off = Addr - Base;
  if (Shadows.count(Off))
    return;
  if (ShadowBytes + Bytes > shadowLimit())
    return discard(Addr, Bytes);
  Shadows[Off] = Bytes;
  ShadowBytes += Bytes;
}

void Arena::dropShadow(uint64_t Addr) {
  std::lock_guard<std::mutex> L(M);
  auto It = Shadows.find(Addr - Base);
  if (It == Shadows.end())
    return;
  ShadowBytes -= It->second;
  Shadows.erase(It);
}

void Arena::unalias(void *MapBase, size_t MapLen) {
  if (MapBase)
    munmap(MapBase, MapLen);
}
