//===- Trig.c - sin, cos, tan for the device math library --------*- C -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
/// \file
/// sin, cos and tan over the whole double range: exact reduction modulo pi/2
/// (Core.c: Cody-Waite below 2^20, Payne-Hanek above), double-double
/// kernels on [-pi/4, pi/4], tan as a double-double quotient.
//===----------------------------------------------------------------------===//

#include "MathInternal.h"

double __hetgpu_math_sin(double x) {
  double ax = hm_fabs(x);
  if (HM_UNLIKELY(!(ax < __builtin_inf())))
    return x - x; // NaN for inf and NaN
  if (ax < 0x1p-26)
    return x;
  hm_dd r;
  int n = __hetgpu_mathi_rem_pio2(x, &r);
  hm_dd v = (n & 1) ? __hetgpu_mathi_cos_dd(r) : __hetgpu_mathi_sin_dd(r);
  double s = v.hi + v.lo;
  return (n & 2) ? -s : s;
}

double __hetgpu_math_cos(double x) {
  double ax = hm_fabs(x);
  if (HM_UNLIKELY(!(ax < __builtin_inf())))
    return x - x;
  if (ax < 0x1p-27)
    return 1.0;
  hm_dd r;
  int n = __hetgpu_mathi_rem_pio2(x, &r);
  hm_dd v = (n & 1) ? __hetgpu_mathi_sin_dd(r) : __hetgpu_mathi_cos_dd(r);
  double c = v.hi + v.lo;
  return ((n + 1) & 2) ? -c : c;
}

double __hetgpu_math_tan(double x) {
  double ax = hm_fabs(x);
  if (HM_UNLIKELY(!(ax < __builtin_inf())))
    return x - x;
  if (ax < 0x1p-27)
    return x;
  hm_dd r;
  int n = __hetgpu_mathi_rem_pio2(x, &r);
  hm_dd s = __hetgpu_mathi_sin_dd(r);
  hm_dd c = __hetgpu_mathi_cos_dd(r);
  hm_dd t = (n & 1) ? hm_dd_neg(hm_dd_div(c, s)) : hm_dd_div(s, c);
  return t.hi + t.lo;
}

