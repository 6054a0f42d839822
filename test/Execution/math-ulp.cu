// Every math function of the hetIR table, float and double, on the GPU
// against the host's libm (evaluated in double / long double) in ulps, with
// CUDA's documented maximum ulp errors as the bounds.
// REQUIRES: gpu-nvidia
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=nvidia %t | FileCheck %s
// CHECK: device: NVIDIA
// CHECK: 66 functions within CUDA's ulp bounds
// CHECK: PASS
// CHECK-NOT: FAIL
#include "Inputs/gpu.h"
#include <cmath>
#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

// X(name, arity, lo, hi, lo2, hi2, float bound, double bound)
#define MATH_FUNCTIONS(X)                                                      \
  X(sin, 1, -100, 100, 0, 0, 2, 2)                                             \
  X(cos, 1, -100, 100, 0, 0, 2, 2)                                             \
  X(tan, 1, -10, 10, 0, 0, 4, 2)                                               \
  X(asin, 1, -1, 1, 0, 0, 2, 2)                                                \
  X(acos, 1, -1, 1, 0, 0, 2, 2)                                                \
  X(atan, 1, -50, 50, 0, 0, 2, 2)                                              \
  X(atan2, 2, -10, 10, -10, 10, 3, 2)                                          \
  X(sinh, 1, -20, 20, 0, 0, 3, 2)                                              \
  X(cosh, 1, -20, 20, 0, 0, 2, 1)                                              \
  X(tanh, 1, -10, 10, 0, 0, 2, 1)                                              \
  X(asinh, 1, -100, 100, 0, 0, 3, 3)                                           \
  X(acosh, 1, 1, 100, 0, 0, 4, 3)                                              \
  X(atanh, 1, -0.99, 0.99, 0, 0, 3, 2)                                         \
  X(exp, 1, -80, 80, 0, 0, 2, 1)                                               \
  X(exp2, 1, -120, 120, 0, 0, 2, 1)                                            \
  X(exp10, 1, -35, 35, 0, 0, 2, 1)                                             \
  X(expm1, 1, -20, 20, 0, 0, 1, 1)                                             \
  X(log, 1, 1e-3, 1e4, 0, 0, 1, 1)                                             \
  X(log2, 1, 1e-3, 1e4, 0, 0, 1, 1)                                            \
  X(log10, 1, 1e-3, 1e4, 0, 0, 2, 1)                                           \
  X(log1p, 1, -0.9, 100, 0, 0, 1, 1)                                           \
  X(logb, 1, 1e-3, 1e6, 0, 0, 0, 0)                                            \
  X(pow, 2, 0.01, 20, -10, 10, 4, 2)                                           \
  X(cbrt, 1, -1000, 1000, 0, 0, 1, 1)                                          \
  X(hypot, 2, -100, 100, -100, 100, 3, 2)                                      \
  X(erf, 1, -4, 4, 0, 0, 2, 2)                                                 \
  X(erfc, 1, -3, 9, 0, 0, 4, 5)                                                \
  X(lgamma, 1, 0.01, 30, 0, 0, 6, 4)                                           \
  X(tgamma, 1, 0.05, 30, 0, 0, 5, 10)                                          \
  X(fmod, 2, -100, 100, 0.5, 7, 0, 0)                                          \
  X(remainder, 2, -100, 100, 0.5, 7, 0, 0)                                     \
  X(nextafter, 2, -100, 100, -100, 100, 0, 0)                                  \
  X(fdim, 2, -100, 100, -100, 100, 0, 0)

enum Fn {
#define ENUM(name, ...) F_##name,
  MATH_FUNCTIONS(ENUM)
#undef ENUM
      NumFns
};

#define CALL1F(name) name##f(x)
#define CALL2F(name) name##f(x, y)
#define CALL1D(name) name(x)
#define CALL2D(name) name(x, y)

__device__ float evalF(int f, float x, float y) {
  switch (f) {
#define CASE(name, arity, ...)                                                 \
  case F_##name:                                                               \
    return CALL##arity##F(name);
    MATH_FUNCTIONS(CASE)
#undef CASE
  }
  return 0;
}
__device__ double evalD(int f, double x, double y) {
  switch (f) {
#define CASE(name, arity, ...)                                                 \
  case F_##name:                                                               \
    return CALL##arity##D(name);
    MATH_FUNCTIONS(CASE)
#undef CASE
  }
  return 0;
}

__global__ void runF(int f, const float *x, const float *y, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = evalF(f, x[i], y[i]);
}
__global__ void runD(int f, const double *x, const double *y, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = evalD(f, x[i], y[i]);
}

// High-precision host references.
static long double refL(int f, long double x, long double y) {
  switch (f) {
#define CALL1L(name) name##l(x)
#define CALL2L(name) name##l(x, y)
#define CASE(name, arity, ...)                                                 \
  case F_##name:                                                               \
    return CALL##arity##L(name);
    MATH_FUNCTIONS(CASE)
#undef CASE
  }
  return 0;
}

// Exactly rounded functions (bound 0) are compared with the host's own
// float/double function, which is exact too.
static float refF(int f, float x, float y) {
  switch (f) {
#define CASE(name, arity, ...)                                                 \
  case F_##name:                                                               \
    return CALL##arity##F(name);
    MATH_FUNCTIONS(CASE)
#undef CASE
  }
  return 0;
}
static double refD(int f, double x, double y) {
  switch (f) {
#define CASE(name, arity, ...)                                                 \
  case F_##name:                                                               \
    return CALL##arity##D(name);
    MATH_FUNCTIONS(CASE)
#undef CASE
  }
  return 0;
}

template <typename T> static double ulpError(T got, long double ref) {
  if (std::isnan(ref))
    return std::isnan(got) ? 0 : 1e9;
  if (std::isinf(ref) || std::isinf((T)ref))
    return got == (T)ref ? 0 : 1e9;
  int e;
  std::frexp((T)ref == 0 ? std::numeric_limits<T>::min() : (T)ref, &e);
  int digits = std::numeric_limits<T>::digits;
  long double ulp = std::ldexp((long double)1, std::max(e - digits,
                                 std::numeric_limits<T>::min_exponent - digits));
  return (double)(std::fabs((long double)got - ref) / ulp);
}

struct Spec {
  const char *name;
  int arity;
  double lo, hi, lo2, hi2, boundF, boundD;
};
static const Spec Specs[] = {
#define SPEC(name, arity, lo, hi, lo2, hi2, bf, bd)                            \
  {#name, arity, lo, hi, lo2, hi2, bf, bd},
    MATH_FUNCTIONS(SPEC)
#undef SPEC
};

int main() {
  printDevice();
  const int N = 1 << 14;
  std::vector<float> xf(N), yf(N), of(N);
  std::vector<double> xd(N), yd(N), od(N);
  float *dxf, *dyf, *dof;
  double *dxd, *dyd, *dod;
  CK(cudaMalloc(&dxf, N * 4));
  CK(cudaMalloc(&dyf, N * 4));
  CK(cudaMalloc(&dof, N * 4));
  CK(cudaMalloc(&dxd, N * 8));
  CK(cudaMalloc(&dyd, N * 8));
  CK(cudaMalloc(&dod, N * 8));
  int passed = 0, failed = 0;
  unsigned long long s = 0x1234567;
  auto rnd = [&] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return double(s >> 11) * (1.0 / 9007199254740992.0);
  };
  for (int f = 0; f < NumFns; ++f) {
    const Spec &S = Specs[f];
    for (int i = 0; i < N; ++i) {
      // Half the points uniform, half clustered near the low end.
      double u = rnd(), v = rnd();
      double x = i % 2 ? S.lo + (S.hi - S.lo) * u
                       : S.lo + (S.hi - S.lo) * u * u * u * u;
      double y = S.arity == 2 ? S.lo2 + (S.hi2 - S.lo2) * v : 0;
      xd[i] = x;
      yd[i] = y;
      xf[i] = float(x);
      yf[i] = float(y);
    }
    CK(cudaMemcpy(dxf, xf.data(), N * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dyf, yf.data(), N * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dxd, xd.data(), N * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dyd, yd.data(), N * 8, cudaMemcpyHostToDevice));
    runF<<<N / 256, 256>>>(f, dxf, dyf, dof, N);
    runD<<<N / 256, 256>>>(f, dxd, dyd, dod, N);
    CK(cudaGetLastError());
    CK(cudaMemcpy(of.data(), dof, N * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(od.data(), dod, N * 8, cudaMemcpyDeviceToHost));
    double worstF = 0, worstD = 0;
    int atF = 0, atD = 0;
    for (int i = 0; i < N; ++i) {
      long double rf = S.boundF == 0 ? refF(f, xf[i], yf[i]) : refL(f, xf[i], yf[i]);
      long double rd = S.boundD == 0 ? refD(f, xd[i], yd[i]) : refL(f, xd[i], yd[i]);
      double ef = ulpError<float>(of[i], rf);
      double ed = ulpError<double>(od[i], rd);
      if (ef > worstF)
        worstF = ef, atF = i;
      if (ed > worstD)
        worstD = ed, atD = i;
    }
    // 0.5 ulp of slack for the reference's own rounding.
    bool okF = worstF <= S.boundF + 0.5, okD = worstD <= S.boundD + 0.5;
    std::printf("%-10s float %6.2f ulp (bound %g)  double %6.2f ulp (bound %g)\n",
                S.name, worstF, S.boundF, worstD, S.boundD);
    if (!okF)
      std::printf("FAIL %sf(%.9g, %.9g) = %.9g, %.2f ulp\n", S.name, xf[atF],
                  yf[atF], of[atF], worstF);
    if (!okD)
      std::printf("FAIL %s(%.17g, %.17g) = %.17g, %.2f ulp\n", S.name, xd[atD],
                  yd[atD], od[atD], worstD);
    passed += okF + okD;
    failed += !okF + !okD;
  }
  if (failed)
    std::printf("FAIL %d of %d functions exceed CUDA's ulp bounds\n", failed,
                passed + failed);
  else
    std::printf("%d functions within CUDA's ulp bounds\n", passed);
  std::printf(failed ? "FAILED\n" : "PASS\n");
  return failed != 0;
}
