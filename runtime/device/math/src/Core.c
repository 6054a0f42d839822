//===- Core.c - Accurate cores shared by the device math library -*- C -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
/// \file
/// Double-double cores: exp (Cody-Waite by ln2, degree-13 Taylor polynomial,
/// compensated final sum), log (128-entry table of 1/c with exact
/// log(1/c) in double-double, exact residual through fma), the reduction
/// modulo pi/2 (three-part Cody-Waite below 2^20, Payne-Hanek with a
/// 1280-bit 2/pi above it and whenever the result lands closer than 2^-40
/// to a multiple of pi/2), sin/cos/atan kernels and sin(pi x). These cores
/// carry about 60-66 bits so the public functions round once at the end.
/// They are external here and internalised when the library is linked (see
/// runtime/device/math/CMakeLists.txt).
//===----------------------------------------------------------------------===//

#include "MathInternal.h"

// 1/n! for n = 0..13. Factorials up to 13! are exact doubles.
static const double hm_inv_fact[14] = {
    1.0,           1.0,           1.0 / 2.0,         1.0 / 6.0,
    1.0 / 24.0,    1.0 / 120.0,   1.0 / 720.0,       1.0 / 5040.0,
    1.0 / 40320.0, 1.0 / 362880.0, 1.0 / 3628800.0, 1.0 / 39916800.0,
    1.0 / 479001600.0, 1.0 / 6227020800.0};

/// (exp(x) - 1 - x - x^2/2) / x^3 for |x| <= 0.36, truncation below 2^-60.
HM_INLINE double hm_exp_tail3(double x) {
  double p = hm_inv_fact[13];
  for (int n = 12; n >= 3; --n)
    p = hm_fma(p, x, hm_inv_fact[n]);
  return p;
}

hm_dd __hetgpu_mathi_exp_reduced(double rh, double rl) {
  hm_dd r = hm_two_sum(rh, rl);
  double x = r.hi;
  // exp(x) = 1 + x + x^2/2 + x^3 T(x): the first three terms exactly (as
  // double-doubles), the rest (< 0.0075) in double, so the sum is good to
  // about 2^-60 relative.
  hm_dd q = hm_two_prod(x, x);
  double rest = (q.hi * x) * hm_exp_tail3(x);
  hm_dd s = hm_fast_two_sum(1.0, x);
  hm_dd s2 = hm_two_sum(s.hi, 0.5 * q.hi);
  double lo = s2.lo + s.lo + 0.5 * q.lo + rest + r.lo * (1.0 + x);
  return hm_fast_two_sum(s2.hi, lo);
}

hm_ddi __hetgpu_mathi_exp_ddk(double xh, double xl) {
  double kd = hm_rint_small(xh * HM_INVLN2_HI);
  // kd * LN2_HI42 is exact and so is the subtraction (Sterbenz).
  double rh = hm_fma(-kd, HM_LN2_HI42, xh);
  double rl = hm_fma(-kd, HM_LN2_LO42, xl);
  hm_dd e = __hetgpu_mathi_exp_reduced(rh, rl);
  hm_ddi r;
  r.hi = e.hi;
  r.lo = e.lo;
  r.k = (int)kd;
  return r;
}

hm_dd __hetgpu_mathi_expm1_dd(double x) {
  if (hm_fabs(x) < 0.34) {
    // x + x^2/2 + x^3 T(x), the square exact.
    hm_dd q = hm_two_prod(x, x);
    double rest = (q.hi * x) * hm_exp_tail3(x);
    hm_dd s = hm_fast_two_sum(x, 0.5 * q.hi);
    return hm_fast_two_sum(s.hi, s.lo + 0.5 * q.lo + rest);
  }
  int k;
  hm_dd e = __hetgpu_mathi_exp_dd(x, 0.0, &k);
  double s = hm_scale(e.hi, k);
  hm_dd d = hm_two_sum(s, -1.0);
  return hm_fast_two_sum(d.hi, d.lo + hm_scale(e.lo, k));
}

hm_dd __hetgpu_mathi_log_dd(double x) {
  uint64_t ix = hm_asu64(x);
  int kadj = 0;
  if (ix < 0x0010000000000000ULL) { // subnormal
    ix = hm_asu64(x * 0x1p52);
    kadj = -52;
  }
  uint64_t tmp = ix - HM_LOG_OFF;
  int i = (int)((tmp >> 45) & 127);
  int k = (int)((int64_t)tmp >> 52) + kadj;
  double z = hm_asdouble(ix - (tmp & (0xfffULL << 52)));
  double invc = hm_log_tab[i][0];
  // r = z * invc - 1, exactly, as rh + rl.
  hm_dd p = hm_two_prod(z, invc);
  hm_dd r = hm_two_sum(p.hi - 1.0, p.lo);
  double rh = r.hi, rl = r.lo;
  // log1p(r) = r - r^2/2 + r^3 * P(r), |r| < 2^-8.
  hm_dd q = hm_two_prod(rh, rh);
  double hq = -0.5 * q.hi;
  double P = hm_fma(rh, -1.0 / 10.0, 1.0 / 9.0);
  P = hm_fma(P, rh, -1.0 / 8.0);
  P = hm_fma(P, rh, 1.0 / 7.0);
  P = hm_fma(P, rh, -1.0 / 6.0);
  P = hm_fma(P, rh, 1.0 / 5.0);
  P = hm_fma(P, rh, -1.0 / 4.0);
  P = hm_fma(P, rh, 1.0 / 3.0);
  double kd = (double)k;
  hm_dd s1 = hm_two_sum(kd * HM_LN2_HI42, hm_log_tab[i][1]);
  hm_dd s2 = hm_fast_two_sum(rh, hq);
  hm_dd S = hm_two_sum(s1.hi, s2.hi);
  double lo = S.lo + s1.lo + s2.lo + kd * HM_LN2_LO42 + hm_log_tab[i][2] + rl -
              0.5 * q.lo - rh * rl + (rh * q.hi) * P;
  return hm_fast_two_sum(S.hi, lo);
}

//===-- Reduction modulo pi/2 ----------------------------------------------===//

/// 64 x 64 -> 128-bit unsigned product, returns the high half.
HM_INLINE uint64_t hm_mul64(uint64_t a, uint64_t b, uint64_t *lo) {
  uint64_t a0 = a & 0xffffffffULL, a1 = a >> 32;
  uint64_t b0 = b & 0xffffffffULL, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffULL) + (p10 & 0xffffffffULL);
  *lo = (mid << 32) | (p00 & 0xffffffffULL);
  return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/// Payne-Hanek: x * 2/pi with 192 bits of 2/pi starting just above the
/// bits that can only contribute multiples of 4.
HM_COLD hm_ddi __hetgpu_mathc_payne_hanek(double x) {
  hm_ddi out;
  uint64_t ix = hm_asu64(x);
  int e = (int)((ix >> 52) & 0x7ff);
  uint64_t m = (ix & 0x000fffffffffffffULL) | 0x0010000000000000ULL;
  int E = e - 1075; // |x| = m * 2^E, E >= -53 for |x| >= pi/4
  int g0 = E + 62;  // bit position of 2/pi bit i = E - 1 in hm_two_over_pi
  int w = g0 >> 6, sh = g0 & 63;
  uint64_t a0 = hm_two_over_pi[w], a1 = hm_two_over_pi[w + 1];
  uint64_t a2 = hm_two_over_pi[w + 2], a3 = hm_two_over_pi[w + 3];
  if (sh) {
    a0 = (a0 << sh) | (a1 >> (64 - sh));
    a1 = (a1 << sh) | (a2 >> (64 - sh));
    a2 = (a2 << sh) | (a3 >> (64 - sh));
  }
  uint64_t l0, l1, l2;
  uint64_t h0 = hm_mul64(m, a0, &l0);
  uint64_t h1 = hm_mul64(m, a1, &l1);
  uint64_t h2 = hm_mul64(m, a2, &l2);
  uint64_t P0 = l2;
  uint64_t P1 = h2 + l1;
  uint64_t c1 = P1 < h2;
  uint64_t t = h1 + l0;
  uint64_t c2 = t < h1;
  uint64_t P2 = t + c1;
  c2 += P2 < t;
  (void)h0;
  (void)c2;
  // The product is P * 2^-190: bits 190-191 are the quadrant, below is the
  // fraction; take 128 fraction bits.
  int n = (int)(P2 >> 62);
  uint64_t F1 = (P2 << 2) | (P1 >> 62);
  uint64_t F0 = (P1 << 2) | (P0 >> 62);
  int neg = 0;
  if (F1 >> 63) { // fraction >= 1/2: use fraction - 1
    n += 1;
    neg = 1;
    F0 = ~F0 + 1;
    F1 = ~F1 + (F0 == 0);
  }
  int shift = 0;
  if (F1 == 0) {
    F1 = F0;
    F0 = 0;
    shift = 64;
  }
  if (F1 == 0) {
    out.hi = out.lo = 0.0;
    out.k = (ix >> 63) ? -n : n;
    return out;
  }
  int lz = __builtin_clzll(F1);
  if (lz) {
    F1 = (F1 << lz) | (F0 >> (64 - lz));
    F0 <<= lz;
  }
  shift += lz;
  double fh = (double)(F1 >> 11) * hm_pow2i(-53 - shift);
  double fl =
      (double)(((F1 & 0x7ffULL) << 53) | (F0 >> 11)) * hm_pow2i(-117 - shift);
  hm_dd f = hm_fast_two_sum(fh, fl);
  hm_dd p = hm_two_prod(f.hi, HM_PIO2_HI);
  double lo = p.lo + hm_fma(f.hi, HM_PIO2_LO, f.lo * HM_PIO2_HI);
  hm_dd res = hm_fast_two_sum(p.hi, lo);
  if (neg ^ (int)(ix >> 63)) {
    res.hi = -res.hi;
    res.lo = -res.lo;
  }
  out.hi = res.hi;
  out.lo = res.lo;
  out.k = (ix >> 63) ? -n : n;
  return out;
}

hm_ddi __hetgpu_mathi_rem_pio2k(double x) {
  hm_ddi out;
  double ax = hm_fabs(x);
  if (ax <= 0x1.921fb54442d18p-1) {
    out.hi = x;
    out.lo = 0.0;
    out.k = 0;
    return out;
  }
  if (ax < 0x1p20) {
    double kd = hm_rint_small(x * 0x1.45f306dc9c883p-1);
    double r1 = hm_fma(-kd, HM_PIO2_1, x); // exact
    hm_dd t = hm_two_sum(r1, -(kd * HM_PIO2_2)); // kd * PIO2_2 exact
    double w3 = kd * HM_PIO2_3;
    double w3e = hm_fma(kd, HM_PIO2_3, -w3);
    hm_dd res = hm_two_sum(t.hi, -w3);
    res = hm_fast_two_sum(res.hi, res.lo + t.lo - w3e);
    if (hm_fabs(res.hi) > 0x1p-40) {
      out.hi = res.hi;
      out.lo = res.lo;
      out.k = (int)kd;
      return out;
    }
  }
  return __hetgpu_mathc_payne_hanek(x);
}

//===-- Kernels --------------------------------------------------------------===//

// (-1)^n / (2n+1)!, n = 1..8 and (-1)^n / (2n)!, n = 2..9.
static const double hm_sin_c[8] = {
    -1.0 / 6.0, 1.0 / 120.0, -1.0 / 5040.0, 1.0 / 362880.0,
    -1.0 / 39916800.0, 1.0 / 6227020800.0, -1.0 / 1307674368000.0,
    1.0 / 355687428096000.0};
static const double hm_cos_c[8] = {
    1.0 / 24.0, -1.0 / 720.0, 1.0 / 40320.0, -1.0 / 3628800.0,
    1.0 / 479001600.0, -1.0 / 87178291200.0, 1.0 / 20922789888000.0,
    -1.0 / 6402373705728000.0};

hm_dd __hetgpu_mathi_sin_dd2(double rh, double rl) {
  hm_dd r = hm_dd_make(rh, rl);
  double x = r.hi;
  double z = x * x;
  double s = hm_poly(hm_sin_c, 8, z);
  double lo = hm_fma(z * x, s, r.lo * (1.0 - 0.5 * z));
  return hm_fast_two_sum(x, lo);
}

hm_dd __hetgpu_mathi_cos_dd2(double rh, double rl) {
  hm_dd r = hm_dd_make(rh, rl);
  double x = r.hi;
  hm_dd z2 = hm_two_prod(x, x);
  double z = z2.hi;
  double hz = 0.5 * z;
  double w = 1.0 - hz;
  double c = hm_poly(hm_cos_c, 8, z);
  double lo = (((1.0 - w) - hz) - 0.5 * z2.lo) + hm_fma(z * z, c, -x * r.lo);
  return hm_fast_two_sum(w, lo);
}

// (-1)^n / (2n+1), n = 1..7.
static const double hm_atan_c[7] = {-1.0 / 3.0, 1.0 / 5.0,  -1.0 / 7.0, 1.0 / 9.0,
                                    -1.0 / 11.0, 1.0 / 13.0, -1.0 / 15.0};

hm_dd __hetgpu_mathi_atan_dd2(double qh, double ql) {
  hm_dd q = hm_dd_make(qh, ql);
  if (q.hi == __builtin_inf())
    return hm_dd_make(HM_PIO2_HI, HM_PIO2_LO);
  int inv = q.hi > 1.0;
  hm_dd t = q;
  if (inv)
    t = hm_dd_div(hm_dd_make(1.0, 0.0), q);
  double th = t.hi;
  int j = (int)(th * 8.0 + 0.5);
  hm_dd v = t;
  if (j > 0) {
    double c = (double)j * 0.125;
    hm_dd num = hm_two_sum(th - c, t.lo); // th - c is exact
    hm_dd p = hm_two_prod(th, c);
    hm_dd den = hm_fast_two_sum(1.0, p.hi);
    den.lo += p.lo + t.lo * c;
    v = hm_dd_div(num, den);
  }
  double vh = v.hi;
  double z = vh * vh;
  double lo = hm_fma(vh * z, hm_poly(hm_atan_c, 7, z), v.lo);
  hm_dd res = hm_two_sum(hm_atan_tab[j][0], vh);
  res = hm_fast_two_sum(res.hi, res.lo + hm_atan_tab[j][1] + lo);
  if (inv) {
    hm_dd d = hm_two_sum(HM_PIO2_HI, -res.hi);
    res = hm_fast_two_sum(d.hi, d.lo + HM_PIO2_LO - res.lo);
  }
  return res;
}

double __hetgpu_mathi_sinpi(double x) {
  double ax = hm_fabs(x);
  if (ax >= 0x1p52)
    return hm_copysign(0.0, x);
  // x = n/2 + f with |f| <= 1/4; from 2^51 on x is a multiple of 1/2.
  double n = ax >= 0x1p51 ? 2.0 * ax : hm_rint_small(2.0 * ax);
  double f = ax - 0.5 * n; // exact
  hm_dd a = hm_two_prod(f, HM_PI_HI);
  a = hm_fast_two_sum(a.hi, hm_fma(f, HM_PI_LO, a.lo));
  uint64_t q = (uint64_t)n & 3;
  double s;
  if (q & 1) {
    hm_dd c = __hetgpu_mathi_cos_dd(a);
    s = c.hi + c.lo;
  } else {
    hm_dd c = __hetgpu_mathi_sin_dd(a);
    s = c.hi + c.lo;
  }
  if (q & 2)
    s = -s;
  return x < 0 ? -s : s;
}
