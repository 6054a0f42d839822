// bench/migration/apicost.cu - per-call cost of the runtime API when the
// process is migratable (HETGPU_MIGRATE=on) but never migrates: a loop of
// cudaMalloc + launch + cudaFree. bench/migration/run.sh runs it with and
// without HETGPU_MIGRATE and prints the ratio.
//
//   apicost [iterations] [elements]   defaults 2000 and 1M ints (4 MiB)
//
// Prints "APICOST <ms total> <us per iteration> <ok|FAIL>".
// SPDX-License-Identifier: Apache-2.0
#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void fill(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v + i;
}

int main(int argc, char **argv) {
  int iters = argc > 1 ? atoi(argv[1]) : 2000;
  const int n = argc > 2 ? atoi(argv[2]) : 1 << 20;
  bool ok = true;
  // One warm-up iteration: the translation is not part of the cost.
  auto t0 = std::chrono::steady_clock::now();
  for (int it = -1; it < iters; ++it) {
    if (it == 0)
      t0 = std::chrono::steady_clock::now();
    int *d = nullptr;
    if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) {
      printf("cudaMalloc failed\n");
      return 1;
    }
    fill<<<(n + 255) / 256, 256>>>(d, n, it);
    int h[2];
    if (it % 256 == 0 || it == iters - 1) {
      cudaMemcpy(h, d + n - 2, sizeof(h), cudaMemcpyDeviceToHost);
      ok &= h[0] == it + n - 2 && h[1] == it + n - 1;
    }
    cudaFree(d);
  }
  cudaDeviceSynchronize();
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - t0)
                  .count();
  ok &= cudaGetLastError() == cudaSuccess;
  printf("APICOST %.1f %.2f %s\n", ms, iters ? 1000.0 * ms / iters : 0.0,
         ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
