// Thrust's CUDA backend (Debian's libthrust-dev, unmodified) on hetGPU: the
// algorithms most programs use, at sizes that span many blocks, each checked
// against the same computation done on the host with the standard library.
// REQUIRES: thrust, built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: sort: ok
// CHECK: sort_by_key: ok
// CHECK: reduce: ok
// CHECK: transform_reduce: ok
// CHECK: inclusive_scan: ok
// CHECK: exclusive_scan: ok
// CHECK: copy_if: ok
// CHECK: unique: ok
// CHECK: count/min/max: ok
// CHECK: ALL PASS

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/extrema.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

static int Failures = 0;
static void report(const char *What, bool Ok) {
  std::printf("%s: %s\n", What, Ok ? "ok" : "FAILED");
  Failures += !Ok;
}

static std::vector<uint32_t> randomKeys(size_t N, uint32_t Seed) {
  std::vector<uint32_t> V(N);
  uint32_t X = Seed;
  for (auto &E : V) {
    X = X * 1664525u + 1013904223u;
    E = X >> 3;
  }
  return V;
}

struct IsOdd {
  __host__ __device__ bool operator()(uint32_t V) const { return V & 1; }
};
struct Square {
  __host__ __device__ uint64_t operator()(uint32_t V) const {
    return uint64_t(V % 1000) * (V % 1000);
  }
};

int main() {
  const size_t N = 100003; // not a multiple of any tile size
  std::vector<uint32_t> H = randomKeys(N, 7);

  {
    thrust::device_vector<uint32_t> D(H.begin(), H.end());
    thrust::sort(D.begin(), D.end());
    std::vector<uint32_t> R(N), E = H;
    thrust::copy(D.begin(), D.end(), R.begin());
    std::sort(E.begin(), E.end());
    report("sort", R == E);
  }
  {
    thrust::device_vector<uint32_t> K(H.begin(), H.end());
    thrust::device_vector<uint32_t> V(N);
    thrust::sequence(V.begin(), V.end());
    thrust::sort_by_key(K.begin(), K.end(), V.begin());
    thrust::host_vector<uint32_t> HK = K, HV = V;
    bool Ok = std::is_sorted(HK.begin(), HK.end());
    for (size_t I = 0; Ok && I < N; ++I)
      Ok = H[HV[I]] == HK[I];
    report("sort_by_key", Ok);
  }
  {
    thrust::device_vector<uint32_t> D(H.begin(), H.end());
    uint64_t Sum = thrust::reduce(D.begin(), D.end(), uint64_t(0));
    uint64_t E = std::accumulate(H.begin(), H.end(), uint64_t(0));
    report("reduce", Sum == E);
    uint64_t Sq = thrust::transform_reduce(D.begin(), D.end(), Square(),
                                           uint64_t(0), thrust::plus<uint64_t>());
    uint64_t ESq = 0;
    for (uint32_t V : H)
      ESq += Square()(V);
    report("transform_reduce", Sq == ESq);
  }
  {
    std::vector<uint32_t> Small(N);
    for (size_t I = 0; I < N; ++I)
      Small[I] = H[I] % 7;
    thrust::device_vector<uint32_t> D(Small.begin(), Small.end()), O(N);
    thrust::inclusive_scan(D.begin(), D.end(), O.begin());
    thrust::host_vector<uint32_t> R = O;
    std::vector<uint32_t> E(N);
    std::partial_sum(Small.begin(), Small.end(), E.begin());
    report("inclusive_scan", std::equal(E.begin(), E.end(), R.begin()));
    thrust::exclusive_scan(D.begin(), D.end(), O.begin(), 5u);
    R = O;
    uint32_t Acc = 5;
    bool Ok = true;
    for (size_t I = 0; I < N; ++I) {
      Ok &= R[I] == Acc;
      Acc += Small[I];
    }
    report("exclusive_scan", Ok);
  }
  {
    thrust::device_vector<uint32_t> D(H.begin(), H.end()), O(N);
    auto End = thrust::copy_if(D.begin(), D.end(), O.begin(), IsOdd());
    std::vector<uint32_t> E;
    std::copy_if(H.begin(), H.end(), std::back_inserter(E), IsOdd());
    thrust::host_vector<uint32_t> R(O.begin(), End);
    report("copy_if", R.size() == E.size() && std::equal(E.begin(), E.end(), R.begin()));
  }
  {
    std::vector<uint32_t> S(N);
    for (size_t I = 0; I < N; ++I)
      S[I] = H[I] % 500;
    std::sort(S.begin(), S.end());
    thrust::device_vector<uint32_t> D(S.begin(), S.end());
    auto End = thrust::unique(D.begin(), D.end());
    std::vector<uint32_t> E = S;
    E.erase(std::unique(E.begin(), E.end()), E.end());
    thrust::host_vector<uint32_t> R(D.begin(), End);
    report("unique", R.size() == E.size() && std::equal(E.begin(), E.end(), R.begin()));
  }
  {
    thrust::device_vector<uint32_t> D(H.begin(), H.end());
    size_t Odd = thrust::count_if(D.begin(), D.end(), IsOdd());
    uint32_t Mn = *thrust::min_element(D.begin(), D.end());
    uint32_t Mx = *thrust::max_element(D.begin(), D.end());
    size_t EOdd = std::count_if(H.begin(), H.end(), IsOdd());
    report("count/min/max",
           Odd == EOdd && Mn == *std::min_element(H.begin(), H.end()) &&
               Mx == *std::max_element(H.begin(), H.end()));
  }
  std::printf(Failures ? "FAILURES: %d\n" : "ALL PASS\n", Failures);
  return Failures != 0;
}
