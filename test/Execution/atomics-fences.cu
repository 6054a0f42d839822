// Atomics on global and shared memory (int, unsigned, 64-bit, float,
// double, inc/dec wrap, CAS, min/max, bitwise, exchange) under contention,
// and a fence-based producer/consumer across blocks.
// REQUIRES: gpu-nvidia
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=nvidia %t | FileCheck %s
// CHECK: device: NVIDIA
// CHECK: atomics ok
// CHECK: fences ok
// CHECK: PASS
// CHECK-NOT: FAIL
#include "Inputs/gpu.h"

struct Acc {
  int add;
  unsigned inc, dec;
  unsigned long long add64;
  float fadd;
  double dadd;
  int mn, mx;
  unsigned orr, andd, xorr;
  int casSum;
  int sharedTotal;
};

__global__ void hammer(Acc *a) {
  __shared__ int s;
  if (threadIdx.x == 0)
    s = 0;
  __syncthreads();
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&a->add, 2);
  atomicInc(&a->inc, 999);
  atomicDec(&a->dec, 1000000);
  atomicAdd(&a->add64, 1ull << 33);
  atomicAdd(&a->fadd, 0.5f);
  atomicAdd(&a->dadd, 0.25);
  atomicMin(&a->mn, 1000 - g);
  atomicMax(&a->mx, g * 3);
  atomicOr(&a->orr, 1u << (g % 32));
  atomicAnd(&a->andd, ~(1u << (g % 16)));
  atomicXor(&a->xorr, 1u << (g % 8));
  int old = a->casSum, assumed;
  do {
    assumed = old;
    old = atomicCAS(&a->casSum, assumed, assumed + 3);
  } while (old != assumed);
  atomicAdd(&s, 1);
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(&a->sharedTotal, s);
}

__device__ volatile int flag;
__device__ int payload;

__global__ void producerConsumer(int *result) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    payload = 42;
    __threadfence();
    flag = 1;
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (flag == 0) {
    }
    __threadfence();
    *result = payload;
  }
}

int main() {
  printDevice();
  const int B = 64, T = 256, N = B * T;
  Acc h{};
  h.dec = 900000;
  h.mn = 1 << 30;
  h.mx = -1;
  h.andd = 0xffffffffu;
  Acc *d;
  CK(cudaMalloc(&d, sizeof(Acc)));
  CK(cudaMemcpy(d, &h, sizeof(Acc), cudaMemcpyHostToDevice));
  hammer<<<B, T>>>(d);
  CK(cudaGetLastError());
  CK(cudaMemcpy(&h, d, sizeof(Acc), cudaMemcpyDeviceToHost));
  EXPECT(h.add == 2 * N, "add %d", h.add);
  EXPECT(h.inc == unsigned(N % 1000), "inc %u", h.inc);
  EXPECT(h.dec == 900000u - N, "dec %u", h.dec);
  EXPECT(h.add64 == (unsigned long long)N << 33, "add64 %llu", h.add64);
  EXPECT(h.fadd == 0.5f * N, "fadd %f", h.fadd);
  EXPECT(h.dadd == 0.25 * N, "dadd %f", h.dadd);
  EXPECT(h.mn == 1000 - (N - 1), "min %d", h.mn);
  EXPECT(h.mx == 3 * (N - 1), "max %d", h.mx);
  EXPECT(h.orr == 0xffffffffu, "or %x", h.orr);
  EXPECT(h.andd == 0xffff0000u, "and %x", h.andd);
  EXPECT(h.xorr == 0, "xor %x", h.xorr);
  EXPECT(h.casSum == 3 * N, "cas %d", h.casSum);
  EXPECT(h.sharedTotal == N, "shared %d", h.sharedTotal);
  std::printf("atomics ok\n");

  int zero = 0, *res;
  CK(cudaMemcpyToSymbol(flag, &zero, sizeof(int)));
  CK(cudaMalloc(&res, sizeof(int)));
  producerConsumer<<<2, 32>>>(res);
  CK(cudaGetLastError());
  int r = 0;
  CK(cudaMemcpy(&r, res, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(r == 42, "payload %d", r);
  std::printf("fences ok\n");
  CK(cudaFree(d));
  CK(cudaFree(res));
  std::printf("PASS\n");
  return 0;
}
