// The arena of a migratable process keeps freed pages resident for reuse
// (a cudaMalloc + launch + cudaFree loop must not fault every page in
// again) and drops them from the file in one batch once more than 256 MiB
// of freed pages piled up. Live blocks that share a page with freed ones
// keep their bytes through that batch (Core/UnifiedMemory.cpp).
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=on %t | FileCheck %s
// CHECK: freed 160 MiB: kept resident
// CHECK: freed 320 MiB: dropped
// CHECK: small blocks intact
// CHECK: loop ok
// SPDX-License-Identifier: Apache-2.0
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void fill(unsigned *p, unsigned n, unsigned seed) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = seed * 2654435761u + i;
}

// Shared-memory pages of the process that are resident (the arena is a
// memfd mapping), in MiB.
static long rssShmemMB() {
  FILE *F = fopen("/proc/self/status", "r");
  char Line[256];
  long KB = -1;
  while (F && fgets(Line, sizeof Line, F))
    if (!strncmp(Line, "RssShmem:", 9))
      KB = atol(Line + 9);
  if (F)
    fclose(F);
  return KB < 0 ? -1 : KB / 1024;
}

static bool check(const unsigned *d, unsigned n, unsigned seed) {
  unsigned *h = (unsigned *)malloc(n * sizeof(unsigned));
  cudaMemcpy(h, d, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (unsigned i = 0; i < n; ++i)
    ok &= h[i] == seed * 2654435761u + i;
  free(h);
  return ok;
}

static unsigned *allocFilled(unsigned n, unsigned seed) {
  unsigned *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(unsigned)) != cudaSuccess) {
    printf("cudaMalloc of %u words failed\n", n);
    exit(1);
  }
  fill<<<(n + 255) / 256, 256>>>(d, n, seed);
  return d;
}

int main() {
  // Free a block whose end is not page-aligned, then place small blocks in
  // its first pages: each shares a page with the still-free rest.
  unsigned *a = allocFilled(75 * 1024 + 64, 1);
  cudaDeviceSynchronize();
  cudaFree(a);
  unsigned *b = allocFilled(250, 2);  // 1000 bytes
  unsigned *c = allocFilled(64, 3);   // 256 bytes
  unsigned *e = allocFilled(2048, 4); // 8 KiB, over a page boundary
  // Two big blocks, written: freeing the first keeps its pages, freeing the
  // second crosses the limit and drops both.
  const unsigned big = 40u << 20; // words: 160 MiB
  unsigned *x = allocFilled(big, 5), *y = allocFilled(big, 6);
  cudaDeviceSynchronize();
  long full = rssShmemMB();
  cudaFree(x);
  long afterOne = rssShmemMB();
  printf("freed 160 MiB: %s (%ld -> %ld MiB)\n",
         afterOne >= full - 16 ? "kept resident" : "DROPPED", full, afterOne);
  cudaFree(y);
  long afterTwo = rssShmemMB();
  printf("freed 320 MiB: %s (%ld -> %ld MiB)\n",
         afterTwo < full - 300 ? "dropped" : "KEPT", full, afterTwo);
  printf("small blocks %s\n", check(b, 250, 2) && check(c, 64, 3) &&
                                      check(e, 2048, 4)
                                  ? "intact"
                                  : "DAMAGED");
  // The loop the arena was slow for: each round reuses the last one's pages.
  bool ok = true;
  for (unsigned it = 0; it < 64; ++it) {
    unsigned *d = allocFilled(1u << 20, 10 + it);
    if (it % 16 == 0)
      ok &= check(d, 1u << 20, 10 + it);
    cudaFree(d);
  }
  ok &= cudaGetLastError() == cudaSuccess;
  printf("loop %s\n", ok ? "ok" : "FAIL");
  return 0;
}
