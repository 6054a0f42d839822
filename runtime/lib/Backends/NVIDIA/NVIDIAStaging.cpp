//===- NVIDIAStaging.cpp - Large host to GPU copies through pinned buffers ===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// NVIDIAQueue::copyInBulk: a migration's host -> GPU copy of an allocation
/// (pageable pages of the arena file) in chunks through a ring of pinned
/// buffers: host threads fill one slot while the GPU copies the previous
/// ones. On the H200 machine (bench/migration/staging-cost.cpp, 256 MiB)
/// the driver's own pageable copy ran at 6.5 GB/s, this ring with 8 threads
/// and 16 MiB slots at 26 GB/s. The ring (4 x 16 MiB, portable pinned
/// memory) is made at the first bulk copy of the process and kept. GPU ->
/// host copies take the default path (Queue::copyOutBulk: pages populated
/// in parallel, one pageable copy): a ring the other way, its threads
/// faulting the pages in, was slower in the moves of bench/migration
/// (64 MiB: 76 ms against 28 ms).
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

Status NVIDIAQueue::copyInBulk(void *Dst, const void *Src, size_t Bytes) {
  if (Bytes < BulkMinBytes)
    return Queue::copyInBulk(Dst, Src, Bytes);
  PinnedRing &R = ring();
  std::lock_guard<std::mutex> L(R.M);
  ContextScope S(D, Ctx);
  if (!R.Slot[0] && !R.Failed)
    for (char *&P : R.Slot)
      if (D.MemHostAlloc(reinterpret_cast<void **>(&P), SlotBytes,
                         CU_MEMHOSTALLOC_PORTABLE_) != CUDA_SUCCESS) {
        for (char *&Q : R.Slot)
          if (Q)
            D.MemFreeHost(Q);
        std::fill(std::begin(R.Slot), std::end(R.Slot), nullptr);
        R.Failed = true;
        log(LogLevel::Info, "nvidia: no pinned staging buffers; large host "
                            "-> GPU copies use the driver's staging");
        break;
      }
  CUevent Ev[Slots] = {};
  bool Events = !R.Failed;
  for (CUevent &E : Ev)
    if (Events && D.EventCreate(&E, CU_EVENT_DISABLE_TIMING_) != CUDA_SUCCESS)
      Events = false;
  Status St;
  if (!Events) {
    St = Queue::copyInBulk(Dst, Src, Bytes);
  } else {
    unsigned Threads =
        std::clamp(std::thread::hardware_concurrency() / 2, 1u, 8u);
    const char *From = static_cast<const char *>(Src);
    // (Populating the source first, Arena::populate, made the copies of a
    // 256 MiB move slower on the H200: 73 ms against 45 ms.)
    size_t Chunks = (Bytes + SlotBytes - 1) / SlotBytes;
    for (size_t I = 0; I < Chunks && St.isOk(); ++I) {
      int K = int(I % Slots);
      if (I >= size_t(Slots)) // the slot's previous copy is done
        St = check(D, D.EventSynchronize(Ev[K]), "cuEventSynchronize");
      if (!St.isOk())
        break;
      size_t Off = I * SlotBytes, Len = std::min(SlotBytes, Bytes - Off);
      parallelCopy(R.Slot[K], From + Off, Len, Threads);
      St = check(D, D.MemcpyHtoDAsync(dptr(Dst) + Off, R.Slot[K], Len, Stream),
                 "cuMemcpyHtoDAsync");
      if (St.isOk())
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
