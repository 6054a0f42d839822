//===- Misc.c - fmod, remainder, nextafter, fdim for device math -*- C -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
/// \file
/// The exact functions: fmod by integer long division of the significands
/// (11 bits per step), remainder from fmod by 2y, nextafter and fdim by
/// their IEEE definitions. All results are exact (0 ulp).
//===----------------------------------------------------------------------===//

#include "MathInternal.h"

/// Significand and exponent: |x| = m * 2^e with m < 2^53, m != 0.
HM_INLINE uint64_t hm_split(uint64_t ia, int *e) {
  int be = (int)(ia >> 52);
  uint64_t m = ia & 0x000fffffffffffffULL;
  if (be == 0) {
    *e = -1074;
    return m;
  }
  *e = be - 1075;
  return m | 0x0010000000000000ULL;
}

double __hetgpu_math_fmod(double x, double y) {
  uint64_t ix = hm_asu64(x) & 0x7fffffffffffffffULL;
  uint64_t iy = hm_asu64(y) & 0x7fffffffffffffffULL;
  if (ix >= 0x7ff0000000000000ULL || iy > 0x7ff0000000000000ULL || iy == 0)
    return (x * y) / (x * y); // NaN (propagates NaN payloads)
  if (ix < iy)
    return x; // includes y == inf
  if (ix == iy)
    return hm_copysign(0.0, x);
  int ex, ey;
  uint64_t mx = hm_split(ix, &ex);
  uint64_t my = hm_split(iy, &ey);
  // Normalise my to have its top bit at 52 so r << 11 never overflows.
  int d = ex - ey;
  uint64_t r = mx % my;
  while (d > 0) {
    int s = d < 11 ? d : 11;
    r = (r << s) % my;
    d -= s;
  }
  if (r == 0)
    return hm_copysign(0.0, x);
  return hm_copysign(hm_scale((double)r, ey), x);
}

double __hetgpu_math_remainder(double x, double y) {
  if (x != x || y != y)
    return x + y;
  double ax = hm_fabs(x), ay = hm_fabs(y);
  if (ax == __builtin_inf() || ay == 0.0)
    return __builtin_nan("");
  if (ay == __builtin_inf())
    return x;
  double r = ay <= 0x1p1022 ? hm_fabs(__hetgpu_math_fmod(ax, 2.0 * ay)) : ax;
  if (ay < 0x1p-1021) {
    if (r + r > ay) {
      r -= ay;
      if (r + r >= ay)
        r -= ay;
    }
  } else {
    double hy = 0.5 * ay;
    if (r > hy) {
      r -= ay;
      if (r >= hy)
        r -= ay;
    }
  }
  if (r == 0.0)
    return hm_copysign(0.0, x);
  return x < 0 ? -r : r;
}

double __hetgpu_math_nextafter(double x, double y) {
  if (x != x || y != y)
    return x + y;
  if (x == y)
    return y;
  if (x == 0.0)
    return hm_copysign(0x1p-1074, y);
  uint64_t ix = hm_asu64(x);
  if ((x < y) == (x > 0))
    ++ix;
  else
    --ix;
  return hm_asdouble(ix);
}

double __hetgpu_math_fdim(double x, double y) {
  if (x != x || y != y)
    return x + y;
  return x > y ? x - y : 0.0;
}

//===-- Single precision, exact by construction ------------------------------===//

float __hetgpu_math_fmodf(float x, float y) {
  uint32_t ix = hm_asu32(x) & 0x7fffffffu, iy = hm_asu32(y) & 0x7fffffffu;
  if (ix >= 0x7f800000u || iy > 0x7f800000u || iy == 0)
    return (x * y) / (x * y);
  if (ix < iy)
    return x;
  if (ix == iy)
    return __builtin_copysignf(0.0f, x);
  // |x| = mx 2^ex, |y| = my 2^ey with 24-bit significands; 32-bit integer
  // long division, 8 bits per step (r < my < 2^24, so r << 8 fits).
  int ex = (int)(ix >> 23), ey = (int)(iy >> 23);
  uint32_t mx = ex ? (ix & 0x7fffffu) | 0x800000u : ix;
  uint32_t my = ey ? (iy & 0x7fffffu) | 0x800000u : iy;
  ex = ex ? ex : 1;
  ey = ey ? ey : 1;
  int d = ex - ey;
  uint32_t r = mx % my;
  while (d > 0) {
    int s = d < 8 ? d : 8;
    r = (r << s) % my;
    d -= s;
  }
  if (r == 0)
    return __builtin_copysignf(0.0f, x);
  // r * 2^(ey - 150), exact (double holds it, the float result is exact).
  return (float)hm_copysign((double)r * hm_pow2i(ey - 150), (double)x);
}

float __hetgpu_math_remainderf(float x, float y) {
  return (float)__hetgpu_math_remainder((double)x, (double)y);
}

float __hetgpu_math_nextafterf(float x, float y) {
  if (x != x || y != y)
    return x + y;
  if (x == y)
    return y;
  if (x == 0.0f)
    return __builtin_copysignf(0x1p-149f, y);
  uint32_t ix = hm_asu32(x);
  if ((x < y) == (x > 0))
    ++ix;
  else
    --ix;
  return hm_asfloat(ix);
}

float __hetgpu_math_fdimf(float x, float y) {
  if (x != x || y != y)
    return x + y;
  return x > y ? x - y : 0.0f;
}
