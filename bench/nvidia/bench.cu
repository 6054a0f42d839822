// bench/nvidia/bench.cu - the NVIDIA benchmark set, one CUDA source built
// both by hetgpu-cc and by `nvcc -O3 -arch=sm_90` (see run.sh).
// SPDX-License-Identifier: Apache-2.0
//
// Each kernel is checked against a host reference, warmed up, then timed
// with cudaEvents over several launches. Output lines:
//   FIRST <ms>                 wall time of the first launch (JIT included)
//   LAUNCH <us>                cached launch overhead (empty kernel + sync)
//   KERNEL <name> <ms> <ok|FAIL>
// compare.py turns two such outputs into ratios and a geomean.
// Usage: bench [scale [reps]]: scale multiplies the problem sizes (2-D edges
// by sqrt(scale)); reps is the number of timed launches (default 20).

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::printf("CUDA error %s at %s:%d: %s\n", cudaGetErrorName(e_),        \
                  __FILE__, __LINE__, cudaGetErrorString(e_));                 \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

// ---- kernels -------------------------------------------------------------------

__global__ void emptyKernel() {}

__global__ void vecAdd(const float *__restrict__ a, const float *__restrict__ b,
                       float *__restrict__ c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

__global__ void saxpy(int n, float a, const float *__restrict__ x,
                      float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

#define TILE 32
__global__ void matmul(const float *__restrict__ A, const float *__restrict__ B,
                       float *__restrict__ C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE + 1];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.f;
  for (int t = 0; t < n; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

__device__ __forceinline__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

__global__ void reduceSum(const float *__restrict__ in, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += in[i];
  v = warpSum(v);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (int)(blockDim.x >> 5) ? warpSums[lane] : 0.f;
    v = warpSum(v);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

// Block-wide inclusive scan: warp scans with __shfl_up_sync, then a scan of
// the warp totals.
__global__ void blockScan(const int *__restrict__ in, int *__restrict__ out,
                          int n) {
  __shared__ int totals[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = i < n ? in[i] : 0;
  for (int d = 1; d < 32; d <<= 1) {
    int u = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v += u;
  }
  if (lane == 31)
    totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = lane < (int)(blockDim.x >> 5) ? totals[lane] : 0;
    for (int d = 1; d < 32; d <<= 1) {
      int u = __shfl_up_sync(0xffffffffu, t, d);
      if (lane >= d)
        t += u;
    }
    totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0)
    v += totals[warp - 1];
  if (i < n)
    out[i] = v;
}

__global__ void warpVote(const int *__restrict__ in, int *__restrict__ counts,
                         int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = i < n ? in[i] : 0;
  unsigned ballot = __ballot_sync(0xffffffffu, x & 1);
  int any = __any_sync(0xffffffffu, x > 1000000);
  int all = __all_sync(0xffffffffu, x >= 0);
  if ((threadIdx.x & 31) == 0) {
    int c = __popc(ballot) + any * 64 + all * 4096;
    atomicAdd(&counts[blockIdx.x & 255], c);
  }
}

__global__ void monteCarloPi(unsigned long long seed, int samplesPerThread,
                             unsigned long long *hits) {
  unsigned long long s =
      seed ^ (0x9E3779B97F4A7C15ull * (blockIdx.x * blockDim.x + threadIdx.x + 1));
  unsigned count = 0;
  for (int k = 0; k < samplesPerThread; ++k) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    float x = (s & 0xffffff) * (1.0f / 16777216.0f);
    float y = ((s >> 24) & 0xffffff) * (1.0f / 16777216.0f);
    count += (x * x + y * y <= 1.0f);
  }
  for (int o = 16; o > 0; o >>= 1)
    count += __shfl_down_sync(0xffffffffu, count, o);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(hits, (unsigned long long)count);
}

// y[b][o] = relu(sum_i x[b][i] * W[o][i] + bias[o]), tiled over i.
__global__ void denseBiasRelu(const float *__restrict__ x,
                              const float *__restrict__ W,
                              const float *__restrict__ bias,
                              float *__restrict__ y, int batch, int in,
                              int outF) {
  __shared__ float xs[16][16];
  __shared__ float ws[16][17];
  int b = blockIdx.y * 16 + threadIdx.y;
  int o = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.f;
  for (int t = 0; t < in; t += 16) {
    xs[threadIdx.y][threadIdx.x] = x[b * in + t + threadIdx.x];
    ws[threadIdx.y][threadIdx.x] =
        W[(blockIdx.x * 16 + threadIdx.y) * in + t + threadIdx.x];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 16; ++k)
      acc += xs[threadIdx.y][k] * ws[threadIdx.x][k];
    __syncthreads();
  }
  y[b * outF + o] = fmaxf(acc + bias[o], 0.f);
}

__global__ void transpose(const float *__restrict__ in, float *__restrict__ out,
                          int n) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void histogram(const unsigned char *__restrict__ data, int n,
                          unsigned *__restrict__ bins) {
  __shared__ unsigned local[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    if (local[i])
      atomicAdd(&bins[i], local[i]);
}

// ---- harness -------------------------------------------------------------------

static int Reps = 20;

template <typename F> static float timeKernel(F launch) {
  for (int i = 0; i < 3; ++i)
    launch();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  CK(cudaEventRecord(a));
  for (int i = 0; i < Reps; ++i)
    launch();
  CK(cudaEventRecord(b));
  CK(cudaEventSynchronize(b));
  CK(cudaGetLastError());
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, a, b));
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  return ms / Reps;
}

static void report(const char *name, float ms, bool ok) {
  std::printf("KERNEL %-14s %10.4f %s\n", name, ms, ok ? "ok" : "FAIL");
}

template <typename T> static T *dalloc(size_t n) {
  T *p;
  CK(cudaMalloc(&p, n * sizeof(T)));
  return p;
}

// Edge of a 2-D problem scaled by sqrt(scale) (so its area follows `scale`
// like the 1-D sizes), kept a multiple of `mult`; unchanged at scale 1.
static int scaled2D(int base, double scale, int mult) {
  int n = int(base * std::sqrt(scale)) / mult * mult;
  return std::max(n, mult);
}

static bool near(double a, double b, double tol) {
  return std::fabs(a - b) <= tol * std::max(1.0, std::fabs(b));
}

int main(int argc, char **argv) {
  double scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  if (argc > 2) // optional timed launches per kernel (default 20)
    Reps = std::max(1, std::atoi(argv[2]));
  int dev = 0;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, dev));
  std::printf("DEVICE %s cc %d.%d\n", prop.name, prop.major, prop.minor);

  // First launch: module load (and, for hetGPU, translation unless cached).
  {
    auto t0 = std::chrono::steady_clock::now();
    emptyKernel<<<1, 32>>>();
    CK(cudaDeviceSynchronize());
    auto t1 = std::chrono::steady_clock::now();
    std::printf("FIRST %.3f\n",
                std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  // Cached launch overhead: launch + synchronise an empty kernel.
  {
    const int N = 2000;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < N; ++i) {
      emptyKernel<<<1, 32>>>();
      CK(cudaDeviceSynchronize());
    }
    auto t1 = std::chrono::steady_clock::now();
    std::printf("LAUNCH %.3f\n",
                std::chrono::duration<double, std::micro>(t1 - t0).count() / N);
  }

  // 1. vector add and 2. SAXPY (memory bound)
  {
    int n = int((1 << 26) * scale);
    std::vector<float> ha(n), hb(n);
    for (int i = 0; i < n; ++i) {
      ha[i] = float(i % 1000) * 0.5f;
      hb[i] = float(i % 777) * 0.25f;
    }
    float *a = dalloc<float>(n), *b = dalloc<float>(n), *c = dalloc<float>(n);
    CK(cudaMemcpy(a, ha.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, hb.data(), n * 4, cudaMemcpyHostToDevice));
    int bs = 256, gs = (n + bs - 1) / bs;
    float ms = timeKernel([&] { vecAdd<<<gs, bs>>>(a, b, c, n); });
    std::vector<float> hc(n);
    CK(cudaMemcpy(hc.data(), c, n * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n; i += 997)
      ok &= hc[i] == ha[i] + hb[i];
    report("vector_add", ms, ok);

    CK(cudaMemcpy(c, hb.data(), n * 4, cudaMemcpyHostToDevice));
    int sgs = prop.multiProcessorCount * 8;
    ms = timeKernel([&] { saxpy<<<sgs, 256>>>(n, 1.5f, a, c); });
    saxpy<<<sgs, 256>>>(n, 1.5f, a, b); // one pass on fresh data to check
    CK(cudaMemcpy(hc.data(), b, n * 4, cudaMemcpyDeviceToHost));
    ok = true;
    for (int i = 0; i < n; i += 997)
      ok &= near(hc[i], 1.5f * ha[i] + hb[i], 1e-6);
    report("saxpy", ms, ok);
    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(c));
  }

  // 3. tiled matmul
  {
    int n = scaled2D(2048, scale, TILE);
    std::vector<float> hA(n * n), hB(n * n);
    for (int i = 0; i < n * n; ++i) {
      hA[i] = float((i * 7) % 13) - 6.f;
      hB[i] = float((i * 5) % 11) - 5.f;
    }
    float *A = dalloc<float>(n * n), *B = dalloc<float>(n * n),
          *C = dalloc<float>(n * n);
    CK(cudaMemcpy(A, hA.data(), n * n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(B, hB.data(), n * n * 4, cudaMemcpyHostToDevice));
    dim3 g(n / TILE, n / TILE), b(TILE, TILE);
    float ms = timeKernel([&] { matmul<<<g, b>>>(A, B, C, n); });
    std::vector<float> hC(n * n);
    CK(cudaMemcpy(hC.data(), C, n * n * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int r = 0; r < n; r += 331)
      for (int c = 0; c < n; c += 257) {
        double ref = 0;
        for (int k = 0; k < n; ++k)
          ref += double(hA[r * n + k]) * hB[k * n + c];
        ok &= near(hC[r * n + c], ref, 1e-5);
      }
    report("matmul", ms, ok);
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(C));
  }

  // 4. reduction
  {
    int n = int((1 << 26) * scale);
    std::vector<float> h(n);
    double ref = 0;
    for (int i = 0; i < n; ++i) {
      h[i] = float(i % 16) * 0.0625f;
      ref += h[i];
    }
    float *in = dalloc<float>(n), *out = dalloc<float>(1);
    CK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
    int gs = prop.multiProcessorCount * 8;
    float ms = timeKernel([&] {
      cudaMemsetAsync(out, 0, 4);
      reduceSum<<<gs, 512>>>(in, out, n);
    });
    float got;
    CK(cudaMemcpy(&got, out, 4, cudaMemcpyDeviceToHost));
    report("reduction", ms, near(got, ref, 1e-4));
    CK(cudaFree(in));
    CK(cudaFree(out));
  }

  // 5. shuffle scan (block-wide inclusive scans)
  {
    int n = int((1 << 26) * scale);
    std::vector<int> h(n);
    for (int i = 0; i < n; ++i)
      h[i] = (i * 3) % 7;
    int *in = dalloc<int>(n), *out = dalloc<int>(n);
    CK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
    int bs = 1024, gs = (n + bs - 1) / bs;
    float ms = timeKernel([&] { blockScan<<<gs, bs>>>(in, out, n); });
    std::vector<int> o(n);
    CK(cudaMemcpy(o.data(), out, n * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int blk = 0; blk < gs && ok; blk += 4099) {
      int s = 0;
      for (int t = 0; t < bs && blk * bs + t < n; ++t) {
        s += h[blk * bs + t];
        ok &= o[blk * bs + t] == s;
      }
    }
    report("shuffle_scan", ms, ok);
    CK(cudaFree(in));
    CK(cudaFree(out));
  }

  // 6. warp vote
  {
    int n = int((1 << 26) * scale);
    std::vector<int> h(n);
    for (int i = 0; i < n; ++i)
      h[i] = (i * 2654435761u) % 2000003;
    int *in = dalloc<int>(n), *counts = dalloc<int>(256);
    CK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
    int bs = 256, gs = (n + bs - 1) / bs;
    float ms = timeKernel([&] { warpVote<<<gs, bs>>>(in, counts, n); });
    CK(cudaMemset(counts, 0, 256 * 4));
    warpVote<<<gs, bs>>>(in, counts, n);
    std::vector<int> hc(256);
    CK(cudaMemcpy(hc.data(), counts, 256 * 4, cudaMemcpyDeviceToHost));
    std::vector<long long> ref(256, 0);
    for (int w = 0; w * 32 < gs * bs; ++w) {
      unsigned pop = 0;
      int any = 0, all = 1;
      for (int l = 0; l < 32; ++l) {
        int i = w * 32 + l;
        int x = i < n ? h[i] : 0;
        pop += x & 1;
        any |= x > 1000000;
        all &= x >= 0;
      }
      ref[(w * 32 / bs) & 255] += pop + any * 64 + all * 4096;
    }
    bool ok = true;
    for (int i = 0; i < 256; ++i)
      ok &= (int)ref[i] == hc[i];
    report("warp_vote", ms, ok);
    CK(cudaFree(in));
    CK(cudaFree(counts));
  }

  // 7. Monte-Carlo pi
  {
    int threads = prop.multiProcessorCount * 2048, per = int(512 * scale) + 1;
    unsigned long long *hits = dalloc<unsigned long long>(1);
    float ms = timeKernel([&] {
      cudaMemsetAsync(hits, 0, 8);
      monteCarloPi<<<threads / 256, 256>>>(12345, per, hits);
    });
    unsigned long long h;
    CK(cudaMemcpy(&h, hits, 8, cudaMemcpyDeviceToHost));
    double pi = 4.0 * double(h) / (double(threads) * per);
    // 1e-3, or ~6 sigma of the estimate when few samples (small scale/device).
    double tol = std::max(1e-3, 10.0 / std::sqrt(double(threads) * per));
    report("monte_carlo_pi", ms, std::fabs(pi - M_PI) < tol);
    CK(cudaFree(hits));
  }

  // 8. dense layer + bias + ReLU
  {
    int batch = scaled2D(1024, scale, 16), in = scaled2D(2048, scale, 16),
        outF = scaled2D(2048, scale, 16);
    std::vector<float> hx(batch * in), hw(outF * in), hb(outF);
    for (int i = 0; i < batch * in; ++i)
      hx[i] = float((i * 13) % 17) * 0.125f - 1.f;
    for (int i = 0; i < outF * in; ++i)
      hw[i] = float((i * 7) % 19) * 0.0625f - 0.5f;
    for (int i = 0; i < outF; ++i)
      hb[i] = float(i % 5) - 2.f;
    float *x = dalloc<float>(batch * in), *W = dalloc<float>(outF * in),
          *bias = dalloc<float>(outF), *y = dalloc<float>(batch * outF);
    CK(cudaMemcpy(x, hx.data(), hx.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(W, hw.data(), hw.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(bias, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
    dim3 g(outF / 16, batch / 16), b(16, 16);
    float ms =
        timeKernel([&] { denseBiasRelu<<<g, b>>>(x, W, bias, y, batch, in, outF); });
    std::vector<float> hy(batch * outF);
    CK(cudaMemcpy(hy.data(), y, hy.size() * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int r = 0; r < batch; r += 97)
      for (int o = 0; o < outF; o += 101) {
        double acc = hb[o];
        for (int k = 0; k < in; ++k)
          acc += double(hx[r * in + k]) * hw[o * in + k];
        ok &= near(hy[r * outF + o], std::max(acc, 0.0), 1e-4);
      }
    report("dense_relu", ms, ok);
    CK(cudaFree(x));
    CK(cudaFree(W));
    CK(cudaFree(bias));
    CK(cudaFree(y));
  }

  // 9. transpose
  {
    int n = scaled2D(8192, scale, 32);
    std::vector<float> h((size_t)n * n);
    for (size_t i = 0; i < h.size(); ++i)
      h[i] = float(i % 100003);
    float *in = dalloc<float>((size_t)n * n), *out = dalloc<float>((size_t)n * n);
    CK(cudaMemcpy(in, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    dim3 g(n / 32, n / 32), b(32, 8);
    float ms = timeKernel([&] { transpose<<<g, b>>>(in, out, n); });
    std::vector<float> o(h.size());
    CK(cudaMemcpy(o.data(), out, o.size() * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int r = 0; r < n; r += 61)
      for (int c = 0; c < n; c += 67)
        ok &= o[(size_t)c * n + r] == h[(size_t)r * n + c];
    report("transpose", ms, ok);
    CK(cudaFree(in));
    CK(cudaFree(out));
  }

  // 10. histogram
  {
    int n = int((1 << 27) * scale);
    std::vector<unsigned char> h(n);
    std::vector<unsigned> ref(256, 0);
    for (int i = 0; i < n; ++i) {
      h[i] = (unsigned char)((i * 2654435761u) >> 13);
      ref[h[i]]++;
    }
    unsigned char *d = dalloc<unsigned char>(n);
    unsigned *bins = dalloc<unsigned>(256);
    CK(cudaMemcpy(d, h.data(), n, cudaMemcpyHostToDevice));
    int gs = prop.multiProcessorCount * 8;
    float ms = timeKernel([&] {
      cudaMemsetAsync(bins, 0, 256 * 4);
      histogram<<<gs, 512>>>(d, n, bins);
    });
    std::vector<unsigned> hb(256);
    CK(cudaMemcpy(hb.data(), bins, 256 * 4, cudaMemcpyDeviceToHost));
    report("histogram", ms, hb == ref);
    CK(cudaFree(d));
    CK(cudaFree(bins));
  }
  std::printf("DONE\n");
  return 0;
}
