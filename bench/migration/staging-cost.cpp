//===- staging-cost.cpp - Ways to copy between a GPU and the arena file ---===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Times, on one GPU, the ways a GPU <-> host move (issue 22 item 2,
/// docs/Migration.md "Downtime") can copy N MiB between device memory and a
/// shared file mapping like the arena's (a memfd, MAP_SHARED): the driver's
/// pageable copy into fresh pages (MAP_POPULATE first, as Arena::alias) and
/// into pages that exist already; cuMemHostRegister of the mapping, then one
/// DMA; and a ring of pinned staging buffers, chunks copied by the GPU while
/// T host threads copy the previous chunks between staging and the file.
/// No CUDA SDK: libcuda.so.1 is dlopen'ed.
///   g++ -O2 -pthread bench/migration/staging-cost.cpp -o staging-cost -ldl
///   ./staging-cost 256
///
//===----------------------------------------------------------------------===//

#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <thread>
#include <vector>

#include "../common/cuda-driver-probe.h"

using Clock = std::chrono::steady_clock;
static double msSince(Clock::time_point T0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - T0).count();
}

static int Errors = 0;
static void must(CUresult R, const char *What) {
  if (R) {
    printf("staging-cost: %s failed (%d)\n", What, R);
    ++Errors;
  }
}

static size_t Bytes;
static int Fd;
static double GBs(double Ms) { return Bytes / (Ms * 1e6); }
static void report(const char *What, double Ms) {
  printf("staging-cost: %-58s %8.2f ms %6.1f GB/s\n", What, Ms, GBs(Ms));
}

/// A fresh window of the file: its pages punched out first (as after a move
/// to the GPU, Arena::discard), populated when \p Populate.
static char *window(bool Fresh, bool Populate) {
  if (Fresh)
    fallocate(Fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, Bytes);
  void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                 MAP_SHARED | (Populate ? MAP_POPULATE : 0), Fd, 0);
  return P == MAP_FAILED ? nullptr : static_cast<char *>(P);
}

/// Host copy of [Dst, Dst + N) from Src with T threads.
static void parallelCopy(char *Dst, const char *Src, size_t N, int T) {
  if (T <= 1) {
    memcpy(Dst, Src, N);
    return;
  }
  std::vector<std::thread> Ts;
  size_t Part = (N / T + 4095) & ~size_t(4095);
  for (int I = 0; I < T; ++I) {
    size_t B = I * Part;
    if (B >= N)
      break;
    size_t L = B + Part > N ? N - B : Part;
    Ts.emplace_back([=] { memcpy(Dst + B, Src + B, L); });
  }
  for (auto &Th : Ts)
    Th.join();
}

/// The ring: chunks of \p Chunk bytes through \p Slots pinned buffers.
static double ring(char *Host, CUdeviceptr D, bool ToHost, size_t Chunk,
                   int Slots, int T, std::vector<char *> &Pinned, void *S,
                   std::vector<void *> &Ev) {
  auto T0 = Clock::now();
  size_t NChunks = (Bytes + Chunk - 1) / Chunk;
  if (ToHost) {
    // GPU fills slot i % Slots; the host drains it after its event.
    for (size_t I = 0; I < NChunks + Slots; ++I) {
      if (I >= (size_t)Slots) {
        size_t J = I - Slots;
        if (J < NChunks) {
          cuEventSynchronize(Ev[J % Slots]);
          size_t L = std::min(Chunk, Bytes - J * Chunk);
          parallelCopy(Host + J * Chunk, Pinned[J % Slots], L, T);
        }
      }
      if (I < NChunks) {
        size_t L = std::min(Chunk, Bytes - I * Chunk);
        cuMemcpyDtoHAsync_v2(Pinned[I % Slots], D + I * Chunk, L, S);
        cuEventRecord(Ev[I % Slots], S);
      }
    }
  } else {
    for (size_t I = 0; I < NChunks; ++I) {
      if (I >= (size_t)Slots)
        cuEventSynchronize(Ev[I % Slots]); // slot free again
      size_t L = std::min(Chunk, Bytes - I * Chunk);
      parallelCopy(Pinned[I % Slots], Host + I * Chunk, L, T);
      cuMemcpyHtoDAsync_v2(D + I * Chunk, Pinned[I % Slots], L, S);
      cuEventRecord(Ev[I % Slots], S);
    }
    cuStreamSynchronize(S);
  }
  return msSince(T0);
}

int main(int Argc, char **Argv) {
  setvbuf(stdout, nullptr, _IONBF, 0);
  size_t Mb = Argc > 1 ? strtoull(Argv[1], nullptr, 10) : 256;
  Bytes = Mb << 20;
  void *H = openDriver("staging-cost");
  if (!H)
    return 2;
#define LOAD(Name) PROBE_LOAD(H, "staging-cost", Name)
  LOAD(cuInit) LOAD(cuDeviceGet) LOAD(cuDevicePrimaryCtxRetain)
  LOAD(cuCtxSetCurrent) LOAD(cuCtxSynchronize) LOAD(cuMemAlloc_v2)
  LOAD(cuMemsetD8_v2) LOAD(cuMemcpyHtoD_v2) LOAD(cuMemcpyDtoH_v2)
  LOAD(cuMemcpyHtoDAsync_v2) LOAD(cuMemcpyDtoHAsync_v2) LOAD(cuMemHostAlloc)
  LOAD(cuMemHostRegister_v2) LOAD(cuMemHostUnregister) LOAD(cuStreamCreate)
  LOAD(cuEventCreate) LOAD(cuEventRecord) LOAD(cuEventSynchronize)
  LOAD(cuStreamWaitEvent) LOAD(cuStreamSynchronize)
#undef LOAD
  int Dev = 0;
  void *Ctx = nullptr;
  must(cuInit(0), "cuInit");
  must(cuDeviceGet(&Dev, 0), "cuDeviceGet");
  must(cuDevicePrimaryCtxRetain(&Ctx, Dev), "cuDevicePrimaryCtxRetain");
  must(cuCtxSetCurrent(Ctx), "cuCtxSetCurrent");
  if (Errors)
    return 2;
  printf("staging-cost: %zu MiB, %u host threads\n", Mb,
         std::thread::hardware_concurrency());
  Fd = memfd_create("staging-cost", 0);
  if (Fd < 0 || ftruncate(Fd, Bytes)) {
    printf("staging-cost: memfd failed\n");
    return 2;
  }
  CUdeviceptr D = 0;
  must(cuMemAlloc_v2(&D, Bytes), "cuMemAlloc");
  must(cuMemsetD8_v2(D, 0x5a, Bytes), "memset");
  must(cuCtxSynchronize(), "sync");

  // GPU -> file.
  for (int Round = 0; Round < 2; ++Round) {
    auto T = Clock::now();
    char *W = window(true, true);
    double Pop = msSince(T);
    must(cuMemcpyDtoH_v2(W, D, Bytes), "DtoH");
    report("D2H pageable, fresh pages (populate + copy)", msSince(T));
    printf("staging-cost:   of which populate %.2f ms\n", Pop);
    T = Clock::now();
    must(cuMemcpyDtoH_v2(W, D, Bytes), "DtoH");
    report("D2H pageable, pages exist", msSince(T));
    munmap(W, Bytes);

    T = Clock::now();
    W = window(true, false);
    CUresult R = cuMemHostRegister_v2(W, Bytes, 0);
    double Reg = msSince(T);
    if (!R) {
      must(cuMemcpyDtoH_v2(W, D, Bytes), "DtoH registered");
      double Copy = msSince(T);
      must(cuMemHostUnregister(W), "unregister");
      report("D2H registered, fresh pages (register + copy + unregister)",
             msSince(T));
      printf("staging-cost:   register %.2f ms, register + copy %.2f ms\n",
             Reg, Copy);
    } else {
      printf("staging-cost: cuMemHostRegister of the file mapping: %d\n", R);
    }
    munmap(W, Bytes);
  }

  std::vector<char *> Pinned(8);
  for (auto &P : Pinned)
    must(cuMemHostAlloc(reinterpret_cast<void **>(&P), 16 << 20, 0),
         "cuMemHostAlloc");
  void *S = nullptr;
  must(cuStreamCreate(&S, 1), "stream");
  std::vector<void *> Ev(8);
  for (auto &E : Ev)
    must(cuEventCreate(&E, 2), "event"); // disable timing
  if (Errors)
    return 2;
  for (int T : {1, 4, 8, 16})
    for (size_t Chunk : {size_t(4) << 20, size_t(16) << 20})
      for (bool Pop : {false, true}) {
        char *W = window(true, Pop);
        auto T0 = Clock::now();
        double Ms = ring(W, D, true, Chunk, 4, T, Pinned, S, Ev);
        (void)T0;
        char Label[128];
        snprintf(Label, sizeof Label, "D2H ring %zu MiB x4, %d threads, %s",
                 Chunk >> 20, T, Pop ? "populated" : "fresh, faulted");
        report(Label, Ms);
        if (W[Bytes - 1] != 0x5a || W[0] != 0x5a)
          printf("staging-cost: WRONG BYTES\n");
        munmap(W, Bytes);
      }

  // file -> GPU (pages exist: the CPU device wrote them).
  char *W = window(false, true);
  memset(W, 0x33, Bytes);
  auto T = Clock::now();
  must(cuMemcpyHtoD_v2(D, W, Bytes), "HtoD");
  report("H2D pageable", msSince(T));
  T = Clock::now();
  if (!cuMemHostRegister_v2(W, Bytes, 0)) {
    double Reg = msSince(T);
    must(cuMemcpyHtoD_v2(D, W, Bytes), "HtoD registered");
    must(cuMemHostUnregister(W), "unregister");
    report("H2D registered (register + copy + unregister)", msSince(T));
    printf("staging-cost:   register %.2f ms\n", Reg);
  }
  for (int Th : {1, 4, 8, 16})
    for (size_t Chunk : {size_t(4) << 20, size_t(16) << 20}) {
      double Ms = ring(W, D, false, Chunk, 4, Th, Pinned, S, Ev);
      char Label[128];
      snprintf(Label, sizeof Label, "H2D ring %zu MiB x4, %d threads",
               Chunk >> 20, Th);
      report(Label, Ms);
    }
  std::vector<char> Check(4096);
  must(cuMemcpyDtoH_v2(Check.data(), D + Bytes - 4096, 4096), "check");
  if (Check[4095] != 0x33)
    printf("staging-cost: WRONG BYTES on the GPU\n");
  return Errors ? 1 : 0;
}
