// Launch geometry, by-value structs, __device__/__constant__ variables and
// symbol copies, dynamic shared memory (also above 48 KiB), launch bounds
// and 64-bit/double arithmetic on an NVIDIA GPU.
// REQUIRES: gpu-nvidia
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=nvidia %t | FileCheck %s
// CHECK: device: NVIDIA
// CHECK: geometry ok
// CHECK: byval ok
// CHECK: symbols ok
// CHECK: dynamic shared ok
// CHECK: big dynamic shared ok
// CHECK: launch bounds ok
// CHECK: PASS
// CHECK-NOT: FAIL
#include "Inputs/gpu.h"
#include <vector>

__global__ void geometry(int *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  int w = gridDim.x * blockDim.x, h = gridDim.y * blockDim.y;
  out[(z * h + y) * w + x] = x + 1000 * y + 1000000 * z;
}

struct Params {
  int n;
  double scale;
  char tag;
  float v[3];
};

__global__ void byValue(Params p, double *out) {
  out[threadIdx.x] = p.n * p.scale + p.tag + p.v[threadIdx.x % 3];
}

__device__ int counter;
__device__ double table[4];
__constant__ float coeffs[8];

__global__ void useSymbols(float *out) {
  int i = threadIdx.x;
  atomicAdd(&counter, 1);
  out[i] = coeffs[i % 8] * float(table[i % 4]);
}

__global__ void dynShared(const int *in, int *out, int n) {
  extern __shared__ int buf[];
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    buf[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = buf[n - 1 - i];
}

__global__ void __launch_bounds__(128, 4) bounded(long long *out) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  out[i] = i * i * 3 + (i << 40);
}

int main() {
  printDevice();
  {
    dim3 g(3, 2, 2), b(8, 4, 2);
    int W = 24, H = 8, D = 4;
    int *d;
    CK(cudaMalloc(&d, W * H * D * sizeof(int)));
    geometry<<<g, b>>>(d);
    CK(cudaGetLastError());
    std::vector<int> h(W * H * D);
    CK(cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (int z = 0; z < D; ++z)
      for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x)
          EXPECT(h[(z * H + y) * W + x] == x + 1000 * y + 1000000 * z,
                 "at %d,%d,%d", x, y, z);
    CK(cudaFree(d));
    std::printf("geometry ok\n");
  }
  {
    Params p{7, 0.5, 'A', {1.f, 2.f, 3.f}};
    double *d;
    CK(cudaMalloc(&d, 6 * sizeof(double)));
    byValue<<<1, 6>>>(p, d);
    double h[6];
    CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 6; ++i)
      EXPECT(h[i] == 3.5 + 'A' + p.v[i % 3], "byval[%d] = %f", i, h[i]);
    CK(cudaFree(d));
    std::printf("byval ok\n");
  }
  {
    float c[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    double t[4] = {0.5, 1.5, 2.5, 3.5};
    int zero = 0;
    CK(cudaMemcpyToSymbol(coeffs, c, sizeof(c)));
    CK(cudaMemcpyToSymbol(table, t, sizeof(t)));
    CK(cudaMemcpyToSymbol(counter, &zero, sizeof(int)));
    float *d;
    CK(cudaMalloc(&d, 64 * sizeof(float)));
    useSymbols<<<2, 64>>>(d);
    float h[64];
    int cnt = 0;
    CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    CK(cudaMemcpyFromSymbol(&cnt, counter, sizeof(int)));
    EXPECT(cnt == 128, "counter %d", cnt);
    for (int i = 0; i < 64; ++i)
      EXPECT(h[i] == c[i % 8] * float(t[i % 4]), "sym[%d] = %f", i, h[i]);
    CK(cudaFree(d));
    std::printf("symbols ok\n");
  }
  for (int n : {1000, 40000}) {
    std::vector<int> h(n), r(n);
    for (int i = 0; i < n; ++i)
      h[i] = i * 3 + 1;
    int *din, *dout;
    CK(cudaMalloc(&din, n * sizeof(int)));
    CK(cudaMalloc(&dout, n * sizeof(int)));
    CK(cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    size_t bytes = n * sizeof(int);
    if (bytes > 48 * 1024)
      CK(cudaFuncSetAttribute(dynShared, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              (int)bytes));
    dynShared<<<1, 256, bytes>>>(din, dout, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(r.data(), dout, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
      EXPECT(r[i] == h[n - 1 - i], "n=%d r[%d] = %d", n, i, r[i]);
    CK(cudaFree(din));
    CK(cudaFree(dout));
    std::printf(n > 12288 ? "big dynamic shared ok\n" : "dynamic shared ok\n");
  }
  {
    long long *d;
    CK(cudaMalloc(&d, 512 * sizeof(long long)));
    bounded<<<4, 128>>>(d);
    CK(cudaGetLastError());
    long long h[512];
    CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    for (long long i = 0; i < 512; ++i)
      EXPECT(h[i] == i * i * 3 + (i << 40), "bounded[%lld]", i);
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, bounded));
    EXPECT(fa.maxThreadsPerBlock <= 128 && fa.maxThreadsPerBlock > 0,
           "maxThreadsPerBlock %d", fa.maxThreadsPerBlock);
    CK(cudaFree(d));
    std::printf("launch bounds ok\n");
  }
  CK(cudaDeviceSynchronize());
  std::printf("PASS\n");
  return 0;
}
