// Translations start when the runtime has found its devices, before the
// first launch (Core/Prefetch.h): the program initialises the runtime, then
// waits, launching nothing, until the JIT cache holds a translation of its
// module; the launch then uses that translation. HETGPU_PREFETCH=1 turns
// it on (off by default, docs/Runtime.md); without it nothing is translated
// before the launch.
// REQUIRES: built-target-host
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: rm -rf %t.cache && env HETGPU_DEVICE=cpu HETGPU_CACHE_DIR=%t.cache \
// RUN:   HETGPU_PREFETCH=1 HETGPU_LOG=debug %t %t.cache 20 2>&1 | FileCheck %s
// RUN: rm -rf %t.cache && env HETGPU_DEVICE=cpu HETGPU_CACHE_DIR=%t.cache \
// RUN:   HETGPU_LOG=debug %t %t.cache 1 2>&1 | FileCheck %s --check-prefix=OFF
// CHECK: prefetching translations for
// CHECK: cached before the first launch: yes
// CHECK: taking the prefetched translation of module 0
// CHECK: sum 4950 PASS
// OFF-NOT: prefetching
// OFF: cached before the first launch: no
// OFF: translated module
// OFF: sum 4950 PASS
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <string>
#include <thread>

__global__ void sum(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(out, in[i]);
}

static bool cacheHasEntry(const char *Dir) {
  DIR *D = opendir(Dir);
  if (!D)
    return false;
  bool Found = false;
  while (dirent *E = readdir(D))
    Found |= std::string(E->d_name).find(".hjc") != std::string::npos;
  closedir(D);
  return Found;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  cudaFree(0); // finds the devices: the prefetch starts
  auto Deadline = std::chrono::steady_clock::now() +
                  std::chrono::seconds(atoi(argv[2]));
  bool Cached = false;
  while (!(Cached = cacheHasEntry(argv[1])) &&
         std::chrono::steady_clock::now() < Deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  printf("cached before the first launch: %s\n", Cached ? "yes" : "no");
  fflush(stdout);
  int H[100], *In, *Out, S = 0;
  for (int I = 0; I < 100; ++I)
    H[I] = I;
  cudaMalloc(&In, sizeof(H));
  cudaMalloc(&Out, sizeof(int));
  cudaMemcpy(In, H, sizeof(H), cudaMemcpyHostToDevice);
  cudaMemcpy(Out, &S, sizeof(int), cudaMemcpyHostToDevice);
  sum<<<4, 32>>>(In, Out, 100);
  cudaMemcpy(&S, Out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("sum %d %s\n", S, S == 4950 ? "PASS" : "FAIL");
  return S == 4950 ? 0 : 1;
}
