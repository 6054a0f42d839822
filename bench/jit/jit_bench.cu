// bench/jit/jit_bench.cu - first-launch cost of a module of many kernels.
// SPDX-License-Identifier: Apache-2.0
//
// 128 instantiations of one kernel template (a module the size of a
// templated library's), launched one after another. Prints:
//   INIT <ms>    cudaFree(0): the runtime finds its devices
//   SETUP <ms>   host work the program does before its first launch
//                (argument 1, in ms of busy work; 0 by default)
//   FIRST <ms>   the first launch of the first kernel, synchronised
//   ALL <ms>     the first launches of the 127 others, synchronised
//   WARM <us>    launch + synchronise of a kernel already loaded
//   RESULT ok|bad
// The same source builds with nvcc and hetgpu-cc (bench/jit/run.sh).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

constexpr int NumKernels = 128;
using Clock = std::chrono::steady_clock;

static double msSince(Clock::time_point T) {
  return std::chrono::duration<double, std::milli>(Clock::now() - T).count();
}

template <int K> __global__ void step(float *X, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  float V = X[I];
  for (int R = 0; R < K % 5 + 1; ++R)
    V = fmaf(V, 0.5f, sinf(V * (K + 1) * 0.001f));
  X[I] = V;
}

template <int... Ks>
static void launchAll(std::integer_sequence<int, Ks...>, float *X, int N,
                      int Skip) {
  int I = 0;
  ((I++ >= Skip ? (step<Ks><<<(N + 255) / 256, 256>>>(X, N), 0) : 0), ...);
}

/// Host work of about \p Ms milliseconds (a program preparing its input).
static float busyWork(double Ms) {
  auto T0 = Clock::now();
  float Acc = 0;
  while (msSince(T0) < Ms)
    for (int I = 0; I < 10000; ++I)
      Acc += std::sqrt(float(I) + Acc * 1e-9f);
  return Acc;
}

int main(int argc, char **argv) {
  double SetupMs = argc > 1 ? std::atof(argv[1]) : 0;
  const int N = 1 << 16;
  auto T0 = Clock::now();
  cudaFree(0);
  std::printf("INIT %.3f\n", msSince(T0));
  T0 = Clock::now();
  std::vector<float> H(N);
  for (int I = 0; I < N; ++I)
    H[I] = float(I % 97) * 0.01f;
  float *X;
  cudaMalloc(&X, N * sizeof(float));
  cudaMemcpy(X, H.data(), N * sizeof(float), cudaMemcpyHostToDevice);
  float Sink = busyWork(SetupMs);
  std::printf("SETUP %.3f\n", msSince(T0));
  T0 = Clock::now();
  step<0><<<(N + 255) / 256, 256>>>(X, N);
  cudaDeviceSynchronize();
  std::printf("FIRST %.3f\n", msSince(T0));
  T0 = Clock::now();
  launchAll(std::make_integer_sequence<int, NumKernels>(), X, N, 1);
  cudaDeviceSynchronize();
  std::printf("ALL %.3f\n", msSince(T0));
  const int Reps = 200;
  T0 = Clock::now();
  for (int I = 0; I < Reps; ++I) {
    step<5><<<(N + 255) / 256, 256>>>(X, N);
    cudaDeviceSynchronize();
  }
  std::printf("WARM %.3f\n", msSince(T0) * 1000 / Reps);
  std::vector<float> Out(N);
  cudaMemcpy(Out.data(), X, N * sizeof(float), cudaMemcpyDeviceToHost);
  bool Ok = cudaGetLastError() == cudaSuccess;
  for (int I = 0; I < N; ++I)
    Ok &= std::isfinite(Out[I]);
  std::printf("RESULT %s %g\n", Ok ? "ok" : "bad", double(Out[N / 3]) + Sink * 0);
  cudaFree(X);
  return Ok ? 0 : 1;
}
