//===- NVIDIAStaging.cpp - Large host to GPU copies through pinned buffers ===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// NVIDIAQueue::copyInBulk / copyOutBulk: a migration's copy of an
/// allocation between the GPU and pageable pages of the arena file, in
/// chunks through a ring of pinned buffers: host threads fill or drain one
/// slot while the GPU copies the others. On the H200 machine
/// (bench/migration/staging-cost.cpp, 256 MiB) host -> GPU: the driver's
/// pageable copy 6.5 GB/s, this ring (8 threads, 16 MiB slots) 26 GB/s;
/// GPU -> fresh host pages: populate + pageable copy 1.2 GB/s, the ring
/// 4.4 GB/s (its threads fault the pages in). The ring (4 x 16 MiB, portable
/// pinned memory) is made at the first bulk copy of the process and kept.
///
//===----------------------------------------------------------------------===//

#include "Backends/NVIDIA/NVIDIADevice.h"
#include "Core/Log.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::cu;

namespace {

constexpr size_t SlotBytes = 16u << 20;
constexpr int Slots = 4;
/// Smaller copies go through the driver's own staging.
constexpr size_t BulkMinBytes = 32u << 20;
constexpr unsigned CU_MEMHOSTALLOC_PORTABLE_ = 0x01;
constexpr unsigned CU_EVENT_DISABLE_TIMING_ = 0x02;

struct PinnedRing {
  std::mutex M;
  char *Slot[Slots] = {};
  bool Failed = false; ///< no pinned memory: every copy goes the plain way
};

PinnedRing &ring() {
  static PinnedRing R;
  return R;
}

/// memcpy of \p N bytes by up to \p Threads threads, parts of >= 2 MiB.
void parallelCopy(char *Dst, const char *Src, size_t N, unsigned Threads) {
  size_t Part =
      std::max<size_t>(2u << 20, (N / Threads + 4095) & ~size_t(4095));
  std::vector<std::thread> Ts;
  for (size_t Off = Part; Off < N; Off += Part)
    Ts.emplace_back(
        [=] { std::memcpy(Dst + Off, Src + Off, std::min(Part, N - Off)); });
  std::memcpy(Dst, Src, std::min(Part, N));
  for (std::thread &T : Ts)
    T.join();
}

} // namespace

/// The ring's slots, allocated at the first bulk copy (R.M held); false
/// when the process has no pinned memory for them.
static bool haveSlots(const Driver &D, PinnedRing &R) {
  if (!R.Slot[0] && !R.Failed)
    for (char *&P : R.Slot)
      if (D.MemHostAlloc(reinterpret_cast<void **>(&P), SlotBytes,
                         CU_MEMHOSTALLOC_PORTABLE_) != CUDA_SUCCESS) {
        for (char *&Q : R.Slot)
          if (Q)
            D.MemFreeHost(Q);
        std::fill(std::begin(R.Slot), std::end(R.Slot), nullptr);
        R.Failed = true;
        log(LogLevel::Info, "nvidia: no pinned staging buffers; large "
                            "migration copies use the driver's staging");
        break;
      }
  return !R.Failed;
}

Status NVIDIAQueue::copyBulk(void *Dst, const void *Src, size_t Bytes,
                             bool ToDevice) {
  auto Plain = [&] {
    return ToDevice ? Queue::copyInBulk(Dst, Src, Bytes)
                    : Queue::copyOutBulk(Dst, Src, Bytes);
  };
  if (Bytes < BulkMinBytes)
    return Plain();
  PinnedRing &R = ring();
  std::lock_guard<std::mutex> L(R.M);
  ContextScope S(D, Ctx);
  CUevent Ev[Slots] = {};
  bool Ready = haveSlots(D, R);
  for (CUevent &E : Ev)
    if (Ready && D.EventCreate(&E, CU_EVENT_DISABLE_TIMING_) != CUDA_SUCCESS)
      Ready = false;
  Status St;
  if (!Ready) {
    St = Plain();
  } else {
    unsigned Threads =
        std::clamp(std::thread::hardware_concurrency() / 2, 1u, 8u);
    char *To = static_cast<char *>(Dst);
    const char *From = static_cast<const char *>(Src);
    size_t Chunks = (Bytes + SlotBytes - 1) / SlotBytes;
    auto Len = [&](size_t I) {
      return std::min(SlotBytes, Bytes - I * SlotBytes);
    };
    // To the device: the host fills slot I while the GPU copies the ones
    // before. From it: the GPU fills the slots ahead while the host drains
    // slot I (its threads fault the destination's pages in).
    for (size_t I = 0; I < Chunks + (ToDevice ? 0 : Slots) && St.isOk(); ++I) {
      int K = int(I % Slots);
      if (ToDevice) {
        if (I >= size_t(Slots))
          St = check(D, D.EventSynchronize(Ev[K]), "cuEventSynchronize");
        if (!St.isOk())
          break;
        parallelCopy(R.Slot[K], From + I * SlotBytes, Len(I), Threads);
        St = check(D,
                   D.MemcpyHtoDAsync(dptr(To) + I * SlotBytes, R.Slot[K],
                                     Len(I), Stream),
                   "cuMemcpyHtoDAsync");
      } else {
        if (I >= size_t(Slots)) {
          size_t J = I - Slots;
          if (J < Chunks) {
            St = check(D, D.EventSynchronize(Ev[K]), "cuEventSynchronize");
            if (!St.isOk())
              break;
            parallelCopy(To + J * SlotBytes, R.Slot[K], Len(J), Threads);
          }
        }
        if (I < Chunks)
          St = check(D,
                     D.MemcpyDtoHAsync(R.Slot[K], dptr(From) + I * SlotBytes,
                                       Len(I), Stream),
                     "cuMemcpyDtoHAsync");
      }
      if (St.isOk() && I < Chunks)
        St = check(D, D.EventRecord(Ev[K], Stream), "cuEventRecord");
    }
    Status Sync = synchronize();
    if (St.isOk())
      St = Sync;
  }
  for (CUevent E : Ev)
    if (E)
      D.EventDestroy(E);
  return St;
}

Status NVIDIAQueue::copyInBulk(void *Dst, const void *Src, size_t Bytes) {
  return copyBulk(Dst, Src, Bytes, /*ToDevice=*/true);
}

Status NVIDIAQueue::copyOutBulk(void *Dst, const void *Src, size_t Bytes) {
  return copyBulk(Dst, Src, Bytes, /*ToDevice=*/false);
}
