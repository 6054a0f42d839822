// Memory, copies, launches and device queries of a CUDA program built by
// hetgpu-cc, run on the CPU device and checked against the host.
// REQUIRES: built-target-host
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s --allow-unused-prefixes \
// RUN:   --check-prefixes=CHECK,NAME-%test_device
// The device's name (HETGPU_TEST_DEVICES reruns this on another device):
// NAME-cpu: device: Host CPU
// NAME-tt-sim: device: tt-sim RISC-V many-core ({{[0-9]+}} rv64imafd cores, qemu-riscv64)
// CHECK: warpSize 32 maxThreadsPerBlock 1024
// CHECK: PASS
#include "Inputs/check.h"
#include <cstring>
#include <vector>

__global__ void scale(float *out, const float *in, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * in[i];
}

struct Params {
  int n;
  double bias;
  char tag;
};

__global__ void byValue(Params p, double *out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    out[0] = p.n;
    out[1] = p.bias;
    out[2] = p.tag;
  }
}

__global__ void index3d(int *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  int w = gridDim.x * blockDim.x, h = gridDim.y * blockDim.y;
  out[(z * h + y) * w + x] = x + 100 * y + 10000 * z;
}

int main() {
  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  EXPECT_TRUE(count == 1);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s\n", prop.name);
  std::printf("warpSize %d maxThreadsPerBlock %d\n", prop.warpSize,
              prop.maxThreadsPerBlock);
  int attr = 0;
  CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrMaxThreadsPerBlock, 0));
  EXPECT_TRUE(attr == prop.maxThreadsPerBlock);

  const int n = 10007;
  std::vector<float> h(n), r(n);
  for (int i = 0; i < n; ++i)
    h[i] = i * 0.25f;
  float *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(float)));
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CHECK(cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  scale<<<(n + 127) / 128, 128>>>(dout, din, 3.0f, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(r.data(), dout, n * sizeof(float), cudaMemcpyDefault));
  for (int i = 0; i < n; ++i)
    EXPECT_TRUE(r[i] == 3.0f * h[i]);

  // Device-to-device copy and memset.
  CHECK(cudaMemcpy(din, dout, n * sizeof(float), cudaMemcpyDeviceToDevice));
  CHECK(cudaMemset(dout, 0, n * sizeof(float)));
  CHECK(cudaMemcpy(r.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(r[0] == 0 && r[n - 1] == 0);
  CHECK(cudaMemcpy(r.data(), din, n * sizeof(float), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(r[n - 1] == 3.0f * h[n - 1]);

  // Structs by value.
  double *dd;
  CHECK(cudaMalloc(&dd, 3 * sizeof(double)));
  byValue<<<1, 32>>>(Params{42, 0.5, 'z'}, dd);
  double hd[3];
  CHECK(cudaMemcpy(hd, dd, sizeof(hd), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(hd[0] == 42 && hd[1] == 0.5 && hd[2] == 'z');

  // 3D grid and block indices.
  dim3 grid(3, 2, 2), block(4, 3, 2);
  int total = 3 * 4 * 2 * 3 * 2 * 2;
  int *di;
  CHECK(cudaMallocManaged(&di, total * sizeof(int)));
  index3d<<<grid, block>>>(di);
  CHECK(cudaDeviceSynchronize());
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 6; ++y)
      for (int x = 0; x < 12; ++x)
        EXPECT_TRUE(di[(z * 6 + y) * 12 + x] == x + 100 * y + 10000 * z);

  // Pinned host memory and pointer attributes.
  float *pinned;
  CHECK(cudaMallocHost(&pinned, 64));
  cudaPointerAttributes pa;
  CHECK(cudaPointerGetAttributes(&pa, pinned));
  EXPECT_TRUE(pa.type == cudaMemoryTypeHost);
  CHECK(cudaPointerGetAttributes(&pa, dout + 5));
  EXPECT_TRUE(pa.type == cudaMemoryTypeDevice && pa.device == 0);
  CHECK(cudaPointerGetAttributes(&pa, di));
  EXPECT_TRUE(pa.type == cudaMemoryTypeManaged);
  size_t freeB = 0, totalB = 0;
  CHECK(cudaMemGetInfo(&freeB, &totalB));
  EXPECT_TRUE(totalB > 0 && freeB <= totalB);

  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFree(di));
  CHECK(cudaFree(dd));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  CHECK(cudaDeviceReset());
  std::printf("PASS\n");
  return 0;
}
