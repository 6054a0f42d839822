// Launches on different streams run concurrently on tt-sim, as on a GPU: a
// kernel on one stream waits for a flag that a kernel on another stream
// sets. The waiter holds the module's persistent cores, so the setter's
// launch runs on cores started for it alone; without that it would wait
// behind the waiter forever (the launch timeout would end the test).
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=tt-sim HETGPU_TTSIM_CORES=2 HETGPU_TTSIM_TIMEOUT_S=60 \
// RUN:   HETGPU_LOG=info %t 2>&1 | FileCheck %s
// CHECK: tt-sim: started core 0 (pid {{[0-9]+}}) for the module
// CHECK: tt-sim: started core 0 (pid {{[0-9]+}}) for one launch
// CHECK: waiter saw 7
// CHECK-NEXT: again on the module's cores: 8
// CHECK-NEXT: PASS
// REQUIRES: qemu-riscv64
#include <chrono>
#include <cstdio>
#include <thread>

__global__ void waitFor(volatile int *started, volatile int *flag, int *out) {
  *started = 1;
  while (*flag == 0) {
  }
  *out = *flag;
}

__global__ void setFlag(volatile int *flag, int v) { *flag = v; }

int main() {
  int *started, *flag, *out;
  cudaMallocManaged(&started, sizeof(int));
  cudaMallocManaged(&flag, sizeof(int));
  cudaMallocManaged(&out, sizeof(int));
  *started = *flag = *out = 0;
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  waitFor<<<1, 1, 0, s1>>>(started, flag, out);
  // The setter is launched once the waiter runs (it holds the cores).
  auto Until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!*(volatile int *)started && std::chrono::steady_clock::now() < Until)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  setFlag<<<1, 1, 0, s2>>>(flag, 7);
  cudaError_t e1 = cudaStreamSynchronize(s1), e2 = cudaStreamSynchronize(s2);
  if (e1 != cudaSuccess || e2 != cudaSuccess) {
    std::printf("FAIL %s %s\n", cudaGetErrorName(e1), cudaGetErrorName(e2));
    return 1;
  }
  std::printf("waiter saw %d\n", *out);
  setFlag<<<1, 1, 0, s2>>>(flag, 8);
  waitFor<<<1, 1, 0, s2>>>(started, flag, out);
  cudaStreamSynchronize(s2);
  std::printf("again on the module's cores: %d\n", *out);
  std::printf("PASS\n");
  return 0;
}
