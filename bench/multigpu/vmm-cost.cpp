//===- vmm-cost.cpp - What the driver's virtual-memory calls cost ---------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Times, on one GPU, each way of putting N MiB of device memory under a
/// virtual range that a GPU -> GPU or host -> GPU move can choose from
/// (issue 26, docs/MultiGPU.md "Where a move's time goes"): a handle per
/// granule created, mapped and granted access one by one (what
/// NVIDIADevice::transferArenaRange does today, twice: once at a staging
/// range, once at the unified address); the same with handles created
/// beforehand (a pool); one SetAccess over the whole range instead of one per
/// granule; one Unmap over many mappings; one handle for the whole range;
/// a big handle mapped granule by granule at offsets; then the copies that
/// bound a move (device to device, pinned host to device and back). No CUDA
/// SDK: libcuda.so.1 is dlopen'ed.
///   g++ -O2 bench/multigpu/vmm-cost.cpp -o vmm-cost -ldl && ./vmm-cost 256
///
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <vector>

#include "../common/cuda-driver-probe.h"

static double msSince(std::chrono::steady_clock::time_point T0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - T0)
      .count();
}

static int Errors = 0;
static void must(CUresult R, const char *What) {
  if (R) {
    printf("vmm-cost: %s failed (%d)\n", What, R);
    ++Errors;
  }
}

static void report(const char *What, double Ms, size_t Pages) {
  printf("vmm-cost: %-52s %9.3f ms  (%7.2f us/granule)\n", What, Ms,
         1000.0 * Ms / Pages);
}

int main(int Argc, char **Argv) {
  setvbuf(stdout, nullptr, _IONBF, 0);
  size_t Mb = Argc > 1 ? strtoull(Argv[1], nullptr, 10) : 256;
  void *H = openDriver("vmm-cost");
  if (!H)
    return 2;
#define LOAD(Name) PROBE_LOAD(H, "vmm-cost", Name)
  LOAD(cuInit)
  LOAD(cuDeviceGet) LOAD(cuDevicePrimaryCtxRetain) LOAD(cuCtxSetCurrent)
      LOAD(cuCtxSynchronize) LOAD(cuMemAddressReserve) LOAD(cuMemAddressFree)
          LOAD(cuMemCreate) LOAD(cuMemRelease) LOAD(cuMemMap) LOAD(cuMemUnmap)
              LOAD(cuMemSetAccess) LOAD(cuMemGetAllocationGranularity)
                  LOAD(cuMemcpyDtoD_v2) LOAD(cuMemcpyHtoD_v2)
                      LOAD(cuMemcpyDtoH_v2) LOAD(cuMemHostAlloc)
#undef LOAD
                          int Dev = 0;
  void *Ctx = nullptr;
  must(cuInit(0), "cuInit");
  must(cuDeviceGet(&Dev, 0), "cuDeviceGet");
  must(cuDevicePrimaryCtxRetain(&Ctx, Dev), "cuDevicePrimaryCtxRetain");
  must(cuCtxSetCurrent(Ctx), "cuCtxSetCurrent");
  if (Errors)
    return 2;
  Prop P{};
  P.Type = 1;          // CU_MEM_ALLOCATION_TYPE_PINNED
  P.Location = {1, 0}; // CU_MEM_LOCATION_TYPE_DEVICE, GPU 0
  size_t Gran = 0;
  must(cuMemGetAllocationGranularity(&Gran, &P, 0), "granularity");
  const size_t Bytes = Mb << 20, N = Bytes / Gran;
  printf("vmm-cost: %zu MiB = %zu granules of %zu KiB\n", Mb, N, Gran >> 10);
  Access Acc{{1, 0}, 3};
  CUdeviceptr A = 0, B = 0;
  must(cuMemAddressReserve(&A, Bytes, Gran, 0, 0), "reserve A");
  must(cuMemAddressReserve(&B, Bytes, Gran, 0, 0), "reserve B");
  std::vector<CUmemHandle> Ha(N), Hb(N);

  // 1. Today's path: one handle per granule, created, mapped and granted.
  auto T = std::chrono::steady_clock::now();
  for (size_t I = 0; I < N; ++I) {
    must(cuMemCreate(&Ha[I], Gran, &P, 0), "create");
    must(cuMemMap(A + I * Gran, Gran, 0, Ha[I], 0), "map");
    must(cuMemSetAccess(A + I * Gran, Gran, &Acc, 1), "access");
  }
  report("per granule: Create + Map + SetAccess", msSince(T), N);

  // 2. Handles created beforehand (a pool): the parts a pool leaves.
  T = std::chrono::steady_clock::now();
  for (size_t I = 0; I < N; ++I)
    must(cuMemCreate(&Hb[I], Gran, &P, 0), "create");
  report("per granule: Create only", msSince(T), N);
  T = std::chrono::steady_clock::now();
  for (size_t I = 0; I < N; ++I) {
    must(cuMemMap(B + I * Gran, Gran, 0, Hb[I], 0), "map");
    must(cuMemSetAccess(B + I * Gran, Gran, &Acc, 1), "access");
  }
  report("pooled handles: Map + SetAccess per granule", msSince(T), N);
  T = std::chrono::steady_clock::now();
  for (size_t I = 0; I < N; ++I)
    must(cuMemUnmap(B + I * Gran, Gran), "unmap");
  report("per granule: Unmap (handles kept)", msSince(T), N);
  T = std::chrono::steady_clock::now();
  for (size_t I = 0; I < N; ++I)
    must(cuMemMap(B + I * Gran, Gran, 0, Hb[I], 0), "map");
  double MapMs = msSince(T);
  T = std::chrono::steady_clock::now();
  must(cuMemSetAccess(B, Bytes, &Acc, 1), "access (whole range)");
  double AccMs = msSince(T);
  report("pooled handles: Map per granule", MapMs, N);
  report("one SetAccess over the whole range", AccMs, N);
  T = std::chrono::steady_clock::now();
  CUresult R = cuMemUnmap(B, Bytes);
  double UnMs = msSince(T);
  printf("vmm-cost: one Unmap over %zu mappings: %s\n", N,
         R ? "refused" : "accepted");
  if (!R)
    report("one Unmap over the whole range", UnMs, N);
  else
    for (size_t I = 0; I < N; ++I)
      cuMemUnmap(B + I * Gran, Gran);

  // 3. Copies that bound a move.
  for (size_t I = 0; I < N; ++I)
    must(cuMemMap(B + I * Gran, Gran, 0, Hb[I], 0), "map");
  must(cuMemSetAccess(B, Bytes, &Acc, 1), "access");
  must(cuMemcpyDtoD_v2(B, A, Bytes), "warm-up DtoD");
  must(cuCtxSynchronize(), "sync");
  T = std::chrono::steady_clock::now();
  must(cuMemcpyDtoD_v2(B, A, Bytes), "DtoD");
  must(cuCtxSynchronize(), "sync");
  double Ms = msSince(T);
  printf("vmm-cost: %-52s %9.3f ms  (%.1f GB/s)\n", "device to device copy", Ms,
         Bytes / Ms / 1e6);
  void *Host = nullptr;
  must(cuMemHostAlloc(&Host, Bytes, 0), "pinned host");
  if (Host) {
    must(cuMemcpyHtoD_v2(B, Host, Bytes), "warm-up HtoD");
    T = std::chrono::steady_clock::now();
    must(cuMemcpyHtoD_v2(B, Host, Bytes), "HtoD");
    Ms = msSince(T);
    printf("vmm-cost: %-52s %9.3f ms  (%.1f GB/s)\n", "pinned host to device",
           Ms, Bytes / Ms / 1e6);
    T = std::chrono::steady_clock::now();
    must(cuMemcpyDtoH_v2(Host, B, Bytes), "DtoH");
    Ms = msSince(T);
    printf("vmm-cost: %-52s %9.3f ms  (%.1f GB/s)\n", "device to pinned host",
           Ms, Bytes / Ms / 1e6);
  }

  // 4. Teardown today: Unmap + Release per granule.
  T = std::chrono::steady_clock::now();
  for (size_t I = 0; I < N; ++I) {
    must(cuMemUnmap(A + I * Gran, Gran), "unmap");
    must(cuMemRelease(Ha[I]), "release");
  }
  report("per granule: Unmap + Release", msSince(T), N);
  T = std::chrono::steady_clock::now();
  for (size_t I = 0; I < N; ++I)
    must(cuMemRelease(Hb[I]), "release while mapped");
  report("per granule: Release while mapped", msSince(T), N);
  T = std::chrono::steady_clock::now();
  for (size_t I = 0; I < N; ++I)
    must(cuMemUnmap(B + I * Gran, Gran), "unmap (released)");
  report("per granule: Unmap of a released handle", msSince(T), N);

  // 5. One handle for the whole range.
  CUmemHandle Big = 0;
  T = std::chrono::steady_clock::now();
  must(cuMemCreate(&Big, Bytes, &P, 0), "create big");
  double CreateMs = msSince(T);
  T = std::chrono::steady_clock::now();
  must(cuMemMap(A, Bytes, 0, Big, 0), "map big");
  must(cuMemSetAccess(A, Bytes, &Acc, 1), "access big");
  report("one handle: Create", CreateMs, N);
  report("one handle: Map + SetAccess", msSince(T), N);
  must(cuMemUnmap(A, Bytes), "unmap big");

  // 6. The big handle mapped granule by granule at offsets.
  T = std::chrono::steady_clock::now();
  R = cuMemMap(A + Gran, Gran, Gran, Big, 0);
  printf("vmm-cost: Map at a nonzero offset into a handle: %s (%d)\n",
         R ? "refused" : "accepted", R);
  if (!R) {
    cuMemUnmap(A + Gran, Gran);
    T = std::chrono::steady_clock::now();
    for (size_t I = 0; I < N; ++I)
      must(cuMemMap(A + I * Gran, Gran, I * Gran, Big, 0), "map offset");
    must(cuMemSetAccess(A, Bytes, &Acc, 1), "access");
    report("one handle: Map per granule at offsets + 1 SetAccess", msSince(T),
           N);
    for (size_t I = 0; I < N; ++I)
      must(cuMemUnmap(A + I * Gran, Gran), "unmap offset");
  }
  must(cuMemRelease(Big), "release big");
  cuMemAddressFree(A, Bytes);
  cuMemAddressFree(B, Bytes);
  printf("vmm-cost: %s (%d errors)\n", Errors ? "FAILED" : "done", Errors);
  return Errors ? 1 : 0;
}
