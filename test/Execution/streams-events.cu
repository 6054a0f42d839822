// Streams, events (ordering, timing, cross-stream waits), host callbacks,
// async copies from pinned memory and cudaMemGetInfo on the GPU.
// REQUIRES: gpu-nvidia
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=nvidia %t | FileCheck %s
// CHECK: device: NVIDIA
// CHECK: streams ok
// CHECK: events ok
// CHECK: callback ok
// CHECK: meminfo ok
// CHECK: PASS
// CHECK-NOT: FAIL
#include "Inputs/gpu.h"
#include <atomic>

__global__ void addOne(int *p, int n, int spin) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = p[i];
    for (int k = 0; k < spin; ++k)
      v = (v * 3 + 1) % 1000003;
    p[i] = v - v + p[i] + 1;
  }
}

static std::atomic<int> calls{0};
static void CUDART_CB onHost(void *arg) { calls += *(int *)arg; }

int main() {
  printDevice();
  const int N = 1 << 20;
  int *pinned, *d1, *d2;
  CK(cudaMallocHost(&pinned, N * sizeof(int)));
  CK(cudaMalloc(&d1, N * sizeof(int)));
  CK(cudaMalloc(&d2, N * sizeof(int)));
  for (int i = 0; i < N; ++i)
    pinned[i] = i;
  cudaStream_t s1, s2;
  CK(cudaStreamCreate(&s1));
  CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t e0, e1, done1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  CK(cudaEventCreateWithFlags(&done1, cudaEventDisableTiming));

  CK(cudaEventRecord(e0, s1));
  CK(cudaMemcpyAsync(d1, pinned, N * sizeof(int), cudaMemcpyHostToDevice, s1));
  addOne<<<N / 256, 256, 0, s1>>>(d1, N, 200);
  CK(cudaEventRecord(done1, s1));
  CK(cudaEventRecord(e1, s1));
  // s2 copies d1 only after s1's kernel.
  CK(cudaStreamWaitEvent(s2, done1, 0));
  CK(cudaMemcpyAsync(d2, d1, N * sizeof(int), cudaMemcpyDeviceToDevice, s2));
  addOne<<<N / 256, 256, 0, s2>>>(d2, N, 0);
  CK(cudaMemcpyAsync(pinned, d2, N * sizeof(int), cudaMemcpyDeviceToHost, s2));
  CK(cudaStreamSynchronize(s2));
  for (int i = 0; i < N; ++i)
    EXPECT(pinned[i] == i + 2, "pinned[%d] = %d", i, pinned[i]);
  EXPECT(cudaStreamQuery(s2) == cudaSuccess, "stream not idle");
  std::printf("streams ok\n");

  CK(cudaEventSynchronize(e1));
  float ms = -1;
  CK(cudaEventElapsedTime(&ms, e0, e1));
  EXPECT(ms > 0 && ms < 10000, "elapsed %f ms", ms);
  EXPECT(cudaEventQuery(e1) == cudaSuccess, "event not complete");
  std::printf("events ok\n");

  int one = 1, two = 2;
  addOne<<<N / 256, 256, 0, s1>>>(d1, N, 1000);
  CK(cudaLaunchHostFunc(s1, onHost, &one));
  CK(cudaLaunchHostFunc(s1, onHost, &two));
  CK(cudaStreamSynchronize(s1));
  EXPECT(calls == 3, "callbacks %d", calls.load());
  std::printf("callback ok\n");

  size_t freeB = 0, totalB = 0;
  CK(cudaMemGetInfo(&freeB, &totalB));
  EXPECT(totalB > (1ull << 30) && freeB <= totalB, "free %zu total %zu", freeB,
         totalB);
  std::printf("meminfo ok\n");
  CK(cudaStreamDestroy(s1));
  CK(cudaStreamDestroy(s2));
  CK(cudaFreeHost(pinned));
  CK(cudaFree(d1));
  CK(cudaFree(d2));
  std::printf("PASS\n");
  return 0;
}
