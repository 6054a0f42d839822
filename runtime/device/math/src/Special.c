//===- Special.c - erf, erfc, lgamma, tgamma for the device math library -===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
/// \file
/// erf: odd polynomial below 1. erfc: exp(-x^2) (x^2 exact, double-double
/// exp) times a piecewise polynomial R(x) = erfc(x) e^{x^2} on [0.5, 6] and
/// an expansion in 1/x^2 above. lgamma: polynomials of lgamma(1+t)/t and
/// lgamma(2+t)/t around the zeros at 1 and 2 (relative accuracy there),
/// exact downward shifts with double-double products to [2, 3], Stirling's
/// series in double-double from 12, the reflection formula with an exact
/// sin(pi x) for x < 0. tgamma: a polynomial of Gamma(2+t) with
/// double-double shift products below 12, exp of the double-double Stirling
/// sum above, reflection below 0. All coefficients come from
/// tools/gen_tables.py.
//===----------------------------------------------------------------------===//

#include "MathInternal.h"

//===-- erf / erfc -----------------------------------------------------------===//

/// erfc(x) for 0.5 <= x (x finite).
HM_HELPER double hm_erfc_pos(double x) {
  if (x > 27.3)
    return 0.0;
  hm_dd Rd;
  if (x < 6.0) {
    int i = 0;
    while (x >= hm_erfc_hi[i])
      ++i;
    // R = c0 + t Q(t) with the sum kept in double-double.
    const double *C = hm_erfc_r[i];
    double t = x - hm_erfc_mid[i]; // exact (Sterbenz)
    double tq = t * hm_poly(C + 1, HM_ERFC_DEG - 1, t);
    Rd = hm_fast_two_sum(C[0], tq);
  } else {
    double u = 1.0 / (x * x);
    Rd = hm_dd_div(hm_dd_make(hm_poly(hm_erfc_asym, 14, u), 0.0),
                   hm_dd_make(x, 0.0));
  }
  hm_dd z = hm_two_prod(x, x);
  int k;
  hm_dd e = __hetgpu_mathi_exp_dd(-z.hi, -z.lo, &k);
  hm_dd p = hm_dd_mul(e, Rd);
  return hm_scale(p.hi + p.lo, k);
}

/// x * P(x^2) = erf(x) for |x| <= 1, as double-double; the constant term
/// 2/sqrt(pi) is carried in double-double.
HM_INLINE hm_dd hm_erf_small(double x) {
  double u = x * x;
  double q = hm_poly(hm_erf_p + 1, 13, u);
  hm_dd h = hm_two_prod(x, HM_TWO_OVER_SQRTPI_HI);
  double lo = hm_fma(x, hm_fma(u, q, HM_TWO_OVER_SQRTPI_LO), h.lo);
  return hm_fast_two_sum(h.hi, lo);
}

double __hetgpu_math_erf(double x) {
  double ax = hm_fabs(x);
  if (x != x)
    return x + x;
  if (ax < 0x1p-28)
    return hm_fma(x, 0x1.06eba8214db69p-3, x); // x * 2/sqrt(pi)
  if (ax < 1.0) {
    hm_dd e = hm_erf_small(x);
    return e.hi + e.lo;
  }
  if (ax >= 6.0)
    return hm_copysign(1.0, x);
  return hm_copysign(1.0 - hm_erfc_pos(ax), x);
}

double __hetgpu_math_erfc(double x) {
  if (x != x)
    return x + x;
  double ax = hm_fabs(x);
  if (ax < 0.5) {
    hm_dd e = hm_erf_small(x);
    hm_dd d = hm_fast_two_sum(1.0, -e.hi);
    return d.hi + (d.lo - e.lo);
  }
  if (x > 0)
    return hm_erfc_pos(x);
  if (x < -6.0)
    return 2.0;
  return 2.0 - hm_erfc_pos(ax);
}

//===-- lgamma / tgamma ----------------------------------------------------===//

/// c0 t + c1 t^2 + t^3 R(t) with c0, c1 in double-double: lgamma near its
/// zeros at 1 and 2 (t = x - 1 or x - 2) with relative accuracy.
HM_INLINE double hm_lgamma_near_zero(double t, double c0h, double c0l,
                                     double c1h, double c1l, const double *R) {
  hm_dd p0 = hm_two_prod(t, c0h);
  hm_dd tt = hm_two_prod(t, t);
  hm_dd p1 = hm_two_prod(tt.hi, c1h);
  double rest = (tt.hi * t) * hm_poly(R, 28, t);
  hm_dd s = hm_two_sum(p0.hi, p1.hi);
  double lo = s.lo + p0.lo + t * c0l + p1.lo + hm_fma(tt.lo, c1h, tt.hi * c1l) +
              rest;
  return (s.hi + lo) + 0.0; // +0 at the zeros
}
#define HM_LGAMMA1(t)                                                          \
  hm_lgamma_near_zero(t, HM_LG1_C0_HI, HM_LG1_C0_LO, HM_LG1_C1_HI,             \
                      HM_LG1_C1_LO, hm_lgamma1)
#define HM_LGAMMA2(t)                                                          \
  hm_lgamma_near_zero(t, HM_LG2_C0_HI, HM_LG2_C0_LO, HM_LG2_C1_HI,             \
                      HM_LG2_C1_LO, hm_lgamma2)

/// Stirling: lgamma(x) for x >= 12 in double-double.
HM_HELPER hm_dd hm_lgamma_stirling(double x) {
  hm_dd l = __hetgpu_mathi_log_dd(x);
  double u = 1.0 / x;
  double ser = u * hm_poly(hm_stirling, 10, u * u);
  // (x - 0.5) log x - x + log(2 pi)/2 + ser
  hm_dd a = hm_dd_mul_d(l, x);
  hm_dd b = hm_dd_make(-0.5 * l.hi, -0.5 * l.lo);
  hm_dd s = hm_dd_add(a, b);
  s = hm_dd_add_d(s, -x);
  s = hm_dd_add(s, hm_dd_make(HM_HALF_LOG_2PI_HI, HM_HALF_LOG_2PI_LO));
  return hm_dd_add_d(s, ser);
}

/// Digamma for h >= 1 to about 1e-2 absolute: only used to carry the
/// rounding error l of a shifted argument h + l into lgamma.
HM_INLINE double hm_digamma_rough(double h) {
  double u = 1.0 / h;
  return __hetgpu_mathi_log_dd(h).hi - u * hm_fma(u, 1.0 / 12.0, 0.5);
}

/// lgamma(x) for finite x > 0.
HM_HELPER double hm_lgamma_pos(double x) {
  if (x < 0x1p-52) {
    hm_dd l = __hetgpu_mathi_log_dd(x);
    return -(l.hi + l.lo);
  }
  if (x <= 0.5) {
    hm_dd l = __hetgpu_mathi_log_dd(x);
    double g = HM_LGAMMA1(x); // lgamma(1 + x)
    hm_dd s = hm_two_sum(g, -l.hi);
    return s.hi + (s.lo - l.lo);
  }
  if (x < 1.5) {
    return HM_LGAMMA1(x - 1.0);
  }
  if (x <= 3.0) {
    return HM_LGAMMA2(x - 2.0);
  }
  if (x < 12.0) {
    // lgamma(x) = lgamma(x - n) + log((x-1)(x-2)...(x-n)), x - n in (2, 3].
    hm_dd p = hm_dd_make(1.0, 0.0);
    double y = x;
    while (y > 3.0) {
      y -= 1.0; // exact
      p = hm_dd_mul_d(p, y);
    }
    double g = HM_LGAMMA2(y - 2.0);
    hm_dd l = __hetgpu_mathi_log_dd(p.hi);
    hm_dd s = hm_two_sum(l.hi, g);
    return s.hi + (s.lo + l.lo + p.lo / p.hi);
  }
  if (x > 1e300) { // the other Stirling terms are below 2^-60 relative
    hm_dd l = __hetgpu_mathi_log_dd(x);
    return x * (l.hi - 1.0);
  }
  hm_dd s = hm_lgamma_stirling(x);
  return s.hi + s.lo;
}

double __hetgpu_math_lgamma(double x) {
  if (x != x)
    return x + x;
  double ax = hm_fabs(x);
  if (ax == __builtin_inf())
    return __builtin_inf();
  if (x > 0)
    return hm_lgamma_pos(x);
  if (x == 0)
    return __builtin_inf();
  if (ax < 0x1p-52) {
    hm_dd l = __hetgpu_mathi_log_dd(ax);
    return -(l.hi + l.lo);
  }
  double s = __hetgpu_mathi_sinpi(x);
  if (s == 0.0)
    return __builtin_inf(); // pole at a non-positive integer
  // lgamma(x) = log(pi) - log|sin(pi x)| - lgamma(1 - x)
  hm_dd ls = __hetgpu_mathi_log_dd(hm_fabs(s));
  hm_dd h = hm_two_sum(1.0, -x); // 1 - x need not be a double
  double g = hm_lgamma_pos(h.hi);
  if (h.lo != 0.0)
    g += h.lo * hm_digamma_rough(h.hi);
  hm_dd r = hm_two_sum(HM_LOG_PI_HI, -ls.hi);
  r = hm_fast_two_sum(r.hi, r.lo + HM_LOG_PI_LO - ls.lo);
  hm_dd t = hm_two_sum(r.hi, -g);
  return t.hi + (t.lo + r.lo);
}

/// Gamma(2 + th + tl) for th in [0, 1].
HM_INLINE double hm_gamma2(double th, double tl) {
  double g = hm_poly(hm_tgamma2, 20, th);
  // Gamma'(2 + t) ~ Gamma(2 + t) * digamma(2 + t), digamma ~ 0.42 + 0.51 t.
  return hm_fma(g * hm_fma(th, 0.51, 0.4228), tl, g);
}

double __hetgpu_math_tgamma(double x) {
  if (x != x)
    return x + x;
  if (x == __builtin_inf())
    return x;
  if (x == 0.0)
    return hm_copysign(__builtin_inf(), x);
  if (x > 0x1.573fae561f648p+7) // 171.624...
    return __builtin_inf();
  if (hm_fabs(x) < 0x1p-54)
    return 1.0 / x; // Gamma(x) = 1/x - euler + O(x)
  if (x > 0) {
    if (x < 2.0) {
      // Gamma(x) = Gamma(x + n) / (x (x+1)...), x + n in [2, 3).
      hm_dd den = hm_dd_make(x, 0.0);
      double n = 2.0;
      if (x < 1.0) {
        den = hm_dd_mul(den, hm_two_sum(x, 1.0));
      } else {
        n = 1.0;
      }
      hm_dd t = hm_two_sum(x, n - 2.0);
      hm_dd g = hm_dd_make(hm_gamma2(t.hi, t.lo), 0.0);
      hm_dd r = hm_dd_div(g, den);
      return r.hi + r.lo;
    }
    if (x < 12.0) {
      hm_dd p = hm_dd_make(1.0, 0.0);
      double y = x;
      while (y >= 3.0) {
        y -= 1.0;
        p = hm_dd_mul_d(p, y);
      }
      double g = hm_gamma2(y - 2.0, 0.0);
      hm_dd r = hm_dd_mul_d(p, g);
      return r.hi + r.lo;
    }
    hm_dd l = hm_lgamma_stirling(x);
    int k;
    hm_dd e = __hetgpu_mathi_exp_dd(l.hi, l.lo, &k);
    return hm_scale(e.hi + e.lo, k);
  }
  // x < 0
  if (x == -__builtin_inf())
    return __builtin_nan("");
  double s = __hetgpu_mathi_sinpi(x);
  if (s == 0.0)
    return __builtin_nan(""); // negative integer
  if (x > -12.0) {
    // Gamma(x) = Gamma(x + n) / (x (x+1) ... (x+n-1)), x + n in [2, 3).
    hm_dd den = hm_dd_make(1.0, 0.0);
    double i = 0.0;
    while (x + i < 2.0) {
      den = hm_dd_mul(den, hm_two_sum(x, i));
      i += 1.0;
    }
    hm_dd t = hm_two_sum(x, i - 2.0);
    if (t.hi < 0) { // x + i rounded just below 2
      t = hm_dd_make(0.0, 0.0);
    }
    hm_dd g = hm_dd_make(hm_gamma2(t.hi, t.lo), 0.0);
    hm_dd r = hm_dd_div(g, den);
    return r.hi + r.lo;
  }
  if (x < -190.0)
    return s > 0 ? 0.0 : -0.0;
  // Gamma(x) = pi / (sin(pi x) Gamma(1 - x)), in the log domain.
  hm_dd h = hm_two_sum(1.0, -x); // 1 - x need not be a double
  hm_dd g = hm_lgamma_stirling(h.hi);
  g = hm_dd_add_d(g, h.lo * hm_digamma_rough(h.hi));
  hm_dd ls = __hetgpu_mathi_log_dd(hm_fabs(s));
  hm_dd a = hm_dd_add(hm_dd_make(HM_LOG_PI_HI, HM_LOG_PI_LO), hm_dd_neg(ls));
  a = hm_dd_add(a, hm_dd_neg(g));
  int k;
  hm_dd e = __hetgpu_mathi_exp_dd(a.hi, a.lo, &k);
  double r = hm_scale(e.hi + e.lo, k);
  return s > 0 ? r : -r;
}

float __hetgpu_math_lgammaf(float x) {
  return (float)__hetgpu_math_lgamma((double)x);
}
float __hetgpu_math_tgammaf(float x) {
  return (float)__hetgpu_math_tgamma((double)x);
}
