// Coalescing of eager launches (issue 23, item 3): while a long kernel keeps
// the device busy, small launches of four kernels with different code and
// arguments (a barrier and static shared memory in one, dynamic shared
// memory in another) on four streams are held and fused into one launch;
// an event recorded after them on one stream orders a second phase on
// another (stream wait); a same-stream pair is not fused (the first is
// launched before the second is held); a memcpy on a stream with a held
// launch flushes it first; an event recorded after a held launch and
// waited on by another stream orders that stream's kernel after it.
// Results are checked on the host and printed: identical with and without
// HETGPU_COALESCE_EAGER=1; the log shows the fusion; HETGPU_COALESCE=0
// turns it off. (A long window, so that the test does not depend on the
// machine's speed; the flush points end it.) Also run on PoCL
// (HETGPU_TEST_DEVICES=opencl).
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t > %t.off
// RUN: env HETGPU_DEVICE=cpu HETGPU_COALESCE_MIN=2 HETGPU_COALESCE_EAGER=1 HETGPU_COALESCE_WINDOW_US=500000 HETGPU_LOG=info %t > %t.on 2> %t.log
// RUN: diff %t.off %t.on
// RUN: FileCheck %s < %t.on
// RUN: FileCheck --check-prefix=LOG %s < %t.log
// RUN: env HETGPU_DEVICE=cpu HETGPU_COALESCE_EAGER=1 HETGPU_COALESCE=0 HETGPU_LOG=info %t 2>&1 | FileCheck --check-prefix=OFF %s
// CHECK: phase 1 ok
// CHECK-NEXT: phase 2 ok
// CHECK-NEXT: PASS
// (On PoCL the launch right after @slow may find the device idle and run
// at once.)
// LOG: eager coalescing: fused {{4 launches \(addK\(int\*, int\), |3 launches \(}}scale(float*, float), rev(int*, int const*), dyn(int*, int)) into one launch of {{5|4}} blocks of 64x1x1 threads
// LOG: eager coalescing: fused 2 launches (addK(int*, int), scale(float*, float)) into one launch of 2 blocks of 64x1x1 threads
// OFF-NOT: eager coalescing: fused
// OFF: PASS
#include "Inputs/check.h"
#include <vector>

constexpr int N = 64;

__global__ void slow(int *o, int n) {
  int x = 0;
  for (int i = 0; i < n; ++i)
    x = x * 3 + i;
  o[0] = x;
}
__global__ void addK(int *a, int k) { a[threadIdx.x] += k + threadIdx.x; }
__global__ void scale(float *f, float s) { f[threadIdx.x] *= s; }
__global__ void rev(int *o, const int *in) {
  __shared__ int t[N];
  t[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  o[threadIdx.x] = t[N - 1 - threadIdx.x] * 2;
}
__global__ void dyn(int *o, int k) {
  extern __shared__ int d[];
  d[threadIdx.x] = k * blockIdx.x + threadIdx.x;
  __syncthreads();
  o[blockIdx.x * N + threadIdx.x] = d[(threadIdx.x + 1) % N];
}

int main() {
  int *a, *r, *r2, *in, *d, *busy;
  float *f;
  CHECK(cudaMalloc(&a, N * sizeof(int)));
  CHECK(cudaMalloc(&r, N * sizeof(int)));
  CHECK(cudaMalloc(&r2, N * sizeof(int)));
  CHECK(cudaMalloc(&in, N * sizeof(int)));
  CHECK(cudaMalloc(&d, 2 * N * sizeof(int)));
  CHECK(cudaMalloc(&busy, sizeof(int)));
  CHECK(cudaMalloc(&f, N * sizeof(float)));
  std::vector<int> hi(N), ha(N, 5), h(2 * N);
  std::vector<float> hf(N, 1.5f);
  for (int i = 0; i < N; ++i)
    hi[i] = i * 7;
  CHECK(cudaMemcpy(in, hi.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(a, ha.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(f, hf.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t sl, s[4];
  CHECK(cudaStreamCreateWithFlags(&sl, cudaStreamNonBlocking));
  for (auto &x : s)
    CHECK(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking));
  cudaEvent_t e1, e2;
  CHECK(cudaEventCreateWithFlags(&e1, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&e2, cudaEventDisableTiming));

  // Phase 1: four kernels on four streams while @slow runs.
  slow<<<1, 1, 0, sl>>>(busy, 20000000);
  addK<<<1, N, 0, s[0]>>>(a, 10);
  scale<<<1, N, 0, s[1]>>>(f, 2.0f);
  rev<<<1, N, 0, s[2]>>>(r2, in);
  dyn<<<2, N, N * sizeof(int), s[3]>>>(d, 100);
  CHECK(cudaGetLastError());
  // Flushes the window: s[0]'s launch is held.
  CHECK(cudaEventRecord(e1, s[0]));
  // s[1] waits for addK, then its kernel reads a.
  CHECK(cudaStreamWaitEvent(s[1], e1, 0));
  rev<<<1, N, 0, s[1]>>>(r, a);
  CHECK(cudaStreamSynchronize(s[1]));
  CHECK(cudaMemcpyAsync(h.data(), r, N * sizeof(int), cudaMemcpyDeviceToHost,
                        s[1]));
  CHECK(cudaStreamSynchronize(s[1]));
  bool ok = true;
  for (int i = 0; i < N; ++i)
    ok &= h[i] == 2 * (5 + 10 + (N - 1 - i));
  CHECK(cudaDeviceSynchronize());
  std::vector<float> gf(N);
  CHECK(cudaMemcpy(gf.data(), f, N * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i)
    ok &= gf[i] == 3.0f;
  CHECK(cudaMemcpy(h.data(), d, 2 * N * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < N; ++i)
      ok &= h[b * N + i] == 100 * b + (i + 1) % N;
  CHECK(cudaMemcpy(h.data(), r2, N * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i)
    ok &= h[i] == 2 * 7 * (N - 1 - i);
  std::printf("phase 1 %s\n", ok ? "ok" : "FAILED");

  // Phase 2: a same-stream pair on s[0] (addK twice: the first launches
  // when the second arrives), scale on s[1] joins the second; a memcpy on
  // s[1] flushes; a held launch on s[2] followed by an event s[3] waits on.
  slow<<<1, 1, 0, sl>>>(busy, 20000000);
  addK<<<1, N, 0, s[0]>>>(a, 1);
  addK<<<1, N, 0, s[0]>>>(a, 2);
  scale<<<1, N, 0, s[1]>>>(f, 0.5f);
  std::vector<float> pf(N);
  CHECK(cudaMemcpyAsync(pf.data(), f, N * sizeof(float),
                        cudaMemcpyDeviceToHost, s[1]));
  CHECK(cudaStreamSynchronize(s[1]));
  slow<<<1, 1, 0, sl>>>(busy, 20000000);
  rev<<<1, N, 0, s[2]>>>(r, in);
  CHECK(cudaEventRecord(e2, s[2]));
  CHECK(cudaStreamWaitEvent(s[3], e2, 0));
  addK<<<1, N, 0, s[3]>>>(r, 1);
  CHECK(cudaDeviceSynchronize());
  ok = true;
  for (int i = 0; i < N; ++i)
    ok &= pf[i] == 1.5f;
  CHECK(cudaMemcpy(h.data(), a, N * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i)
    ok &= h[i] == 5 + 10 + 1 + 2 + 3 * i;
  CHECK(cudaMemcpy(h.data(), r, N * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i)
    ok &= h[i] == 2 * 7 * (N - 1 - i) + 1 + i;
  std::printf("phase 2 %s\n", ok ? "ok" : "FAILED");
  if (ok)
    std::printf("PASS\n");
  return ok ? 0 : 1;
}
