//===- hetgpu-info.cpp - List hetGPU devices and backends -----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Prints the devices libhetgpu-rt found (in CUDA device order, the default
/// marked), every backend with its discovery status (why it found nothing),
/// and the JIT cache and translator locations. Exit status 0 when at least
/// one device was found, 1 otherwise.
///
//===----------------------------------------------------------------------===//

#include "cuda_runtime_api.h"
#include "hetgpu/hetgpu.h"

#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
  bool Brief = false;
  for (int I = 1; I < argc; ++I) {
    if (!strcmp(argv[I], "--help") || !strcmp(argv[I], "-h")) {
      printf("usage: hetgpu-info [--brief]\n  Lists hetGPU devices "
             "(HETGPU_DEVICE selects the default), backends and the JIT "
             "cache.\n  --brief: one line naming the default device.\n");
      return 0;
    }
    if (!strcmp(argv[I], "--brief")) {
      Brief = true;
      continue;
    }
    fprintf(stderr, "hetgpu-info: unknown argument '%s'\n", argv[I]);
    return 2;
  }
  int Count = 0;
  cudaError_t E = cudaGetDeviceCount(&Count);
  int Current = -1;
  if (E == cudaSuccess)
    cudaGetDevice(&Current);
  if (Brief) {
    cudaDeviceProp P;
    const char *Backend = "?";
    if (E || cudaGetDeviceProperties(&P, Current) ||
        hetgpuGetDeviceInfo(Current, &Backend, nullptr, nullptr)) {
      printf("hetgpu: no device (%s)\n", cudaGetErrorString(E));
      return 1;
    }
    printf("hetgpu: device %d of %d: %s (%s)\n", Current, Count, P.name,
           Backend);
    return 0;
  }
  printf("%s\n", hetgpuGetVersion());
  printf("devices: %d", Count);
  if (E)
    printf(" (%s)", cudaGetErrorString(E));
  printf("\n");
  for (int D = 0; D < Count; ++D) {
    cudaDeviceProp P;
    if (cudaGetDeviceProperties(&P, D) != cudaSuccess)
      continue;
    const char *Backend = "?", *Target = "?", *Arch = "?";
    hetgpuGetDeviceInfo(D, &Backend, &Target, &Arch);
    printf("  device %d%s: %s\n", D, D == Current ? " [default]" : "",
           P.name);
    printf("    backend %s, target %s%s%s, compute capability %d.%d\n",
           Backend, Target, Arch && *Arch ? ":" : "", Arch ? Arch : "",
           P.major, P.minor);
    printf("    memory %.1f GiB, %d multiprocessors, max %d threads/block, "
           "%zu bytes shared/block%s\n",
           P.totalGlobalMem / (1024.0 * 1024.0 * 1024.0),
           P.multiProcessorCount, P.maxThreadsPerBlock, P.sharedMemPerBlock,
           P.integrated ? ", integrated (host memory)" : "");
  }
  printf("backends:\n");
  for (int B = 0; B < hetgpuGetBackendCount(); ++B) {
    const char *Name, *Status;
    int Built, Probed, N;
    if (hetgpuGetBackendInfo(B, &Name, &Built, &Probed, &N, &Status))
      continue;
    if (N)
      printf("  %-10s %d device%s\n", Name, N, N == 1 ? "" : "s");
    else
      printf("  %-10s not available: %s\n", Name, Status);
  }
  printf("jit cache: %s\n", hetgpuGetCacheDir());
  printf("translator: %s%s\n", hetgpuGetTranslatorPath(),
         hetgpuTranslatorLoaded() ? " (loaded)" : "");
  return Count > 0 ? 0 : 1;
}
