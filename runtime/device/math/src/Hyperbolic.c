//===- Hyperbolic.c - sinh, cosh, tanh and inverses for device math -*- C -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
/// \file
/// Hyperbolic functions: Taylor polynomials below 1, otherwise
/// 2^(k-1) (E +- 2^-2k / E) from the double-double exp core, so that
/// results near the overflow threshold are not lost; tanh as
/// expm1(2x) / (expm1(2x) + 2) in double-double; the inverses as logarithms
/// of double-double arguments.
//===----------------------------------------------------------------------===//

#include "MathInternal.h"

// 1/(2n+1)!, n = 1..9 and 1/(2n)!, n = 2..10.
static const double hm_sinh_c[9] = {
    1.0 / 6.0, 1.0 / 120.0, 1.0 / 5040.0, 1.0 / 362880.0, 1.0 / 39916800.0,
    1.0 / 6227020800.0, 1.0 / 1307674368000.0, 1.0 / 355687428096000.0,
    1.0 / 121645100408832000.0};
static const double hm_cosh_c[9] = {
    1.0 / 24.0, 1.0 / 720.0, 1.0 / 40320.0, 1.0 / 3628800.0,
    1.0 / 479001600.0, 1.0 / 87178291200.0, 1.0 / 20922789888000.0,
    1.0 / 6402373705728000.0, 1.0 / 2432902008176640000.0};

/// 2^(k-1) * (E + Sign * 2^-2k / E) with E = exp(ax) / 2^k.
HM_INLINE double hm_exp_pm_exp(double ax, double Sign) {
  int k;
  hm_dd e = __hetgpu_mathi_exp_dd(ax, 0.0, &k);
  hm_dd inv = hm_dd_div(hm_dd_make(1.0, 0.0), e);
  double q = Sign * hm_scale(inv.hi, -2 * k);
  hm_dd s = hm_two_sum(e.hi, q);
  return hm_scale(s.hi + (s.lo + e.lo), k - 1);
}

double __hetgpu_math_sinh(double x) {
  double ax = hm_fabs(x);
  if (HM_UNLIKELY(!(ax < 710.0))) {
    if (x != x || ax == __builtin_inf())
      return x + x;
    if (ax > 0x1.633ce8fb9f87dp+9) // asinh(DBL_MAX)
      return hm_copysign(__builtin_inf(), x);
  }
  if (ax < 0x1p-26)
    return x;
  double r;
  if (ax < 1.0) {
    double z = ax * ax;
    r = hm_fma(ax * z, hm_poly(hm_sinh_c, 9, z), ax);
  } else {
    r = hm_exp_pm_exp(ax, -1.0);
  }
  return hm_copysign(r, x);
}

double __hetgpu_math_cosh(double x) {
  double ax = hm_fabs(x);
  if (HM_UNLIKELY(!(ax < 710.0))) {
    if (x != x)
      return x + x;
    if (ax > 0x1.633ce8fb9f87dp+9)
      return __builtin_inf();
  }
  if (ax < 0x1p-27)
    return 1.0;
  if (ax < 1.0) {
    hm_dd z = hm_two_prod(ax, ax);
    hm_dd w = hm_fast_two_sum(1.0, 0.5 * z.hi);
    double lo = w.lo + 0.5 * z.lo + (z.hi * z.hi) * hm_poly(hm_cosh_c, 9, z.hi);
    return w.hi + lo;
  }
  return hm_exp_pm_exp(ax, 1.0);
}

double __hetgpu_math_tanh(double x) {
  double ax = hm_fabs(x);
  if (x != x)
    return x + x;
  if (ax < 0x1p-27)
    return x;
  if (ax > 22.0)
    return hm_copysign(1.0, x);
  hm_dd e = __hetgpu_mathi_expm1_dd(2.0 * ax);
  hm_dd t = hm_dd_div(e, hm_dd_add_d(e, 2.0));
  return hm_copysign(t.hi + t.lo, x);
}

/// log(u) for a double-double u > 0 whose hi part is normal.
HM_INLINE double hm_log_of_dd(hm_dd u) {
  hm_dd l = __hetgpu_mathi_log_dd(u.hi);
  return l.hi + (l.lo + u.lo / u.hi);
}

double __hetgpu_math_asinh(double x) {
  double ax = hm_fabs(x);
  if (HM_UNLIKELY(!(ax < 0x1p28))) {
    if (x != x || ax == __builtin_inf())
      return x + x;
    hm_dd l = __hetgpu_mathi_log_dd(ax);
    hm_dd s = hm_two_sum(l.hi, HM_LN2_HI);
    return hm_copysign(s.hi + (s.lo + l.lo + HM_LN2_LO), x);
  }
  if (ax < 0x1p-26)
    return x;
  hm_dd z = hm_two_prod(ax, ax);
  hm_dd s = hm_dd_sqrt(hm_dd_add_d(z, 1.0));
  return hm_copysign(hm_log_of_dd(hm_dd_add_d(s, ax)), x);
}

double __hetgpu_math_acosh(double x) {
  if (HM_UNLIKELY(!(x > 1.0 && x < 0x1p28))) {
    if (x != x)
      return x + x;
    if (x == 1.0)
      return 0.0;
    if (x < 1.0)
      return __builtin_nan("");
    if (x == __builtin_inf())
      return x;
    hm_dd l = __hetgpu_mathi_log_dd(x);
    hm_dd s = hm_two_sum(l.hi, HM_LN2_HI);
    return s.hi + (s.lo + l.lo + HM_LN2_LO);
  }
  hm_dd m = hm_two_sum(x, -1.0);
  hm_dd p = hm_two_sum(x, 1.0);
  hm_dd s = hm_dd_sqrt(hm_dd_mul(m, p));
  return hm_log_of_dd(hm_dd_add_d(s, x));
}

double __hetgpu_math_atanh(double x) {
  double ax = hm_fabs(x);
  if (HM_UNLIKELY(!(ax < 1.0))) {
    if (x != x)
      return x + x;
    if (ax == 1.0)
      return hm_copysign(__builtin_inf(), x);
    return __builtin_nan("");
  }
  if (ax < 0x1p-27)
    return x;
  hm_dd q = hm_dd_div(hm_two_sum(1.0, ax), hm_two_sum(1.0, -ax));
  return hm_copysign(0.5 * hm_log_of_dd(q), x);
}

