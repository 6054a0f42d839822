//===- ulp-harness.c - Accuracy test of the hetGPU device math library ----===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
/// \file
/// Links against hetgpu-math-x86_64-unknown-linux-gnu.bc (the library as it
/// ships, compiled for the host) and compares every `__hetgpu_math_*`
/// builtin of include/hetgpu/IR/Builtins.def with glibc's x87 long double
/// libm (11 more bits than double) over special values, random bit
/// patterns and per-function ranges. Reports the max error in ulps of the
/// result type (measured against the unrounded long double reference) and
/// fails when one exceeds the CUDA Programming Guide's documented maximum
/// (table below), or when a special value (NaN, inf, signed zero) differs.
///
/// Usage: ulp-harness [samples-per-range] [function-name-filter]
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The library under test.
#define HM_ARGS_F1 float
#define HM_ARGS_F2 float, float
#define HM_ARGS_D1 double
#define HM_ARGS_D2 double, double
#define HETGPU_MATH_F(N, A) float __hetgpu_math_##N##f(HM_ARGS_F##A);
#define HETGPU_MATH_D(N, A) double __hetgpu_math_##N(HM_ARGS_D##A);
#include "hetgpu/IR/Builtins.def"

typedef long double (*ref1_t)(long double);
typedef long double (*ref2_t)(long double, long double);

enum { S_END, S_UNIF, S_LOG, S_BITS, S_INTY };
typedef struct {
  int kind;
  double a, b; // S_UNIF: [a, b]; S_LOG: |x| = 2^[a, b], random sign if b2<0
  int neg;     // S_LOG: allow negative values
} sampler_t;

typedef struct {
  const char *name;
  int arity;
  double bound_f, bound_d; // CUDA maximum ulp error, float / double
  ref1_t ref1;
  ref2_t ref2;
  float (*f1)(float);
  double (*d1)(double);
  float (*f2)(float, float);
  double (*d2)(double, double);
  sampler_t s[6];  // x samplers (1-arg) or x samplers paired with ys
  sampler_t ys[6]; // y samplers for 2-arg (paired by index)
  double skip_lo_f, skip_hi_f, skip_lo_d, skip_hi_d; // excluded x range
} fn_t;

static long double r_exp10(long double x) { return exp10l(x); }
static long double r_lgamma(long double x) { return lgammal(x); }
/// Placeholders: fdim and nextafter are checked against the libm function
/// of their own type (x - y in long double would be rounded twice, and the
/// long double nextafter steps by a long double ulp).
static long double r_fdim(long double x, long double y) { return fdiml(x, y); }
static long double r_nextafter(long double x, long double y) {
  return nextafterl(x, y);
}

#define U(a, b) {S_UNIF, a, b, 0}
#define L(a, b) {S_LOG, a, b, 0}
#define LN(a, b) {S_LOG, a, b, 1}
#define B {S_BITS, 0, 0, 0}
#define INTY(a, b) {S_INTY, a, b, 0}
#define F1(n, bf, bd, ref, ...)                                                \
  {#n, 1, bf, bd, ref, 0, __hetgpu_math_##n##f, __hetgpu_math_##n, 0, 0,       \
   {__VA_ARGS__}, {{0}}, 0, 0, 0, 0}
#define F2(n, bf, bd, ref, XS, YS)                                             \
  {#n, 2, bf, bd, 0, ref, 0, 0, __hetgpu_math_##n##f, __hetgpu_math_##n,       \
   XS, YS, 0, 0, 0, 0}
#define LIST(...) {__VA_ARGS__}

// Bounds: CUDA C++ Programming Guide, "Mathematical Functions", standard
// functions, single / double precision maximum ulp error (compute
// capability >= 5.2). lgamma's bounds hold outside the negative intervals
// excluded below, as the guide says.
static fn_t fns[] = {
    F1(sin, 2, 2, sinl, U(-10, 10), U(-1e6, 1e6), LN(-30, 1020), B),
    F1(cos, 2, 2, cosl, U(-10, 10), U(-1e6, 1e6), LN(-30, 1020), B),
    F1(tan, 4, 2, tanl, U(-10, 10), U(-1e6, 1e6), LN(-30, 1020), B),
    F1(asin, 2, 2, asinl, U(-1, 1), LN(-60, 0), U(0.99, 1), B),
    F1(acos, 2, 2, acosl, U(-1, 1), LN(-60, 0), U(0.99, 1), U(-1, -0.99)),
    F1(atan, 2, 2, atanl, U(-4, 4), LN(-60, 80), B),
    F1(sinh, 3, 2, sinhl, U(-2, 2), U(-720, 720), LN(-60, 10), B),
    F1(cosh, 2, 1, coshl, U(-2, 2), U(-720, 720), LN(-60, 10), B),
    F1(tanh, 2, 1, tanhl, U(-2, 2), U(-25, 25), LN(-60, 5), B),
    F1(asinh, 3, 3, asinhl, U(-2, 2), LN(-60, 1020), B),
    F1(acosh, 4, 3, acoshl, U(1, 2), U(1, 1.001), L(0, 1020), B),
    F1(atanh, 3, 2, atanhl, U(-1, 1), LN(-60, 0), U(0.99, 1), B),
    F1(exp, 2, 1, expl, U(-10, 10), U(-746, 710), LN(-60, 10), B),
    F1(exp2, 2, 1, exp2l, U(-10, 10), U(-1076, 1024), LN(-60, 10), B),
    F1(exp10, 2, 1, r_exp10, U(-5, 5), U(-324, 309), LN(-60, 9), B),
    F1(expm1, 1, 1, expm1l, U(-2, 2), U(-40, 710), LN(-60, 10), B),
    F1(log, 1, 1, logl, U(0, 4), U(0.9, 1.1), L(-1074, 1024), B),
    F1(log2, 1, 1, log2l, U(0, 4), U(0.9, 1.1), L(-1074, 1024), B),
    F1(log10, 2, 1, log10l, U(0, 4), U(0.9, 1.1), L(-1074, 1024), B),
    F1(log1p, 1, 1, log1pl, U(-1, 2), LN(-60, 0), L(-1074, 1024), B),
    F1(logb, 0, 0, logbl, U(-4, 4), LN(-1074, 1024), B),
    F2(pow, 4, 2, powl, LIST(L(-10, 10), U(0.5, 2), U(0.999, 1.001), LN(-1074, 1024), B, LN(-3, 3)),
       LIST(U(-60, 60), U(-1500, 1500), U(-1e6, 1e6), U(-3, 3), B, INTY(-200, 200))),
    F1(cbrt, 1, 1, cbrtl, U(-10, 10), LN(-1074, 1024), B),
    F2(hypot, 3, 2, hypotl, LIST(U(-10, 10), LN(-1074, 1024), B, LN(-600, 600)),
       LIST(U(-10, 10), LN(-1074, 1024), B, LN(-600, 600))),
    F1(erf, 2, 2, erfl, U(-1, 1), U(-7, 7), LN(-60, 3), B),
    F1(erfc, 4, 5, erfcl, U(-2, 2), U(-7, 28), L(-60, 5), B),
    F1(lgamma, 6, 4, r_lgamma, U(0, 4), U(-30, 200), U(0.9, 1.1), U(1.9, 2.1), LN(-60, 1024), B),
    F1(tgamma, 5, 10, tgammal, U(-12, 12), U(-190, 172), LN(-60, 3), B),
    F2(fmod, 0, 0, fmodl, LIST(B, U(-100, 100), LN(-1074, 1024)), LIST(B, U(-10, 10), LN(-1074, 1024))),
    F2(remainder, 0, 0, remainderl, LIST(B, U(-100, 100), LN(-1074, 1024)), LIST(B, U(-10, 10), LN(-1074, 1024))),
    F2(nextafter, 0, 0, r_nextafter, LIST(B, U(-1, 1)), LIST(B, U(-1, 1))),
    F2(fdim, 0, 0, r_fdim, LIST(B, U(-10, 10)), LIST(B, U(-10, 10))),
    F2(atan2, 3, 2, atan2l, LIST(B, U(-10, 10), LN(-1074, 1024)), LIST(B, U(-10, 10), LN(-1074, 1024))),
};
#define NFNS (int)(sizeof(fns) / sizeof(fns[0]))

//===-- Random inputs ------------------------------------------------------===//

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next64(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}
static double unif01(void) { return (double)(next64() >> 11) * 0x1p-53; }

static double sample(const sampler_t *s, int isfloat) {
  switch (s->kind) {
  case S_UNIF:
    return s->a + (s->b - s->a) * unif01();
  case S_LOG: {
    double lo = s->a, hi = s->b;
    if (isfloat) {
      lo = lo < -149 ? -149 : lo;
      hi = hi > 128 ? 128 : hi;
    }
    double v = ldexp(1.0 + unif01(), (int)floor(lo + (hi - lo) * unif01()));
    if (s->neg && (next64() & 1))
      v = -v;
    return v;
  }
  case S_BITS: {
    uint64_t b = next64();
    if (isfloat) {
      uint32_t u = (uint32_t)b;
      float f;
      memcpy(&f, &u, 4);
      return f;
    }
    double d;
    memcpy(&d, &b, 8);
    return d;
  }
  case S_INTY:
    return floor(s->a + (s->b - s->a) * unif01());
  }
  return 0;
}

//===-- Error measurement ----------------------------------------------------===//

/// Error of \p got against the exact value \p ref in ulps of a format with
/// \p prec significand bits and minimum exponent \p emin (of the lsb).
/// Returns -1 for a special-value mismatch.
static double ulp_error(long double got, long double ref, int prec, int eminlsb,
                        long double maxval) {
  if (isnan(ref))
    return isnan(got) ? 0 : -1;
  if (isnan(got))
    return -1;
  if (isinf(ref))
    return got == ref ? 0 : -1;
  if (ref == 0)
    return (got == 0 && signbit(got) == signbit(ref)) ? 0 : -1;
  int e;
  frexpl(ref, &e);
  int ue = e - prec;
  if (ue < eminlsb)
    ue = eminlsb;
  long double ulp = ldexpl(1.0L, ue);
  if (isinf(got)) { // compare against the first value past the format
    long double over = maxval + ldexpl(1.0L, (int)(logbl(maxval)) - prec + 1);
    if (fabsl(ref) > maxval + ulp / 2 && signbit(got) == signbit(ref))
      return 0;
    return (double)(fabsl(copysignl(over, got) - ref) / ulp);
  }
  return (double)(fabsl(got - ref) / ulp);
}

static long double ref_call(const fn_t *F, long double x, long double y) {
  return F->arity == 1 ? F->ref1(x) : F->ref2(x, y);
}

/// Exact (0 ulp) functions must return the correctly rounded value.
static double exact_error(long double got, long double ref, int isfloat) {
  if (isnan(ref) || isnan(got))
    return isnan(ref) && isnan(got) ? 0 : -1;
  long double want = isfloat ? (long double)(float)ref : (long double)(double)ref;
  if (got == want && signbit(got) == signbit(want))
    return 0;
  if (got == want) // wrong sign of zero
    return -1;
  return isinf(got) || isinf(want) ? -1 : 1;
}

typedef struct {
  double maxerr;
  double worst_x, worst_y;
  long n, specials_bad;
  double bad_x, bad_y;
} stat_t;

static void check_one(const fn_t *F, int isfloat, double x, double y,
                      stat_t *st) {
  long double ref, got;
  double err;
  if (isfloat) {
    float fx = (float)x, fy = (float)y;
    if (fx >= F->skip_lo_f && fx <= F->skip_hi_f && F->skip_lo_f != F->skip_hi_f)
      return;
    ref = F->ref2 == r_nextafter ? nextafterf(fx, fy)
          : F->ref2 == r_fdim    ? fdimf(fx, fy)
                                 : ref_call(F, fx, fy);
    got = F->arity == 1 ? F->f1(fx) : F->f2(fx, fy);
    err = F->bound_f == 0 ? exact_error(got, ref, 1)
                          : ulp_error(got, ref, 24, -149, FLT_MAX);
    x = fx;
    y = fy;
  } else {
    if (x >= F->skip_lo_d && x <= F->skip_hi_d && F->skip_lo_d != F->skip_hi_d)
      return;
    ref = F->ref2 == r_nextafter ? nextafter(x, y)
          : F->ref2 == r_fdim    ? fdim(x, y)
                                 : ref_call(F, x, y);
    got = F->arity == 1 ? F->d1(x) : F->d2(x, y);
    err = F->bound_d == 0 ? exact_error(got, ref, 0)
                          : ulp_error(got, ref, 53, -1074, DBL_MAX);
  }
  st->n++;
  if (err < 0) {
    if (st->specials_bad++ == 0) {
      st->bad_x = x;
      st->bad_y = y;
    }
    return;
  }
  if (err > st->maxerr) {
    st->maxerr = err;
    st->worst_x = x;
    st->worst_y = y;
  }
}

static const double specials[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 10.0, -10.0,
    INFINITY, -INFINITY, NAN, 0x1p-1074, -0x1p-1074, 0x1p-1022, -0x1p-1022,
    DBL_MAX, -DBL_MAX, 0x1p-149, 0x1p-126, FLT_MAX, -FLT_MAX, 1.5707963267948966,
    -1.5707963267948966, 3.141592653589793, 1e22, 0x1.8p1023, 709.78, -745.1,
    88.7, -103.9, 0.75, 1e-300, -1e-300, 1e300, 0.1, -0.1, 1e-8, 171.5, -171.5,
    -2.5, -0.25, 1e16, 5e15 + 0.5, 0x1p52 + 1, 0x1p53, 4503599627370497.0};
#define NSPEC (int)(sizeof(specials) / sizeof(specials[0]))

int main(int argc, char **argv) {
  long N = argc > 1 ? atol(argv[1]) : 20000;
  const char *filter = argc > 2 ? argv[2] : 0;
  // lgamma's documented bounds exclude neighbourhoods of its negative zeros.
  for (int i = 0; i < NFNS; ++i)
    if (!strcmp(fns[i].name, "lgamma")) {
      fns[i].skip_lo_f = -10.001;
      fns[i].skip_hi_f = -2.264;
      fns[i].skip_lo_d = -23.0001;
      fns[i].skip_hi_d = -2.2637;
    }
  // Every math builtin of the contract must have a row here.
  int missing = 0;
#define HETGPU_MATH_D(Name, Arity)                                             \
  {                                                                            \
    int found = 0;                                                             \
    for (int i = 0; i < NFNS; ++i)                                             \
      found |= !strcmp(fns[i].name, #Name) && fns[i].arity == Arity;          \
    if (!found) {                                                              \
      printf("MISSING test for __hetgpu_math_%s\n", #Name);                   \
      missing = 1;                                                             \
    }                                                                          \
  }
#include "hetgpu/IR/Builtins.def"

  int fail = missing;
  printf("%-10s %9s %6s %9s %6s  %s\n", "function", "float", "bound", "double",
         "bound", "worst inputs (float; double)");
  for (int i = 0; i < NFNS; ++i) {
    const fn_t *F = &fns[i];
    if (filter && strcmp(filter, F->name))
      continue;
    stat_t st[2];
    memset(st, 0, sizeof st);
    for (int isf = 0; isf < 2; ++isf) {
      for (int a = 0; a < NSPEC; ++a)
        for (int b = 0; b < (F->arity == 2 ? NSPEC : 1); ++b)
          check_one(F, isf, specials[a], specials[b], &st[isf]);
      for (int s = 0; s < 6 && F->s[s].kind != S_END; ++s)
        for (long k = 0; k < N; ++k) {
          double x = sample(&F->s[s], isf);
          double y = F->arity == 2 ? sample(&F->ys[s], isf) : 0.0;
          if (F->ys[s].kind == S_INTY && (next64() & 1))
            x = -x; // negative bases with integral exponents
          check_one(F, isf, x, y, &st[isf]);
        }
    }
    double bf = F->bound_f, bd = F->bound_d;
    // Exact functions must be exact.
    int okf = st[1].specials_bad == 0 && st[1].maxerr <= (bf == 0 ? 0 : bf);
    int okd = st[0].specials_bad == 0 && st[0].maxerr <= (bd == 0 ? 0 : bd);
    printf("%-10s %9.3f %6g %9.3f %6g  %a %a; %a %a%s%s\n", F->name,
           st[1].maxerr, bf, st[0].maxerr, bd, st[1].worst_x, st[1].worst_y,
           st[0].worst_x, st[0].worst_y,
           okf ? "" : "  FAIL(float)", okd ? "" : "  FAIL(double)");
    for (int isf = 0; isf < 2; ++isf)
      if (st[isf].specials_bad) {
        double x = st[isf].bad_x, y = st[isf].bad_y;
        long double r = ref_call(F, x, y);
        double g = isf ? (F->arity == 1 ? F->f1((float)x) : F->f2((float)x, (float)y))
                       : (F->arity == 1 ? F->d1(x) : F->d2(x, y));
        printf("  %s: %ld special-value mismatches, e.g. (%a, %a) -> %a, want %La\n",
               isf ? "float" : "double", st[isf].specials_bad, x, y, g, r);
      }
    fail |= !okf || !okd;
  }
  printf(fail ? "FAILED: some functions exceed their bounds\n"
              : "PASSED: all functions within their CUDA bounds\n");
  return fail;
}
