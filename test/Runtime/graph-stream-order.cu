// A graph launch is ordered on its stream like eager work: a slow kernel
// queued before it finishes first, work queued after it sees its results,
// an event recorded after it completes after it; launches of one executable
// graph on two streams run one after the other. The host does not wait for
// a graph launch. (The two-stream case re-records an event that a queued
// wait refers to; the last check does that with eager calls: a wait holds
// for the record made before it only, as in CUDA.)
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: launch returned before the work finished: 1
// CHECK-NEXT: ordered: 101 eager-after ok, 40 rounds
// CHECK-NEXT: two streams: 64 increments
// CHECK-NEXT: destroyed stream: 52
// CHECK-NEXT: re-recorded event: 7
// CHECK-NEXT: PASS
#include "Inputs/check.h"
#include <vector>

__global__ void slowFill(int *p, int v, int n, long long spin) {
  long long t0 = clock64();
  while (clock64() - t0 < spin) {
  }
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    p[i] = v;
}

__global__ void addOne(int *p, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    p[i] += 1;
}

__global__ void twice(int *dst, const int *src, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    dst[i] = 2 * src[i];
}

int main() {
  const int n = 256;
  int *a, *b;
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  cudaStream_t s, s2;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));

  // The graph: a += 1 (captured).
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  addOne<<<1, 64, 0, s>>>(a, n);
  CHECK(cudaStreamEndCapture(s, &g));
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));

  cudaEvent_t done;
  CHECK(cudaEventCreate(&done));
  std::vector<int> h(n);
  bool sawAsync = false;
  const int rounds = 40;
  for (int r = 0; r < rounds; ++r) {
    // Eager before (slow), graph, eager after, event.
    slowFill<<<1, 64, 0, s>>>(a, 100 + r, n, r == 0 ? 200000000LL : 1000LL);
    CHECK(cudaGraphLaunch(x, s));
    if (r == 0)
      sawAsync = cudaEventQuery(done) == cudaSuccess &&
                 cudaStreamQuery(s) == cudaErrorNotReady;
    twice<<<1, 64, 0, s>>>(b, a, n);
    CHECK(cudaEventRecord(done, s));
    CHECK(cudaEventSynchronize(done));
    CHECK(cudaMemcpy(h.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
      if (h[i] != 2 * (100 + r + 1)) {
        std::printf("FAIL round %d: b[%d] = %d, want %d\n", r, i, h[i],
                    2 * (100 + r + 1));
        return 1;
      }
  }
  CHECK(cudaMemcpy(h.data(), a, sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("launch returned before the work finished: %d\n", int(sawAsync));
  std::printf("ordered: %d eager-after ok, %d rounds\n", h[0] - rounds + 1,
              rounds);

  // The same executable graph on two streams: the launches are serialised,
  // so no increment is lost.
  CHECK(cudaMemset(a, 0, n * sizeof(int)));
  for (int i = 0; i < 32; ++i) {
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaGraphLaunch(x, s2));
  }
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaStreamSynchronize(s2));
  CHECK(cudaMemcpy(h.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    EXPECT_TRUE(h[i] == 64);
  std::printf("two streams: %d increments\n", h[0]);

  // The stream of the last launch destroyed right after it (the runtime
  // marks a launch's end only when something waits for it): the next
  // launch, on s2, still runs after it and after the slow kernel before it.
  cudaStream_t s3;
  CHECK(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking));
  slowFill<<<1, 64, 0, s3>>>(a, 50, n, 20000000LL);
  CHECK(cudaGraphLaunch(x, s3));
  CHECK(cudaStreamDestroy(s3));
  CHECK(cudaGraphLaunch(x, s2));
  CHECK(cudaStreamSynchronize(s2));
  CHECK(cudaMemcpy(h.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    EXPECT_TRUE(h[i] == 52);
  std::printf("destroyed stream: %d\n", h[0]);

  // Eager: s2 waits for ev as recorded on s (after a slow kernel), then
  // records ev itself; the wait must not wait for that later record.
  cudaEvent_t ev;
  CHECK(cudaEventCreate(&ev));
  slowFill<<<1, 64, 0, s>>>(a, 6, n, 20000000LL);
  CHECK(cudaEventRecord(ev, s));
  CHECK(cudaStreamWaitEvent(s2, ev, 0));
  addOne<<<1, 64, 0, s2>>>(a, n);
  CHECK(cudaEventRecord(ev, s2));
  CHECK(cudaStreamSynchronize(s2));
  CHECK(cudaMemcpy(h.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    EXPECT_TRUE(h[i] == 7);
  std::printf("re-recorded event: %d\n", h[0]);
  CHECK(cudaEventDestroy(ev));

  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(g));
  std::printf("PASS\n");
  return 0;
}
