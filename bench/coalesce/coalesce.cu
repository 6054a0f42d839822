// bench/coalesce/coalesce.cu - eager launches vs CUDA graph replay vs
// coalesced graph replay of K tiny independent kernels (issue 23, parts 3
// and 4).
// SPDX-License-Identifier: Apache-2.0
//
// For K in 2, 4, 8, 16, 32: a group is K one-block kernels, each writing its
// own slice, issued on 1 stream or spread round-robin over N streams
// (forked from and joined back into the first through events). "eager"
// issues each group with launches; "ecoal" the same with
// HETGPU_COALESCE_EAGER=1 (launches of other streams held while the device
// is busy and fused, API/EagerCoalesce.h); "graph" captures one group once
// (fork/join included) and replays it, instantiated with HETGPU_COALESCE=0;
// "coal" the same instantiated with coalescing (the kernels of different
// streams are independent and fused into one launch; those of one stream
// are ordered and are not); "qgraph" is "graph" with HETGPU_DRIVER_GRAPHS=0
// (replayed node by node through the stream, not as the NVIDIA driver's
// graph; the same as "graph" on devices without device graphs). N is 1,
// the streams argument, and K (one
// stream per kernel). Each configuration runs `groups` groups, then
// synchronises; the output checks every slice after every configuration.
// Prints microseconds per group and the ratios (above 1: the second is
// faster), each time the minimum of 5 interleaved runs. Timing only; the
// CI tests (test/Runtime/graph-*.cu) check correctness.
//   coalesce [groups [streams [nvcc]]]     (defaults 200, 8)
// The source compiles with nvcc unchanged (the HETGPU_* variables are then
// ignored); the third argument `nvcc` measures eager and graph only (the
// other columns print 0). Every row is also printed as
// `ROW K N eager ecoal qgraph graph coal` for bench/coalesce/run-gpu.sh.
// COALESCE_K=k1,k2,... replaces the list of K (2,4,8,16,32).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::printf("error %s at %s:%d\n", cudaGetErrorName(e_), __FILE__,       \
                  __LINE__);                                                   \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

__global__ void tiny(float *slice, float v) {
  slice[threadIdx.x] = slice[threadIdx.x] * 0.5f + v;
}

static const int Threads = 32;

struct Setup {
  int K, N;
  float *buf;
  std::vector<cudaStream_t> s;
  std::vector<cudaEvent_t> ev; // ev[0]: fork; ev[i]: join of stream i
};

/// One group: K kernels over N streams, forked from s[0] and joined back.
static void issue(Setup &S) {
  if (S.N > 1) {
    CK(cudaEventRecord(S.ev[0], S.s[0]));
    for (int i = 1; i < S.N; ++i)
      CK(cudaStreamWaitEvent(S.s[i], S.ev[0], 0));
  }
  for (int k = 0; k < S.K; ++k)
    tiny<<<1, Threads, 0, S.s[k % S.N]>>>(S.buf + k * Threads, float(k));
  if (S.N > 1)
    for (int i = 1; i < S.N; ++i) {
      CK(cudaEventRecord(S.ev[i], S.s[i]));
      CK(cudaStreamWaitEvent(S.s[0], S.ev[i], 0));
    }
}

/// Every element converges to 2k (x -> x/2 + k) after many groups; checks
/// the slices are near it (both modes run the same number of groups).
static bool check(Setup &S, int groups) {
  std::vector<float> h(S.K * Threads);
  CK(cudaMemcpy(h.data(), S.buf, h.size() * sizeof(float),
                cudaMemcpyDeviceToHost));
  for (int k = 0; k < S.K; ++k)
    for (int t = 0; t < Threads; ++t) {
      float want = 2.0f * k, got = h[k * Threads + t];
      if (groups >= 30 && (got < want - 1e-3f || got > want + 1e-3f)) {
        std::printf("FAIL K=%d N=%d slice %d: %f, want %f\n", S.K, S.N, k, got,
                    want);
        return false;
      }
    }
  return true;
}

enum Mode { Eager, EagerCoalesced, QueueGraph, Graph, Coalesced };

static double usPerGroup(Setup &S, int groups, Mode m) {
  bool graph = m == QueueGraph || m == Graph || m == Coalesced;
  // hetGPU reads HETGPU_COALESCE_EAGER at each launch.
  if (m == EagerCoalesced)
    setenv("HETGPU_COALESCE_EAGER", "1", 1);
  else
    unsetenv("HETGPU_COALESCE_EAGER");
  CK(cudaMemset(S.buf, 0, S.K * Threads * sizeof(float)));
  cudaGraphExec_t x = nullptr;
  cudaGraph_t g = nullptr;
  if (graph) {
    CK(cudaStreamBeginCapture(S.s[0], cudaStreamCaptureModeGlobal));
    issue(S);
    CK(cudaStreamEndCapture(S.s[0], &g));
    // hetGPU reads HETGPU_COALESCE and HETGPU_DRIVER_GRAPHS at each
    // instantiation.
    if (m == Coalesced)
      unsetenv("HETGPU_COALESCE");
    else
      setenv("HETGPU_COALESCE", "0", 1);
    if (m == QueueGraph)
      setenv("HETGPU_DRIVER_GRAPHS", "0", 1);
    else
      unsetenv("HETGPU_DRIVER_GRAPHS");
    CK(cudaGraphInstantiate(&x, g, 0));
    CK(cudaGraphLaunch(x, S.s[0])); // warm: translations are cached
  } else {
    issue(S);
  }
  CK(cudaDeviceSynchronize());
  CK(cudaMemset(S.buf, 0, S.K * Threads * sizeof(float)));
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < groups; ++i) {
    if (graph)
      CK(cudaGraphLaunch(x, S.s[0]));
    else
      issue(S);
  }
  CK(cudaDeviceSynchronize());
  auto t1 = std::chrono::steady_clock::now();
  if (!check(S, groups))
    std::exit(1);
  if (graph) {
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));
  }
  return std::chrono::duration<double, std::micro>(t1 - t0).count() / groups;
}

int main(int argc, char **argv) {
  int groups = argc > 1 ? std::atoi(argv[1]) : 200;
  int streams = argc > 2 ? std::atoi(argv[2]) : 8;
  bool nvccOnly = argc > 3 && std::string(argv[3]) == "nvcc";
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("device: %s, %d groups per configuration\n", p.name, groups);
  std::printf("%4s %7s %9s %9s %9s %9s %9s %11s %11s %10s %10s %12s\n",
              "K", "streams", "eager us", "ecoal us", "qgraph us", "graph us",
              "coal us", "eager/ecoal", "eager/graph", "eager/coal",
              "graph/coal", "qgraph/graph");
  std::vector<int> Ks = {2, 4, 8, 16, 32};
  if (const char *L = std::getenv("COALESCE_K")) {
    Ks.clear();
    for (const char *P = L; *P;) {
      int K = std::atoi(P);
      if (K > 0)
        Ks.push_back(K);
      while (*P && *P != ',')
        ++P;
      if (*P)
        ++P;
    }
  }
  for (int K : Ks)
    for (int which = 0; which < 3; ++which) {
      int n = which == 0 ? 1 : which == 1 ? streams : K;
      if (which == 1 && (streams <= 1 || streams >= K))
        continue; // the same configuration as another
      Setup S;
      S.K = K;
      S.N = n < K ? n : K;
      CK(cudaMalloc(&S.buf, K * Threads * sizeof(float)));
      S.s.resize(S.N);
      S.ev.resize(S.N);
      for (int i = 0; i < S.N; ++i) {
        CK(cudaStreamCreateWithFlags(&S.s[i], cudaStreamNonBlocking));
        CK(cudaEventCreateWithFlags(&S.ev[i], cudaEventDisableTiming));
      }
      // The minimum of 5 interleaved runs (the machine may be shared).
      double e = 1e30, ec = 1e30, q = 1e30, g = 1e30, c = 1e30;
      for (int r = 0; r < 5; ++r) {
        e = std::min(e, usPerGroup(S, groups, Eager));
        g = std::min(g, usPerGroup(S, groups, Graph));
        if (nvccOnly)
          continue;
        ec = std::min(ec, usPerGroup(S, groups, EagerCoalesced));
        q = std::min(q, usPerGroup(S, groups, QueueGraph));
        c = std::min(c, usPerGroup(S, groups, Coalesced));
      }
      if (nvccOnly)
        ec = q = c = 0;
      auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
      std::printf("%4d %7d %9.1f %9.1f %9.1f %9.1f %9.1f %11.2f %11.2f "
                  "%10.2f %10.2f %12.2f\n",
                  K, S.N, e, ec, q, g, c, ratio(e, ec), ratio(e, g),
                  ratio(e, c), ratio(g, c), ratio(q, g));
      std::printf("ROW %d %d %.2f %.2f %.2f %.2f %.2f\n", K, S.N, e, ec, q, g,
                  c);
      for (int i = 0; i < S.N; ++i) {
        CK(cudaStreamDestroy(S.s[i]));
        CK(cudaEventDestroy(S.ev[i]));
      }
      CK(cudaFree(S.buf));
    }
  return 0;
}
