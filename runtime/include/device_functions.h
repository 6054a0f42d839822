//===- device_functions.h - CUDA device intrinsics --------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// CUDA's device-side intrinsic functions that are not math library
/// functions: synchronisation and fences, integer and bit intrinsics,
/// reinterpretation and conversion intrinsics, IEEE-rounded arithmetic,
/// cache-hinted loads/stores (plain memory accesses here), clocks, __trap,
/// device printf/assert/malloc/free.
///
/// Everything is written with the hetIR builtins (hetgpu/cuda/builtins.h)
/// or with clang's target-independent builtins, so the device IR contains
/// only portable LLVM (docs/hetIR.md). No inline assembly, no nvvm
/// intrinsics.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_DEVICE_FUNCTIONS_H
#define HETGPU_DEVICE_FUNCTIONS_H

// Device language: empty in a plain C/C++ (non-CUDA) compile.
#if defined(__CUDA__)

#include <hetgpu/cuda/builtins.h>
#include <hetgpu/cuda/math_forward.h> // before any standard header

#include <stddef.h>
#include <time.h>

#pragma push_macro("__DEVICE__")
#define __DEVICE__ static __inline__ __attribute__((always_inline)) __device__

//===----------------------------------------------------------------------===//
// Synchronisation and memory fences
//===----------------------------------------------------------------------===//

// Clang predeclares `__syncthreads` as an NVPTX builtin (an nvvm barrier
// intrinsic, which hetIR rejects) and forbids redefining it, so the CUDA name
// is a macro for our function; `__syncthreads()`, `::__syncthreads()` and
// `&__syncthreads` all keep working.
#define __syncthreads __hg_syncthreads
__DEVICE__ __attribute__((convergent)) void __hg_syncthreads(void) {
  __hetgpu_barrier();
}
__DEVICE__ __attribute__((convergent)) int __syncthreads_count(int __pred) {
  return __hetgpu_barrier_count(__pred);
}
__DEVICE__ __attribute__((convergent)) int __syncthreads_and(int __pred) {
  return __hetgpu_barrier_and(__pred);
}
__DEVICE__ __attribute__((convergent)) int __syncthreads_or(int __pred) {
  return __hetgpu_barrier_or(__pred);
}
__DEVICE__ __attribute__((convergent)) void
__syncwarp(unsigned int __mask = 0xffffffffu) {
  __hetgpu_syncwarp(__mask);
}
__DEVICE__ void __threadfence_block(void) { __hetgpu_fence_block(); }
__DEVICE__ void __threadfence(void) { __hetgpu_fence_device(); }
__DEVICE__ void __threadfence_system(void) { __hetgpu_fence_system(); }

//===----------------------------------------------------------------------===//
// Errors, clocks, heap, printf/assert
//===----------------------------------------------------------------------===//

__DEVICE__ __attribute__((noreturn)) void __trap(void) { __hetgpu_trap(); }

// glibc's assert() expands to __assert_fail(expr, file, line, function);
// this device overload of that host function catches it in device code.
__DEVICE__ __attribute__((noreturn)) void
__assert_fail(const char *__message, const char *__file, unsigned int __line,
              const char *__function) {
  __hetgpu_assert_fail(__message, __file, __line, __function);
}

// clock() overloads the host C library function in device code.
__DEVICE__ clock_t clock(void) { return (clock_t)__hetgpu_clock(); }
__DEVICE__ long long int clock64(void) { return __hetgpu_clock64(); }
/// Nanoseconds of a device-wide timer (PTX's %globaltimer).
__DEVICE__ unsigned long long int __globaltimer(void) {
  return __hetgpu_globaltimer();
}
/// Spins for about \p __ns ticks of clock64 (CUDA only promises a sleep in
/// [0, 2 ns]). clock64 rather than the global timer: every target has it
/// (OpenCL has no timer; there clock64 counts reads).
__DEVICE__ void __nanosleep(unsigned int __ns) {
  long long __end = __hetgpu_clock64() + (long long)__ns;
  while (__hetgpu_clock64() < __end) {
  }
}

// Device heap: overloads of the C library functions in device code. Declared
// before <new> is included so that the device operator new/delete of clang's
// <new> wrapper find them.
__DEVICE__ void *malloc(size_t __size) {
  return __hetgpu_malloc((unsigned long long)__size);
}
__DEVICE__ void free(void *__ptr) { __hetgpu_free(__ptr); }

// memcpy/memset (CUDA has them in device code; memmove too here): the
// generic LLVM memory intrinsics.
__DEVICE__ void *memcpy(void *__d, const void *__s, size_t __n) {
  __builtin_memcpy(__d, __s, __n);
  return __d;
}
__DEVICE__ void *memset(void *__d, int __c, size_t __n) {
  __builtin_memset(__d, __c, __n);
  return __d;
}
__DEVICE__ void *memmove(void *__d, const void *__s, size_t __n) {
  __builtin_memmove(__d, __s, __n);
  return __d;
}

// printf: clang turns a device-side call of printf into `vprintf(format,
// argument buffer)`, which hetgpu-raise maps to __hetgpu_printf. It only
// needs a device declaration (the host one is <stdio.h>'s).
extern "C" __device__ int printf(const char *, ...);

//===----------------------------------------------------------------------===//
// Integer intrinsics
//===----------------------------------------------------------------------===//

__DEVICE__ int __popc(unsigned int __x) { return __builtin_popcount(__x); }
__DEVICE__ int __popcll(unsigned long long __x) {
  return __builtin_popcountll(__x);
}
__DEVICE__ int __clz(int __x) { return __builtin_clzg((unsigned int)__x, 32); }
__DEVICE__ int __clzll(long long __x) {
  return __builtin_clzg((unsigned long long)__x, 64);
}
__DEVICE__ int __ffs(int __x) { return __builtin_ffs(__x); }
__DEVICE__ int __ffsll(long long __x) { return __builtin_ffsll(__x); }
__DEVICE__ unsigned int __brev(unsigned int __x) {
  return __builtin_bitreverse32(__x);
}
__DEVICE__ unsigned long long __brevll(unsigned long long __x) {
  return __builtin_bitreverse64(__x);
}

/// PTX prmt semantics: selector nibble n picks byte (s & 7) of the 8-byte
/// value {y:x} for result byte n; with bit 3 set it replicates that byte's
/// sign bit instead.
__DEVICE__ unsigned int __byte_perm(unsigned int __x, unsigned int __y,
                                    unsigned int __s) {
  unsigned long long __v = ((unsigned long long)__y << 32) | __x;
  unsigned int __r = 0;
  for (int __n = 0; __n < 4; ++__n) {
    unsigned int __sel = (__s >> (4 * __n)) & 0xf;
    unsigned int __b = (unsigned int)(__v >> (8 * (__sel & 7))) & 0xff;
    if (__sel & 8)
      __b = (__b & 0x80) ? 0xff : 0;
    __r |= __b << (8 * __n);
  }
  return __r;
}

// The low 24 bits of each operand, sign-extended (shifting the unsigned
// value left keeps this free of signed-overflow UB).
__DEVICE__ int __mul24(int __x, int __y) {
  int __a = (int)((unsigned int)__x << 8) >> 8;
  int __b = (int)((unsigned int)__y << 8) >> 8;
  return (int)((unsigned int)__a * (unsigned int)__b);
}
__DEVICE__ unsigned int __umul24(unsigned int __x, unsigned int __y) {
  return (__x & 0xffffffu) * (__y & 0xffffffu);
}
__DEVICE__ int __mulhi(int __x, int __y) {
  return (int)(((long long)__x * (long long)__y) >> 32);
}
__DEVICE__ unsigned int __umulhi(unsigned int __x, unsigned int __y) {
  return (unsigned int)(((unsigned long long)__x * __y) >> 32);
}
// 64x64 -> high 64 from 32-bit halves (no i128, which not every target has).
__DEVICE__ unsigned long long __umul64hi(unsigned long long __x,
                                         unsigned long long __y) {
  unsigned long long __xl = __x & 0xffffffffu, __xh = __x >> 32;
  unsigned long long __yl = __y & 0xffffffffu, __yh = __y >> 32;
  unsigned long long __ll = __xl * __yl, __lh = __xl * __yh;
  unsigned long long __hl = __xh * __yl, __hh = __xh * __yh;
  unsigned long long __mid =
      (__ll >> 32) + (__lh & 0xffffffffu) + (__hl & 0xffffffffu);
  return __hh + (__lh >> 32) + (__hl >> 32) + (__mid >> 32);
}
__DEVICE__ long long __mul64hi(long long __x, long long __y) {
  unsigned long long __h =
      __umul64hi((unsigned long long)__x, (unsigned long long)__y);
  if (__x < 0)
    __h -= (unsigned long long)__y;
  if (__y < 0)
    __h -= (unsigned long long)__x;
  return (long long)__h;
}
__DEVICE__ unsigned int __sad(int __x, int __y, unsigned int __z) {
  return (__x > __y ? (unsigned int)__x - (unsigned int)__y
                    : (unsigned int)__y - (unsigned int)__x) +
         __z;
}
__DEVICE__ unsigned int __usad(unsigned int __x, unsigned int __y,
                               unsigned int __z) {
  return (__x > __y ? __x - __y : __y - __x) + __z;
}
__DEVICE__ int __hadd(int __x, int __y) {
  return (int)(((long long)__x + (long long)__y) >> 1);
}
__DEVICE__ int __rhadd(int __x, int __y) {
  return (int)(((long long)__x + (long long)__y + 1) >> 1);
}
__DEVICE__ unsigned int __uhadd(unsigned int __x, unsigned int __y) {
  return (unsigned int)(((unsigned long long)__x + __y) >> 1);
}
__DEVICE__ unsigned int __urhadd(unsigned int __x, unsigned int __y) {
  return (unsigned int)(((unsigned long long)__x + __y + 1) >> 1);
}
/// The bit position of the \p __offset-th set bit of \p __mask counting from
/// \p __base (upwards for offset > 0, downwards for offset < 0, \p __base
/// itself when set for offset 0); 0xffffffff when there is none.
__DEVICE__ unsigned int __fns(unsigned int __mask, unsigned int __base,
                              int __offset) {
  if (__base > 31)
    return 0xffffffffu;
  if (__offset == 0)
    return ((__mask >> __base) & 1) ? __base : 0xffffffffu;
  int __step = __offset > 0 ? 1 : -1;
  int __left = __offset > 0 ? __offset : -__offset;
  for (int __b = (int)__base; __b >= 0 && __b < 32; __b += __step) {
    if ((__mask >> __b) & 1) {
      if (--__left == 0)
        return (unsigned int)__b;
    }
  }
  return 0xffffffffu;
}
__DEVICE__ unsigned int __funnelshift_l(unsigned int __lo, unsigned int __hi,
                                        unsigned int __shift) {
  unsigned long long __v = ((unsigned long long)__hi << 32) | __lo;
  return (unsigned int)((__v << (__shift & 31)) >> 32);
}
__DEVICE__ unsigned int __funnelshift_lc(unsigned int __lo, unsigned int __hi,
                                         unsigned int __shift) {
  unsigned long long __v = ((unsigned long long)__hi << 32) | __lo;
  return (unsigned int)((__v << (__shift > 32 ? 32 : __shift)) >> 32);
}
__DEVICE__ unsigned int __funnelshift_r(unsigned int __lo, unsigned int __hi,
                                        unsigned int __shift) {
  unsigned long long __v = ((unsigned long long)__hi << 32) | __lo;
  return (unsigned int)(__v >> (__shift & 31));
}
__DEVICE__ unsigned int __funnelshift_rc(unsigned int __lo, unsigned int __hi,
                                         unsigned int __shift) {
  unsigned long long __v = ((unsigned long long)__hi << 32) | __lo;
  return (unsigned int)(__v >> (__shift > 32 ? 32 : __shift));
}
/// Four-way byte dot product with 32-bit accumulate.
__DEVICE__ int __dp4a(int __a, int __b, int __c) {
  for (int __i = 0; __i < 4; ++__i)
    __c += (int)(signed char)(__a >> (8 * __i)) *
           (int)(signed char)(__b >> (8 * __i));
  return __c;
}
__DEVICE__ unsigned int __dp4a(unsigned int __a, unsigned int __b,
                               unsigned int __c) {
  for (int __i = 0; __i < 4; ++__i)
    __c += ((__a >> (8 * __i)) & 0xff) * ((__b >> (8 * __i)) & 0xff);
  return __c;
}

//===----------------------------------------------------------------------===//
// Reinterpretation
//===----------------------------------------------------------------------===//

__DEVICE__ float __int_as_float(int __x) {
  return __builtin_bit_cast(float, __x);
}
__DEVICE__ int __float_as_int(float __x) {
  return __builtin_bit_cast(int, __x);
}
__DEVICE__ float __uint_as_float(unsigned int __x) {
  return __builtin_bit_cast(float, __x);
}
__DEVICE__ unsigned int __float_as_uint(float __x) {
  return __builtin_bit_cast(unsigned int, __x);
}
__DEVICE__ double __longlong_as_double(long long __x) {
  return __builtin_bit_cast(double, __x);
}
__DEVICE__ long long __double_as_longlong(double __x) {
  return __builtin_bit_cast(long long, __x);
}
__DEVICE__ int __double2hiint(double __x) {
  return (int)(__builtin_bit_cast(unsigned long long, __x) >> 32);
}
__DEVICE__ int __double2loint(double __x) {
  return (int)__builtin_bit_cast(unsigned long long, __x);
}
__DEVICE__ double __hiloint2double(int __hi, int __lo) {
  return __builtin_bit_cast(double,
                            ((unsigned long long)(unsigned int)__hi << 32) |
                                (unsigned int)__lo);
}

//===----------------------------------------------------------------------===//
// Conversions. As on NVIDIA GPUs, float->integer conversions saturate and
// map NaN to 0. Only round-to-nearest-even exists for integer->float and
// double->float (the _rz/_ru/_rd variants of those are not provided).
//===----------------------------------------------------------------------===//

#define __HG_F2I(Suffix, Round, Ty, Name, T, Lo, Hi, Max)                      \
  __DEVICE__ T __##Ty##2##Name##_##Suffix(Ty __x) {                            \
    Ty __r = Round(__x);                                                       \
    if (__r != __r)                                                            \
      return 0;                                                                \
    if (__r <= (Ty)(Lo))                                                       \
      return (T)(Lo);                                                          \
    if (__r >= (Ty)(Hi))                                                       \
      return (Max);                                                            \
    return (T)__r;                                                             \
  }
#define __HG_F2I_ALL(Ty, Name, T, Lo, Hi, Max)                                 \
  __HG_F2I(rn, __builtin_elementwise_rint, Ty, Name, T, Lo, Hi, Max)           \
  __HG_F2I(rz, __builtin_elementwise_trunc, Ty, Name, T, Lo, Hi, Max)          \
  __HG_F2I(rd, __builtin_elementwise_floor, Ty, Name, T, Lo, Hi, Max)          \
  __HG_F2I(ru, __builtin_elementwise_ceil, Ty, Name, T, Lo, Hi, Max)
// Lo is the type's minimum (exact in float/double); Hi the smallest value
// above its maximum Max: 2^31, 2^32, 2^63, 2^64.
__HG_F2I_ALL(float, int, int, -2147483648.0, 2147483648.0, 0x7fffffff)
__HG_F2I_ALL(float, uint, unsigned int, 0.0, 4294967296.0, 0xffffffffu)
__HG_F2I_ALL(float, ll, long long, -9223372036854775808.0,
             9223372036854775808.0, 0x7fffffffffffffffll)
__HG_F2I_ALL(float, ull, unsigned long long, 0.0, 18446744073709551616.0,
             0xffffffffffffffffull)
__HG_F2I_ALL(double, int, int, -2147483648.0, 2147483648.0, 0x7fffffff)
__HG_F2I_ALL(double, uint, unsigned int, 0.0, 4294967296.0, 0xffffffffu)
__HG_F2I_ALL(double, ll, long long, -9223372036854775808.0,
             9223372036854775808.0, 0x7fffffffffffffffll)
__HG_F2I_ALL(double, ull, unsigned long long, 0.0, 18446744073709551616.0,
             0xffffffffffffffffull)
#undef __HG_F2I_ALL
#undef __HG_F2I
#undef __HG_F2I

__DEVICE__ float __int2float_rn(int __x) { return (float)__x; }
__DEVICE__ float __uint2float_rn(unsigned int __x) { return (float)__x; }
__DEVICE__ float __ll2float_rn(long long __x) { return (float)__x; }
__DEVICE__ float __ull2float_rn(unsigned long long __x) { return (float)__x; }
__DEVICE__ double __int2double_rn(int __x) { return (double)__x; }
__DEVICE__ double __uint2double_rn(unsigned int __x) { return (double)__x; }
__DEVICE__ double __ll2double_rn(long long __x) { return (double)__x; }
__DEVICE__ double __ull2double_rn(unsigned long long __x) {
  return (double)__x;
}
__DEVICE__ float __double2float_rn(double __x) { return (float)__x; }

//===----------------------------------------------------------------------===//
// IEEE round-to-nearest arithmetic: never contracted into an fma.
// (Only _rn; the directed-rounding _rz/_ru/_rd variants are not provided.)
//===----------------------------------------------------------------------===//

#define __HG_RN_BINOP(Name, T, Op)                                             \
  __DEVICE__ T Name(T __x, T __y) {                                            \
    _Pragma("clang fp contract(off)") return __x Op __y;                       \
  }
__HG_RN_BINOP(__fadd_rn, float, +)
__HG_RN_BINOP(__fsub_rn, float, -)
__HG_RN_BINOP(__fmul_rn, float, *)
__HG_RN_BINOP(__fdiv_rn, float, /)
__HG_RN_BINOP(__dadd_rn, double, +)
__HG_RN_BINOP(__dsub_rn, double, -)
__HG_RN_BINOP(__dmul_rn, double, *)
__HG_RN_BINOP(__ddiv_rn, double, /)
#undef __HG_RN_BINOP
__DEVICE__ float __fmaf_rn(float __x, float __y, float __z) {
  return __builtin_elementwise_fma(__x, __y, __z);
}
__DEVICE__ double __fma_rn(double __x, double __y, double __z) {
  return __builtin_elementwise_fma(__x, __y, __z);
}
__DEVICE__ float __frcp_rn(float __x) { return 1.0f / __x; }
__DEVICE__ double __drcp_rn(double __x) { return 1.0 / __x; }
__DEVICE__ float __fsqrt_rn(float __x) {
  return __builtin_elementwise_sqrt(__x);
}
__DEVICE__ double __dsqrt_rn(double __x) {
  return __builtin_elementwise_sqrt(__x);
}
__DEVICE__ float __frsqrt_rn(float __x) {
  return 1.0f / __builtin_elementwise_sqrt(__x);
}
/// Fast division (CUDA's is approximate; this one is exact).
__DEVICE__ float __fdividef(float __x, float __y) { return __x / __y; }
__DEVICE__ float fdividef(float __x, float __y) { return __x / __y; }
/// Clamps to [0, 1]; NaN gives 0.
__DEVICE__ float __saturatef(float __x) {
  return __x >= 1.0f ? 1.0f : (__x > 0.0f ? __x : 0.0f);
}

//===----------------------------------------------------------------------===//
// Cache-hinted loads and stores: plain memory accesses on every target.
//===----------------------------------------------------------------------===//

#define __HG_LOAD_HINT(Name)                                                   \
  template <typename __T> __DEVICE__ __T Name(const __T *__p) { return *__p; }
__HG_LOAD_HINT(__ldg)
__HG_LOAD_HINT(__ldcg)
__HG_LOAD_HINT(__ldca)
__HG_LOAD_HINT(__ldcs)
__HG_LOAD_HINT(__ldlu)
__HG_LOAD_HINT(__ldcv)
#undef __HG_LOAD_HINT
#define __HG_STORE_HINT(Name)                                                  \
  template <typename __T> __DEVICE__ void Name(__T *__p, __T __v) {            \
    *__p = __v;                                                                \
  }
__HG_STORE_HINT(__stwb)
__HG_STORE_HINT(__stcg)
__HG_STORE_HINT(__stcs)
__HG_STORE_HINT(__stwt)
#undef __HG_STORE_HINT

#pragma pop_macro("__DEVICE__")

#endif // __CUDA__

#endif // HETGPU_DEVICE_FUNCTIONS_H
