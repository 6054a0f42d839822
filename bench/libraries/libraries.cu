// bench/libraries/libraries.cu - Thrust and CUB at sizes that fill a GPU:
// thrust::sort of 16M 32-bit keys, thrust::reduce of 64M ints and an
// exclusive prefix sum of 64M ints (cub::DeviceScan on a CUDA build,
// thrust::exclusive_scan on a host-backend build). The same source builds
// with hetgpu-cc, with nvcc (the toolkit's own Thrust/CUB), and with g++ for
// Thrust's OpenMP backend (-DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP).
// Each operation runs once untimed (first launch: translation, allocation)
// and then REPS times; the line `NAME ms MIN` gives the fastest, and
// `check NAME VALUE` a checksum that every build must print the same.
// run.sh runs the builds in one go and prints the ratios.
// SPDX-License-Identifier: Apache-2.0
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#include <cub/device/device_scan.cuh>
#endif

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

static void deviceSync() {
#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
  cudaDeviceSynchronize();
#endif
}

template <typename F> static double bestMs(int Reps, F &&Body) {
  double Best = 1e30;
  for (int R = 0; R < Reps; ++R) {
    deviceSync();
    auto T0 = std::chrono::steady_clock::now();
    Body();
    deviceSync();
    auto T1 = std::chrono::steady_clock::now();
    Best = std::min(Best, std::chrono::duration<double, std::milli>(T1 - T0).count());
  }
  return Best;
}

int main(int Argc, char **Argv) {
  int Reps = Argc > 1 ? std::atoi(Argv[1]) : 5;
  size_t SortN = Argc > 2 ? std::strtoull(Argv[2], nullptr, 10) : (16u << 20);
  size_t BigN = Argc > 3 ? std::strtoull(Argv[3], nullptr, 10) : (64u << 20);
  std::vector<uint32_t> Keys(SortN);
  uint32_t X = 12345;
  for (auto &K : Keys) {
    X ^= X << 13;
    X ^= X >> 17;
    X ^= X << 5;
    K = X;
  }
  thrust::device_vector<uint32_t> Src(Keys.begin(), Keys.end()), Work(SortN);

  // sort: each repetition sorts a fresh copy of the same keys.
  auto Sort = [&] {
    thrust::copy(Src.begin(), Src.end(), Work.begin());
    thrust::sort(Work.begin(), Work.end());
  };
  Sort();
  double CopyMs = bestMs(Reps, [&] { thrust::copy(Src.begin(), Src.end(), Work.begin()); });
  double SortMs = bestMs(Reps, Sort) - CopyMs;
  std::printf("check sort %u %u %u\n", (unsigned)Work[0], (unsigned)Work[SortN / 2],
              (unsigned)Work[SortN - 1]);
  std::printf("sort ms %.3f\n", SortMs);

  thrust::device_vector<int> In(BigN), Out(BigN);
  thrust::sequence(In.begin(), In.end());
  thrust::transform(In.begin(), In.end(), In.begin(),
                    [] __host__ __device__(int V) { return (V * 7) % 13 - 6; });
  long long Sum = 0;
  auto Reduce = [&] { Sum = thrust::reduce(In.begin(), In.end(), 0ll); };
  Reduce();
  double ReduceMs = bestMs(Reps, Reduce);
  std::printf("check reduce %lld\n", Sum);
  std::printf("reduce ms %.3f\n", ReduceMs);

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
  size_t TempBytes = 0;
  int *InP = thrust::raw_pointer_cast(In.data());
  int *OutP = thrust::raw_pointer_cast(Out.data());
  cub::DeviceScan::ExclusiveSum(nullptr, TempBytes, InP, OutP, (int)BigN);
  thrust::device_vector<char> Temp(TempBytes);
  void *TempP = thrust::raw_pointer_cast(Temp.data());
  auto Scan = [&] { cub::DeviceScan::ExclusiveSum(TempP, TempBytes, InP, OutP, (int)BigN); };
#else
  auto Scan = [&] { thrust::exclusive_scan(In.begin(), In.end(), Out.begin()); };
#endif
  Scan();
  double ScanMs = bestMs(Reps, Scan);
  std::printf("check scan %d %d\n", (int)Out[BigN / 3], (int)Out[BigN - 1]);
  std::printf("scan ms %.3f\n", ScanMs);
  return 0;
}
