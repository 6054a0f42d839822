// bench/migration/downtime.cu - downtime of one migration against bytes moved.
// SPDX-License-Identifier: Apache-2.0
//
// Allocates MB megabytes of device memory (argv[1]), measures the
// device->host and host->device copy bandwidth, then runs a barrier loop kernel that the
// HETGPU_MIGRATE trigger suspends; the runtime's verbose line reports bytes
// moved and checkpoint/restore time (run.sh joins the two).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void spin(float *d, int iters) {
  __shared__ float s[256];
  int t = threadIdx.x, g = blockIdx.x * 256 + t;
  float v = d[g];
  for (int i = 0; i < iters; ++i) {
    s[t] = v;
    __syncthreads();
    v = 0.5f * (v + s[(t + 1) & 255]);
    __syncthreads();
  }
  d[g] = v;
}

int main(int argc, char **argv) {
  size_t MB = argc > 1 ? atoi(argv[1]) : 16;
  size_t Bytes = MB << 20;
  char *big;
  float *d;
  cudaMalloc(&big, Bytes);
  cudaMemset(big, 1, Bytes);
  cudaMalloc(&d, 64 * 256 * sizeof(float));
  cudaMemset(d, 0, 64 * 256 * sizeof(float));
  std::vector<char> h(Bytes);
  auto t0 = std::chrono::steady_clock::now();
  cudaMemcpy(h.data(), big, Bytes, cudaMemcpyDeviceToHost);
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - t0).count();
  printf("COPY %zu bytes %.3f ms %.1f MB/s\n", Bytes, ms, Bytes / 1048576.0 / (ms / 1000));
  t0 = std::chrono::steady_clock::now();
  cudaMemcpy(big, h.data(), Bytes, cudaMemcpyHostToDevice);
  ms = std::chrono::duration<double, std::milli>(
           std::chrono::steady_clock::now() - t0).count();
  printf("COPYH2D %zu bytes %.3f ms %.1f MB/s\n", Bytes, ms,
         Bytes / 1048576.0 / (ms / 1000));
  spin<<<64, 256>>>(d, 2000);
  printf("RESULT %s\n", cudaDeviceSynchronize() == cudaSuccess ? "ok" : "FAIL");
  return 0;
}
