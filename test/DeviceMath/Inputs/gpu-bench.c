//===- gpu-bench.c - Throughput of the device math library vs libdevice ---===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
/// \file
/// Times the b_<name> kernels of gpu-kernels.c (32 calls per thread, 2^22
/// threads, arguments in [0.25, 0.78], acosh in [1.75, 2.28]) in two PTX
/// files, normally hetGPU's library and libdevice, through the CUDA driver
/// API, and prints milliseconds per launch and the ratio. Informational
/// (see docs/DeviceMath.md); not a pass/fail test.
///
/// Usage: gpu-bench <ours.ptx> <libdevice.ptx>
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef void *CUcontext, *CUmodule, *CUfunction;
typedef unsigned long long CUdeviceptr;
static CUresult (*cuInit)(unsigned);
static CUresult (*cuDeviceGet)(int *, int);
static CUresult (*cuCtxCreate)(CUcontext *, unsigned, int);
static CUresult (*cuModuleLoadData)(CUmodule *, const void *);
static CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
static CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
static CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
static CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                                  unsigned, unsigned, unsigned, void *, void **, void **);
static CUresult (*cuCtxSynchronize)(void);

#define CHECK(call)                                                            \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_) {                                                                  \
      fprintf(stderr, "%s failed: %d\n", #call, r_);                          \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

static char *readFile(const char *p) {
  FILE *f = fopen(p, "rb");
  if (!f) {
    perror(p);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc(n + 1);
  if (fread(b, 1, n, f) != (size_t)n)
    exit(2);
  b[n] = 0;
  fclose(f);
  return b;
}

static const char *names[] = {
#define HETGPU_MATH_F(N, A) #N "f",
#define HETGPU_MATH_D(N, A) #N,
#include "hetgpu/IR/Builtins.def"
};

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  void *h = dlopen("libcuda.so.1", RTLD_NOW);
  if (!h)
    return 2;
#define L(v, n) *(void **)&v = dlsym(h, n)
  L(cuInit, "cuInit");
  L(cuDeviceGet, "cuDeviceGet");
  L(cuCtxCreate, "cuCtxCreate_v2");
  L(cuModuleLoadData, "cuModuleLoadData");
  L(cuModuleGetFunction, "cuModuleGetFunction");
  L(cuMemAlloc, "cuMemAlloc_v2");
  L(cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  L(cuLaunchKernel, "cuLaunchKernel");
  L(cuCtxSynchronize, "cuCtxSynchronize");
  int dev;
  CUcontext ctx;
  CUmodule mod[2];
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuCtxCreate(&ctx, 0, dev));
  CHECK(cuModuleLoadData(&mod[0], readFile(argv[1])));
  CHECK(cuModuleLoadData(&mod[1], readFile(argv[2])));
  int n = 1 << 22;
  CUdeviceptr dx[2], dy[2], dout;
  CHECK(cuMemAlloc(&dout, n * 8));
  double *hx = malloc(n * 8);
  float *fx = malloc(n * 4);
  for (int k = 0; k < 2; ++k) { // k = 1: shifted for acosh
    for (int i = 0; i < n; ++i) {
      hx[i] = 0.25 + 0.5 * (double)((i * 2654435761u) % 1000003u) / 1000003.0 + 1.5 * k;
      fx[i] = (float)hx[i];
    }
    CHECK(cuMemAlloc(&dx[k], n * 8));
    CHECK(cuMemAlloc(&dy[k], n * 8));
    CHECK(cuMemcpyHtoD(dx[k], hx, n * 8));
    CHECK(cuMemcpyHtoD(dy[k], fx, n * 4));
  }
  printf("%-12s %10s %10s %7s\n", "function", "hetgpu ms", "libdev ms", "ratio");
  double geo = 0;
  int cnt = 0;
  for (unsigned f = 0; f < sizeof names / sizeof names[0]; ++f) {
    int isf = names[f][strlen(names[f]) - 1] == 'f' && strcmp(names[f], "erf") != 0;
    int k = strncmp(names[f], "acosh", 5) == 0;
    double ms[2];
    for (int m = 0; m < 2; ++m) {
      char kn[64];
      snprintf(kn, sizeof kn, "b_%s", names[f]);
      CUfunction fn;
      CHECK(cuModuleGetFunction(&fn, mod[m], kn));
      // Float kernels read float arrays: dy holds the float copy of dx.
      CUdeviceptr a = isf ? dy[k] : dx[k];
      void *args[] = {&a, &a, &dout, &n};
      CHECK(cuLaunchKernel(fn, n / 256, 1, 1, 256, 1, 1, 0, 0, args, 0));
      CHECK(cuCtxSynchronize());
      double t0 = now();
      for (int r = 0; r < 5; ++r)
        CHECK(cuLaunchKernel(fn, n / 256, 1, 1, 256, 1, 1, 0, 0, args, 0));
      CHECK(cuCtxSynchronize());
      ms[m] = (now() - t0) / 5;
    }
    printf("%-12s %10.3f %10.3f %7.2f\n", names[f], ms[0], ms[1], ms[0] / ms[1]);
    geo += __builtin_log(ms[0] / ms[1]);
    ++cnt;
  }
  printf("geomean ratio hetgpu/libdevice: %.2f\n", __builtin_exp(geo / cnt));
  return 0;
}
