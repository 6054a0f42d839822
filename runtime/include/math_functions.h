//===- math_functions.h - CUDA device math library --------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The device side of the C math library (sinf, sin, ...), its C++ overloads
/// (sin(float), std::sin, ...), CUDA's extra functions (rsqrtf, sinpif,
/// erfinvf, normcdff, ...), the fast-math intrinsics (__expf, __sinf, ...),
/// and CUDA's min/max overloads for host and device.
///
/// Transcendental functions call the `__hetgpu_math_*` builtins, which every
/// target implements from its own device library. Exactly rounded
/// operations (sqrt, fabs, floor, fma, fmin, ldexp, ...) use clang's generic
/// builtins, which become portable LLVM intrinsics. Functions the builtin
/// table lacks are composed from those two (see docs/Headers.md for their
/// accuracy).
///
/// The device functions are `static` overloads next to the host C library
/// ones (clang resolves by execution space); their C++ overloads were
/// declared early by hetgpu/cuda/math_forward.h.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_MATH_FUNCTIONS_H
#define HETGPU_MATH_FUNCTIONS_H

// Device language: empty in a plain C/C++ (non-CUDA) compile.
#if defined(__CUDA__)

#include <hetgpu/cuda/builtins.h>
#include <hetgpu/cuda/math_forward.h>

#include <limits.h>
#include <math.h>
#include <stdlib.h>

#pragma push_macro("__DEVICE__")
#define __DEVICE__ static __inline__ __attribute__((always_inline)) __device__

//===----------------------------------------------------------------------===//
// Builtin-table functions: C names (sinf, sin) and the C++ float overload.
//===----------------------------------------------------------------------===//

#define __HG_MATH1(N)                                                          \
  __DEVICE__ float N##f(float __x) { return __hetgpu_math_##N##f(__x); }       \
  __DEVICE__ double N(double __x) { return __hetgpu_math_##N(__x); }
#define __HG_MATH1_CXX(N)                                                      \
  __HG_MATH1(N)                                                                \
  __DEVICE__ float N(float __x) { return __hetgpu_math_##N##f(__x); }
#define __HG_MATH2(N)                                                          \
  __DEVICE__ float N##f(float __x, float __y) {                                \
    return __hetgpu_math_##N##f(__x, __y);                                     \
  }                                                                            \
  __DEVICE__ double N(double __x, double __y) {                                \
    return __hetgpu_math_##N(__x, __y);                                        \
  }                                                                            \
  __DEVICE__ float N(float __x, float __y) {                                   \
    return __hetgpu_math_##N##f(__x, __y);                                     \
  }
__HG_MATH1_CXX(sin)
__HG_MATH1_CXX(cos)
__HG_MATH1_CXX(tan)
__HG_MATH1_CXX(asin)
__HG_MATH1_CXX(acos)
__HG_MATH1_CXX(atan)
__HG_MATH1_CXX(sinh)
__HG_MATH1_CXX(cosh)
__HG_MATH1_CXX(tanh)
__HG_MATH1_CXX(asinh)
__HG_MATH1_CXX(acosh)
__HG_MATH1_CXX(atanh)
__HG_MATH1_CXX(exp)
__HG_MATH1_CXX(exp2)
__HG_MATH1(exp10) // GNU: no C++ overload in <cmath>
__HG_MATH1_CXX(expm1)
__HG_MATH1_CXX(log)
__HG_MATH1_CXX(log2)
__HG_MATH1_CXX(log10)
__HG_MATH1_CXX(log1p)
__HG_MATH1_CXX(logb)
__HG_MATH1_CXX(cbrt)
__HG_MATH1_CXX(erf)
__HG_MATH1_CXX(erfc)
__HG_MATH1_CXX(lgamma)
__HG_MATH1_CXX(tgamma)
__HG_MATH2(atan2)
__HG_MATH2(pow)
__HG_MATH2(hypot)
__HG_MATH2(fmod)
__HG_MATH2(remainder)
__HG_MATH2(nextafter)
__HG_MATH2(fdim)
#undef __HG_MATH1
#undef __HG_MATH1_CXX
#undef __HG_MATH2

__DEVICE__ float exp10(float __x) { return __hetgpu_math_exp10f(__x); }
__DEVICE__ float pow(float __x, int __n) {
  return __hetgpu_math_powf(__x, (float)__n);
}
__DEVICE__ double pow(double __x, int __n) {
  return __hetgpu_math_pow(__x, (double)__n);
}

//===----------------------------------------------------------------------===//
// Exactly rounded functions: portable LLVM intrinsics.
//===----------------------------------------------------------------------===//

#define __HG_ELEM1(N, Builtin)                                                 \
  __DEVICE__ float N##f(float __x) { return Builtin(__x); }                    \
  __DEVICE__ double N(double __x) { return Builtin(__x); }                     \
  __DEVICE__ float N(float __x) { return Builtin(__x); }
__HG_ELEM1(sqrt, __builtin_elementwise_sqrt)
__HG_ELEM1(fabs, __builtin_elementwise_abs)
__HG_ELEM1(floor, __builtin_elementwise_floor)
__HG_ELEM1(ceil, __builtin_elementwise_ceil)
__HG_ELEM1(trunc, __builtin_elementwise_trunc)
__HG_ELEM1(round, __builtin_elementwise_round)
__HG_ELEM1(rint, __builtin_elementwise_rint)
__HG_ELEM1(nearbyint, __builtin_elementwise_nearbyint)
#undef __HG_ELEM1

__DEVICE__ float fminf(float __x, float __y) {
  return __builtin_fminf(__x, __y);
}
__DEVICE__ double fmin(double __x, double __y) {
  return __builtin_fmin(__x, __y);
}
__DEVICE__ float fmin(float __x, float __y) {
  return __builtin_fminf(__x, __y);
}
__DEVICE__ float fmaxf(float __x, float __y) {
  return __builtin_fmaxf(__x, __y);
}
__DEVICE__ double fmax(double __x, double __y) {
  return __builtin_fmax(__x, __y);
}
__DEVICE__ float fmax(float __x, float __y) {
  return __builtin_fmaxf(__x, __y);
}
__DEVICE__ float copysignf(float __x, float __y) {
  return __builtin_elementwise_copysign(__x, __y);
}
__DEVICE__ double copysign(double __x, double __y) {
  return __builtin_elementwise_copysign(__x, __y);
}
__DEVICE__ float copysign(float __x, float __y) {
  return __builtin_elementwise_copysign(__x, __y);
}
__DEVICE__ float fmaf(float __x, float __y, float __z) {
  return __builtin_elementwise_fma(__x, __y, __z);
}
__DEVICE__ double fma(double __x, double __y, double __z) {
  return __builtin_elementwise_fma(__x, __y, __z);
}
__DEVICE__ float fma(float __x, float __y, float __z) {
  return __builtin_elementwise_fma(__x, __y, __z);
}
__DEVICE__ float ldexpf(float __x, int __e) {
  return __builtin_ldexpf(__x, __e);
}
__DEVICE__ double ldexp(double __x, int __e) {
  return __builtin_ldexp(__x, __e);
}
__DEVICE__ float ldexp(float __x, int __e) {
  return __builtin_ldexpf(__x, __e);
}
__DEVICE__ float scalbnf(float __x, int __e) {
  return __builtin_ldexpf(__x, __e);
}
__DEVICE__ double scalbn(double __x, int __e) {
  return __builtin_ldexp(__x, __e);
}
__DEVICE__ float scalbn(float __x, int __e) {
  return __builtin_ldexpf(__x, __e);
}
// ldexp saturates for any exponent beyond +-2^12, so clamping the long is
// exact.
__DEVICE__ int __hg_clamp_exp(long __e) {
  return __e > 100000 ? 100000 : (__e < -100000 ? -100000 : (int)__e);
}
__DEVICE__ float scalblnf(float __x, long __e) {
  return __builtin_ldexpf(__x, __hg_clamp_exp(__e));
}
__DEVICE__ double scalbln(double __x, long __e) {
  return __builtin_ldexp(__x, __hg_clamp_exp(__e));
}
__DEVICE__ float scalbln(float __x, long __e) { return scalblnf(__x, __e); }
__DEVICE__ float frexpf(float __x, int *__e) {
  return __builtin_frexpf(__x, __e);
}
__DEVICE__ double frexp(double __x, int *__e) {
  return __builtin_frexp(__x, __e);
}
__DEVICE__ float frexp(float __x, int *__e) {
  return __builtin_frexpf(__x, __e);
}
__DEVICE__ long lroundf(float __x) { return __builtin_lroundf(__x); }
__DEVICE__ long lround(double __x) { return __builtin_lround(__x); }
__DEVICE__ long lround(float __x) { return __builtin_lroundf(__x); }
__DEVICE__ long long llroundf(float __x) { return __builtin_llroundf(__x); }
__DEVICE__ long long llround(double __x) { return __builtin_llround(__x); }
__DEVICE__ long long llround(float __x) { return __builtin_llroundf(__x); }
__DEVICE__ long lrintf(float __x) { return __builtin_lrintf(__x); }
__DEVICE__ long lrint(double __x) { return __builtin_lrint(__x); }
__DEVICE__ long lrint(float __x) { return __builtin_lrintf(__x); }
__DEVICE__ long long llrintf(float __x) { return __builtin_llrintf(__x); }
__DEVICE__ long long llrint(double __x) { return __builtin_llrint(__x); }
__DEVICE__ long long llrint(float __x) { return __builtin_llrintf(__x); }
__DEVICE__ float modff(float __x, float *__i) {
  float __t = __builtin_elementwise_trunc(__x);
  *__i = __t;
  return __builtin_isinf(__x) ? __builtin_elementwise_copysign(0.0f, __x)
                              : __builtin_elementwise_copysign(__x - __t, __x);
}
__DEVICE__ double modf(double __x, double *__i) {
  double __t = __builtin_elementwise_trunc(__x);
  *__i = __t;
  return __builtin_isinf(__x) ? __builtin_elementwise_copysign(0.0, __x)
                              : __builtin_elementwise_copysign(__x - __t, __x);
}
__DEVICE__ float modf(float __x, float *__i) { return modff(__x, __i); }
__DEVICE__ float nanf(const char *) { return __builtin_nanf(""); }
__DEVICE__ double nan(const char *) { return __builtin_nan(""); }
__DEVICE__ int ilogbf(float __x) {
  if (__x == 0.0f || __x != __x)
    return __x == 0.0f ? FP_ILOGB0 : FP_ILOGBNAN;
  if (__builtin_isinf(__x))
    return INT_MAX;
  return (int)__hetgpu_math_logbf(__x);
}
__DEVICE__ int ilogb(double __x) {
  if (__x == 0.0 || __x != __x)
    return __x == 0.0 ? FP_ILOGB0 : FP_ILOGBNAN;
  if (__builtin_isinf(__x))
    return INT_MAX;
  return (int)__hetgpu_math_logb(__x);
}
__DEVICE__ int ilogb(float __x) { return ilogbf(__x); }
/// remquo: the remainder as remainder(); the low three bits of the integral
/// quotient, with its sign, from the remainder of |x| by 8|y|.
__DEVICE__ double remquo(double __x, double __y, int *__q) {
  double __r = __hetgpu_math_remainder(__x, __y);
  double __ax = __builtin_elementwise_abs(__x);
  double __ay = __builtin_elementwise_abs(__y);
  double __t = __hetgpu_math_fmod(__ax, 8.0 * __ay);
  int __n = (int)__builtin_elementwise_rint(
      (__t - __hetgpu_math_remainder(__t, __ay)) / __ay);
  __n &= 7;
  *__q = (__builtin_signbit(__x) != __builtin_signbit(__y)) ? -__n : __n;
  return __r;
}
__DEVICE__ float remquof(float __x, float __y, int *__q) {
  return (float)remquo((double)__x, (double)__y, __q);
}
__DEVICE__ float remquo(float __x, float __y, int *__q) {
  return remquof(__x, __y, __q);
}

//===----------------------------------------------------------------------===//
// Classification and comparison
//===----------------------------------------------------------------------===//

#define __HG_CLASS(R, N, Builtin)                                              \
  __DEVICE__ R N(float __x) { return Builtin(__x); }                           \
  __DEVICE__ R N(double __x) { return Builtin(__x); }
__HG_CLASS(bool, isfinite, __builtin_isfinite)
__HG_CLASS(bool, isinf, __builtin_isinf)
__HG_CLASS(bool, isnan, __builtin_isnan)
__HG_CLASS(bool, isnormal, __builtin_isnormal)
__HG_CLASS(bool, signbit, __builtin_signbit)
#undef __HG_CLASS
__DEVICE__ int fpclassify(float __x) {
  return __builtin_fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL,
                              FP_ZERO, __x);
}
__DEVICE__ int fpclassify(double __x) {
  return __builtin_fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL,
                              FP_ZERO, __x);
}
#define __HG_CMP(N)                                                            \
  __DEVICE__ bool N(float __x, float __y) { return __builtin_##N(__x, __y); }  \
  __DEVICE__ bool N(double __x, double __y) { return __builtin_##N(__x, __y); }
__HG_CMP(isgreater)
__HG_CMP(isgreaterequal)
__HG_CMP(isless)
__HG_CMP(islessequal)
__HG_CMP(islessgreater)
__HG_CMP(isunordered)
#undef __HG_CMP
// CUDA's C-style names.
__DEVICE__ int __isnanf(float __x) { return __builtin_isnan(__x); }
__DEVICE__ int __isnan(double __x) { return __builtin_isnan(__x); }
__DEVICE__ int __isinff(float __x) { return __builtin_isinf(__x); }
__DEVICE__ int __isinf(double __x) { return __builtin_isinf(__x); }
__DEVICE__ int __finitef(float __x) { return __builtin_isfinite(__x); }
__DEVICE__ int __isfinited(double __x) { return __builtin_isfinite(__x); }
__DEVICE__ int __signbitf(float __x) { return __builtin_signbit(__x); }
__DEVICE__ int __signbitd(double __x) { return __builtin_signbit(__x); }

//===----------------------------------------------------------------------===//
// Integer abs
//===----------------------------------------------------------------------===//

__DEVICE__ int abs(int __x) { return __x < 0 ? -__x : __x; }
__DEVICE__ long labs(long __x) { return __x < 0 ? -__x : __x; }
__DEVICE__ long long llabs(long long __x) { return __x < 0 ? -__x : __x; }
__DEVICE__ long abs(long __x) { return labs(__x); }
__DEVICE__ long long abs(long long __x) { return llabs(__x); }
__DEVICE__ float abs(float __x) { return __builtin_elementwise_abs(__x); }
__DEVICE__ double abs(double __x) { return __builtin_elementwise_abs(__x); }

//===----------------------------------------------------------------------===//
// CUDA's extra functions (composed; accuracy in docs/Headers.md)
//===----------------------------------------------------------------------===//

__DEVICE__ void sincosf(float __x, float *__s, float *__c) {
  *__s = __hetgpu_math_sinf(__x);
  *__c = __hetgpu_math_cosf(__x);
}
__DEVICE__ void sincos(double __x, double *__s, double *__c) {
  *__s = __hetgpu_math_sin(__x);
  *__c = __hetgpu_math_cos(__x);
}
// The ones CUDA also declares __host__ (rsqrt[f], rcbrt[f], sinpi[f],
// cospi[f], sincospi[f], erfinv[f], erfcinv[f], normcdf[f], normcdfinv[f],
// erfcx[f]): one host+device definition each.
#include <hetgpu/cuda/math_hostdevice.h>
__DEVICE__ float rhypotf(float __x, float __y) {
  return 1.0f / __hetgpu_math_hypotf(__x, __y);
}
__DEVICE__ double rhypot(double __x, double __y) {
  return 1.0 / __hetgpu_math_hypot(__x, __y);
}
// Euclidean norms, scaled by the largest magnitude against overflow.
#define __HG_NORM(T, S)                                                        \
  __DEVICE__ T norm##S(int __n, const T *__v) {                                \
    T __m = 0;                                                                 \
    for (int __i = 0; __i < __n; ++__i) {                                      \
      T __a = __builtin_elementwise_abs(__v[__i]);                             \
      if (__a != __a || __builtin_isinf(__a))                                  \
        return __builtin_isinf(__a) ? __a : __m + __a;                         \
      __m = __a > __m ? __a : __m;                                             \
    }                                                                          \
    if (__m == 0)                                                              \
      return 0;                                                                \
    T __s = 0;                                                                 \
    for (int __i = 0; __i < __n; ++__i) {                                      \
      T __q = __v[__i] / __m;                                                  \
      __s += __q * __q;                                                        \
    }                                                                          \
    return __m * __builtin_elementwise_sqrt(__s);                              \
  }                                                                            \
  __DEVICE__ T rnorm##S(int __n, const T *__v) {                               \
    return (T)1 / norm##S(__n, __v);                                           \
  }                                                                            \
  __DEVICE__ T norm3d##S(T __a, T __b, T __c) {                                \
    T __v[3] = {__a, __b, __c};                                                \
    return norm##S(3, __v);                                                    \
  }                                                                            \
  __DEVICE__ T rnorm3d##S(T __a, T __b, T __c) {                               \
    return (T)1 / norm3d##S(__a, __b, __c);                                    \
  }                                                                            \
  __DEVICE__ T norm4d##S(T __a, T __b, T __c, T __d) {                         \
    T __v[4] = {__a, __b, __c, __d};                                           \
    return norm##S(4, __v);                                                    \
  }                                                                            \
  __DEVICE__ T rnorm4d##S(T __a, T __b, T __c, T __d) {                        \
    return (T)1 / norm4d##S(__a, __b, __c, __d);                               \
  }
__HG_NORM(float, f)
__HG_NORM(double, )
#undef __HG_NORM

//===----------------------------------------------------------------------===//
// Fast-math intrinsics. hetGPU gives them full accuracy (every target's
// library function), which CUDA allows ("at least" the documented error).
//===----------------------------------------------------------------------===//

__DEVICE__ float __expf(float __x) { return __hetgpu_math_expf(__x); }
__DEVICE__ float __exp10f(float __x) { return __hetgpu_math_exp10f(__x); }
__DEVICE__ float __logf(float __x) { return __hetgpu_math_logf(__x); }
__DEVICE__ float __log2f(float __x) { return __hetgpu_math_log2f(__x); }
__DEVICE__ float __log10f(float __x) { return __hetgpu_math_log10f(__x); }
__DEVICE__ float __powf(float __x, float __y) {
  return __hetgpu_math_powf(__x, __y);
}
__DEVICE__ float __sinf(float __x) { return __hetgpu_math_sinf(__x); }
__DEVICE__ float __cosf(float __x) { return __hetgpu_math_cosf(__x); }
__DEVICE__ float __tanf(float __x) { return __hetgpu_math_tanf(__x); }
__DEVICE__ void __sincosf(float __x, float *__s, float *__c) {
  *__s = __hetgpu_math_sinf(__x);
  *__c = __hetgpu_math_cosf(__x);
}

//===----------------------------------------------------------------------===//
// Integer-argument overloads (sin(1) would otherwise be ambiguous between
// sin(float) and sin(double) in device code): promote to double as C++ does.
//===----------------------------------------------------------------------===//

namespace __hg_math {
template <bool B, typename T = void> struct enable_if {};
template <typename T> struct enable_if<true, T> { typedef T type; };
template <typename T> struct is_int { static const bool value = false; };
#define __HG_IS_INT(T)                                                         \
  template <> struct is_int<T> { static const bool value = true; };
__HG_IS_INT(bool)
__HG_IS_INT(char)
__HG_IS_INT(signed char)
__HG_IS_INT(unsigned char)
__HG_IS_INT(short)
__HG_IS_INT(unsigned short)
__HG_IS_INT(int)
__HG_IS_INT(unsigned int)
__HG_IS_INT(long)
__HG_IS_INT(unsigned long)
__HG_IS_INT(long long)
__HG_IS_INT(unsigned long long)
#undef __HG_IS_INT
// The promoted type of two arithmetic arguments (double unless both float).
template <typename A, typename B> struct promote2 { typedef double type; };
template <> struct promote2<float, float> { typedef float type; };
template <typename T> struct is_arith {
  static const bool value = is_int<T>::value;
};
template <> struct is_arith<float> { static const bool value = true; };
template <> struct is_arith<double> { static const bool value = true; };
template <typename A, typename B> struct is_same {
  static const bool value = false;
};
template <typename A> struct is_same<A, A> { static const bool value = true; };
} // namespace __hg_math

#define __HG_INT1(R, N)                                                        \
  template <typename __T>                                                      \
  __DEVICE__                                                                   \
      typename __hg_math::enable_if<__hg_math::is_int<__T>::value, R>::type    \
      N(__T __x) {                                                             \
    return ::N((double)__x);                                                   \
  }
#define __HG_INT2(N)                                                           \
  template <typename __A, typename __B>                                        \
  __DEVICE__ typename __hg_math::enable_if<                                    \
      (__hg_math::is_int<__A>::value || __hg_math::is_int<__B>::value) &&      \
          __hg_math::is_arith<__A>::value && __hg_math::is_arith<__B>::value,  \
      double>::type                                                            \
  N(__A __x, __B __y) {                                                        \
    return ::N((double)__x, (double)__y);                                      \
  }
// remquo has no CUDA overload for integral or mixed float/double arguments
// either; C++ (<cmath>) computes it in double then, as for fmod.
template <typename __A, typename __B>
__DEVICE__ typename __hg_math::enable_if<
    __hg_math::is_arith<__A>::value && __hg_math::is_arith<__B>::value &&
        !__hg_math::is_same<__A, __B>::value,
    double>::type
remquo(__A __x, __B __y, int *__q) {
  return ::remquo((double)__x, (double)__y, __q);
}
template <typename __T>
__DEVICE__ typename __hg_math::enable_if<__hg_math::is_int<__T>::value,
                                         double>::type
remquo(__T __x, __T __y, int *__q) {
  return ::remquo((double)__x, (double)__y, __q);
}
// Integral first argument of the exponent functions: double, as <cmath>'s
// templates say (theirs call the host libm from device code).
#define __HG_INTEXP(N, E)                                                      \
  template <typename __T>                                                      \
  __DEVICE__                                                                   \
      typename __hg_math::enable_if<__hg_math::is_int<__T>::value,            \
                                    double>::type                              \
      N(__T __x, E __e) {                                                      \
    return ::N((double)__x, __e);                                              \
  }
__HG_INTEXP(ldexp, int)
__HG_INTEXP(scalbn, int)
__HG_INTEXP(scalbln, long)
__HG_INTEXP(frexp, int *)
#undef __HG_INTEXP
__HG_INT1(double, acos)
__HG_INT1(double, acosh)
__HG_INT1(double, asin)
__HG_INT1(double, asinh)
__HG_INT1(double, atan)
__HG_INT1(double, atanh)
__HG_INT1(double, cbrt)
__HG_INT1(double, ceil)
__HG_INT1(double, cos)
__HG_INT1(double, cosh)
__HG_INT1(double, erf)
__HG_INT1(double, erfc)
__HG_INT1(double, exp)
__HG_INT1(double, exp2)
__HG_INT1(double, expm1)
__HG_INT1(double, fabs)
__HG_INT1(double, floor)
__HG_INT1(double, lgamma)
__HG_INT1(double, log)
__HG_INT1(double, log10)
__HG_INT1(double, log1p)
__HG_INT1(double, log2)
__HG_INT1(double, logb)
__HG_INT1(double, nearbyint)
__HG_INT1(double, rint)
__HG_INT1(double, round)
__HG_INT1(double, sin)
__HG_INT1(double, sinh)
__HG_INT1(double, sqrt)
__HG_INT1(double, tan)
__HG_INT1(double, tanh)
__HG_INT1(double, tgamma)
__HG_INT1(double, trunc)
__HG_INT1(int, ilogb)
__HG_INT1(long, lrint)
__HG_INT1(long long, llrint)
__HG_INT1(long, lround)
__HG_INT1(long long, llround)
__HG_INT1(bool, isfinite)
__HG_INT1(bool, isinf)
__HG_INT1(bool, isnan)
__HG_INT1(bool, signbit)
__HG_INT2(atan2)
__HG_INT2(copysign)
__HG_INT2(fdim)
__HG_INT2(fmax)
__HG_INT2(fmin)
__HG_INT2(fmod)
__HG_INT2(hypot)
__HG_INT2(nextafter)
__HG_INT2(pow)
__HG_INT2(remainder)
#undef __HG_INT1
#undef __HG_INT2

//===----------------------------------------------------------------------===//
// namespace std: the new overloads, the float C names, CUDA's extras.
//===----------------------------------------------------------------------===//

#ifdef _LIBCPP_BEGIN_NAMESPACE_STD
_LIBCPP_BEGIN_NAMESPACE_STD
#else
namespace std {
#ifdef _GLIBCXX_BEGIN_NAMESPACE_VERSION
_GLIBCXX_BEGIN_NAMESPACE_VERSION
#endif
#endif
using ::acos;
using ::acosf;
using ::acosh;
using ::acoshf;
using ::asin;
using ::asinf;
using ::asinh;
using ::asinhf;
using ::atan;
using ::atan2;
using ::atan2f;
using ::atanf;
using ::atanh;
using ::atanhf;
using ::cbrt;
using ::cbrtf;
using ::ceil;
using ::ceilf;
using ::copysign;
using ::copysignf;
using ::cos;
using ::cosf;
using ::cosh;
using ::coshf;
using ::erf;
using ::erfc;
using ::erfcf;
using ::erff;
using ::exp;
using ::exp2;
using ::exp2f;
using ::expf;
using ::expm1;
using ::expm1f;
using ::fabs;
using ::fabsf;
using ::fdim;
using ::fdimf;
using ::floor;
using ::floorf;
using ::fma;
using ::fmaf;
using ::fmax;
using ::fmaxf;
using ::fmin;
using ::fminf;
using ::fmod;
using ::fmodf;
using ::frexp;
using ::frexpf;
using ::hypot;
using ::hypotf;
using ::ilogb;
using ::ilogbf;
using ::ldexp;
using ::ldexpf;
using ::lgamma;
using ::lgammaf;
using ::llrint;
using ::llrintf;
using ::llround;
using ::llroundf;
using ::log;
using ::log10;
using ::log10f;
using ::log1p;
using ::log1pf;
using ::log2;
using ::log2f;
using ::logb;
using ::logbf;
using ::logf;
using ::lrint;
using ::lrintf;
using ::lround;
using ::lroundf;
using ::modf;
using ::modff;
using ::nearbyint;
using ::nearbyintf;
using ::nextafter;
using ::nextafterf;
using ::pow;
using ::powf;
using ::remainder;
using ::remainderf;
using ::remquo;
using ::remquof;
using ::rint;
using ::rintf;
using ::round;
using ::roundf;
using ::scalbln;
using ::scalblnf;
using ::scalbn;
using ::scalbnf;
using ::signbit;
using ::sin;
using ::sinf;
using ::sinh;
using ::sinhf;
using ::sqrt;
using ::sqrtf;
using ::tan;
using ::tanf;
using ::tanh;
using ::tanhf;
using ::tgamma;
using ::tgammaf;
using ::trunc;
using ::truncf;
#ifdef _LIBCPP_END_NAMESPACE_STD
_LIBCPP_END_NAMESPACE_STD
#else
#ifdef _GLIBCXX_BEGIN_NAMESPACE_VERSION
_GLIBCXX_END_NAMESPACE_VERSION
#endif
} // namespace std
#endif

//===----------------------------------------------------------------------===//
// CUDA's min/max: host and device, with its mixed signed/unsigned rules
// (an unsigned operand makes the comparison unsigned).
//===----------------------------------------------------------------------===//

#define __HG_MINMAX(R, A, B)                                                   \
  static __inline__ __host__ __device__ R min(A __a, B __b) {                  \
    return (R)__a < (R)__b ? (R)__a : (R)__b;                                  \
  }                                                                            \
  static __inline__ __host__ __device__ R max(A __a, B __b) {                  \
    return (R)__a > (R)__b ? (R)__a : (R)__b;                                  \
  }
__HG_MINMAX(int, int, int)
__HG_MINMAX(unsigned int, unsigned int, unsigned int)
__HG_MINMAX(unsigned int, int, unsigned int)
__HG_MINMAX(unsigned int, unsigned int, int)
__HG_MINMAX(long, long, long)
__HG_MINMAX(unsigned long, unsigned long, unsigned long)
__HG_MINMAX(unsigned long, long, unsigned long)
__HG_MINMAX(unsigned long, unsigned long, long)
__HG_MINMAX(long long, long long, long long)
__HG_MINMAX(unsigned long long, unsigned long long, unsigned long long)
__HG_MINMAX(unsigned long long, long long, unsigned long long)
__HG_MINMAX(unsigned long long, unsigned long long, long long)
#undef __HG_MINMAX
static __inline__ __host__ __device__ float min(float __a, float __b) {
  return __builtin_fminf(__a, __b);
}
static __inline__ __host__ __device__ float max(float __a, float __b) {
  return __builtin_fmaxf(__a, __b);
}
static __inline__ __host__ __device__ double min(double __a, double __b) {
  return __builtin_fmin(__a, __b);
}
static __inline__ __host__ __device__ double max(double __a, double __b) {
  return __builtin_fmax(__a, __b);
}
static __inline__ __host__ __device__ double min(float __a, double __b) {
  return __builtin_fmin(__a, __b);
}
static __inline__ __host__ __device__ double max(float __a, double __b) {
  return __builtin_fmax(__a, __b);
}
static __inline__ __host__ __device__ double min(double __a, float __b) {
  return __builtin_fmin(__a, __b);
}
static __inline__ __host__ __device__ double max(double __a, float __b) {
  return __builtin_fmax(__a, __b);
}
static __inline__ __host__ __device__ unsigned int umin(unsigned int __a,
                                                        unsigned int __b) {
  return __a < __b ? __a : __b;
}
static __inline__ __host__ __device__ unsigned int umax(unsigned int __a,
                                                        unsigned int __b) {
  return __a > __b ? __a : __b;
}
static __inline__ __host__ __device__ long long llmin(long long __a,
                                                      long long __b) {
  return __a < __b ? __a : __b;
}
static __inline__ __host__ __device__ long long llmax(long long __a,
                                                      long long __b) {
  return __a > __b ? __a : __b;
}
static __inline__ __host__ __device__ unsigned long long
ullmin(unsigned long long __a, unsigned long long __b) {
  return __a < __b ? __a : __b;
}
static __inline__ __host__ __device__ unsigned long long
ullmax(unsigned long long __a, unsigned long long __b) {
  return __a > __b ? __a : __b;
}

#pragma pop_macro("__DEVICE__")

#endif // __CUDA__

#endif // HETGPU_MATH_FUNCTIONS_H
