// bench/migration/overhead.cu - steady-state cost of the migration
// instrumentation: the same kernels timed with and without
// HETGPU_MIGRATE=on (instrumented, never triggered). bench/migration/run.sh
// runs both in alternation and prints the ratios.
//
//   overhead [scale]    scale multiplies the problem sizes (default 1: a
//                       few ms to 100 ms per kernel on the CPU device; the
//                       GPU runs use 32)
//
// Prints "KERNEL <name> <ms> <ok|FAIL>" per kernel: best of 5 launches
// (cudaEvent timing) after one warm-up launch, and a check of the result.
// SPDX-License-Identifier: Apache-2.0
#include <cstdio>
#include <cstdlib>
#include <vector>

// No barrier (short blocks).
__global__ void vecadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

// No barrier, a long loop per thread.
__global__ void saxpyLoop(float *y, const float *x, int n, int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float acc = y[i];
  for (int r = 0; r < reps; ++r)
    acc = 1.0001f * acc + x[i];
  y[i] = acc;
}

// Tree reduction: 9 barriers per block.
__global__ void reduce(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (int k = 128; k > 0; k >>= 1) {
    if (t < k)
      s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// Two barriers per iteration of a loop.
__global__ void stencil(float *d, int iters) {
  __shared__ float s[256];
  int t = threadIdx.x, g = blockIdx.x * 256 + t;
  float v = d[g];
  for (int i = 0; i < iters; ++i) {
    s[t] = v;
    __syncthreads();
    v = 0.25f * (s[(t + 255) & 255] + s[(t + 1) & 255]) + 0.5f * v;
    __syncthreads();
  }
  d[g] = v;
}

// Tiled matrix multiply (16 x 16 tiles in shared memory, two barriers per
// tile step).
__global__ void matmul(const float *a, const float *b, float *c, int n) {
  __shared__ float ta[16][16], tb[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k = 0; k < n; k += 16) {
    ta[ty][tx] = a[row * n + k + tx];
    tb[ty][tx] = b[(k + ty) * n + col];
    __syncthreads();
    for (int j = 0; j < 16; ++j)
      acc += ta[ty][j] * tb[j][tx];
    __syncthreads();
  }
  c[row * n + col] = acc;
}

// Shared-memory histogram: shared atomics between two barriers.
__global__ void histogram(const unsigned *in, unsigned *bins, int perThread) {
  __shared__ unsigned h[64];
  int t = threadIdx.x;
  if (t < 64)
    h[t] = 0;
  __syncthreads();
  int base = (blockIdx.x * blockDim.x + t) * perThread;
  for (int i = 0; i < perThread; ++i)
    atomicAdd(&h[(in[base + i] * 2654435761u) >> 26], 1u);
  __syncthreads();
  if (t < 64)
    atomicAdd(&bins[t], h[t]);
}

/// Times \p launch (best of several); returns how many launches it made.
template <typename F> static int timeIt(const char *name, F launch, bool ok) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  launch();
  cudaDeviceSynchronize();
  // Short kernels are timed more often (about 100 ms of launches, 5 to 200
  // of them): their best time is otherwise mostly noise.
  cudaEventRecord(a);
  launch();
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float first;
  cudaEventElapsedTime(&first, a, b);
  int reps = first > 0 ? int(100.0f / first) : 200;
  reps = reps < 5 ? 5 : reps > 200 ? 200 : reps;
  float best = first;
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(a);
    launch();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    best = ms < best ? ms : best;
  }
  printf("KERNEL %s %.4f %s\n", name, best,
         ok && cudaGetLastError() == cudaSuccess ? "ok" : "FAIL");
  fflush(stdout);
  return 2 + reps;
}

/// A result check after the timing: a failure is a KERNEL line with FAIL.
static void check(const char *name, bool ok) {
  if (!ok)
    printf("KERNEL %s-result 0 FAIL\n", name);
}

/// Device memory (cudaMalloc) filled from \p H: managed memory of a
/// migratable process is host memory on a discrete GPU (docs/Migration.md),
/// which would measure its placement, not the instrumentation.
template <typename T> static T *toDevice(const std::vector<T> &H) {
  T *D = nullptr;
  cudaMalloc(&D, H.size() * sizeof(T));
  cudaMemcpy(D, H.data(), H.size() * sizeof(T), cudaMemcpyHostToDevice);
  return D;
}
template <typename T> static std::vector<T> fromDevice(const T *D, size_t N) {
  std::vector<T> H(N);
  cudaMemcpy(H.data(), D, N * sizeof(T), cudaMemcpyDeviceToHost);
  return H;
}

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 1;
  if (scale < 1)
    scale = 1;
  const int N = (1 << 18) * scale;
  std::vector<float> ha(N), hb(N);
  for (int i = 0; i < N; ++i) {
    ha[i] = 1.0f;
    hb[i] = float(i & 7);
  }
  float *a = toDevice(ha), *b = toDevice(hb), *c = toDevice(std::vector<float>(N));
  timeIt("vecadd", [&] { vecadd<<<N / 256, 256>>>(a, b, c, N); }, true);
  check("vecadd", fromDevice(c, 16)[9] == 2.0f);
  timeIt("saxpyloop", [&] { saxpyLoop<<<N / 1024, 256>>>(c, a, N / 4, 256); }, true);
  timeIt("reduce", [&] { reduce<<<N / 256, 256>>>(a, c); }, true);
  {
    std::vector<float> hc = fromDevice(c, N / 256);
    check("reduce", hc[0] == 256.0f && hc[N / 256 - 1] == 256.0f);
  }
  timeIt("stencil", [&] { stencil<<<64 * scale, 256>>>(b, 50); }, true);

  // Square matrices, n = 128 * 2^k with n^2 <= 4 * 128^2 * scale.
  int n = 128;
  while ((n * 2) * (n * 2) <= 128 * 128 * 4 * scale)
    n *= 2;
  std::vector<float> hma(size_t(n) * n), hmb(size_t(n) * n);
  for (int i = 0; i < n * n; ++i) {
    hma[i] = float(i % 3);
    hmb[i] = i / n == i % n ? 1.0f : 0.0f; // identity
  }
  float *ma = toDevice(hma), *mb = toDevice(hmb),
        *mc = toDevice(std::vector<float>(size_t(n) * n));
  timeIt("matmul", [&] { matmul<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(ma, mb, mc, n); },
         true);
  {
    std::vector<float> hmc = fromDevice(mc, size_t(n) * n);
    check("matmul", hmc[5] == hma[5] && hmc[n * n - 1] == hma[n * n - 1]);
  }

  const int PerThread = 64, Threads = N / 16;
  std::vector<unsigned> hin(size_t(Threads) * PerThread);
  for (int i = 0; i < Threads * PerThread; ++i)
    hin[i] = unsigned(i);
  unsigned *in = toDevice(hin), *bins = toDevice(std::vector<unsigned>(64));
  int launches = timeIt(
      "histogram", [&] { histogram<<<Threads / 256, 256>>>(in, bins, PerThread); },
      true);
  unsigned total = 0;
  for (unsigned v : fromDevice(bins, 64))
    total += v;
  // Every launch counts every element once.
  check("histogram", total == unsigned(launches) * unsigned(Threads) * PerThread);
  return 0;
}
