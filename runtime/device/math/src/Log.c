//===- Log.c - log, log2, log10, log1p, logb for the device math library -===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
/// \file
/// Logarithms on top of the table-driven double-double log core of Core.c.
/// log2 and log10 multiply the double-double log by 1/ln2 and 1/ln10 in
/// double-double, so all of them round once.
//===----------------------------------------------------------------------===//

#include "MathInternal.h"

/// Handles x <= 0, inf and NaN; returns 1 when \p out holds the result.
HM_INLINE int hm_log_special(double x, double *out) {
  if (HM_LIKELY(x > 0 && x < __builtin_inf()))
    return 0;
  if (x != x)
    *out = x + x;
  else if (x == 0)
    *out = -__builtin_inf();
  else if (x < 0)
    *out = __builtin_nan("");
  else
    *out = x;
  return 1;
}

double __hetgpu_math_log(double x) {
  double r;
  if (hm_log_special(x, &r))
    return r;
  hm_dd l = __hetgpu_mathi_log_dd(x);
  return l.hi + l.lo;
}

double __hetgpu_math_log2(double x) {
  double r;
  if (hm_log_special(x, &r))
    return r;
  hm_dd l = __hetgpu_mathi_log_dd(x);
  l = hm_dd_mul(l, hm_dd_make(HM_INVLN2_HI, HM_INVLN2_LO));
  return l.hi + l.lo;
}

double __hetgpu_math_log10(double x) {
  double r;
  if (hm_log_special(x, &r))
    return r;
  hm_dd l = __hetgpu_mathi_log_dd(x);
  l = hm_dd_mul(l, hm_dd_make(HM_INVLN10_HI, HM_INVLN10_LO));
  return l.hi + l.lo;
}

double __hetgpu_math_log1p(double x) {
  if (HM_UNLIKELY(!(x > -1.0 && x < __builtin_inf()))) {
    if (x != x)
      return x + x;
    if (x == -1.0)
      return -__builtin_inf();
    if (x < -1.0)
      return __builtin_nan("");
    return x;
  }
  if (hm_fabs(x) < 0x1p-54)
    return x;
  hm_dd u = hm_two_sum(1.0, x);
  hm_dd l = __hetgpu_mathi_log_dd(u.hi);
  return l.hi + (l.lo + u.lo / u.hi);
}

double __hetgpu_math_logb(double x) {
  uint64_t ix = hm_asu64(x) & 0x7fffffffffffffffULL;
  if (ix >= 0x7ff0000000000000ULL)
    return x * x; // NaN stays NaN, +-inf -> +inf
  if (ix == 0)
    return -__builtin_inf();
  int e = (int)(ix >> 52);
  if (e == 0) // subnormal: exponent of the leading bit
    return (double)(-1011 - __builtin_clzll(ix));
  return (double)(e - 1023);
}

float __hetgpu_math_logbf(float x) {
  return (float)__hetgpu_math_logb((double)x);
}
