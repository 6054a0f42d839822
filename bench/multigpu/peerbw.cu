// bench/multigpu/peerbw.cu - copy bandwidth between two GPUs and the host.
// SPDX-License-Identifier: Apache-2.0
//
// peerbw [MB] (default 256): cudaMemcpyPeer GPU 0 -> GPU 1 and back, without
// and with peer access enabled, against pinned host <-> GPU 0 copies. Each
// figure is the best of 5 timed copies (after one warm-up), in GB/s
// (10^9 bytes/s). Prints "BW <what> <GB/s>" lines; "FAIL ..." on an error
// or when the bytes did not arrive.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <hetgpu/hetgpu.h>

#include "check.h"

template <typename F> static double best(F f) {
  f();
  double b = 1e30;
  for (int r = 0; r < 5; ++r) {
    auto t = std::chrono::steady_clock::now();
    f();
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - t)
                    .count();
    b = ms < b ? ms : b;
  }
  return b;
}

int main(int argc, char **argv) {
  size_t MB = argc > 1 ? strtoul(argv[1], nullptr, 10) : 256;
  size_t Bytes = MB << 20;
  int count = 0, g[2] = {-1, -1}, n = 0;
  CK(cudaGetDeviceCount(&count));
  for (int d = 0; d < count && n < 2; ++d) {
    const char *b = "?";
    hetgpuGetDeviceInfo(d, &b, nullptr, nullptr);
    if (!strcmp(b, "nvidia"))
      g[n++] = d;
  }
  if (n < 2) {
    printf("FAIL peerbw: needs two NVIDIA GPUs\n");
    return 1;
  }
  char *a, *b, *h;
  CK(cudaSetDevice(g[0]));
  CK(cudaMalloc(&a, Bytes));
  CK(cudaMemset(a, 0x5a, Bytes));
  CK(cudaMallocHost(&h, Bytes));
  CK(cudaSetDevice(g[1]));
  CK(cudaMalloc(&b, Bytes));
  CK(cudaMemset(b, 0, Bytes));
  auto gbs = [&](double ms) { return Bytes / (ms * 1e6); };
  auto report = [&](const char *what, double ms) {
    printf("BW %s %.1f GB/s (%zu MB in %.3f ms)\n", what, gbs(ms), MB, ms);
  };
  report("peer-0to1-noaccess", best([&] { CK(cudaMemcpyPeer(b, g[1], a, g[0], Bytes)); }));
  CK(cudaSetDevice(g[1]));
  CK(cudaMemcpy(h, b, Bytes, cudaMemcpyDeviceToHost));
  bool ok = h[0] == 0x5a && h[Bytes / 2] == 0x5a && h[Bytes - 1] == 0x5a;
  report("peer-1to0-noaccess", best([&] { CK(cudaMemcpyPeer(a, g[0], b, g[1], Bytes)); }));
  int can = 0;
  CK(cudaDeviceCanAccessPeer(&can, g[0], g[1]));
  if (can) {
    CK(cudaSetDevice(g[0]));
    CK(cudaDeviceEnablePeerAccess(g[1], 0));
    CK(cudaSetDevice(g[1]));
    CK(cudaDeviceEnablePeerAccess(g[0], 0));
    report("peer-0to1", best([&] { CK(cudaMemcpyPeer(b, g[1], a, g[0], Bytes)); }));
    report("peer-1to0", best([&] { CK(cudaMemcpyPeer(a, g[0], b, g[1], Bytes)); }));
    CK(cudaSetDevice(g[0]));
    report("memcpy-default-0to1", best([&] { CK(cudaMemcpy(b, a, Bytes, cudaMemcpyDefault)); }));
  }
  CK(cudaSetDevice(g[0]));
  report("h2d-pinned", best([&] { CK(cudaMemcpy(a, h, Bytes, cudaMemcpyHostToDevice)); }));
  report("d2h-pinned", best([&] { CK(cudaMemcpy(h, a, Bytes, cudaMemcpyDeviceToHost)); }));
  printf("%s peerbw: bytes arrived on gpu %d (peer access %s)\n",
         ok ? "PASS" : "FAIL", g[1], can ? "possible" : "not possible");
  return ok ? 0 : 1;
}
