// Lanes of a warp exchange values through a non-volatile __shared__ tile
// with no barrier in between (an 8x8 transform written for NVIDIA's
// lock-step, as DCT codes are): each lane writes its element, then reads
// the other lanes' elements of its row, then overwrites its element with
// the result while the other lanes may still read the old one. Devices
// that run a warp's lanes one after another (CPU, tt-sim, OpenCL without
// 32-wide sub-groups) regroup the lanes at those accesses.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// RUN: %if pocl %{ env HETGPU_DEVICE=opencl %t | FileCheck %s %}
// CHECK: rows: ok
#include <cstdio>

constexpr int W = 8;

__global__ void rowTransform(const float *in, float *out) {
  __shared__ float tile[4][W * W];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  float *t = tile[warp];
  for (int half = 0; half < 2; ++half) {
    int e = half * 32 + lane; // element of the 8x8 block
    int row = e / W, col = e % W;
    t[e] = in[blockIdx.x * 256 + warp * 64 + e];
    float acc = 0.f;
    for (int k = 0; k < W; ++k)
      acc += t[row * W + k] * float((k + col) % 3 + 1);
    // Overwrites what the lanes of the other columns may still read.
    t[e] = acc;
    acc += t[row * W + (col + 1) % W];
    out[blockIdx.x * 256 + warp * 64 + e] = acc;
  }
}

int main() {
  const int Blocks = 3, N = Blocks * 256;
  float h[N], got[N], *din, *dout;
  for (int i = 0; i < N; ++i)
    h[i] = float((i * 37) % 11) - 5.f;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof h);
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  rowTransform<<<Blocks, 128>>>(din, dout);
  cudaError_t err = cudaDeviceSynchronize();
  cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::printf("launch: %s\n", cudaGetErrorString(err));
    return 1;
  }
  // Lock-step semantics: every lane's first read sees every lane's input,
  // the second read sees every lane's sum.
  for (int b = 0; b < N / 64; ++b) {
    const float *x = h + b * 64;
    float sum[64];
    for (int e = 0; e < 64; ++e) {
      int row = e / W, col = e % W;
      float acc = 0.f;
      for (int k = 0; k < W; ++k)
        acc += x[row * W + k] * float((k + col) % 3 + 1);
      sum[e] = acc;
    }
    for (int e = 0; e < 64; ++e) {
      int row = e / W, col = e % W;
      float want = sum[e] + sum[row * W + (col + 1) % W];
      if (got[b * 64 + e] != want) {
        std::printf("block of 64 #%d element %d: %g, want %g\n", b, e,
                    got[b * 64 + e], want);
        return 1;
      }
    }
  }
  std::printf("rows: ok\n");
  return 0;
}
