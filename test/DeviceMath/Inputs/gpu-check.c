//===- gpu-check.c - Run the NVPTX math library on a GPU, compare to host --===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
/// \file
/// Loads gpu-kernels PTX (kernels + the NVPTX build of the device math
/// library) through the CUDA driver API (libcuda.so.1 via dlopen, no CUDA
/// SDK), evaluates every math builtin on the GPU over special values,
/// random bit patterns and ranges, and compares the results bit for bit
/// with the x86-64 build of the same library linked into this program
/// (which accuracy.test validates against glibc). NaNs compare equal to
/// NaNs. Any difference is printed and makes the exit status non-zero.
///
/// Usage: gpu-check <kernels.ptx> [samples-per-function]
//===----------------------------------------------------------------------===//

#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HM_ARGS_F1 float
#define HM_ARGS_F2 float, float
#define HM_ARGS_D1 double
#define HM_ARGS_D2 double, double
#define HETGPU_MATH_F(N, A) float __hetgpu_math_##N##f(HM_ARGS_F##A);
#define HETGPU_MATH_D(N, A) double __hetgpu_math_##N(HM_ARGS_D##A);
#include "hetgpu/IR/Builtins.def"

typedef int CUresult;
typedef void *CUcontext, *CUmodule, *CUfunction;
typedef unsigned long long CUdeviceptr;
static CUresult (*cuInit)(unsigned);
static CUresult (*cuDeviceGet)(int *, int);
static CUresult (*cuCtxCreate)(CUcontext *, unsigned, int);
static CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
static CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
static CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
static CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
static CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
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

static void *sym(void *h, const char *n) {
  void *p = dlsym(h, n);
  if (!p) {
    fprintf(stderr, "libcuda lacks %s\n", n);
    exit(2);
  }
  return p;
}

static uint64_t rng = 0x2545f4914f6cdd1dULL;
static uint64_t next64(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/// Inputs: specials, then alternately random bit patterns, values in
/// [-8, 8], and values of random magnitude 2^[-30, 30].
static double input(long i, int isfloat) {
  static const double sp[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, INFINITY, -INFINITY,
                              NAN, 0x1p-1074, 0x1p-149, 1e300, -1e300, 3.0e38,
                              1e-40, 710.0, -745.0, 88.5, -103.5, 0x1p52 + 1};
  if (i < (long)(sizeof sp / sizeof sp[0]))
    return sp[i];
  uint64_t b = next64();
  switch (i % 3) {
  case 0:
    if (isfloat) {
      uint32_t u = (uint32_t)b;
      float f;
      memcpy(&f, &u, 4);
      return f;
    }
    double d;
    memcpy(&d, &b, 8);
    return d;
  case 1:
    return ((double)(b >> 11) * 0x1p-53 - 0.5) * 16.0;
  default:
    return ldexp(1.0 + (double)(b >> 11) * 0x1p-53, (int)(b % 61) - 30) *
           ((b >> 7) & 1 ? -1 : 1);
  }
}

typedef struct {
  const char *name;
  int arity, isfloat;
  float (*f1)(float);
  float (*f2)(float, float);
  double (*d1)(double);
  double (*d2)(double, double);
} fn_t;

static fn_t fns[] = {
#define HETGPU_MATH_F(N, A)                                                    \
  {#N "f", A, 1, (float (*)(float))(A == 1 ? (void *)__hetgpu_math_##N##f : 0), \
   (float (*)(float, float))(A == 2 ? (void *)__hetgpu_math_##N##f : 0), 0, 0},
#define HETGPU_MATH_D(N, A)                                                    \
  {#N, A, 0, 0, 0, (double (*)(double))(A == 1 ? (void *)__hetgpu_math_##N : 0), \
   (double (*)(double, double))(A == 2 ? (void *)__hetgpu_math_##N : 0)},
#include "hetgpu/IR/Builtins.def"
};

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: gpu-check kernels.ptx [n]\n");
    return 2;
  }
  int n = argc > 2 ? atoi(argv[2]) : 1 << 20;
  void *h = dlopen("libcuda.so.1", RTLD_NOW);
  if (!h) {
    fprintf(stderr, "cannot load libcuda.so.1: %s\n", dlerror());
    return 2;
  }
  cuInit = sym(h, "cuInit");
  cuDeviceGet = sym(h, "cuDeviceGet");
  cuCtxCreate = sym(h, "cuCtxCreate_v2");
  cuModuleLoadDataEx = sym(h, "cuModuleLoadDataEx");
  cuModuleGetFunction = sym(h, "cuModuleGetFunction");
  cuMemAlloc = sym(h, "cuMemAlloc_v2");
  cuMemcpyHtoD = sym(h, "cuMemcpyHtoD_v2");
  cuMemcpyDtoH = sym(h, "cuMemcpyDtoH_v2");
  cuLaunchKernel = sym(h, "cuLaunchKernel");
  cuCtxSynchronize = sym(h, "cuCtxSynchronize");

  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *ptx = malloc(len + 1);
  if (fread(ptx, 1, len, f) != (size_t)len)
    return 2;
  ptx[len] = 0;
  fclose(f);

  int dev;
  CUcontext ctx;
  CUmodule mod;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuCtxCreate(&ctx, 0, dev));
  static char log[16384];
  int opts[] = {5 /*ERROR_LOG_BUFFER*/, 6 /*ERROR_LOG_BUFFER_SIZE_BYTES*/};
  void *vals[] = {log, (void *)(uintptr_t)sizeof log};
  if (cuModuleLoadDataEx(&mod, ptx, 2, opts, vals)) {
    fprintf(stderr, "PTX JIT failed:\n%s\n", log);
    return 2;
  }

  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  double *o = malloc(n * sizeof(double));
  CUdeviceptr dx, dy, dout;
  CHECK(cuMemAlloc(&dx, n * sizeof(double)));
  CHECK(cuMemAlloc(&dy, n * sizeof(double)));
  CHECK(cuMemAlloc(&dout, n * sizeof(double)));
  int bad_fns = 0;
  long total = 0;
  for (unsigned k = 0; k < sizeof fns / sizeof fns[0]; ++k) {
    fn_t *F = &fns[k];
    size_t es = F->isfloat ? sizeof(float) : sizeof(double);
    for (int i = 0; i < n; ++i) {
      double a = input(i, F->isfloat), b = input((i * 7 + 3) % n, F->isfloat);
      if (F->isfloat) {
        ((float *)x)[i] = (float)a;
        ((float *)y)[i] = (float)b;
      } else {
        x[i] = a;
        y[i] = b;
      }
    }
    CHECK(cuMemcpyHtoD(dx, x, n * es));
    CHECK(cuMemcpyHtoD(dy, y, n * es));
    char kname[64];
    snprintf(kname, sizeof kname, "k_%s", F->name);
    CUfunction fn;
    CHECK(cuModuleGetFunction(&fn, mod, kname));
    void *args[] = {&dx, &dy, &dout, &n};
    CHECK(cuLaunchKernel(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, 0, args, 0));
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(o, dout, n * es));
    long diff = 0;
    for (int i = 0; i < n; ++i) {
      uint64_t gb, hb;
      int same;
      double hv, gv;
      if (F->isfloat) {
        float xi = ((float *)x)[i], yi = ((float *)y)[i];
        float hf = F->arity == 1 ? F->f1(xi) : F->f2(xi, yi);
        float gf = ((float *)o)[i];
        uint32_t a32, b32;
        memcpy(&a32, &hf, 4);
        memcpy(&b32, &gf, 4);
        same = a32 == b32 || (hf != hf && gf != gf);
        hv = hf, gv = gf, hb = a32, gb = b32;
      } else {
        hv = F->arity == 1 ? F->d1(x[i]) : F->d2(x[i], y[i]);
        gv = o[i];
        memcpy(&hb, &hv, 8);
        memcpy(&gb, &gv, 8);
        same = hb == gb || (hv != hv && gv != gv);
      }
      if (!same && diff++ < 3)
        printf("  %s(%a, %a): gpu %a host %a\n", F->name,
               F->isfloat ? (double)((float *)x)[i] : x[i],
               F->isfloat ? (double)((float *)y)[i] : y[i], gv, hv);
    }
    total += n;
    printf("%-12s %s (%ld of %d differ)\n", F->name, diff ? "DIFFERS" : "identical", diff, n);
    bad_fns += diff != 0;
  }
  printf("%s: %d of %d functions differ from the host build (%ld evaluations)\n",
         bad_fns ? "FAILED" : "PASSED", bad_fns, (int)(sizeof fns / sizeof fns[0]), total);
  return bad_fns != 0;
}
