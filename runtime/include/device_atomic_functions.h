//===- device_atomic_functions.h - CUDA atomic functions --------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// atomicAdd/Sub/Exch/Min/Max/Inc/Dec/And/Or/Xor/CAS with CUDA's overloads,
/// plus the `_block` and `_system` scoped variants, and (nv_atomic.h) the
/// CUDA 12.8 `__nv_atomic_*` builtins. Each is one of clang's
/// generic `__atomic_*` builtins with relaxed ordering, so the device IR
/// holds plain `atomicrmw`/`cmpxchg ... monotonic` at the default (system)
/// scope, which is at least as strong as the scope CUDA asks for. atomicInc,
/// atomicDec and the floating-point min/max are compare-and-swap loops.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_DEVICE_ATOMIC_FUNCTIONS_H
#define HETGPU_DEVICE_ATOMIC_FUNCTIONS_H

// Device language: empty in a plain C/C++ (non-CUDA) compile.
#if defined(__CUDA__)

#include <host_defines.h>

#pragma push_macro("__DEVICE__")
#define __DEVICE__ static __inline__ __attribute__((always_inline)) __device__

namespace __hg_atomic {
template <typename T> __DEVICE__ T cas(T *p, T compare, T value) {
  __atomic_compare_exchange_n(p, &compare, value, false, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
  return compare; // the old value either way
}
// Floating-point CAS on the bit pattern, so -0.0/+0.0 and NaNs compare
// exactly.
template <typename F, typename I, typename Op>
__DEVICE__ F update_float(F *p, Op op) {
  I *ip = (I *)p;
  I old = __atomic_load_n(ip, __ATOMIC_RELAXED);
  while (true) {
    I desired = __builtin_bit_cast(I, op(__builtin_bit_cast(F, old)));
    if (__atomic_compare_exchange_n(ip, &old, desired, false, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED))
      return __builtin_bit_cast(F, old);
  }
}
__DEVICE__ unsigned int inc(unsigned int *p, unsigned int limit) {
  unsigned int old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(p, &old, old >= limit ? 0u : old + 1u,
                                      false, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED)) {
  }
  return old;
}
__DEVICE__ unsigned int dec(unsigned int *p, unsigned int limit) {
  unsigned int old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(
      p, &old, (old == 0u || old > limit) ? limit : old - 1u, false,
      __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
}
} // namespace __hg_atomic

// One overload set per scope suffix ("", _block, _system): all three are the
// same relaxed system-scope operation.
#define __HG_ATOMIC_RMW(Name, Builtin, T)                                      \
  __DEVICE__ T Name(T *__p, T __v) {                                           \
    return Builtin(__p, __v, __ATOMIC_RELAXED);                                \
  }
#define __HG_ATOMIC_ALL(S)                                                     \
  __HG_ATOMIC_RMW(atomicAdd##S, __atomic_fetch_add, int)                       \
  __HG_ATOMIC_RMW(atomicAdd##S, __atomic_fetch_add, unsigned int)              \
  __HG_ATOMIC_RMW(atomicAdd##S, __atomic_fetch_add, unsigned long long)        \
  __HG_ATOMIC_RMW(atomicAdd##S, __atomic_fetch_add, float)                     \
  __HG_ATOMIC_RMW(atomicAdd##S, __atomic_fetch_add, double)                    \
  __HG_ATOMIC_RMW(atomicSub##S, __atomic_fetch_sub, int)                       \
  __HG_ATOMIC_RMW(atomicSub##S, __atomic_fetch_sub, unsigned int)              \
  __HG_ATOMIC_RMW(atomicExch##S, __atomic_exchange_n, int)                     \
  __HG_ATOMIC_RMW(atomicExch##S, __atomic_exchange_n, unsigned int)            \
  __HG_ATOMIC_RMW(atomicExch##S, __atomic_exchange_n, unsigned long long)      \
  __HG_ATOMIC_RMW(atomicMin##S, __atomic_fetch_min, int)                       \
  __HG_ATOMIC_RMW(atomicMin##S, __atomic_fetch_min, unsigned int)              \
  __HG_ATOMIC_RMW(atomicMin##S, __atomic_fetch_min, long long)                 \
  __HG_ATOMIC_RMW(atomicMin##S, __atomic_fetch_min, unsigned long long)        \
  __HG_ATOMIC_RMW(atomicMax##S, __atomic_fetch_max, int)                       \
  __HG_ATOMIC_RMW(atomicMax##S, __atomic_fetch_max, unsigned int)              \
  __HG_ATOMIC_RMW(atomicMax##S, __atomic_fetch_max, long long)                 \
  __HG_ATOMIC_RMW(atomicMax##S, __atomic_fetch_max, unsigned long long)        \
  __HG_ATOMIC_RMW(atomicAnd##S, __atomic_fetch_and, int)                       \
  __HG_ATOMIC_RMW(atomicAnd##S, __atomic_fetch_and, unsigned int)              \
  __HG_ATOMIC_RMW(atomicAnd##S, __atomic_fetch_and, unsigned long long)        \
  __HG_ATOMIC_RMW(atomicOr##S, __atomic_fetch_or, int)                         \
  __HG_ATOMIC_RMW(atomicOr##S, __atomic_fetch_or, unsigned int)                \
  __HG_ATOMIC_RMW(atomicOr##S, __atomic_fetch_or, unsigned long long)          \
  __HG_ATOMIC_RMW(atomicXor##S, __atomic_fetch_xor, int)                       \
  __HG_ATOMIC_RMW(atomicXor##S, __atomic_fetch_xor, unsigned int)              \
  __HG_ATOMIC_RMW(atomicXor##S, __atomic_fetch_xor, unsigned long long)        \
  __DEVICE__ float atomicExch##S(float *__p, float __v) {                      \
    return __builtin_bit_cast(                                                 \
        float, __atomic_exchange_n((unsigned int *)__p,                        \
                                   __builtin_bit_cast(unsigned int, __v),      \
                                   __ATOMIC_RELAXED));                         \
  }                                                                            \
  __DEVICE__ unsigned int atomicInc##S(unsigned int *__p, unsigned int __v) {  \
    return __hg_atomic::inc(__p, __v);                                         \
  }                                                                            \
  __DEVICE__ unsigned int atomicDec##S(unsigned int *__p, unsigned int __v) {  \
    return __hg_atomic::dec(__p, __v);                                         \
  }                                                                            \
  __DEVICE__ int atomicCAS##S(int *__p, int __c, int __v) {                    \
    return __hg_atomic::cas(__p, __c, __v);                                    \
  }                                                                            \
  __DEVICE__ unsigned int atomicCAS##S(unsigned int *__p, unsigned int __c,    \
                                       unsigned int __v) {                     \
    return __hg_atomic::cas(__p, __c, __v);                                    \
  }                                                                            \
  __DEVICE__ unsigned long long atomicCAS##S(unsigned long long *__p,          \
                                             unsigned long long __c,           \
                                             unsigned long long __v) {         \
    return __hg_atomic::cas(__p, __c, __v);                                    \
  }                                                                            \
  __DEVICE__ unsigned short atomicCAS##S(                                      \
      unsigned short *__p, unsigned short __c, unsigned short __v) {           \
    return __hg_atomic::cas(__p, __c, __v);                                    \
  }                                                                            \
  __DEVICE__ float atomicMin##S(float *__p, float __v) {                       \
    return __hg_atomic::update_float<float, unsigned int>(                     \
        __p, [=](float __o) { return __builtin_fminf(__o, __v); });            \
  }                                                                            \
  __DEVICE__ float atomicMax##S(float *__p, float __v) {                       \
    return __hg_atomic::update_float<float, unsigned int>(                     \
        __p, [=](float __o) { return __builtin_fmaxf(__o, __v); });            \
  }                                                                            \
  __DEVICE__ double atomicMin##S(double *__p, double __v) {                    \
    return __hg_atomic::update_float<double, unsigned long long>(              \
        __p, [=](double __o) { return __builtin_fmin(__o, __v); });            \
  }                                                                            \
  __DEVICE__ double atomicMax##S(double *__p, double __v) {                    \
    return __hg_atomic::update_float<double, unsigned long long>(              \
        __p, [=](double __o) { return __builtin_fmax(__o, __v); });            \
  }

__HG_ATOMIC_ALL()
__HG_ATOMIC_ALL(_block)
__HG_ATOMIC_ALL(_system)
#undef __HG_ATOMIC_ALL
#undef __HG_ATOMIC_RMW

#pragma pop_macro("__DEVICE__")

// CUDA 12.8's __nv_atomic_* builtins with memory orders and scopes.
#include <hetgpu/cuda/nv_atomic.h>

#endif // __CUDA__

#endif // HETGPU_DEVICE_ATOMIC_FUNCTIONS_H
