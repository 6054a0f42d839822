//===- ocl_bench.cpp - bench.cu's kernel set in OpenCL (PoCL baseline) ----===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Plain OpenCL host code running bench/cpu/kernels.cl with the problem
/// sizes, launch shapes, reference checks and output format of
/// bench/nvidia/bench.cu, so that compare.py can put the two side by side.
/// Usage: ocl_bench KERNELS.cl [scale [reps]]. Each kernel is warmed up
/// (3 launches), then timed with the wall clock over `reps` enqueues and a
/// clFinish. "Multiprocessors" = CL_DEVICE_MAX_COMPUTE_UNITS.
///
//===----------------------------------------------------------------------===//

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#define CK(x)                                                                  \
  do {                                                                         \
    cl_int e_ = (x);                                                           \
    if (e_ != CL_SUCCESS) {                                                    \
      std::printf("OpenCL error %d at %s:%d\n", e_, __FILE__, __LINE__);       \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

static cl_context Ctx;
static cl_command_queue Q;
static cl_program Prog;
static int Reps = 20;

static double nowMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

static cl_kernel kernel(const char *Name) {
  cl_int E;
  cl_kernel K = clCreateKernel(Prog, Name, &E);
  CK(E);
  return K;
}

static void check(cl_int E, int Line) {
  if (E != CL_SUCCESS) {
    std::printf("OpenCL error %d at %s:%d\n", E, __FILE__, Line);
    std::exit(1);
  }
}

template <typename... Ts> static void setArgs(cl_kernel K, const Ts &...A) {
  cl_uint I = 0;
  (check(clSetKernelArg(K, I++, sizeof(Ts), &A), __LINE__), ...);
}

static void launch(cl_kernel K, size_t Gx, size_t Lx, size_t Gy = 1,
                   size_t Ly = 1) {
  size_t G[2] = {Gx * Lx, Gy * Ly}, L[2] = {Lx, Ly};
  CK(clEnqueueNDRangeKernel(Q, K, 2, nullptr, G, L, 0, nullptr, nullptr));
}

static float timeKernel(const std::function<void()> &F) {
  for (int I = 0; I < 3; ++I)
    F();
  CK(clFinish(Q));
  double T0 = nowMs();
  for (int I = 0; I < Reps; ++I)
    F();
  CK(clFinish(Q));
  return float((nowMs() - T0) / Reps);
}

static void report(const char *Name, float Ms, bool Ok) {
  std::printf("KERNEL %-14s %10.4f %s\n", Name, Ms, Ok ? "ok" : "FAIL");
}

static cl_mem buf(size_t Bytes, const void *Init = nullptr) {
  cl_int E;
  cl_mem M = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, Bytes, nullptr, &E);
  CK(E);
  if (Init)
    CK(clEnqueueWriteBuffer(Q, M, CL_TRUE, 0, Bytes, Init, 0, nullptr,
                            nullptr));
  return M;
}

static void read(cl_mem M, size_t Bytes, void *Dst) {
  CK(clEnqueueReadBuffer(Q, M, CL_TRUE, 0, Bytes, Dst, 0, nullptr, nullptr));
}

static void zero(cl_mem M, size_t Bytes) {
  cl_uchar Z = 0;
  CK(clEnqueueFillBuffer(Q, M, &Z, 1, 0, Bytes, 0, nullptr, nullptr));
}

static int scaled2D(int Base, double Scale, int Mult) {
  int N = int(Base * std::sqrt(Scale)) / Mult * Mult;
  return std::max(N, Mult);
}

static bool near(double A, double B, double Tol) {
  return std::fabs(A - B) <= Tol * std::max(1.0, std::fabs(B));
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s kernels.cl [scale [reps]]\n", argv[0]);
    return 2;
  }
  double Scale = argc > 2 ? std::atof(argv[2]) : 1.0;
  if (argc > 3)
    Reps = std::max(1, std::atoi(argv[3]));

  cl_platform_id Plat;
  cl_device_id Dev;
  CK(clGetPlatformIDs(1, &Plat, nullptr));
  CK(clGetDeviceIDs(Plat, CL_DEVICE_TYPE_ALL, 1, &Dev, nullptr));
  char DevName[256] = {0};
  cl_uint CUs = 1;
  CK(clGetDeviceInfo(Dev, CL_DEVICE_NAME, sizeof(DevName), DevName, nullptr));
  CK(clGetDeviceInfo(Dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(CUs), &CUs,
                     nullptr));
  std::printf("DEVICE %s (%u compute units)\n", DevName, CUs);
  cl_int E;
  Ctx = clCreateContext(nullptr, 1, &Dev, nullptr, nullptr, &E);
  CK(E);
  Q = clCreateCommandQueue(Ctx, Dev, 0, &E);
  CK(E);

  std::ifstream In(argv[1]);
  std::stringstream SS;
  SS << In.rdbuf();
  std::string Src = SS.str();
  const char *SrcP = Src.c_str();
  Prog = clCreateProgramWithSource(Ctx, 1, &SrcP, nullptr, &E);
  CK(E);
  double T0 = nowMs();
  if (clBuildProgram(Prog, 1, &Dev, "-cl-std=CL1.2", nullptr, nullptr) !=
      CL_SUCCESS) {
    char Log[16384] = {0};
    clGetProgramBuildInfo(Prog, Dev, CL_PROGRAM_BUILD_LOG, sizeof(Log), Log,
                          nullptr);
    std::printf("build failed:\n%s\n", Log);
    return 1;
  }
  cl_kernel Empty = kernel("emptyKernel");
  launch(Empty, 1, 32);
  CK(clFinish(Q));
  std::printf("FIRST %.3f\n", nowMs() - T0); // clBuildProgram + first launch
  {
    const int N = 2000;
    double T = nowMs();
    for (int I = 0; I < N; ++I) {
      launch(Empty, 1, 32);
      CK(clFinish(Q));
    }
    std::printf("LAUNCH %.3f\n", (nowMs() - T) * 1000.0 / N);
  }
  int SMs = int(CUs);

  // 1. vector add and 2. SAXPY
  {
    int n = int((1 << 26) * Scale);
    std::vector<float> ha(n), hb(n);
    for (int i = 0; i < n; ++i) {
      ha[i] = float(i % 1000) * 0.5f;
      hb[i] = float(i % 777) * 0.25f;
    }
    cl_mem a = buf(n * 4, ha.data()), b = buf(n * 4, hb.data()),
           c = buf(n * 4);
    int bs = 256, gs = (n + bs - 1) / bs;
    cl_kernel K = kernel("vecAdd");
    setArgs(K, a, b, c, n);
    float ms = timeKernel([&] { launch(K, gs, bs); });
    std::vector<float> hc(n);
    read(c, n * 4, hc.data());
    bool ok = true;
    for (int i = 0; i < n; i += 997)
      ok &= hc[i] == ha[i] + hb[i];
    report("vector_add", ms, ok);

    CK(clEnqueueWriteBuffer(Q, c, CL_TRUE, 0, n * 4, hb.data(), 0, nullptr,
                            nullptr));
    cl_kernel S = kernel("saxpy");
    float alpha = 1.5f;
    int sgs = SMs * 8;
    setArgs(S, n, alpha, a, c);
    ms = timeKernel([&] { launch(S, sgs, 256); });
    setArgs(S, n, alpha, a, b);
    launch(S, sgs, 256);
    read(b, n * 4, hc.data());
    ok = true;
    for (int i = 0; i < n; i += 997)
      ok &= near(hc[i], 1.5f * ha[i] + hb[i], 1e-6);
    report("saxpy", ms, ok);
  }

  // 3. tiled matmul
  {
    int n = scaled2D(2048, Scale, 32);
    std::vector<float> hA(n * n), hB(n * n), hC(n * n);
    for (int i = 0; i < n * n; ++i) {
      hA[i] = float((i * 7) % 13) - 6.f;
      hB[i] = float((i * 5) % 11) - 5.f;
    }
    cl_mem A = buf(n * n * 4, hA.data()), B = buf(n * n * 4, hB.data()),
           C = buf(n * n * 4);
    cl_kernel K = kernel("matmul");
    setArgs(K, A, B, C, n);
    float ms = timeKernel([&] { launch(K, n / 32, 32, n / 32, 32); });
    read(C, n * n * 4, hC.data());
    bool ok = true;
    for (int r = 0; r < n; r += 331)
      for (int c = 0; c < n; c += 257) {
        double ref = 0;
        for (int k = 0; k < n; ++k)
          ref += double(hA[r * n + k]) * hB[k * n + c];
        ok &= near(hC[r * n + c], ref, 1e-5);
      }
    report("matmul", ms, ok);
  }

  // 4. reduction
  {
    int n = int((1 << 26) * Scale);
    std::vector<float> h(n);
    double ref = 0;
    for (int i = 0; i < n; ++i) {
      h[i] = float(i % 16) * 0.0625f;
      ref += h[i];
    }
    cl_mem in = buf(n * 4, h.data()), out = buf(4);
    cl_kernel K = kernel("reduceSum");
    setArgs(K, in, out, n);
    float ms = timeKernel([&] {
      zero(out, 4);
      launch(K, SMs * 8, 512);
    });
    float got;
    read(out, 4, &got);
    report("reduction", ms, near(got, ref, 1e-4));
  }

  // 5. shuffle scan
  {
    int n = int((1 << 26) * Scale);
    std::vector<int> h(n), o(n);
    for (int i = 0; i < n; ++i)
      h[i] = (i * 3) % 7;
    cl_mem in = buf(n * 4, h.data()), out = buf(n * 4);
    int bs = 1024, gs = (n + bs - 1) / bs;
    cl_kernel K = kernel("blockScan");
    setArgs(K, in, out, n);
    float ms = timeKernel([&] { launch(K, gs, bs); });
    read(out, n * 4, o.data());
    bool ok = true;
    for (int blk = 0; blk < gs && ok; blk += 4099) {
      int s = 0;
      for (int t = 0; t < bs && blk * bs + t < n; ++t) {
        s += h[blk * bs + t];
        ok &= o[blk * bs + t] == s;
      }
    }
    report("shuffle_scan", ms, ok);
  }

  // 6. warp vote
  {
    int n = int((1 << 26) * Scale);
    std::vector<int> h(n), hc(256);
    for (int i = 0; i < n; ++i)
      h[i] = (i * 2654435761u) % 2000003;
    cl_mem in = buf(n * 4, h.data()), counts = buf(256 * 4);
    int bs = 256, gs = (n + bs - 1) / bs;
    cl_kernel K = kernel("warpVote");
    setArgs(K, in, counts, n);
    float ms = timeKernel([&] { launch(K, gs, bs); });
    zero(counts, 256 * 4);
    launch(K, gs, bs);
    read(counts, 256 * 4, hc.data());
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
  }

  // 7. Monte-Carlo pi
  {
    int threads = SMs * 2048, per = int(512 * Scale) + 1;
    cl_mem hits = buf(8);
    cl_kernel K = kernel("monteCarloPi");
    cl_ulong seed = 12345;
    setArgs(K, seed, per, hits);
    float ms = timeKernel([&] {
      zero(hits, 8);
      launch(K, threads / 256, 256);
    });
    cl_ulong h;
    read(hits, 8, &h);
    double pi = 4.0 * double(h) / (double(threads) * per);
    double tol = std::max(1e-3, 10.0 / std::sqrt(double(threads) * per));
    report("monte_carlo_pi", ms, std::fabs(pi - M_PI) < tol);
  }

  // 8. dense layer + bias + ReLU
  {
    int batch = scaled2D(1024, Scale, 16), in = scaled2D(2048, Scale, 16),
        outF = scaled2D(2048, Scale, 16);
    std::vector<float> hx(batch * in), hw(outF * in), hb(outF),
        hy(batch * outF);
    for (int i = 0; i < batch * in; ++i)
      hx[i] = float((i * 13) % 17) * 0.125f - 1.f;
    for (int i = 0; i < outF * in; ++i)
      hw[i] = float((i * 7) % 19) * 0.0625f - 0.5f;
    for (int i = 0; i < outF; ++i)
      hb[i] = float(i % 5) - 2.f;
    cl_mem x = buf(hx.size() * 4, hx.data()), W = buf(hw.size() * 4, hw.data()),
           bias = buf(hb.size() * 4, hb.data()), y = buf(hy.size() * 4);
    cl_kernel K = kernel("denseBiasRelu");
    setArgs(K, x, W, bias, y, batch, in, outF);
    float ms = timeKernel([&] { launch(K, outF / 16, 16, batch / 16, 16); });
    read(y, hy.size() * 4, hy.data());
    bool ok = true;
    for (int r = 0; r < batch; r += 97)
      for (int o = 0; o < outF; o += 101) {
        double acc = hb[o];
        for (int k = 0; k < in; ++k)
          acc += double(hx[r * in + k]) * hw[o * in + k];
        ok &= near(hy[r * outF + o], std::max(acc, 0.0), 1e-4);
      }
    report("dense_relu", ms, ok);
  }

  // 9. transpose
  {
    int n = scaled2D(8192, Scale, 32);
    std::vector<float> h((size_t)n * n), o(h.size());
    for (size_t i = 0; i < h.size(); ++i)
      h[i] = float(i % 100003);
    cl_mem in = buf(h.size() * 4, h.data()), out = buf(h.size() * 4);
    cl_kernel K = kernel("transpose");
    setArgs(K, in, out, n);
    float ms = timeKernel([&] { launch(K, n / 32, 32, n / 32, 8); });
    read(out, o.size() * 4, o.data());
    bool ok = true;
    for (int r = 0; r < n; r += 61)
      for (int c = 0; c < n; c += 67)
        ok &= o[(size_t)c * n + r] == h[(size_t)r * n + c];
    report("transpose", ms, ok);
  }

  // 10. histogram
  {
    int n = int((1 << 27) * Scale);
    std::vector<unsigned char> h(n);
    std::vector<unsigned> ref(256, 0), hb(256);
    for (int i = 0; i < n; ++i) {
      h[i] = (unsigned char)((i * 2654435761u) >> 13);
      ref[h[i]]++;
    }
    cl_mem d = buf(n, h.data()), bins = buf(256 * 4);
    cl_kernel K = kernel("histogram");
    setArgs(K, d, n, bins);
    float ms = timeKernel([&] {
      zero(bins, 256 * 4);
      launch(K, SMs * 8, 512);
    });
    read(bins, 256 * 4, hb.data());
    report("histogram", ms, hb == ref);
  }
  std::printf("DONE\n");
  return 0;
}
