//===- Pow.c - pow, cbrt, hypot for the device math library ------*- C -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
/// \file
/// pow as exp(y * log|x|) with the logarithm and the product in
/// double-double (about 2^-66 relative, enough for |y log x| up to 745);
/// the C99 Annex F special cases first. cbrt by Newton iterations and one
/// final correction with an exact residual. hypot with squares in
/// double-double and power-of-two scaling against overflow and underflow.
//===----------------------------------------------------------------------===//

#include "MathInternal.h"

/// 0: not an integer, 1: odd integer, 2: even integer.
HM_INLINE int hm_int_kind(double y) {
  double ay = hm_fabs(y);
  if (ay >= 0x1p53)
    return 2;
  if (ay < 0x1p51) {
    if (hm_rint_small(ay) != ay)
      return 0;
  } else if (ay < 0x1p52) {
    if ((ay + 0x1p52) - 0x1p52 != ay) // the sum rounds to an integer
      return 0;
  }
  return ((uint64_t)ay & 1) ? 1 : 2;
}

double __hetgpu_math_pow(double x, double y) {
  if (y == 0.0 || x == 1.0)
    return 1.0;
  if (x != x || y != y)
    return x + y;
  double ax = hm_fabs(x), ay = hm_fabs(y);
  if (ay == __builtin_inf()) {
    if (ax == 1.0)
      return 1.0;
    return ((ax < 1.0) == (y < 0)) ? __builtin_inf() : 0.0;
  }
  int kind = hm_int_kind(y);
  if (ax == 0.0) {
    if (y < 0)
      return kind == 1 ? hm_copysign(__builtin_inf(), x) : __builtin_inf();
    return kind == 1 ? x : 0.0;
  }
  if (ax == __builtin_inf()) {
    double r = y < 0 ? 0.0 : __builtin_inf();
    return (x < 0 && kind == 1) ? -r : r;
  }
  double sign = 1.0;
  if (x < 0) {
    if (kind == 0)
      return __builtin_nan("");
    if (kind == 1)
      sign = -1.0;
  }
  hm_dd l = __hetgpu_mathi_log_dd(ax);
  double ph = l.hi * y; // screen overflow before the exact product
  if (!(hm_fabs(ph) < 800.0))
    return ph > 0 ? sign * __builtin_inf() : sign * 0.0;
  hm_dd p = hm_dd_mul_d(l, y);
  if (p.hi > 710.0)
    return sign * __builtin_inf();
  if (p.hi < -746.0)
    return sign * 0.0;
  int k;
  hm_dd e = __hetgpu_mathi_exp_dd(p.hi, p.lo, &k);
  return sign * hm_scale_dd(e.hi, e.lo, k);
}

double __hetgpu_math_cbrt(double x) {
  double ax = hm_fabs(x);
  if (!(ax < __builtin_inf()) || ax == 0.0)
    return x + x;
  int scale = 0;
  if (ax < 0x1p-1022) {
    ax *= 0x1p54;
    scale = -18;
  }
  uint64_t ia = hm_asu64(ax);
  int e = (int)(ia >> 52) - 1023;
  int q = e >= 0 ? e / 3 : -((-e + 2) / 3); // floor(e / 3)
  int rem = e - 3 * q;                      // 0, 1, 2
  // m in [1, 8), cbrt(m) in [1, 2).
  double m = hm_asdouble((ia & 0x000fffffffffffffULL) | ((uint64_t)(1023 + rem) << 52));
  // Quadratic first guess of cbrt on [1, 8) (max relative error ~ 3%).
  double y = hm_fma(hm_fma(m, -0.011, 0.2387), m, 0.7747);
  for (int i = 0; i < 4; ++i)
    y = y - (y - m / (y * y)) * (1.0 / 3.0);
  // Final correction with the exact residual m - y^3.
  hm_dd y2 = hm_two_prod(y, y);
  hm_dd y3 = hm_two_prod(y2.hi, y);
  double res = ((m - y3.hi) - y3.lo) - y2.lo * y;
  y = y + res / (3.0 * y2.hi);
  return hm_copysign(hm_scale(y, q + scale), x);
}

double __hetgpu_math_hypot(double x, double y) {
  double ax = hm_fabs(x), ay = hm_fabs(y);
  if (ax == __builtin_inf() || ay == __builtin_inf())
    return __builtin_inf();
  if (ax != ax || ay != ay)
    return ax + ay;
  if (ax < ay) {
    double t = ax;
    ax = ay;
    ay = t;
  }
  if (ay == 0.0 || ax > 0x1p60 * ay)
    return ax + ay;
  int k = 0;
  if (ax > 0x1p500) {
    ax *= 0x1p-600;
    ay *= 0x1p-600;
    k = 600;
  } else if (ay < 0x1p-500) {
    ax *= 0x1p600;
    ay *= 0x1p600;
    k = -600;
  }
  hm_dd s = hm_dd_add(hm_two_prod(ax, ax), hm_two_prod(ay, ay));
  hm_dd r = hm_dd_sqrt(s);
  return hm_scale(r.hi + r.lo, k);
}

