//===- InvTrig.c - asin, acos, atan, atan2 for the device math library ---===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
/// \file
/// Inverse trigonometric functions through one double-double atan kernel
/// (Core.c: table of atan(j/8), |reduced argument| <= 1/16). asin and acos
/// use atan(x / sqrt((1-x)(1+x))) with the square root in double-double, so
/// there is no cancellation near +-1.
//===----------------------------------------------------------------------===//

#include "MathInternal.h"

double __hetgpu_math_atan(double x) {
  double ax = hm_fabs(x);
  if (x != x)
    return x + x;
  if (ax < 0x1p-27)
    return x;
  hm_dd a = __hetgpu_mathi_atan_dd(hm_dd_make(ax, 0.0));
  return hm_copysign(a.hi + a.lo, x);
}

double __hetgpu_math_atan2(double y, double x) {
  if (x != x || y != y)
    return x + y;
  double ax = hm_fabs(x), ay = hm_fabs(y);
  int xneg = (int)(hm_asu64(x) >> 63);
  if (ay == 0) // atan2(+-0, x>=+0) = +-0, atan2(+-0, x<=-0) = +-pi
    return xneg ? hm_copysign(HM_PI_HI, y) : y;
  if (ax == 0)
    return hm_copysign(HM_PIO2_HI, y);
  if (ax == __builtin_inf()) {
    if (ay == __builtin_inf())
      return hm_copysign(xneg ? 0x1.2d97c7f3321d2p+1 : 0x1.921fb54442d18p-1, y);
    return hm_copysign(xneg ? HM_PI_HI : 0.0, y);
  }
  if (ay == __builtin_inf())
    return hm_copysign(HM_PIO2_HI, y);
  hm_dd a;
  if (ay > 0x1p60 * ax) {
    a = hm_dd_make(HM_PIO2_HI, HM_PIO2_LO - ax / ay);
  } else if (ay < 0x1p-60 * ax) {
    if (!xneg)
      return hm_copysign(ay / ax, y);
    a = hm_dd_make(ay / ax, 0.0);
  } else {
    // Keep the double-double quotient away from overflow and subnormals.
    if (ax > 0x1p900 || ay > 0x1p900) {
      ax *= 0x1p-200;
      ay *= 0x1p-200;
    } else if (ax < 0x1p-900 || ay < 0x1p-900) {
      ax *= 0x1p200;
      ay *= 0x1p200;
    }
    a = __hetgpu_mathi_atan_dd(hm_dd_div(hm_dd_make(ay, 0.0), hm_dd_make(ax, 0.0)));
  }
  if (xneg) {
    hm_dd d = hm_two_sum(HM_PI_HI, -a.hi);
    a = hm_fast_two_sum(d.hi, d.lo + HM_PI_LO - a.lo);
  }
  return hm_copysign(a.hi + a.lo, y);
}

/// sqrt((1 - a)(1 + a)) in double-double for 0 <= a <= 1.
HM_INLINE hm_dd hm_sqrt_one_minus_sq(double a) {
  hm_dd m = hm_two_sum(1.0, -a);
  hm_dd p = hm_two_sum(1.0, a);
  return hm_dd_sqrt(hm_dd_mul(m, p));
}

double __hetgpu_math_asin(double x) {
  double ax = hm_fabs(x);
  if (HM_UNLIKELY(!(ax < 1.0))) {
    if (x != x)
      return x + x;
    if (ax == 1.0)
      return hm_copysign(HM_PIO2_HI, x);
    return __builtin_nan("");
  }
  if (ax < 0x1p-26)
    return x;
  hm_dd s = hm_sqrt_one_minus_sq(ax);
  hm_dd a = __hetgpu_mathi_atan_dd(hm_dd_div(hm_dd_make(ax, 0.0), s));
  return hm_copysign(a.hi + a.lo, x);
}

double __hetgpu_math_acos(double x) {
  double ax = hm_fabs(x);
  if (HM_UNLIKELY(!(ax < 1.0))) {
    if (x != x)
      return x + x;
    if (x == 1.0)
      return 0.0;
    if (x == -1.0)
      return HM_PI_HI;
    return __builtin_nan("");
  }
  if (ax < 0x1p-57)
    return HM_PIO2_HI + (HM_PIO2_LO - x);
  hm_dd s = hm_sqrt_one_minus_sq(ax);
  hm_dd a = __hetgpu_mathi_atan_dd(hm_dd_div(s, hm_dd_make(ax, 0.0)));
  if (x < 0) {
    hm_dd d = hm_two_sum(HM_PI_HI, -a.hi);
    a = hm_fast_two_sum(d.hi, d.lo + HM_PI_LO - a.lo);
  }
  return a.hi + a.lo;
}

