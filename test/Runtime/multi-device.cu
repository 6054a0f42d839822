// One program, every device: the work is split over all devices the runtime
// reports (here the CPU, OpenCL/PoCL and tt-sim where installed; on a GPU
// machine the GPUs and the CPU), one host thread per device with its own
// cudaSetDevice, streams and events, partial results gathered with
// cudaMemcpyPeer onto device 0 and reduced there.
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// Every device found here (CPU, PoCL and tt-sim in CI) at once (HETGPU_DEVICE=all):
// RUN: env HETGPU_DEVICE=all %t | FileCheck --check-prefix=ALL %s
// CHECK: devices: 1
// CHECK: per-thread device ok
// CHECK: peer copies ok
// CHECK: multi-device result ok
// ALL: devices: [[N:[0-9]+]]
// ALL: per-thread device ok
// ALL: peer copies ok
// ALL: device 0 ({{.+}}): slice
// ALL: multi-device result ok
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#define CHECK_CUDA(X)                                                          \
  do {                                                                         \
    cudaError_t E_ = (X);                                                      \
    if (E_ != cudaSuccess) {                                                   \
      std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #X,                   \
                  cudaGetErrorString(E_));                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

// Sum of f(i) = (i % 97) * 3 + 1 over a slice, one partial per block, with a
// shared-memory tree and warp shuffles for the last 32.
__global__ void partialSums(long long *out, int begin, int end) {
  __shared__ long long part[256];
  long long s = 0;
  for (int i = begin + blockIdx.x * blockDim.x + threadIdx.x; i < end;
       i += gridDim.x * blockDim.x)
    s += (i % 97) * 3 + 1;
  part[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w >= 32; w /= 2) {
    if (threadIdx.x < w)
      part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x < 32) {
    long long v = part[threadIdx.x];
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0)
      out[blockIdx.x] = v;
  }
}

__global__ void reduceAll(long long *v, int n, long long *result) {
  long long s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s += v[i];
  atomicAdd(reinterpret_cast<unsigned long long *>(result),
            static_cast<unsigned long long>(s));
}

int main() {
  const int N = 1 << 20, Blocks = 8, Threads = 256;
  int Count = 0;
  CHECK_CUDA(cudaGetDeviceCount(&Count));
  std::printf("devices: %d\n", Count);

  // Each host thread picks its own device; the main thread's stays 0.
  std::vector<int> Seen(Count, -1);
  std::vector<std::thread> Threads_;
  std::vector<long long *> Partials(Count, nullptr);
  std::vector<float> Ms(Count, 0.f);
  for (int D = 0; D < Count; ++D)
    Threads_.emplace_back([&, D] {
      CHECK_CUDA(cudaSetDevice(D));
      cudaStream_t S;
      cudaEvent_t A, B;
      CHECK_CUDA(cudaStreamCreate(&S));
      CHECK_CUDA(cudaEventCreate(&A));
      CHECK_CUDA(cudaEventCreate(&B));
      CHECK_CUDA(cudaMalloc(&Partials[D], Blocks * sizeof(long long)));
      int Begin = static_cast<int>(static_cast<long long>(N) * D / Count);
      int End = static_cast<int>(static_cast<long long>(N) * (D + 1) / Count);
      CHECK_CUDA(cudaEventRecord(A, S));
      partialSums<<<Blocks, Threads, 0, S>>>(Partials[D], Begin, End);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaEventRecord(B, S));
      CHECK_CUDA(cudaEventSynchronize(B));
      CHECK_CUDA(cudaEventElapsedTime(&Ms[D], A, B));
      CHECK_CUDA(cudaGetDevice(&Seen[D]));
      CHECK_CUDA(cudaStreamDestroy(S));
      CHECK_CUDA(cudaEventDestroy(A));
      CHECK_CUDA(cudaEventDestroy(B));
    });
  for (std::thread &T : Threads_)
    T.join();
  int Mine = -1;
  CHECK_CUDA(cudaGetDevice(&Mine));
  bool PerThread = Mine == 0;
  for (int D = 0; D < Count; ++D)
    PerThread = PerThread && Seen[D] == D;
  if (PerThread)
    std::printf("per-thread device ok\n");

  // Gather every device's partials on device 0 and reduce there.
  CHECK_CUDA(cudaSetDevice(0));
  long long *All = nullptr, *Result = nullptr;
  CHECK_CUDA(cudaMalloc(&All, Count * Blocks * sizeof(long long)));
  CHECK_CUDA(cudaMalloc(&Result, sizeof(long long)));
  CHECK_CUDA(cudaMemset(Result, 0, sizeof(long long)));
  for (int D = 0; D < Count; ++D)
    CHECK_CUDA(cudaMemcpyPeer(All + D * Blocks, 0, Partials[D], D,
                              Blocks * sizeof(long long)));
  std::vector<long long> Host(Count * Blocks);
  CHECK_CUDA(cudaMemcpy(Host.data(), All, Host.size() * sizeof(long long),
                        cudaMemcpyDeviceToHost));
  bool PeerOk = true;
  for (int D = 0; D < Count; ++D) {
    std::vector<long long> Own(Blocks);
    CHECK_CUDA(cudaSetDevice(D));
    CHECK_CUDA(cudaMemcpy(Own.data(), Partials[D], Blocks * sizeof(long long),
                          cudaMemcpyDeviceToHost));
    for (int B = 0; B < Blocks; ++B)
      PeerOk = PeerOk && Own[B] == Host[D * Blocks + B];
    CHECK_CUDA(cudaFree(Partials[D]));
  }
  if (PeerOk)
    std::printf("peer copies ok\n");
  CHECK_CUDA(cudaSetDevice(0));
  reduceAll<<<1, 128>>>(All, Count * Blocks, Result);
  CHECK_CUDA(cudaGetLastError());
  long long Got = 0, Want = 0;
  CHECK_CUDA(cudaMemcpy(&Got, Result, sizeof Got, cudaMemcpyDeviceToHost));
  for (int I = 0; I < N; ++I)
    Want += (I % 97) * 3 + 1;
  for (int D = 0; D < Count; ++D) {
    cudaDeviceProp P;
    CHECK_CUDA(cudaGetDeviceProperties(&P, D));
    std::printf("device %d (%s): slice %.3f ms\n", D, P.name, Ms[D]);
  }
  std::printf("sum %lld, expected %lld\n", Got, Want);
  if (Got == Want)
    std::printf("multi-device result ok\n");
  CHECK_CUDA(cudaFree(All));
  CHECK_CUDA(cudaFree(Result));
  return Got == Want && PeerOk && PerThread ? 0 : 1;
}
