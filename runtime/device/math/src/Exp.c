//===- Exp.c - exp, exp2, exp10, expm1 for the device math library -*- C -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
/// \file
/// Exponentials on top of the double-double exp core of Core.c: the argument
/// is reduced by k*ln2 (exp), by its integer part (exp2) or first multiplied
/// by ln10 in double-double (exp10), then 2^k*exp(r) is rounded once.
//===----------------------------------------------------------------------===//

#include "MathInternal.h"

double __hetgpu_math_exp(double x) {
  double ax = hm_fabs(x);
  if (HM_UNLIKELY(!(ax < 708.0))) {
    if (x != x)
      return x + x;
    if (x > 0x1.62e42fefa39efp+9) // log(DBL_MAX)
      return __builtin_inf();
    if (x < -0x1.74910d52d3051p+9) // log(2^-1075)
      return 0.0;
  }
  if (HM_UNLIKELY(ax < 0x1p-54))
    return 1.0 + x;
  int k;
  hm_dd e = __hetgpu_mathi_exp_dd(x, 0.0, &k);
  return hm_scale_dd(e.hi, e.lo, k);
}

double __hetgpu_math_exp2(double x) {
  double ax = hm_fabs(x);
  if (HM_UNLIKELY(!(ax < 1022.0))) {
    if (x != x)
      return x + x;
    if (x >= 1024.0)
      return __builtin_inf();
    if (x < -1075.0)
      return 0.0;
  }
  if (HM_UNLIKELY(ax < 0x1p-54))
    return 1.0 + x;
  double kd = hm_rint_small(x);
  double f = x - kd; // exact
  hm_dd r = hm_two_prod(f, HM_LN2_HI);
  hm_dd e = __hetgpu_mathi_exp_reduced(r.hi, hm_fma(f, HM_LN2_LO, r.lo));
  return hm_scale_dd(e.hi, e.lo, (int)kd);
}

double __hetgpu_math_exp10(double x) {
  double ax = hm_fabs(x);
  if (HM_UNLIKELY(!(ax < 307.0))) {
    if (x != x)
      return x + x;
    if (x > 0x1.34413509f79fep+8) // log10(DBL_MAX)
      return __builtin_inf();
    if (x < -324.0)
      return 0.0;
  }
  if (HM_UNLIKELY(ax < 0x1p-60))
    return hm_fma(x, HM_LN10_HI, 1.0);
  hm_dd p = hm_two_prod(x, HM_LN10_HI);
  int k;
  hm_dd e = __hetgpu_mathi_exp_dd(p.hi, hm_fma(x, HM_LN10_LO, p.lo), &k);
  return hm_scale_dd(e.hi, e.lo, k);
}

double __hetgpu_math_expm1(double x) {
  double ax = hm_fabs(x);
  if (HM_UNLIKELY(!(ax < 40.0))) {
    if (x != x)
      return x + x;
    if (x < 0)
      return -1.0;
    return __hetgpu_math_exp(x);
  }
  if (HM_UNLIKELY(ax < 0x1p-54))
    return x;
  hm_dd e = __hetgpu_mathi_expm1_dd(x);
  return e.hi + e.lo;
}

