// bench/linking/main.cu - host side of the linking benchmark: runs the
// pipeline kernel REPS times, checks the result against the host, prints
// the fastest kernel time (cudaEvent) in the bench/nvidia format.
// Usage: main BLOCKS TILES_PER_BLOCK REPS
// SPDX-License-Identifier: Apache-2.0
#include "pipeline.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int blocks = argc > 1 ? atoi(argv[1]) : 64;
  int tiles = argc > 2 ? atoi(argv[2]) : 8;
  int reps = argc > 3 ? atoi(argv[3]) : 5;
  size_t n = (size_t)blocks * tiles * TILE;
  std::vector<float> h(n);
  for (size_t i = 0; i < n; ++i)
    h[i] = (float)(i % 61) / 61.0f - 0.25f;
  float *in, *out;
  if (cudaMalloc(&in, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&out, blocks * sizeof(float)) != cudaSuccess) {
    fprintf(stderr, "linking bench: cudaMalloc failed\n");
    return 1;
  }
  cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  float best = 1e30f;
  for (int r = 0; r <= reps; ++r) { // r == 0: warm-up (translation)
    cudaEventRecord(a);
    pipeline<<<blocks, THREADS>>>(in, out, tiles);
    cudaEventRecord(b);
    if (cudaEventSynchronize(b) != cudaSuccess ||
        cudaGetLastError() != cudaSuccess) {
      fprintf(stderr, "linking bench: launch failed\n");
      return 1;
    }
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    if (r > 0 && ms < best)
      best = ms;
  }
  std::vector<float> got(blocks);
  cudaMemcpy(got.data(), out, blocks * sizeof(float), cudaMemcpyDeviceToHost);
  for (int k = 0; k < blocks; ++k) {
    double want = 0;
    for (size_t i = (size_t)k * tiles * TILE; i < (size_t)(k + 1) * tiles * TILE;
         ++i)
      want += (double)h[i] * h[i] + 0.5 * h[i];
    if (std::fabs(got[k] - want) > 1e-3 * std::fabs(want) + 1e-2) {
      fprintf(stderr, "linking bench: block %d: %g, want %g\n", k, got[k],
              want);
      return 1;
    }
  }
  printf("KERNEL pipeline %.4f ms\n", best);
  return 0;
}
