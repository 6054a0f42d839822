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
__HG_HDM double rsqrt(double __x) {
  return 1.0 / __builtin_elementwise_sqrt(__x);
}
__HG_HDM float rcbrtf(float __x) { return 1.0f / __hg_m::cbrtf(__x); }
__HG_HDM double rcbrt(double __x) { return 1.0 / __hg_m::cbrt(__x); }
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
__HG_SINPI(float, f, __hg_m::sinf, __hg_m::cosf,
           3.14159265358979323846)
__HG_SINPI(double, , __hg_m::sin, __hg_m::cos,
           3.14159265358979323846)
#undef __HG_SINPI

/// erfinv: Giles' single-precision approximation ("Approximating the erfinv
/// function", GPU Computing Gems, 2011), then Newton steps on erf.
__HG_HDM double __hg_erfinv(double __y, int __steps) {
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
__HG_HDM float erfinvf(float __y) { return (float)__hg_erfinv(__y, 1); }
__HG_HDM double erfinv(double __y) { return __hg_erfinv(__y, 3); }
__HG_HDM float erfcinvf(float __y) {
  return (float)__hg_erfinv(1.0 - __y, 1);
}
__HG_HDM double erfcinv(double __y) { return __hg_erfinv(1.0 - __y, 3); }
__HG_HDM float normcdff(float __x) {
  return 0.5f * __hg_m::erfcf(-__x * 0.70710678118654752f);
}
__HG_HDM double normcdf(double __x) {
  return 0.5 * __hg_m::erfc(-__x * 0.70710678118654752);
}
__HG_HDM float normcdfinvf(float __p) {
  return -1.41421356237309505f * erfcinvf(2.0f * __p);
}
__HG_HDM double normcdfinv(double __p) {
  return -1.41421356237309505 * erfcinv(2.0 * __p);
}
__HG_HDM float erfcxf(float __x) {
  return (float)(__hg_m::exp((double)__x * __x) *
                 __hg_m::erfc((double)__x));
}
__HG_HDM double erfcx(double __x) {
  return __hg_m::exp(__x * __x) * __hg_m::erfc(__x);
}

#pragma pop_macro("__HG_M1")
#pragma pop_macro("__HG_HDM")

#endif // HETGPU_CUDA_MATH_HOSTDEVICE_H
