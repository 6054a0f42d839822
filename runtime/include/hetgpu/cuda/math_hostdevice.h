//===- hetgpu/cuda/math_hostdevice.h - host+device CUDA math ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// CUDA's math functions that its headers declare `__host__ __device__` and
/// the C library lacks: rsqrt[f], rcbrt[f], sinpi[f], cospi[f], sincospi[f],
/// erfinv[f], erfcinv[f], normcdf[f], normcdfinv[f], erfcx[f]. Each is one
/// host+device definition composed from the primitives in `__hg_m`, which
/// are the `__hetgpu_math_*` builtins in device code and the C library in
/// host code, so both sides compute the same formula (accuracy in
/// docs/Headers.md). Included by math_functions.h.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_CUDA_MATH_HOSTDEVICE_H
#define HETGPU_CUDA_MATH_HOSTDEVICE_H

#pragma push_macro("__HG_HDM")
#pragma push_macro("__HG_M1")
#define __HG_HDM                                                               \
  static __inline__ __attribute__((always_inline)) __host__ __device__

/// The primitives, overloaded by execution space.
namespace __hg_m {
#define __HG_M1(N)                                                             \
  static __inline__ __attribute__((always_inline)) __device__ float N##f(      \
      float __x) {                                                             \
    return __hetgpu_math_##N##f(__x);                                          \
  }                                                                            \
  static __inline__ __attribute__((always_inline)) __device__ double N(        \
      double __x) {                                                            \
    return __hetgpu_math_##N(__x);                                             \
  }                                                                            \
  static __inline__ __attribute__((always_inline)) __host__ float N##f(        \
      float __x) {                                                             \
    return ::N##f(__x);                                                        \
  }                                                                            \
  static __inline__ __attribute__((always_inline)) __host__ double N(          \
      double __x) {                                                            \
    return ::N(__x);                                                           \
  }
__HG_M1(sin)
__HG_M1(cos)
__HG_M1(cbrt)
__HG_M1(log)
__HG_M1(exp)
__HG_M1(erf)
__HG_M1(erfc)
#undef __HG_M1
} // namespace __hg_m

__HG_HDM float rsqrtf(float __x) {
  return 1.0f / __builtin_elementwise_sqrt(__x);
}
/// y ~ x^(-1/k) (k = 2, 3) after one Newton step whose residual 1 - x y^k
/// is computed with fmas (y^k as a pair): the reciprocal's two roundings
/// become ~0.5 ulp. Zeros, infinities and NaNs keep y.
template <typename T> __HG_HDM T __hg_rroot_step(T __x, T __y, int __k) {
  T __p = __y * __y, __pe = __builtin_elementwise_fma(__y, __y, -__p);
  if (__k == 3) {
    T __q = __p * __y;
    __pe = __builtin_elementwise_fma(__p, __y, -__q) + __pe * __y;
    __p = __q;
  }
  T __s = __x * __p;
  if (!__builtin_isfinite(__s) || __s == (T)0)
    return __y;
  T __se = __builtin_elementwise_fma(__x, __p, -__s) + __x * __pe;
  T __r = ((T)1 - __s) - __se; // 1 - s is exact: s is near 1
  return __y + __y * (__r / (T)__k);
}
__HG_HDM double rsqrt(double __x) {
  return __hg_rroot_step(__x, 1.0 / __builtin_elementwise_sqrt(__x), 2);
}
__HG_HDM float rcbrtf(float __x) {
  return __hg_rroot_step(__x, 1.0f / __hg_m::cbrtf(__x), 3);
}
__HG_HDM double rcbrt(double __x) {
  return __hg_rroot_step(__x, 1.0 / __hg_m::cbrt(__x), 3);
}
// sin(pi x), cos(pi x): reduce x exactly to [-1/2, 1/2] around an integer or
// half-integer first, so integers give exact zeros and large |x| stays
// accurate.
#define __HG_SINPI(T, S, SinB, CosB, Pi)                                       \
  __HG_HDM T sinpi##S(T __x) {                                               \
    if (__builtin_isinf(__x))                                                  \
      return __x - __x; /* NaN */                                              \
    T __n = __builtin_elementwise_rint(__x * (T)2);                            \
    T __r = (__x - __n * (T)0.5) * (T)Pi; /* exact reduction */                \
    /* n mod 4, exactly: n/4 is exact and floor is exact */                    \
    int __q = (int)(__n - (T)4 * __builtin_elementwise_floor(__n / (T)4));     \
    T __v = __q == 0   ? SinB(__r)                                             \
            : __q == 1 ? CosB(__r)                                             \
            : __q == 2 ? -SinB(__r)                                            \
                       : -CosB(__r);                                           \
    return __v == 0 ? __builtin_elementwise_copysign((T)0, __x) : __v;         \
  }                                                                            \
  __HG_HDM T cospi##S(T __x) {                                               \
    if (__builtin_isinf(__x))                                                  \
      return __x - __x;                                                        \
    T __n = __builtin_elementwise_rint(__x * (T)2);                            \
    T __r = (__x - __n * (T)0.5) * (T)Pi;                                      \
    int __q = (int)(__n - (T)4 * __builtin_elementwise_floor(__n / (T)4));     \
    T __v = __q == 0   ? CosB(__r)                                             \
            : __q == 1 ? -SinB(__r)                                            \
            : __q == 2 ? -CosB(__r)                                            \
                       : SinB(__r);                                            \
    return __v == 0 ? (T)0 : __v;                                              \
  }                                                                            \
  __HG_HDM void sincospi##S(T __x, T *__s, T *__c) {                         \
    *__s = sinpi##S(__x);                                                      \
    *__c = cospi##S(__x);                                                      \
  }
__HG_SINPI(double, , __hg_m::sin, __hg_m::cos,
           3.14159265358979323846)
#undef __HG_SINPI
// float: the double functions, rounded once (a float pi*t would cost ~1 ulp).
__HG_HDM float sinpif(float __x) { return (float)sinpi((double)__x); }
__HG_HDM float cospif(float __x) { return (float)cospi((double)__x); }
__HG_HDM void sincospif(float __x, float *__s, float *__c) {
  *__s = sinpif(__x);
  *__c = cospif(__x);
}

/// erfinv near 0: Giles' single-precision approximation ("Approximating the
/// erfinv function", GPU Computing Gems, 2011), then Newton steps on erf.
__HG_HDM double __hg_erfinv_mid(double __y, int __steps) {
  if (__y <= -1.0 || __y >= 1.0) {
    if (__y == 1.0)
      return __builtin_inf();
    if (__y == -1.0)
      return -__builtin_inf();
    return __builtin_nan("");
  }
  if (__y != __y)
    return __y;
  float __yf = (float)__y;
  float __w = -__hg_m::logf((1.0f - __yf) * (1.0f + __yf));
  float __p;
  if (__w < 5.0f) {
    __w = __w - 2.5f;
    __p = 2.81022636e-08f;
    __p = 3.43273939e-07f + __p * __w;
    __p = -3.5233877e-06f + __p * __w;
    __p = -4.39150654e-06f + __p * __w;
    __p = 0.00021858087f + __p * __w;
    __p = -0.00125372503f + __p * __w;
    __p = -0.00417768164f + __p * __w;
    __p = 0.246640727f + __p * __w;
    __p = 1.50140941f + __p * __w;
  } else {
    __w = __builtin_elementwise_sqrt(__w) - 3.0f;
    __p = -0.000200214257f;
    __p = 0.000100950558f + __p * __w;
    __p = 0.00134934322f + __p * __w;
    __p = -0.00367342844f + __p * __w;
    __p = 0.00573950773f + __p * __w;
    __p = -0.0076224613f + __p * __w;
    __p = 0.00943887047f + __p * __w;
    __p = 1.00167406f + __p * __w;
    __p = 2.83297682f + __p * __w;
  }
  double __x = (double)(__p * __yf);
  for (int __i = 0; __i < __steps; ++__i) {
    double __e = __hg_m::erf(__x) - __y;
    __x -= __e / (1.1283791670955126 * __hg_m::exp(-__x * __x));
  }
  return __x;
}
/// erfcinv(y) for small y > 0 (the tails of erfinv, where 1 - y would lose
/// y's digits): the asymptote sqrt(t - log(t)/2 - log(pi)/2), t = -log y,
/// then Newton steps on erfc (convex, so they converge from the start).
__HG_HDM double __hg_erfc_tail(double __y, int __steps) {
  if (__y <= 0.0)
    return __y == 0.0 ? __builtin_inf() : __builtin_nan("");
  double __t = -__hg_m::log(__y);
  double __s = __t - 0.5 * __hg_m::log(__t) - 0.5723649429247001;
  double __x = __builtin_elementwise_sqrt(__builtin_elementwise_max(__s, 0.0));
  for (int __i = 0; __i < __steps; ++__i)
    __x += (__hg_m::erfc(__x) - __y) /
           (1.1283791670955126 * __hg_m::exp(-__x * __x));
  return __x;
}
__HG_HDM double __hg_erfinv(double __y, int __steps) {
  double __a = __builtin_elementwise_abs(__y);
  if (__a > 0.75 && __a < 1.0) // 1 - |y| is exact here
    return __builtin_elementwise_copysign(
        __hg_erfc_tail(1.0 - __a, __steps + 3), __y);
  return __hg_erfinv_mid(__y, __steps);
}
__HG_HDM double __hg_erfcinv(double __y, int __steps) {
  if (__y < 0.25)
    return __hg_erfc_tail(__y, __steps + 3);
  if (__y > 1.75 && __y <= 2.0) // 2 - y is exact here
    return -__hg_erfc_tail(2.0 - __y, __steps + 3);
  return __hg_erfinv_mid(1.0 - __y, __steps); // exact for y in [0.5, 2]
}
__HG_HDM float erfinvf(float __y) { return (float)__hg_erfinv(__y, 1); }
__HG_HDM double erfinv(double __y) { return __hg_erfinv(__y, 3); }
__HG_HDM float erfcinvf(float __y) { return (float)__hg_erfcinv(__y, 1); }
__HG_HDM double erfcinv(double __y) { return __hg_erfcinv(__y, 3); }
/// normcdff in double: the float product -x/sqrt(2) would cost ~x^2/2 ulp.
__HG_HDM float normcdff(float __x) {
  return (float)(0.5 * __hg_m::erfc(-(double)__x * 0.70710678118654752));
}
/// normcdf: z = -x/sqrt(2) carries a rounding error e (computed with an fma
/// and the constant's tail) that erfc would magnify by ~2z^2, so it is added
/// back to first order: erfc(z + e) = erfc(z) - 2/sqrt(pi) exp(-z^2) e.
__HG_HDM double normcdf(double __x) {
  const double __hi = 0.7071067811865476, __lo = -4.833646656726457e-17;
  double __z = -__x * __hi;
  double __e = __builtin_elementwise_fma(-__x, __hi, -__z) - __x * __lo;
  double __c = __hg_m::erfc(__z);
  return 0.5 * (__c - 1.1283791670955126 * __hg_m::exp(-__z * __z) * __e);
}
__HG_HDM float normcdfinvf(float __p) {
  return (float)(-1.41421356237309505 * __hg_erfcinv(2.0 * (double)__p, 1));
}
__HG_HDM double normcdfinv(double __p) {
  return -1.41421356237309505 * erfcinv(2.0 * __p);
}
/// erfcx = exp(x^2) erfc(x): x^2 is split into hi + lo (an fma) so exp's
/// argument is exact to first order; above x = 26 erfc underflows and the
/// asymptotic series 1/(x sqrt(pi)) sum (-1)^n (2n-1)!! / (2x^2)^n is used.
__HG_HDM double erfcx(double __x) {
  if (__x != __x)
    return __x;
  if (__x > 26.0) {
    if (__builtin_isinf(__x))
      return 0.0;
    double __r = 0.5 / (__x * __x), __t = 1.0, __s = 1.0;
    for (int __n = 1; __n <= 10; ++__n) {
      __t *= -(2 * __n - 1) * __r;
      __s += __t;
    }
    return __s * 0.5641895835477563 / __x;
  }
  double __h = __x * __x;
  double __l = __builtin_elementwise_fma(__x, __x, -__h);
  return __hg_m::exp(__h) * (1.0 + __l) * __hg_m::erfc(__x);
}
__HG_HDM float erfcxf(float __x) { return (float)erfcx((double)__x); }

#pragma pop_macro("__HG_M1")
#pragma pop_macro("__HG_HDM")

#endif // HETGPU_CUDA_MATH_HOSTDEVICE_H
