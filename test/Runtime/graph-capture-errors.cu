// Illegal calls during stream capture return CUDA's codes and invalidate the
// capture; cudaStreamEndCapture then returns cudaErrorStreamCaptureInvalidated
// and no graph, and the streams work eagerly again afterwards.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: sync: cudaErrorStreamCaptureUnsupported, status 2, end cudaErrorStreamCaptureInvalidated
// CHECK-NEXT: query: cudaErrorStreamCaptureUnsupported, end cudaErrorStreamCaptureInvalidated
// CHECK-NEXT: cudaMemcpy: cudaErrorStreamCaptureUnsupported, end cudaErrorStreamCaptureInvalidated
// CHECK-NEXT: cudaMalloc: cudaErrorStreamCaptureUnsupported, end cudaErrorStreamCaptureInvalidated
// CHECK-NEXT: cudaMemcpyToSymbol: cudaErrorStreamCaptureUnsupported, end cudaErrorStreamCaptureInvalidated
// CHECK-NEXT: legacy launch: cudaErrorStreamCaptureImplicit, end cudaErrorStreamCaptureInvalidated
// CHECK-NEXT: unjoined: cudaErrorStreamCaptureUnjoined, s1 capturing 0
// CHECK-NEXT: unmatched: cudaErrorStreamCaptureUnmatched, end cudaErrorStreamCaptureInvalidated
// CHECK-NEXT: isolation: cudaErrorStreamCaptureIsolation
// CHECK-NEXT: captured event query: cudaErrorCapturedEvent
// CHECK-NEXT: callback: cudaErrorStreamCaptureUnsupported
// CHECK-NEXT: other thread, global: cudaErrorStreamCaptureUnsupported
// CHECK-NEXT: other thread, thread-local: cudaSuccess
// CHECK-NEXT: states: cudaErrorStreamCaptureUnsupported cudaErrorIllegalState cudaErrorIllegalState
// CHECK-NEXT: eager after: 42
// CHECK-NEXT: PASS
#include "Inputs/check.h"
#include <thread>

__global__ void set(int *p, int v) { *p = v; }
__device__ int sym;

static const char *name(cudaError_t e) { return cudaGetErrorName(e); }

/// Ends the capture on s; the graph must be null on failure.
static const char *endName(cudaStream_t s) {
  cudaGraph_t g = (cudaGraph_t)1;
  cudaError_t e = cudaStreamEndCapture(s, &g);
  if (e != cudaSuccess && g != nullptr) {
    std::printf("FAIL: a graph came back from a failed capture\n");
    std::exit(1);
  }
  if (e == cudaSuccess)
    cudaGraphDestroy(g);
  return name(e);
}

static void cb(cudaStream_t, cudaError_t, void *) {}

int main() {
  int *d;
  CHECK(cudaMalloc(&d, sizeof(int)));
  cudaStream_t s, s1, nb;
  CHECK(cudaStreamCreate(&s)); // blocking
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
  cudaStreamCaptureStatus st;

  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  set<<<1, 1, 0, s>>>(d, 1);
  cudaError_t e = cudaStreamSynchronize(s);
  CHECK(cudaStreamIsCapturing(s, &st));
  std::printf("sync: %s, status %d, end %s\n", name(e), int(st), endName(s));

  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  e = cudaStreamQuery(s);
  std::printf("query: %s, end %s\n", name(e), endName(s));

  int h = 0;
  CHECK(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  e = cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("cudaMemcpy: %s, end %s\n", name(e), endName(nb));

  int *tmp = nullptr;
  CHECK(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  e = cudaMalloc(&tmp, 16);
  EXPECT_TRUE(tmp == nullptr);
  std::printf("cudaMalloc: %s, end %s\n", name(e), endName(nb));

  CHECK(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  e = cudaMemcpyToSymbol(sym, &h, sizeof(int));
  std::printf("cudaMemcpyToSymbol: %s, end %s\n", name(e), endName(nb));

  // The legacy stream would wait for the capturing blocking stream s.
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
  set<<<1, 1>>>(d, 2);
  e = cudaGetLastError();
  std::printf("legacy launch: %s, end %s\n", name(e), endName(s));

  // s1 forked into the capture and never waited on by s.
  cudaEvent_t ev, ev2;
  CHECK(cudaEventCreate(&ev));
  CHECK(cudaEventCreate(&ev2));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(ev, s));
  CHECK(cudaStreamWaitEvent(s1, ev, 0));
  set<<<1, 1, 0, s1>>>(d, 3);
  set<<<1, 1, 0, s>>>(d, 4);
  const char *un = endName(s);
  std::printf("unjoined: %s, s1 capturing %d\n", un,
              (cudaStreamIsCapturing(s1, &st), int(st)));

  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(ev, s));
  CHECK(cudaStreamWaitEvent(s1, ev, 0));
  cudaGraph_t g;
  e = cudaStreamEndCapture(s1, &g);
  std::printf("unmatched: %s, end %s\n", name(e), endName(s));

  // A wait on an event recorded outside the capture.
  CHECK(cudaEventRecord(ev2, s1));
  CHECK(cudaStreamSynchronize(s1));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  e = cudaStreamWaitEvent(s, ev2, 0);
  std::printf("isolation: %s\n", name(e));
  endName(s);

  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(ev, s));
  std::printf("captured event query: %s\n", name(cudaEventQuery(ev)));
  e = cudaStreamAddCallback(s, cb, nullptr, 0);
  std::printf("callback: %s\n", name(e));
  endName(s);

  // Another thread's unsafe call during a global capture is refused; during
  // a thread-local one it is not.
  CHECK(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  std::thread([&] { e = cudaMalloc(&tmp, 16); }).join();
  std::printf("other thread, global: %s\n", name(e));
  endName(nb);
  CHECK(cudaStreamBeginCapture(nb, cudaStreamCaptureModeThreadLocal));
  std::thread([&] { e = cudaMalloc(&tmp, 16); }).join();
  std::printf("other thread, thread-local: %s\n", name(e));
  CHECK(cudaStreamEndCapture(nb, &g));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaFree(tmp));

  // The legacy stream cannot capture; a second begin and an end without a
  // capture are in the wrong state.
  cudaError_t legacy = cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal);
  CHECK(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  cudaError_t twice = cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal);
  CHECK(cudaStreamEndCapture(nb, &g));
  CHECK(cudaGraphDestroy(g));
  cudaError_t noCap = cudaStreamEndCapture(nb, &g);
  std::printf("states: %s %s %s\n", name(legacy), name(twice), name(noCap));
  cudaGetLastError();

  // Nothing is sticky: eager work runs as usual.
  set<<<1, 1, 0, s>>>(d, 42);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("eager after: %d\n", h);
  std::printf("PASS\n");
  return 0;
}
