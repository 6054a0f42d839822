//===- Float.c - Single-precision functions of the device math library ---===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
/// \file
/// Single-precision math builtins evaluated in plain double arithmetic:
/// a float argument is exact in double, and a double evaluation with a
/// relative error below 2^-35 rounds to the correctly rounded float except
/// in rare double-rounding cases (error <= 0.5 + 2^-11 float ulp), well
/// inside CUDA's single-precision bounds. These are several times cheaper
/// than the double-double cores the double functions use. Arguments whose
/// fast path would lose accuracy (huge trigonometric arguments, special
/// values of atan2) go to the double-precision functions.
//===----------------------------------------------------------------------===//

#include "MathInternal.h"

double __hetgpu_math_sin(double);
double __hetgpu_math_cos(double);
double __hetgpu_math_tan(double);
double __hetgpu_math_atan2(double, double);
double __hetgpu_math_pow(double, double);
double __hetgpu_math_asinh(double);
double __hetgpu_math_acosh(double);
double __hetgpu_math_atanh(double);

// The double functions as the float functions' rare paths, out of line
// (HM_COLD): an argument the fast path cannot take costs a call, and a
// translation for the host compiles none of the double code.
#define HM_COLD_PATH1(name)                                                    \
  HM_COLD double __hetgpu_mathc_##name(double x) {                             \
    return __hetgpu_math_##name(x);                                            \
  }
#define HM_COLD_PATH2(name)                                                    \
  HM_COLD double __hetgpu_mathc_##name(double x, double y) {                   \
    return __hetgpu_math_##name(x, y);                                         \
  }
HM_COLD_PATH1(sin)
HM_COLD_PATH1(cos)
HM_COLD_PATH1(tan)
HM_COLD_PATH1(asinh)
HM_COLD_PATH1(acosh)
HM_COLD_PATH1(atanh)
HM_COLD_PATH2(atan2)
HM_COLD_PATH2(pow)

//===-- Kernels (relative error < 2^-40 on their domains) -------------------===//

/// 2^y for |y| <= 160: 2^k * 2^f, |f| <= 1/2, Taylor in f*ln2 to degree 10.
HM_INLINE double hm_lite_exp2(double y) {
  double k = hm_rint_small(y);
  double t = (y - k) * HM_LN2_HI;
  double p = 1.0 / 3628800.0;
  p = hm_fma(p, t, 1.0 / 362880.0);
  p = hm_fma(p, t, 1.0 / 40320.0);
  p = hm_fma(p, t, 1.0 / 5040.0);
  p = hm_fma(p, t, 1.0 / 720.0);
  p = hm_fma(p, t, 1.0 / 120.0);
  p = hm_fma(p, t, 1.0 / 24.0);
  p = hm_fma(p, t, 1.0 / 6.0);
  p = hm_fma(p, t, 0.5);
  p = hm_fma(p, t, 1.0);
  p = hm_fma(p, t, 1.0);
  return p * hm_pow2i((int)k);
}

/// expm1(t) for |t| <= 180 (relative).
HM_INLINE double hm_lite_expm1(double t) {
  if (hm_fabs(t) < 0.35) {
    double p = 1.0 / 39916800.0;
    p = hm_fma(p, t, 1.0 / 3628800.0);
    p = hm_fma(p, t, 1.0 / 362880.0);
    p = hm_fma(p, t, 1.0 / 40320.0);
    p = hm_fma(p, t, 1.0 / 5040.0);
    p = hm_fma(p, t, 1.0 / 720.0);
    p = hm_fma(p, t, 1.0 / 120.0);
    p = hm_fma(p, t, 1.0 / 24.0);
    p = hm_fma(p, t, 1.0 / 6.0);
    p = hm_fma(p, t, 0.5);
    return hm_fma(p * t, t, t);
  }
  return hm_lite_exp2(t * HM_INVLN2_HI) - 1.0;
}

/// log(d) for a positive normal double d (any float is one): the log
/// table of Core.c (1/c and log c), r = z/c - 1 with |r| < 2^-8 by one fma,
/// log1p(r) to degree 5; no division. Relative error < 2^-44 (the central
/// cell has c = 1, so there is no cancellation near 1).
HM_INLINE double hm_lite_log(double d) {
  uint64_t id = hm_asu64(d);
  uint64_t tmp = id - HM_LOG_OFF;
  int i = (int)((tmp >> 45) & 127);
  int64_t k = (int64_t)tmp >> 52;
  double z = hm_asdouble(id - (tmp & (0xfffULL << 52)));
  double r = hm_fma(z, hm_log_tab[i][0], -1.0);
  double p = hm_fma(r, 0.2, -0.25);
  p = hm_fma(p, r, 1.0 / 3.0);
  p = hm_fma(p, r, -0.5);
  p = hm_fma(p * r, r, r);
  return hm_fma((double)k, HM_LN2_HI, hm_log_tab[i][1]) + p;
}

/// atan(t) for t >= 0 (t may be +inf).
HM_INLINE double hm_lite_atan(double t) {
  int inv = t > 1.0;
  if (inv)
    t = 1.0 / t;
  int j = (int)(t * 8.0 + 0.5);
  double c = (double)j * 0.125;
  double v = (t - c) / hm_fma(t, c, 1.0);
  double z = v * v;
  double p = -1.0 / 13.0;
  p = hm_fma(p, z, 1.0 / 11.0);
  p = hm_fma(p, z, -1.0 / 9.0);
  p = hm_fma(p, z, 1.0 / 7.0);
  p = hm_fma(p, z, -1.0 / 5.0);
  p = hm_fma(p, z, 1.0 / 3.0);
  double a = hm_atan_tab[j][0] + hm_fma(-v * z, p, v);
  return inv ? HM_PIO2_HI - a : a;
}

/// Reduces a float argument (|x| < 2^28) modulo pi/2 in double.
HM_INLINE double hm_lite_rem_pio2(double x, int *n) {
  double k = hm_rint_small(x * 0x1.45f306dc9c883p-1);
  *n = (int)k;
  double r = hm_fma(-k, HM_PIO2_HI, x); // x - k*P1 exactly, rounded once
  return hm_fma(-k, HM_PIO2_LO, r);
}

// sin/cos on |r| <= pi/4 to below 2^-40: Taylor to degree 13/14.
HM_INLINE double hm_lite_sin(double r) {
  double z = r * r;
  double p = 1.0 / 6227020800.0;
  p = hm_fma(p, z, -1.0 / 39916800.0);
  p = hm_fma(p, z, 1.0 / 362880.0);
  p = hm_fma(p, z, -1.0 / 5040.0);
  p = hm_fma(p, z, 1.0 / 120.0);
  p = hm_fma(p, z, -1.0 / 6.0);
  return hm_fma(r * z, p, r);
}
HM_INLINE double hm_lite_cos(double r) {
  double z = r * r;
  double p = -1.0 / 87178291200.0;
  p = hm_fma(p, z, 1.0 / 479001600.0);
  p = hm_fma(p, z, -1.0 / 3628800.0);
  p = hm_fma(p, z, 1.0 / 40320.0);
  p = hm_fma(p, z, -1.0 / 720.0);
  p = hm_fma(p, z, 1.0 / 24.0);
  p = hm_fma(p, z, -0.5);
  return hm_fma(z, p, 1.0);
}

//===-- Exponentials and logarithms ----------------------------------------===//

/// y * 2^k for y in [0.5, 2] and k in [-151, 128], rounded once.
HM_INLINE float hm_scalef(float y, int k) {
  if (HM_LIKELY(k > -126 && k < 128))
    return y * hm_asfloat((uint32_t)(k + 127) << 23);
  if (k >= 128)
    return (y * 0x1p127f) * hm_asfloat((uint32_t)(k - 127 + 127) << 23);
  return (y * 0x1p-64f) * hm_asfloat((uint32_t)(k + 64 + 127) << 23);
}

/// 1 + r * (C[0] + r * (C[1] + ...)) in float, C of length 7.
HM_INLINE float hm_exp_polyf(float r, const float *C) {
  float q = C[6];
  for (int i = 5; i >= 0; --i)
    q = hm_fmaf(q, r, C[i]);
  return hm_fmaf(r, q, 1.0f);
}

// c^n / n!, n = 1..7, for c = 1, ln 2, ln 10 (float).
static const float hm_expf_c[7] = {0x1p+0f, 0x1p-1f, 0x1.555556p-3f,
                                   0x1.555556p-5f, 0x1.111112p-7f,
                                   0x1.6c16c2p-10f, 0x1.a01a02p-13f};
static const float hm_exp2f_c[7] = {0x1.62e430p-1f, 0x1.ebfbe0p-3f,
                                    0x1.c6b08ep-5f, 0x1.3b2ab6p-7f,
                                    0x1.5d87fep-10f, 0x1.430912p-13f,
                                    0x1.ffcbfcp-17f};
static const float hm_exp10f_c[7] = {0x1.26bb1cp+1f, 0x1.53524cp+1f,
                                     0x1.04705ap+1f, 0x1.2bd760p+0f,
                                     0x1.142a00p-1f, 0x1.a7ed70p-3f,
                                     0x1.16e4e0p-4f};

// The three exponentials are pure single precision (fma available on every
// target): Cody-Waite reduction whose first step is exact, degree-7 Taylor
// polynomial, 2^k scaling. Exhaustively within 1 ulp (CUDA bound: 2).

float __hetgpu_math_expf(float x) {
  if (HM_UNLIKELY(!(hm_fabsf(x) < 87.0f))) {
    if (x != x)
      return x + x;
    if (x > 88.72284f)
      return __builtin_inff();
    if (x < -104.0f)
      return 0.0f;
  }
  float k = (x * 0x1.715476p+0f + 0x1.8p23f) - 0x1.8p23f; // rint(x / ln2)
  float r = hm_fmaf(-k, 0x1.62e430p-1f, x);                // exact
  r = hm_fmaf(-k, -0x1.05c610p-29f, r);
  return hm_scalef(hm_exp_polyf(r, hm_expf_c), (int)k);
}

float __hetgpu_math_exp2f(float x) {
  if (HM_UNLIKELY(!(hm_fabsf(x) < 126.0f))) {
    if (x != x)
      return x + x;
    if (x >= 128.0f)
      return __builtin_inff();
    if (x < -151.0f)
      return 0.0f;
  }
  float k = (x + 0x1.8p23f) - 0x1.8p23f;
  float f = x - k; // exact
  return hm_scalef(hm_exp_polyf(f, hm_exp2f_c), (int)k);
}

float __hetgpu_math_exp10f(float x) {
  if (HM_UNLIKELY(!(hm_fabsf(x) < 37.0f))) {
    if (x != x)
      return x + x;
    if (x > 38.5318394f)
      return __builtin_inff();
    if (x < -46.0f)
      return 0.0f;
  }
  float k = (x * 0x1.a934f0p+1f + 0x1.8p23f) - 0x1.8p23f; // rint(x log2 10)
  float r = hm_fmaf(-k, 0x1.344136p-2f, x);                // exact
  r = hm_fmaf(-k, -0x1.ec10c0p-27f, r);
  return hm_scalef(hm_exp_polyf(r, hm_exp10f_c), (int)k);
}

float __hetgpu_math_expm1f(float x) {
  if (HM_UNLIKELY(!(x > -18.0f && x < 88.72284f))) {
    if (x != x)
      return x + x;
    return x > 0.0f ? __builtin_inff() : -1.0f;
  }
  if (hm_fabsf(x) < 0x1p-25f)
    return x; // keeps -0 and subnormals exact
  return (float)hm_lite_expm1((double)x);
}

/// NaN, negative, zero and infinite arguments of the logarithms.
HM_INLINE int hm_logf_special(float x, float *out) {
  if (HM_LIKELY(x > 0.0f && x < __builtin_inff()))
    return 0;
  if (x != x)
    *out = x + x;
  else if (x == 0.0f)
    *out = -__builtin_inff();
  else if (x < 0.0f)
    *out = __builtin_nanf("");
  else
    *out = x;
  return 1;
}

float __hetgpu_math_logf(float x) {
  float r;
  if (hm_logf_special(x, &r))
    return r;
  return (float)hm_lite_log((double)x);
}

float __hetgpu_math_log2f(float x) {
  float r;
  if (hm_logf_special(x, &r))
    return r;
  return (float)(hm_lite_log((double)x) * HM_INVLN2_HI);
}

float __hetgpu_math_log10f(float x) {
  float r;
  if (hm_logf_special(x, &r))
    return r;
  return (float)(hm_lite_log((double)x) * HM_INVLN10_HI);
}

float __hetgpu_math_log1pf(float x) {
  if (HM_UNLIKELY(!(x > -1.0f && x < __builtin_inff()))) {
    if (x != x)
      return x + x;
    if (x == -1.0f)
      return -__builtin_inff();
    if (x < -1.0f)
      return __builtin_nanf("");
    return x;
  }
  double d = (double)x;
  if (hm_fabs(d) < 0x1p-10) {
    double p = hm_fma(d, -1.0 / 6.0, 1.0 / 5.0);
    p = hm_fma(p, d, -0.25);
    p = hm_fma(p, d, 1.0 / 3.0);
    p = hm_fma(p, d, -0.5);
    return (float)hm_fma(p * d, d, d);
  }
  return (float)hm_lite_log(1.0 + d); // exact sum for |x| >= 2^-10
}

float __hetgpu_math_powf(float x, float y) {
  float ax = hm_fabsf(x), ay = hm_fabsf(y);
  // The special cases (zeros, infinities, NaN, x < 0, y == 0, x == 1) are
  // shared with the double function, which handles them per C99 Annex F.
  if (HM_UNLIKELY(!(ax > 0.0f && ax < __builtin_inff() && ay < __builtin_inff()) ||
                  x < 0.0f || y == 0.0f || x == 1.0f))
    return (float)__hetgpu_mathc_pow((double)x, (double)y);
  double l = (double)y * (hm_lite_log((double)x) * HM_INVLN2_HI);
  if (l > 130.0)
    return __builtin_inff();
  if (l < -160.0)
    return 0.0f;
  return (float)hm_lite_exp2(l);
}

//===-- Trigonometric --------------------------------------------------------===//

float __hetgpu_math_sinf(float x) {
  if (hm_fabsf(x) < 0x1p-12f)
    return x; // sin x = x (1 - x^2/6) rounds to x; keeps -0
  double d = (double)x;
  if (HM_UNLIKELY(!(hm_fabs(d) < 0x1p28)))
    return (float)__hetgpu_mathc_sin(d); // huge, inf, NaN
  int n;
  double r = hm_lite_rem_pio2(d, &n);
  double s = (n & 1) ? hm_lite_cos(r) : hm_lite_sin(r);
  return (float)((n & 2) ? -s : s);
}

float __hetgpu_math_cosf(float x) {
  double d = (double)x;
  if (HM_UNLIKELY(!(hm_fabs(d) < 0x1p28)))
    return (float)__hetgpu_mathc_cos(d);
  int n;
  double r = hm_lite_rem_pio2(d, &n);
  double c = (n & 1) ? hm_lite_sin(r) : hm_lite_cos(r);
  return (float)(((n + 1) & 2) ? -c : c);
}

float __hetgpu_math_tanf(float x) {
  if (hm_fabsf(x) < 0x1p-12f)
    return x;
  double d = (double)x;
  if (HM_UNLIKELY(!(hm_fabs(d) < 0x1p28)))
    return (float)__hetgpu_mathc_tan(d);
  int n;
  double r = hm_lite_rem_pio2(d, &n);
  double s = hm_lite_sin(r), c = hm_lite_cos(r);
  return (float)((n & 1) ? -c / s : s / c);
}

float __hetgpu_math_atanf(float x) {
  if (x != x)
    return x + x;
  double a = hm_lite_atan(hm_fabs((double)x));
  return (float)hm_copysign(a, (double)x);
}

float __hetgpu_math_atan2f(float y, float x) {
  float ax = hm_fabsf(x), ay = hm_fabsf(y);
  if (HM_UNLIKELY(!(ax > 0.0f && ax < __builtin_inff() && ay > 0.0f &&
                    ay < __builtin_inff())))
    return (float)__hetgpu_mathc_atan2((double)y, (double)x);
  double a = hm_lite_atan((double)ay / (double)ax);
  if (x < 0.0f)
    a = (HM_PI_HI - a) + HM_PI_LO;
  return (float)hm_copysign(a, (double)y);
}

float __hetgpu_math_asinf(float x) {
  float ax = hm_fabsf(x);
  if (HM_UNLIKELY(!(ax <= 1.0f)))
    return x != x ? x + x : __builtin_nanf("");
  double d = (double)ax;
  double s = hm_sqrt(hm_fma(-d, d, 1.0)); // 1 - x^2 is exact
  double a = s == 0.0 ? HM_PIO2_HI : hm_lite_atan(d / s);
  return (float)hm_copysign(a, (double)x);
}

float __hetgpu_math_acosf(float x) {
  float ax = hm_fabsf(x);
  if (HM_UNLIKELY(!(ax <= 1.0f)))
    return x != x ? x + x : __builtin_nanf("");
  double d = (double)ax;
  double s = hm_sqrt(hm_fma(-d, d, 1.0));
  double a = d == 0.0 ? HM_PIO2_HI : hm_lite_atan(s / d);
  if (x < 0.0f)
    a = (HM_PI_HI - a) + HM_PI_LO;
  return (float)a;
}

//===-- Hyperbolic -----------------------------------------------------------===//

float __hetgpu_math_sinhf(float x) {
  double d = hm_fabs((double)x);
  if (HM_UNLIKELY(!(d < 90.0))) {
    if (x != x)
      return x + x;
    return __builtin_copysignf(__builtin_inff(), x);
  }
  double r;
  if (d < 0.35) {
    double z = d * d;
    double p = hm_fma(z, 1.0 / 39916800.0, 1.0 / 362880.0);
    p = hm_fma(p, z, 1.0 / 5040.0);
    p = hm_fma(p, z, 1.0 / 120.0);
    p = hm_fma(p, z, 1.0 / 6.0);
    r = hm_fma(d * z, p, d);
  } else {
    double e = hm_lite_exp2(d * HM_INVLN2_HI);
    r = 0.5 * (e - 1.0 / e);
  }
  return (float)hm_copysign(r, (double)x);
}

float __hetgpu_math_coshf(float x) {
  double d = hm_fabs((double)x);
  if (HM_UNLIKELY(!(d < 90.0)))
    return x != x ? x + x : __builtin_inff();
  double e = hm_lite_exp2(d * HM_INVLN2_HI);
  return (float)(0.5 * (e + 1.0 / e));
}

float __hetgpu_math_tanhf(float x) {
  double d = hm_fabs((double)x);
  if (x != x)
    return x + x;
  if (d > 10.0)
    return __builtin_copysignf(1.0f, x);
  double e = hm_lite_expm1(2.0 * d);
  return (float)hm_copysign(e / (e + 2.0), (double)x);
}

float __hetgpu_math_asinhf(float x) {
  double d = hm_fabs((double)x);
  if (HM_UNLIKELY(!(d < 0x1p60)))
    return (float)__hetgpu_mathc_asinh((double)x);
  double r;
  if (d < 0x1p-10) {
    double z = d * d; // asinh x = x - x^3/6 + 3x^5/40
    r = hm_fma(d * z, hm_fma(z, 3.0 / 40.0, -1.0 / 6.0), d);
  } else {
    // log1p(d + d^2 / (1 + sqrt(1 + d^2))) keeps relative accuracy near 0.
    double t = d + d * d / (1.0 + hm_sqrt(hm_fma(d, d, 1.0)));
    r = t < 0.25 ? hm_lite_log(1.0 + t) : hm_lite_log(d + hm_sqrt(hm_fma(d, d, 1.0)));
  }
  return (float)hm_copysign(r, (double)x);
}

float __hetgpu_math_acoshf(float x) {
  if (HM_UNLIKELY(!(x >= 1.0f && x < 0x1p60f)))
    return (float)__hetgpu_mathc_acosh((double)x);
  double d = (double)x;
  double t = d - 1.0; // exact
  // acosh = log1p(t + sqrt(2t + t^2)); log1p via log(1 + u) is accurate
  // for u >= 2^-10 and the series below.
  double u = t + hm_sqrt(hm_fma(t, t, 2.0 * t));
  if (u < 0x1p-10) {
    double p = hm_fma(u, 1.0 / 3.0, -0.5);
    return (float)hm_fma(p * u, u, u);
  }
  return (float)hm_lite_log(1.0 + u);
}

float __hetgpu_math_atanhf(float x) {
  float ax = hm_fabsf(x);
  if (HM_UNLIKELY(!(ax < 1.0f)))
    return (float)__hetgpu_mathc_atanh((double)x);
  double d = (double)ax;
  double r;
  if (d < 0x1p-10) {
    double z = d * d; // atanh x = x + x^3/3 + x^5/5
    r = hm_fma(d * z, hm_fma(z, 0.2, 1.0 / 3.0), d);
  } else {
    r = 0.5 * hm_lite_log((1.0 + d) / (1.0 - d)); // both exact
  }
  return (float)hm_copysign(r, (double)x);
}

//===-- Others -----------------------------------------------------------------===//

float __hetgpu_math_cbrtf(float x) {
  double d = hm_fabs((double)x);
  if (!(d < __builtin_inf()) || d == 0.0)
    return x + x;
  // Exponent split in double (every float is a normal double).
  uint64_t id = hm_asu64(d);
  int e = (int)(id >> 52) - 1023;
  int q = e >= 0 ? e / 3 : -((-e + 2) / 3);
  int rem = e - 3 * q;
  double m = hm_asdouble((id & 0x000fffffffffffffULL) | ((uint64_t)(1023 + rem) << 52));
  // r ~ m^(-1/3) by division-free Newton steps r += r (1 - m r^3) / 3 from
  // a quadratic guess (3% on [1, 8)); cbrt(m) = m r^2.
  double r = hm_fma(hm_fma(m, 0.0146, -0.1944), m, 1.1797);
  for (int i = 0; i < 4; ++i) {
    double r3 = r * r * r;
    r = hm_fma(r * (1.0 / 3.0), hm_fma(-m, r3, 1.0), r);
  }
  double y = m * r * r;
  return (float)hm_copysign(y * hm_pow2i(q), (double)x);
}

float __hetgpu_math_hypotf(float x, float y) {
  float ax = hm_fabsf(x), ay = hm_fabsf(y);
  if (ax == __builtin_inff() || ay == __builtin_inff())
    return __builtin_inff();
  double dx = (double)ax, dy = (double)ay;
  // The squares are exact in double and cannot overflow.
  return (float)hm_sqrt(hm_fma(dx, dx, dy * dy));
}

//===-- Error function ---------------------------------------------------------===//

/// erfc(d) for d >= 0.5 in double (about 2^-45 relative).
HM_INLINE double hm_lite_erfc_pos(double d) {
  if (d > 10.1)
    return 0.0; // below half the smallest float subnormal
  double R;
  if (d < 6.0) {
    int i = 0;
    while (d >= hm_erfc_hi[i])
      ++i;
    R = hm_poly(hm_erfc_r[i], HM_ERFC_DEG, d - hm_erfc_mid[i]);
  } else {
    R = hm_poly(hm_erfc_asym, 14, 1.0 / (d * d)) / d;
  }
  return hm_lite_exp2(-(d * d) * HM_INVLN2_HI) * R;
}

float __hetgpu_math_erff(float x) {
  if (x != x)
    return x + x;
  double d = (double)x, ad = hm_fabs(d);
  if (ad < 1.0)
    return (float)(d * hm_poly(hm_erf_p, 14, d * d));
  if (ad >= 4.0)
    return __builtin_copysignf(1.0f, x); // erfc(4) < 2^-25
  return (float)hm_copysign(1.0 - hm_lite_erfc_pos(ad), d);
}

float __hetgpu_math_erfcf(float x) {
  if (x != x)
    return x + x;
  double d = (double)x;
  if (hm_fabs(d) < 0.5)
    return (float)(1.0 - d * hm_poly(hm_erf_p, 14, d * d));
  if (d > 0)
    return (float)hm_lite_erfc_pos(d);
  if (d < -4.0)
    return 2.0f;
  return (float)(2.0 - hm_lite_erfc_pos(-d));
}
