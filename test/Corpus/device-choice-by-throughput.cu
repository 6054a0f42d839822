// Programs pick "the fastest GPU" as SM count x clock (helper_cuda.h's
// gpuGetMaxGflopsDeviceId): the simulated many-core must not outrank the
// host CPU, or such programs crawl under emulation.
// REQUIRES: qemu-riscv64
// RUN: rm -rf %t && mkdir -p %t
// RUN: hetgpu-cc %s -o %t/choice
// RUN: env HETGPU_DEVICE=all %t/choice | FileCheck %s
// CHECK: simulator slower: yes
#include <cstdio>
#include <cstring>
int main() {
  int n = 0;
  cudaGetDeviceCount(&n);
  double cpu = 0, sim = 0;
  for (int i = 0; i < n; ++i) {
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, i);
    double score = double(p.multiProcessorCount) * p.clockRate;
    if (std::strstr(p.name, "tt-sim"))
      sim = score;
    else if (std::strstr(p.name, "Host CPU"))
      cpu = score;
  }
  std::printf("simulator slower: %s\n", (sim == 0 || sim < cpu) ? "yes" : "no");
  return 0;
}
