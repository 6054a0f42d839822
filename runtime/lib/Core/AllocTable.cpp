//===- AllocTable.cpp - Range lookups and freed memory of the table -------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The allocation table (Runtime::Allocs, an interval map: base -> record
/// with size, device and kind) answers one question for every memory
/// operation of the API layer: what are the bytes [P, P + N)? Inside one
/// allocation, past its end, freed device memory, or unknown (pageable host
/// memory or a bogus pointer). Freed device memory is remembered: on
/// integrated devices (device memory is host heap memory) small blocks are
/// quarantined before they go back to the heap, so a stale pointer stays
/// recognisable and a use-after-free never lands in memory the host
/// program got from malloc meanwhile; on devices with memory of their own
/// the most recent frees are remembered. The variables of loaded modules
/// are device memory too (recorded when a symbol is looked up).
///
//===----------------------------------------------------------------------===//

#include "Core/Runtime.h"

#include <algorithm>

using namespace hetgpu;
using namespace hetgpu::rt;

namespace {
/// Quarantine bounds: blocks up to 8 MiB, 64 MiB in all.
constexpr size_t QuarantineBlock = 8u << 20;
constexpr size_t QuarantineTotal = 64u << 20;
/// Freed ranges remembered on devices with memory of their own.
constexpr size_t FreedRecords = 4096;
} // namespace

Runtime::RangeState Runtime::lookupRange(const void *P, size_t N,
                                         Allocation &Out) {
  uintptr_t U = reinterpret_cast<uintptr_t>(P);
  std::lock_guard<std::mutex> Lock(AllocM);
  auto Contains = [U](uintptr_t Base, size_t Size) {
    return U >= Base && U - Base < std::max<size_t>(Size, 1);
  };
  auto It = Allocs.upper_bound(U);
  if (It != Allocs.begin()) {
    const Allocation &A = std::prev(It)->second;
    if (Contains(A.Base, A.Size)) {
      Out = A;
      return N <= A.Size - (U - A.Base) ? RangeState::Inside
                                         : RangeState::PastEnd;
    }
  }
  auto V = SymbolRanges.upper_bound(U);
  if (V != SymbolRanges.begin()) {
    const Allocation &A = std::prev(V)->second;
    if (Contains(A.Base, A.Size)) {
      Out = A;
      return N <= A.Size - (U - A.Base) ? RangeState::Inside
                                         : RangeState::PastEnd;
    }
  }
  auto F = Freed.upper_bound(U);
  if (F != Freed.begin()) {
    const Allocation &A = std::prev(F)->second.A;
    if (Contains(A.Base, A.Size)) {
      Out = A;
      return RangeState::Freed;
    }
  }
  return RangeState::Unknown;
}

void Runtime::addSymbolRange(void *Addr, size_t Size, int Device) {
  uintptr_t U = reinterpret_cast<uintptr_t>(Addr);
  std::lock_guard<std::mutex> Lock(AllocM);
  Allocation &A = SymbolRanges[U];
  A.Base = U;
  A.Size = Size;
  A.Device = Device;
  A.Kind = AllocKind::Device;
}

void Runtime::forgetFreedOverlapping(uintptr_t Base, size_t Size) {
  // Called with AllocM held, for a new allocation: memory handed out again
  // is no longer freed (quarantined memory is never handed out).
  uintptr_t End = Base + std::max<size_t>(Size, 1);
  auto It = Freed.upper_bound(Base);
  if (It != Freed.begin())
    --It;
  while (It != Freed.end() && It->first < End) {
    const Allocation &A = It->second.A;
    if (A.Base + std::max<size_t>(A.Size, 1) > Base && !It->second.Dev) {
      RecentOrder.erase(
          std::find(RecentOrder.begin(), RecentOrder.end(), It->first));
      It = Freed.erase(It);
    } else {
      ++It;
    }
  }
}

Status Runtime::releaseDevice(const Allocation &A,
                              std::shared_ptr<Device> Dev) {
  void *P = reinterpret_cast<void *>(A.Base);
  bool Integrated = Dev->properties().Integrated;
  if (!Integrated || A.Size > QuarantineBlock) {
    Status S = Dev->release(P);
    if (Integrated)
      return S; // the heap may hand it out at once: not remembered
    std::lock_guard<std::mutex> Lock(AllocM);
    if (Freed.emplace(A.Base, FreedBlock{A, nullptr}).second)
      RecentOrder.push_back(A.Base);
    while (RecentOrder.size() > FreedRecords) {
      auto It = Freed.find(RecentOrder.front());
      if (It != Freed.end() && !It->second.Dev)
        Freed.erase(It);
      RecentOrder.pop_front();
    }
    return S;
  }
  std::vector<FreedBlock> Evicted;
  {
    std::lock_guard<std::mutex> Lock(AllocM);
    if (!Freed.emplace(A.Base, FreedBlock{A, Dev}).second)
      return Dev->release(P); // cannot happen: one live block per base
    QuarantineOrder.push_back(A.Base);
    QuarantineBytes += A.Size;
    while (QuarantineBytes > QuarantineTotal && !QuarantineOrder.empty()) {
      auto It = Freed.find(QuarantineOrder.front());
      QuarantineOrder.pop_front();
      if (It == Freed.end() || !It->second.Dev)
        continue; // flushed by a reset meanwhile
      QuarantineBytes -= It->second.A.Size;
      Evicted.push_back(std::move(It->second));
      Freed.erase(It);
    }
  }
  for (FreedBlock &B : Evicted)
    B.Dev->release(reinterpret_cast<void *>(B.A.Base));
  return Status::ok();
}

void Runtime::flushQuarantine(int Device) {
  std::vector<FreedBlock> Gone;
  {
    std::lock_guard<std::mutex> Lock(AllocM);
    // The device's modules go too (cudaDeviceReset).
    for (auto It = SymbolRanges.begin(); It != SymbolRanges.end();)
      It = It->second.Device == Device ? SymbolRanges.erase(It)
                                       : std::next(It);
    for (auto It = Freed.begin(); It != Freed.end();) {
      if (It->second.A.Device != Device) {
        ++It;
        continue;
      }
      // Their bases stay in the order queues; eviction skips them.
      if (It->second.Dev) {
        QuarantineBytes -= It->second.A.Size;
        Gone.push_back(std::move(It->second));
      }
      It = Freed.erase(It);
    }
    if (!QuarantineBytes)
      QuarantineOrder.clear();
  }
  for (FreedBlock &B : Gone)
    B.Dev->release(reinterpret_cast<void *>(B.A.Base));
}

void Runtime::memCheckRanges(int Device, std::vector<abi::MemCheckRange> &Out) {
  Out.clear();
  std::lock_guard<std::mutex> Lock(AllocM);
  auto Add = [&Out](const Allocation &A, uint32_t State) {
    abi::MemCheckRange R{};
    R.Begin = A.Base;
    R.End = A.Base + std::max<size_t>(A.Size, 1);
    R.State = State;
    Out.push_back(R);
  };
  for (const auto &[Base, A] : Allocs)
    if (A.Device == Device || A.Kind != AllocKind::Device)
      Add(A, abi::MRS_Live);
  for (const auto &[Base, A] : SymbolRanges)
    if (A.Device == Device)
      Add(A, abi::MRS_Live);
  for (const auto &[Base, F] : Freed)
    if (F.A.Device == Device)
      Add(F.A, abi::MRS_Freed);
  // Sorted by Begin; a live range wins over a freed one it overlaps, and of
  // two overlapping live ranges (one device's memory seen from another) the
  // first stays.
  std::stable_sort(Out.begin(), Out.end(),
                   [](const abi::MemCheckRange &X, const abi::MemCheckRange &Y) {
                     return X.Begin != Y.Begin ? X.Begin < Y.Begin
                                               : X.State < Y.State;
                   });
  std::vector<abi::MemCheckRange> Kept;
  for (const abi::MemCheckRange &R : Out) {
    if (!Kept.empty() && R.Begin < Kept.back().End) {
      if (R.State == abi::MRS_Live && Kept.back().State == abi::MRS_Freed) {
        Kept.back().End = R.Begin; // the freed one ends where this begins
        if (Kept.back().End == Kept.back().Begin)
          Kept.pop_back();
        if (Kept.empty() || R.Begin >= Kept.back().End)
          Kept.push_back(R);
      }
      continue;
    }
    Kept.push_back(R);
  }
  Out.swap(Kept);
}
