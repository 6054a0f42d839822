// Streams (asynchronous to the host, legacy default-stream ordering,
// non-blocking streams), events (timing, queries, cross-stream waits) and
// host callbacks.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: async: launch returned before the kernel finished
// CHECK-NEXT: query busy: cudaErrorNotReady
// CHECK-NEXT: query idle: cudaSuccess
// CHECK-NEXT: legacy: NULL stream waited, value 1
// CHECK-NEXT: blocking stream waited for NULL stream: 2
// CHECK-NEXT: cross-stream event wait: 3
// CHECK-NEXT: elapsed ok
// CHECK-NEXT: callbacks: 10 20
// CHECK-NEXT: PASS
#include "Inputs/check.h"
#include <chrono>
#include <thread>
#include <vector>

__global__ void spin(volatile int *flag, int value, long long ns) {
  long long start = clock64();
  while (clock64() - start < ns) {
  }
  *flag = value;
}

__global__ void copyInt(int *dst, const volatile int *src) { *dst = *src; }

static std::vector<int> order;
static void CUDART_CB cb(cudaStream_t, cudaError_t status, void *data) {
  order.push_back(status == cudaSuccess ? *(int *)data : -1);
}
static void hostFn(void *data) { order.push_back(*(int *)data); }

int main() {
  int *flag;
  CHECK(cudaMallocManaged(&flag, sizeof(int)));
  *flag = 0;
  cudaStream_t s, nb;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));

  // Asynchronous: the host sees the old value right after the launch.
  spin<<<1, 1, 0, nb>>>(flag, 7, 600000000LL); // ~600 ms of clock64
  if (*flag == 0)
    std::printf("async: launch returned before the kernel finished\n");
  std::printf("query busy: %s\n", cudaGetErrorName(cudaStreamQuery(nb)));
  CHECK(cudaStreamSynchronize(nb));
  std::printf("query idle: %s\n", cudaGetErrorName(cudaStreamQuery(nb)));
  EXPECT_TRUE(*flag == 7);

  // Legacy default stream: waits for the blocking stream s.
  *flag = 0;
  spin<<<1, 1, 0, s>>>(flag, 1, 100000000LL);
  int seen = -1;
  CHECK(cudaMemcpy(&seen, flag, sizeof(int), cudaMemcpyDefault));
  std::printf("legacy: NULL stream %s, value %d\n",
              seen == 1 ? "waited" : "did not wait", seen);

  // A blocking stream waits for earlier NULL-stream work.
  int *dst;
  CHECK(cudaMallocManaged(&dst, sizeof(int)));
  *flag = 0;
  spin<<<1, 1>>>(flag, 2, 100000000LL);
  copyInt<<<1, 1, 0, s>>>(dst, flag);
  CHECK(cudaStreamSynchronize(s));
  std::printf("blocking stream waited for NULL stream: %d\n", *dst);

  // Events: nb waits for an event recorded on s.
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaDeviceSynchronize());
  *flag = 0;
  CHECK(cudaEventRecord(start, s));
  spin<<<1, 1, 0, s>>>(flag, 3, 100000000LL);
  CHECK(cudaEventRecord(stop, s));
  CHECK(cudaStreamWaitEvent(nb, stop, 0));
  copyInt<<<1, 1, 0, nb>>>(dst, flag);
  CHECK(cudaStreamSynchronize(nb));
  std::printf("cross-stream event wait: %d\n", *dst);
  CHECK(cudaEventSynchronize(stop));
  EXPECT_TRUE(cudaEventQuery(stop) == cudaSuccess);
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  if (ms >= 50.0f && ms < 10000.0f)
    std::printf("elapsed ok\n");
  else
    std::printf("elapsed %f\n", ms);

  // Host callbacks run in stream order, after the work before them.
  int a = 10, b = 20;
  spin<<<1, 1, 0, s>>>(flag, 4, 50000000LL);
  CHECK(cudaLaunchHostFunc(s, hostFn, &a));
  CHECK(cudaStreamAddCallback(s, cb, &b, 0));
  CHECK(cudaStreamSynchronize(s));
  std::printf("callbacks: %d %d\n", order.at(0), order.at(1));

  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaStreamDestroy(nb));
  CHECK(cudaFree(flag));
  CHECK(cudaFree(dst));
  std::printf("PASS\n");
  return 0;
}
