//===- hetgpu/cuda/math_forward.h - Early math declarations -------*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Declares the `__device__` overloads of the C++ math functions (sin(float),
/// sin(double), ...) before the standard library's <cmath> is seen, and pulls
/// them into namespace std. Clang makes an undecorated constexpr function
/// implicitly `__host__ __device__` unless a `__device__` function with the
/// same signature was declared first, and a host+device function can no
/// longer be overloaded by a device one. Declaring ours first keeps libstdc++'s
/// constexpr std::sin(float) host-only, so that device code resolves to the
/// definitions in math_functions.h. (The technique of clang's own CUDA
/// headers.) Must be included before any standard header.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_CUDA_MATH_FORWARD_H
#define HETGPU_CUDA_MATH_FORWARD_H

// Device language: empty in a plain C/C++ (non-CUDA) compile.
#if defined(__CUDA__)

#include <host_defines.h>

#pragma push_macro("__DEVICE__")
#define __DEVICE__ static __inline__ __attribute__((always_inline)) __device__

// Name(float) and Name(double) with return type R, and two-argument forms.
#define __HG_FWD1(R, N)                                                        \
  __DEVICE__ R N(float);                                                       \
  __DEVICE__ R N(double);
#define __HG_FWD2F(N)                                                          \
  __DEVICE__ float N(float, float);                                            \
  __DEVICE__ double N(double, double);

__DEVICE__ int abs(int);
__DEVICE__ long abs(long);
__DEVICE__ long long abs(long long);
__DEVICE__ float abs(float);
__DEVICE__ double abs(double);
__DEVICE__ long labs(long);
__DEVICE__ long long llabs(long long);
#define __HG_FWD_UNARY(N)                                                      \
  __DEVICE__ float N(float);                                                   \
  __DEVICE__ double N(double);
__HG_FWD_UNARY(acos)
__HG_FWD_UNARY(acosh)
__HG_FWD_UNARY(asin)
__HG_FWD_UNARY(asinh)
__HG_FWD_UNARY(atan)
__HG_FWD_UNARY(atanh)
__HG_FWD_UNARY(cbrt)
__HG_FWD_UNARY(ceil)
__HG_FWD_UNARY(cos)
__HG_FWD_UNARY(cosh)
__HG_FWD_UNARY(erf)
__HG_FWD_UNARY(erfc)
__HG_FWD_UNARY(exp)
__HG_FWD_UNARY(exp2)
__HG_FWD_UNARY(expm1)
__HG_FWD_UNARY(fabs)
__HG_FWD_UNARY(floor)
__HG_FWD_UNARY(lgamma)
__HG_FWD_UNARY(log)
__HG_FWD_UNARY(log10)
__HG_FWD_UNARY(log1p)
__HG_FWD_UNARY(log2)
__HG_FWD_UNARY(logb)
__HG_FWD_UNARY(nearbyint)
__HG_FWD_UNARY(rint)
__HG_FWD_UNARY(round)
__HG_FWD_UNARY(sin)
__HG_FWD_UNARY(sinh)
__HG_FWD_UNARY(sqrt)
__HG_FWD_UNARY(tan)
__HG_FWD_UNARY(tanh)
__HG_FWD_UNARY(tgamma)
__HG_FWD_UNARY(trunc)
__HG_FWD2F(atan2)
__HG_FWD2F(copysign)
__HG_FWD2F(fdim)
__HG_FWD2F(fmax)
__HG_FWD2F(fmin)
__HG_FWD2F(fmod)
__HG_FWD2F(hypot)
__HG_FWD2F(nextafter)
__HG_FWD2F(pow)
__HG_FWD2F(remainder)
__DEVICE__ float fma(float, float, float);
__DEVICE__ double fma(double, double, double);
__DEVICE__ float frexp(float, int *);
__DEVICE__ double frexp(double, int *);
__DEVICE__ float ldexp(float, int);
__DEVICE__ double ldexp(double, int);
__DEVICE__ float scalbn(float, int);
__DEVICE__ double scalbn(double, int);
__DEVICE__ float scalbln(float, long);
__DEVICE__ double scalbln(double, long);
__DEVICE__ float modf(float, float *);
__DEVICE__ double modf(double, double *);
__DEVICE__ float remquo(float, float, int *);
__DEVICE__ double remquo(double, double, int *);
__DEVICE__ float pow(float, int);
__DEVICE__ double pow(double, int);
__DEVICE__ double nan(const char *);
__DEVICE__ float nanf(const char *);
__HG_FWD1(int, ilogb)
__HG_FWD1(long, lrint)
__HG_FWD1(long long, llrint)
__HG_FWD1(long, lround)
__HG_FWD1(long long, llround)
__HG_FWD1(int, fpclassify)
__HG_FWD1(bool, isfinite)
__HG_FWD1(bool, isinf)
__HG_FWD1(bool, isnan)
__HG_FWD1(bool, isnormal)
__HG_FWD1(bool, signbit)
#define __HG_FWD_CMP(N)                                                        \
  __DEVICE__ bool N(float, float);                                             \
  __DEVICE__ bool N(double, double);
__HG_FWD_CMP(isgreater)
__HG_FWD_CMP(isgreaterequal)
__HG_FWD_CMP(isless)
__HG_FWD_CMP(islessequal)
__HG_FWD_CMP(islessgreater)
__HG_FWD_CMP(isunordered)
#undef __HG_FWD_CMP
#undef __HG_FWD_UNARY
#undef __HG_FWD1
#undef __HG_FWD2F

// Into namespace std, where <cmath> would otherwise define constexpr
// host+device versions. (No versioned/inline namespace: <bits/c++config.h>
// has not been seen yet, so libstdc++'s macros are not defined.)
namespace std {
using ::abs;
using ::acos;
using ::acosh;
using ::asin;
using ::asinh;
using ::atan;
using ::atan2;
using ::atanh;
using ::cbrt;
using ::ceil;
using ::copysign;
using ::cos;
using ::cosh;
using ::erf;
using ::erfc;
using ::exp;
using ::exp2;
using ::expm1;
using ::fabs;
using ::fdim;
using ::floor;
using ::fma;
using ::fmax;
using ::fmin;
using ::fmod;
using ::fpclassify;
using ::frexp;
using ::hypot;
using ::ilogb;
using ::isfinite;
using ::isgreater;
using ::isgreaterequal;
using ::isinf;
using ::isless;
using ::islessequal;
using ::islessgreater;
using ::isnan;
using ::isnormal;
using ::isunordered;
using ::labs;
using ::ldexp;
using ::lgamma;
using ::llabs;
using ::llrint;
using ::llround;
using ::log;
using ::log10;
using ::log1p;
using ::log2;
using ::logb;
using ::lrint;
using ::lround;
using ::modf;
using ::nan;
using ::nanf;
using ::nearbyint;
using ::nextafter;
using ::pow;
using ::remainder;
using ::remquo;
using ::rint;
using ::round;
using ::scalbln;
using ::scalbn;
using ::signbit;
using ::sin;
using ::sinh;
using ::sqrt;
using ::tan;
using ::tanh;
using ::tgamma;
using ::trunc;
} // namespace std

#pragma pop_macro("__DEVICE__")

#endif // __CUDA__

#endif // HETGPU_CUDA_MATH_FORWARD_H
