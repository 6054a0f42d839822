//===- hetgpu-info.cpp - List hetGPU devices and backends -----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Prints the devices libhetgpu-rt found (in CUDA device order, the default
/// marked), every backend with its discovery status (why it found nothing),
/// the driver or library version each backend found (where it knows it),
/// and the JIT cache and translator locations; `--format=json` prints the
/// same as one JSON object. Exit status 0 when at least one device was
/// found, 1 otherwise.
///
//===----------------------------------------------------------------------===//

#include "cuda_runtime_api.h"
#include "hetgpu/hetgpu.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace {

/// \p S as a JSON string literal.
std::string quoted(const char *S) {
  std::string Out = "\"";
  for (const char *C = S ? S : ""; *C; ++C) {
    unsigned char U = static_cast<unsigned char>(*C);
    if (U == '"' || U == '\\') {
      Out += '\\';
      Out += *C;
    } else if (U < 0x20) {
      char Buf[8];
      snprintf(Buf, sizeof Buf, "\\u%04x", U);
      Out += Buf;
    } else {
      Out += *C;
    }
  }
  return Out + "\"";
}

/// Everything the text form shows, as one JSON object.
int printJSON(int Count, int Current, cudaError_t E) {
  int Runtime = 0, Driver = 0;
  cudaRuntimeGetVersion(&Runtime);
  cudaDriverGetVersion(&Driver);
  printf("{\n  \"version\": %s,\n  \"cudaRuntimeVersion\": %d,\n"
         "  \"cudaDriverVersion\": %d,\n  \"error\": %s,\n"
         "  \"defaultDevice\": %d,\n  \"devices\": [",
         quoted(hetgpuGetVersion()).c_str(), Runtime, Driver,
         E ? quoted(cudaGetErrorString(E)).c_str() : "null", Current);
  for (int D = 0; D < Count; ++D) {
    cudaDeviceProp P;
    if (cudaGetDeviceProperties(&P, D) != cudaSuccess)
      continue;
    const char *Backend = "?", *Target = "?", *Arch = "";
    hetgpuGetDeviceInfo(D, &Backend, &Target, &Arch);
    printf("%s\n    {\"index\": %d, \"name\": %s, \"backend\": %s, "
           "\"target\": %s, \"arch\": %s, \"computeCapability\": \"%d.%d\", "
           "\"totalGlobalMem\": %zu, \"multiProcessorCount\": %d, "
           "\"maxThreadsPerBlock\": %d, \"sharedMemPerBlock\": %zu, "
           "\"integrated\": %s}",
           D ? "," : "", D, quoted(P.name).c_str(), quoted(Backend).c_str(),
           quoted(Target).c_str(), quoted(Arch).c_str(), P.major, P.minor,
           P.totalGlobalMem, P.multiProcessorCount, P.maxThreadsPerBlock,
           P.sharedMemPerBlock, P.integrated ? "true" : "false");
  }
  printf("\n  ],\n  \"backends\": [");
  bool First = true;
  for (int B = 0; B < hetgpuGetBackendCount(); ++B) {
    const char *Name, *Status;
    int Built, Probed, N;
    if (hetgpuGetBackendInfo(B, &Name, &Built, &Probed, &N, &Status))
      continue;
    const char *Version = hetgpuGetBackendVersion(B);
    printf("%s\n    {\"name\": %s, \"built\": %s, \"probed\": %s, "
           "\"devices\": %d, \"status\": %s, \"version\": %s}",
           First ? "" : ",", quoted(Name).c_str(), Built ? "true" : "false",
           Probed ? "true" : "false", N, N ? "null" : quoted(Status).c_str(),
           Version ? quoted(Version).c_str() : "null");
    First = false;
  }
  printf("\n  ],\n  \"jitCache\": %s,\n  \"translator\": %s,\n"
         "  \"translatorLoaded\": %s\n}\n",
         quoted(hetgpuGetCacheDir()).c_str(),
         quoted(hetgpuGetTranslatorPath()).c_str(),
         hetgpuTranslatorLoaded() ? "true" : "false");
  return Count > 0 ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  bool Brief = false, JSON = false;
  for (int I = 1; I < argc; ++I) {
    if (!strcmp(argv[I], "--help") || !strcmp(argv[I], "-h")) {
      printf("usage: hetgpu-info [--brief | --format=text|json]\n  Lists "
             "hetGPU devices (HETGPU_DEVICE selects them), backends and the "
             "JIT cache.\n  --brief: one line naming the default device.\n"
             "  --format=json: the same as one JSON object.\n");
      return 0;
    }
    if (!strcmp(argv[I], "--brief")) {
      Brief = true;
      continue;
    }
    if (!strncmp(argv[I], "--format=", 9) &&
        (!strcmp(argv[I] + 9, "json") || !strcmp(argv[I] + 9, "text"))) {
      JSON = !strcmp(argv[I] + 9, "json");
      continue;
    }
    fprintf(stderr,
            "hetgpu-info: unknown argument '%s' (--brief, "
            "--format=text|json)\n",
            argv[I]);
    return 2;
  }
  int Count = 0;
  cudaError_t E = cudaGetDeviceCount(&Count);
  int Current = -1;
  if (E == cudaSuccess)
    cudaGetDevice(&Current);
  if (JSON)
    return printJSON(Count, Current, E);
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
    printf("  device %d%s: %s\n", D, D == Current ? " [default]" : "", P.name);
    printf("    backend %s, target %s%s%s, compute capability %d.%d\n", Backend,
           Target, Arch && *Arch ? ":" : "", Arch ? Arch : "", P.major,
           P.minor);
    printf("    memory %.1f GiB, %d multiprocessors, max %d threads/block, "
           "%zu bytes shared/block%s\n",
           P.totalGlobalMem / (1024.0 * 1024.0 * 1024.0), P.multiProcessorCount,
           P.maxThreadsPerBlock, P.sharedMemPerBlock,
           P.integrated ? ", integrated (host memory)" : "");
  }
  printf("backends:\n");
  for (int B = 0; B < hetgpuGetBackendCount(); ++B) {
    const char *Name, *Status;
    int Built, Probed, N;
    if (hetgpuGetBackendInfo(B, &Name, &Built, &Probed, &N, &Status))
      continue;
    const char *Version = hetgpuGetBackendVersion(B);
    if (N)
      printf("  %-10s %d device%s%s%s\n", Name, N, N == 1 ? "" : "s",
             Version ? ", " : "", Version ? Version : "");
    else
      printf("  %-10s not available: %s\n", Name, Status);
  }
  printf("jit cache: %s\n", hetgpuGetCacheDir());
  printf("translator: %s%s\n", hetgpuGetTranslatorPath(),
         hetgpuTranslatorLoaded() ? " (loaded)" : "");
  return Count > 0 ? 0 : 1;
}
