//===- MathInternal.h - Shared kernels of the device math library -*- C -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
/// \file
/// Freestanding helpers shared by the hetGPU device math library: IEEE bit
/// access, error-free transformations (double-double arithmetic built on
/// fma), and the accurate cores (exp, log, trigonometric range reduction and
/// kernels) that several public functions reuse. Everything here is `static`
/// (internal linkage) and uses only + - * / fma sqrt fabs and integer bit
/// manipulation, so it lowers on every hetGPU target without a C library.
/// The public entry points are the `__hetgpu_math_*` functions of
/// include/hetgpu/IR/Builtins.def, defined in the other files of src/.
//===----------------------------------------------------------------------===//

#ifndef HETGPU_DEVICE_MATH_INTERNAL_H
#define HETGPU_DEVICE_MATH_INTERNAL_H

#include <stdint.h>

#define HM_INLINE static inline __attribute__((always_inline))
#define HM_HELPER static __attribute__((noinline))
/// A rare path kept out of line under a public name, `__hetgpu_mathc_*`
/// (huge trigonometric arguments, special values): the host target calls
/// it in a prebuilt object rather than compiling it in every translation
/// (lib/Targets/Host/HostTarget.cpp); the other targets link it as bitcode.
#define HM_COLD __attribute__((noinline, cold))
#define HM_LIKELY(x) __builtin_expect(!!(x), 1)
#define HM_UNLIKELY(x) __builtin_expect(!!(x), 0)

#include "Tables.inc"

//===-- Bit access ---------------------------------------------------------===//

HM_INLINE uint64_t hm_asu64(double x) {
  union { double d; uint64_t u; } v;
  v.d = x;
  return v.u;
}
HM_INLINE double hm_asdouble(uint64_t u) {
  union { double d; uint64_t u; } v;
  v.u = u;
  return v.d;
}
HM_INLINE uint32_t hm_asu32(float x) {
  union { float f; uint32_t u; } v;
  v.f = x;
  return v.u;
}
HM_INLINE float hm_asfloat(uint32_t u) {
  union { float f; uint32_t u; } v;
  v.u = u;
  return v.f;
}

HM_INLINE double hm_fma(double a, double b, double c) {
  return __builtin_fma(a, b, c);
}
HM_INLINE float hm_fmaf(float a, float b, float c) {
  return __builtin_fmaf(a, b, c);
}
HM_INLINE double hm_fabs(double x) { return __builtin_fabs(x); }
HM_INLINE float hm_fabsf(float x) { return __builtin_fabsf(x); }
HM_INLINE double hm_sqrt(double x) { return __builtin_sqrt(x); }
HM_INLINE double hm_copysign(double x, double y) {
  return __builtin_copysign(x, y);
}
HM_INLINE int hm_isnan(double x) { return x != x; }
HM_INLINE int hm_isinf(double x) { return hm_fabs(x) == __builtin_inf(); }

/// Round to the nearest integer (ties to even) with the 1.5*2^52 shifter;
/// valid for |x| < 2^51. Avoids depending on llvm.rint lowering.
HM_INLINE double hm_rint_small(double x) {
  const double Shift = 0x1.8p52;
  return (x + Shift) - Shift;
}

/// 2^k for k in [-1022, 1023].
HM_INLINE double hm_pow2i(int k) {
  return hm_asdouble((uint64_t)(k + 1023) << 52);
}

/// y * 2^k for any int k, with a single final rounding for normal inputs.
HM_INLINE double hm_scale(double y, int k) {
  if (HM_LIKELY(k >= -1022 && k <= 1023))
    return y * hm_pow2i(k);
  if (k > 1023) {
    y *= 0x1p1023;
    k -= 1023;
    if (k > 1023) {
      y *= 0x1p1023;
      k -= 1023;
      if (k > 1023)
        k = 1023;
    }
    return y * hm_pow2i(k);
  }
  // Tiny: scale up by 2^-969 first (stays normal), then round once.
  y *= 0x1p-969;
  k += 969;
  if (k < -1022) {
    y *= 0x1p-969;
    k += 969;
    if (k < -1022)
      k = -1022;
  }
  return y * hm_pow2i(k);
}

/// Rounds (hi + lo) * 2^k once, also when the result is subnormal, for
/// hi in [0.5, 2] and |lo| <= 2^-52 |hi| (the exp cores' results).
HM_INLINE double hm_scale_dd(double hi, double lo, int k) {
  if (HM_LIKELY(k > -1022))
    return hm_scale(hi + lo, k);
  if (k < -1080)
    return 0.0;
  // On the subnormal grid: a + b units of 2^-1074, rounded to an integer
  // (ties to even) exactly, then scaled back (exact).
  double a = hi * hm_pow2i(k + 1074); // exact
  double b = lo * hm_pow2i(k + 1074);
  if (a >= 0x1p52) // normal after all
    return hm_scale(hi + lo, k);
  double n = (a + 0x1p52) - 0x1p52;   // nearest integer to a
  double f = (a - n) + b;             // a - n is exact
  if (f > 0.5 || (f == 0.5 && ((uint64_t)n & 1)))
    n += 1.0;
  else if (f < -0.5 || (f == -0.5 && ((uint64_t)n & 1)))
    n -= 1.0;
  return n * 0x1p-1074;
}

//===-- Double-double arithmetic -------------------------------------------===//

typedef struct {
  double hi, lo;
} hm_dd;

HM_INLINE hm_dd hm_dd_make(double hi, double lo) {
  hm_dd r;
  r.hi = hi;
  r.lo = lo;
  return r;
}
/// Exact a + b for |a| >= |b| (or a == 0).
HM_INLINE hm_dd hm_fast_two_sum(double a, double b) {
  double s = a + b;
  double e = b - (s - a);
  return hm_dd_make(s, e);
}
/// Exact a + b.
HM_INLINE hm_dd hm_two_sum(double a, double b) {
  double s = a + b;
  double bb = s - a;
  double e = (a - (s - bb)) + (b - bb);
  return hm_dd_make(s, e);
}
/// Exact a * b (barring underflow).
HM_INLINE hm_dd hm_two_prod(double a, double b) {
  double p = a * b;
  return hm_dd_make(p, hm_fma(a, b, -p));
}
HM_INLINE hm_dd hm_dd_add(hm_dd a, hm_dd b) {
  hm_dd s = hm_two_sum(a.hi, b.hi);
  double lo = s.lo + a.lo + b.lo;
  return hm_fast_two_sum(s.hi, lo);
}
HM_INLINE hm_dd hm_dd_add_d(hm_dd a, double b) {
  hm_dd s = hm_two_sum(a.hi, b);
  return hm_fast_two_sum(s.hi, s.lo + a.lo);
}
HM_INLINE hm_dd hm_dd_mul(hm_dd a, hm_dd b) {
  hm_dd p = hm_two_prod(a.hi, b.hi);
  double lo = hm_fma(a.hi, b.lo, hm_fma(a.lo, b.hi, p.lo));
  return hm_fast_two_sum(p.hi, lo);
}
HM_INLINE hm_dd hm_dd_mul_d(hm_dd a, double b) {
  hm_dd p = hm_two_prod(a.hi, b);
  return hm_fast_two_sum(p.hi, hm_fma(a.lo, b, p.lo));
}
/// a / b in double-double (about 2^-100 relative).
HM_INLINE hm_dd hm_dd_div(hm_dd a, hm_dd b) {
  double q = a.hi / b.hi;
  // r = a - q*b, computed with one exact fma for the leading part.
  double r = hm_fma(-q, b.hi, a.hi);
  r = r + a.lo - q * b.lo;
  double q2 = r / b.hi;
  return hm_fast_two_sum(q, q2);
}
HM_INLINE hm_dd hm_dd_sqrt(hm_dd a) {
  double s = hm_sqrt(a.hi);
  double r = hm_fma(-s, s, a.hi) + a.lo;
  return hm_fast_two_sum(s, r / (2.0 * s));
}
HM_INLINE hm_dd hm_dd_neg(hm_dd a) { return hm_dd_make(-a.hi, -a.lo); }

/// Horner evaluation of C[0] + C[1] x + ... + C[N-1] x^(N-1).
HM_INLINE double hm_poly(const double *C, int N, double x) {
  double r = C[N - 1];
  for (int i = N - 2; i >= 0; --i)
    r = hm_fma(r, x, C[i]);
  return r;
}

//===-- Cores (defined in Core.c, shared by the public functions) ----------===//
//
// The cores take and return scalars or small structs by value: pointer
// out-parameters and struct arguments would live in (slow) local memory on
// GPUs whenever a core is not inlined. The inline wrappers below keep the
// call sites readable; their temporaries disappear after inlining.

typedef struct {
  double hi, lo;
  int k;
} hm_ddi;

/// exp(xh + xl) = 2^k * (hi + lo), about 2^-60 relative. Requires
/// |xh| < 1000 (callers handle overflow and underflow first).
hm_ddi __hetgpu_mathi_exp_ddk(double xh, double xl);
/// exp(rh + rl) for an already reduced |rh + rl| <= 0.36.
hm_dd __hetgpu_mathi_exp_reduced(double rh, double rl);
/// log(x) for finite x > 0 (subnormals allowed), about 2^-66 relative.
hm_dd __hetgpu_mathi_log_dd(double x);
/// x - k*pi/2 in double-double and the quadrant k (mod 4 is what matters),
/// for finite x.
hm_ddi __hetgpu_mathi_rem_pio2k(double x);
/// Payne-Hanek reduction of |x| >= 2^20 (or close to a multiple of pi/2).
hm_ddi __hetgpu_mathc_payne_hanek(double x);
/// sin and cos of a reduced |rh + rl| <= pi/4 + eps, in double-double.
hm_dd __hetgpu_mathi_sin_dd2(double rh, double rl);
hm_dd __hetgpu_mathi_cos_dd2(double rh, double rl);
/// atan(qh + ql) for q >= 0 (q may be +inf), in double-double.
hm_dd __hetgpu_mathi_atan_dd2(double qh, double ql);
/// sin(pi * x) for finite x, exact argument reduction.
double __hetgpu_mathi_sinpi(double x);
/// expm1(x) in double-double for |x| <= 45 (about 2^-60 relative).
hm_dd __hetgpu_mathi_expm1_dd(double x);

HM_INLINE hm_dd __hetgpu_mathi_exp_dd(double xh, double xl, int *k) {
  hm_ddi r = __hetgpu_mathi_exp_ddk(xh, xl);
  *k = r.k;
  return hm_dd_make(r.hi, r.lo);
}
HM_INLINE int __hetgpu_mathi_rem_pio2(double x, hm_dd *r) {
  hm_ddi v = __hetgpu_mathi_rem_pio2k(x);
  *r = hm_dd_make(v.hi, v.lo);
  return v.k;
}
HM_INLINE hm_dd __hetgpu_mathi_sin_dd(hm_dd r) {
  return __hetgpu_mathi_sin_dd2(r.hi, r.lo);
}
HM_INLINE hm_dd __hetgpu_mathi_cos_dd(hm_dd r) {
  return __hetgpu_mathi_cos_dd2(r.hi, r.lo);
}
HM_INLINE hm_dd __hetgpu_mathi_atan_dd(hm_dd q) {
  return __hetgpu_mathi_atan_dd2(q.hi, q.lo);
}

#endif // HETGPU_DEVICE_MATH_INTERNAL_H
