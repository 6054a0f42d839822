//===- vmm-probe.cpp - Can the CUDA driver map memory at arena addresses? -===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A stand-alone check (no CUDA SDK: libcuda.so.1 is dlopen'ed) of what the
/// NVIDIA backend's unified address space relies on (docs/Migration.md):
/// after cuInit, a sparse memfd is mapped at RVMC_DRAM_BASE (the hetGPU
/// arena), a range is punched out of the host mapping, and the driver's
/// virtual-memory API is asked to put device memory at exactly that address
/// (cuMemAddressReserve with a fixed address, cuMemCreate, cuMemMap,
/// cuMemSetAccess); then the range goes back to the host. Prints one line
/// per step and "vmm-probe: OK" when every step held.
///   g++ -O2 bench/migration/vmm-probe.cpp -o vmm-probe -ldl && ./vmm-probe
///
//===----------------------------------------------------------------------===//

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

#include "../common/cuda-driver-probe.h"

static int Failures = 0;
static void step(const char *What, CUresult R) {
  printf("vmm-probe: %-48s %s (%d)\n", What, R ? "FAILED" : "ok", R);
  Failures += R != 0;
}

int main(int argc, char **argv) {
  setvbuf(stdout, nullptr, _IONBF, 0);
  void *H = openDriver("vmm-probe");
  if (!H)
    return 2;
#define LOAD(Name) PROBE_LOAD(H, "vmm-probe", Name)
  LOAD(cuInit) LOAD(cuDeviceGet) LOAD(cuDevicePrimaryCtxRetain)
  LOAD(cuCtxSetCurrent) LOAD(cuMemAlloc_v2) LOAD(cuMemAddressReserve)
  LOAD(cuMemAddressFree) LOAD(cuMemCreate) LOAD(cuMemRelease) LOAD(cuMemMap)
  LOAD(cuMemUnmap) LOAD(cuMemSetAccess) LOAD(cuMemGetAllocationGranularity)
  LOAD(cuMemcpyHtoD_v2) LOAD(cuMemcpyDtoH_v2)
  int Dev = 0;
  void *Ctx = nullptr;
  step("cuInit", cuInit(0));
  step("cuDeviceGet", cuDeviceGet(&Dev, 0));
  step("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(&Ctx, Dev));
  step("cuCtxSetCurrent", cuCtxSetCurrent(Ctx));
  CUdeviceptr Plain = 0;
  step("cuMemAlloc (where the driver puts memory)", cuMemAlloc_v2(&Plain, 1 << 20));
  printf("vmm-probe: cuMemAlloc returned 0x%llx\n", Plain);

  const uint64_t Base = 0x1000000000ull, Size = 64ull << 30;
  int Fd = memfd_create("vmm-probe-arena", 0);
  if (Fd < 0 || ftruncate(Fd, Size)) {
    printf("vmm-probe: memfd failed\n");
    return 2;
  }
  void *A = mmap(reinterpret_cast<void *>(Base), Size, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_FIXED_NOREPLACE, Fd, 0);
  printf("vmm-probe: arena at fixed 0x%llx: %s\n", (unsigned long long)Base,
         A == reinterpret_cast<void *>(Base) ? "ok" : strerror(errno));
  if (A != reinterpret_cast<void *>(Base)) {
    A = mmap(nullptr, Size, PROT_READ | PROT_WRITE, MAP_SHARED, Fd, 0);
    printf("vmm-probe: arena placed by the kernel at %p\n", A);
    if (A == MAP_FAILED)
      return 2;
  }
  char *Arena = static_cast<char *>(A);

  Prop P{};
  P.Type = 1; // CU_MEM_ALLOCATION_TYPE_PINNED
  P.Location.Type = 1; // CU_MEM_LOCATION_TYPE_DEVICE
  P.Location.Id = Dev;
  size_t Gran = 0;
  step("cuMemGetAllocationGranularity", cuMemGetAllocationGranularity(&Gran, &P, 0));
  printf("vmm-probe: granularity %zu\n", Gran);
  if (!Gran)
    Gran = 2 << 20;

  // "vmm-probe SIZE_MB@OFFSET_MB ...": only reserve/free at those places.
  for (int I = 1; I < argc; ++I) {
    unsigned long long Mb = 0, Off = 0;
    if (sscanf(argv[I], "%llu@%llu", &Mb, &Off) != 2)
      continue;
    char *At = Arena + (Off << 20);
    munmap(At, Mb << 20);
    CUdeviceptr Got = 0;
    CUresult R = cuMemAddressReserve(&Got, Mb << 20, Gran,
                                     reinterpret_cast<CUdeviceptr>(At), 0);
    printf("vmm-probe: reserve %llu MiB at +%llu MiB: %d %s\n", Mb, Off, R,
           Got == reinterpret_cast<CUdeviceptr>(At) ? "same" : "DIFFERENT");
    if (getenv("KEEP"))
      continue;
    cuMemAddressFree(Got, Mb << 20);
    mmap(At, Mb << 20, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, Fd,
         At - Arena);
  }
  if (argc > 1)
    return 0;
  for (uint64_t Bytes : {uint64_t(Gran), uint64_t(64) << 20}) {
    char *At = Arena + 16 * Gran;
    std::vector<uint64_t> Pattern(Bytes / 8);
    for (size_t I = 0; I < Pattern.size(); ++I) {
      Pattern[I] = reinterpret_cast<uint64_t>(At) + I * 8; // pointers to itself
      reinterpret_cast<uint64_t *>(At)[I] = Pattern[I];
    }
    printf("vmm-probe: --- %llu bytes at %p\n", (unsigned long long)Bytes, At);
    step("munmap of the host range", munmap(At, Bytes));
    CUdeviceptr Got = 0;
    CUresult R = cuMemAddressReserve(&Got, Bytes, Gran, reinterpret_cast<CUdeviceptr>(At), 0);
    step("cuMemAddressReserve(fixed address)", R);
    printf("vmm-probe: asked 0x%llx got 0x%llx: %s\n",
           (unsigned long long)reinterpret_cast<uintptr_t>(At), Got,
           Got == reinterpret_cast<CUdeviceptr>(At) ? "same address" : "DIFFERENT");
    if (Got != reinterpret_cast<CUdeviceptr>(At))
      ++Failures;
    CUmemHandle Hd = 0;
    step("cuMemCreate", cuMemCreate(&Hd, Bytes, &P, 0));
    step("cuMemMap", cuMemMap(Got, Bytes, 0, Hd, 0));
    Access Acc{{1, Dev}, 3};
    step("cuMemSetAccess", cuMemSetAccess(Got, Bytes, &Acc, 1));
    step("cuMemcpyHtoD", cuMemcpyHtoD_v2(Got, Pattern.data(), Bytes));
    std::vector<uint64_t> Back(Pattern.size());
    step("cuMemcpyDtoH", cuMemcpyDtoH_v2(Back.data(), Got, Bytes));
    bool Same = Back == Pattern;
    printf("vmm-probe: device copy round trip: %s\n", Same ? "ok" : "MISMATCH");
    Failures += !Same;
    step("cuMemUnmap", cuMemUnmap(Got, Bytes));
    step("cuMemRelease", cuMemRelease(Hd));
    step("cuMemAddressFree", cuMemAddressFree(Got, Bytes));
    void *Back2 = mmap(At, Bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                       Fd, At - Arena);
    step("remap of the host range", Back2 == At ? 0 : -1);
    reinterpret_cast<uint64_t *>(At)[0] = 42;
    printf("vmm-probe: host write after remap: %s\n",
           reinterpret_cast<uint64_t *>(At)[0] == 42 ? "ok" : "FAILED");
  }
  printf("vmm-probe: %s (%d failures)\n", Failures ? "FAILED" : "OK", Failures);
  return Failures ? 1 : 0;
}
