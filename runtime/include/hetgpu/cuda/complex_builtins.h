//===- hetgpu/cuda/complex_builtins.h - Complex mul/div helpers ---*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Device definitions of the compiler-rt helpers clang calls for complex
/// multiplication and division (`__mulsc3`, `__muldc3`, `__divsc3`,
/// `__divdc3`), which std::complex and `_Complex` arithmetic use. They
/// follow C11 Annex G (recover infinities from NaN results; scale the
/// divisor to avoid overflow). `extern "C" inline`: emitted only where used.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_CUDA_COMPLEX_BUILTINS_H
#define HETGPU_CUDA_COMPLEX_BUILTINS_H

// Device language: empty in a plain C/C++ (non-CUDA) compile.
#if defined(__CUDA__)

#include <hetgpu/cuda/builtins.h>

#pragma push_macro("__HG_CPLX")
#define __HG_CPLX extern "C" __inline__ __device__

// T: element type, S: suffix of the builtins (f for float), N: name part.
#define __HG_COMPLEX_MUL(T, S, N)                                              \
  __HG_CPLX _Complex T N(T __a, T __b, T __c, T __d) {                         \
    T __ac = __a * __c, __bd = __b * __d, __ad = __a * __d, __bc = __b * __c;  \
    _Complex T __z;                                                            \
    __real__ __z = __ac - __bd;                                                \
    __imag__ __z = __ad + __bc;                                                \
    if (__builtin_isnan(__real__ __z) && __builtin_isnan(__imag__ __z)) {      \
      bool __recalc = false;                                                   \
      if (__builtin_isinf(__a) || __builtin_isinf(__b)) {                      \
        __a = __builtin_copysign##S(__builtin_isinf(__a) ? 1 : 0, __a);        \
        __b = __builtin_copysign##S(__builtin_isinf(__b) ? 1 : 0, __b);        \
        if (__builtin_isnan(__c))                                              \
          __c = __builtin_copysign##S(0, __c);                                 \
        if (__builtin_isnan(__d))                                              \
          __d = __builtin_copysign##S(0, __d);                                 \
        __recalc = true;                                                       \
      }                                                                        \
      if (__builtin_isinf(__c) || __builtin_isinf(__d)) {                      \
        __c = __builtin_copysign##S(__builtin_isinf(__c) ? 1 : 0, __c);        \
        __d = __builtin_copysign##S(__builtin_isinf(__d) ? 1 : 0, __d);        \
        if (__builtin_isnan(__a))                                              \
          __a = __builtin_copysign##S(0, __a);                                 \
        if (__builtin_isnan(__b))                                              \
          __b = __builtin_copysign##S(0, __b);                                 \
        __recalc = true;                                                       \
      }                                                                        \
      if (!__recalc && (__builtin_isinf(__ac) || __builtin_isinf(__bd) ||      \
                        __builtin_isinf(__ad) || __builtin_isinf(__bc))) {     \
        if (__builtin_isnan(__a))                                              \
          __a = __builtin_copysign##S(0, __a);                                 \
        if (__builtin_isnan(__b))                                              \
          __b = __builtin_copysign##S(0, __b);                                 \
        if (__builtin_isnan(__c))                                              \
          __c = __builtin_copysign##S(0, __c);                                 \
        if (__builtin_isnan(__d))                                              \
          __d = __builtin_copysign##S(0, __d);                                 \
        __recalc = true;                                                       \
      }                                                                        \
      if (__recalc) {                                                          \
        __real__ __z = __builtin_huge_val##S() * (__a * __c - __b * __d);      \
        __imag__ __z = __builtin_huge_val##S() * (__a * __d + __b * __c);      \
      }                                                                        \
    }                                                                          \
    return __z;                                                                \
  }

#define __HG_COMPLEX_DIV(T, S, N)                                              \
  __HG_CPLX _Complex T N(T __a, T __b, T __c, T __d) {                         \
    int __ilogbw = 0;                                                          \
    T __logbw = __hetgpu_math_logb##S(                                         \
        __builtin_fmax##S(__builtin_fabs##S(__c), __builtin_fabs##S(__d)));    \
    if (__builtin_isfinite(__logbw)) {                                         \
      __ilogbw = (int)__logbw;                                                 \
      __c = __builtin_ldexp##S(__c, -__ilogbw);                                \
      __d = __builtin_ldexp##S(__d, -__ilogbw);                                \
    }                                                                          \
    T __den = __c * __c + __d * __d;                                           \
    _Complex T __z;                                                            \
    __real__ __z =                                                             \
        __builtin_ldexp##S((__a * __c + __b * __d) / __den, -__ilogbw);        \
    __imag__ __z =                                                             \
        __builtin_ldexp##S((__b * __c - __a * __d) / __den, -__ilogbw);        \
    if (__builtin_isnan(__real__ __z) && __builtin_isnan(__imag__ __z)) {      \
      if (__den == 0 && (!__builtin_isnan(__a) || !__builtin_isnan(__b))) {    \
        __real__ __z =                                                         \
            __builtin_copysign##S(__builtin_huge_val##S(), __c) * __a;         \
        __imag__ __z =                                                         \
            __builtin_copysign##S(__builtin_huge_val##S(), __c) * __b;         \
      } else if ((__builtin_isinf(__a) || __builtin_isinf(__b)) &&             \
                 __builtin_isfinite(__c) && __builtin_isfinite(__d)) {         \
        __a = __builtin_copysign##S(__builtin_isinf(__a) ? 1 : 0, __a);        \
        __b = __builtin_copysign##S(__builtin_isinf(__b) ? 1 : 0, __b);        \
        __real__ __z = __builtin_huge_val##S() * (__a * __c + __b * __d);      \
        __imag__ __z = __builtin_huge_val##S() * (__b * __c - __a * __d);      \
      } else if (__builtin_isinf(__logbw) && __logbw > 0 &&                    \
                 __builtin_isfinite(__a) && __builtin_isfinite(__b)) {         \
        __c = __builtin_copysign##S(__builtin_isinf(__c) ? 1 : 0, __c);        \
        __d = __builtin_copysign##S(__builtin_isinf(__d) ? 1 : 0, __d);        \
        __real__ __z = 0 * (__a * __c + __b * __d);                            \
        __imag__ __z = 0 * (__b * __c - __a * __d);                            \
      }                                                                        \
    }                                                                          \
    return __z;                                                                \
  }

__HG_COMPLEX_MUL(float, f, __mulsc3)
__HG_COMPLEX_MUL(double, , __muldc3)
__HG_COMPLEX_DIV(float, f, __divsc3)
__HG_COMPLEX_DIV(double, , __divdc3)
#undef __HG_COMPLEX_MUL
#undef __HG_COMPLEX_DIV

#pragma pop_macro("__HG_CPLX")

#endif // __CUDA__

#endif // HETGPU_CUDA_COMPLEX_BUILTINS_H
