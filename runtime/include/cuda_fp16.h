//===- cuda_fp16.h - Minimal CUDA half precision ----------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `__half` / `half` and `__half2` / `half2` as 16-bit IEEE binary16 storage
/// whose arithmetic is done in float and rounded back (correctly rounded
/// for + - * / since float has more than twice half's precision). The
/// conversions are integer code, so device IR never contains the LLVM `half`
/// type and every target (and the host) computes the same bits.
///
/// Provided: everything CUDA 12/13 documents for __half and __half2 except
/// the cache-hint loads/stores (__ldg, __ldcs, ... on __half) and the legacy
/// non-_sync shuffles: conversions in every rounding mode from float, double
/// and the integer types (correctly rounded), to the integer types (CUDA's
/// saturation and NaN results), arithmetic (+ - * /, fma rounded once,
/// _sat, _relu, _rn, __hcmadd), ordered and unordered comparisons in all
/// forms, __hmax/__hmin (+_nan), __hisnan/__hisinf, the device math functions
/// h<fn>/h2<fn> (through float), shuffles and atomicAdd. The shared code is
/// hetgpu/cuda/fp16_ops.h.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_CUDA_FP16_H
#define HETGPU_CUDA_FP16_H

#include <cuda_runtime.h>
#include <hetgpu/cuda/fp16_ops.h>

#pragma push_macro("__HG_HD")
#define __HG_HD                                                                \
  static __inline__ __attribute__((always_inline)) __host__ __device__

struct __half;
struct __half2;
__HG_HD __half __float2half(float);
__HG_HD float __half2float(__half);

/// Raw bits, as CUDA's __half_raw.
struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x, y;
};

struct __attribute__((aligned(2))) __half {
  unsigned short __x;
  __half() = default;
  __host__ __device__ constexpr __half(__half_raw r) : __x(r.x) {}
  __host__ __device__ __half(float f);
  __host__ __device__ __half(double d);
  __host__ __device__ __half(int i);
  __host__ __device__ __half(unsigned int i);
  __host__ __device__ operator float() const;
  __host__ __device__ operator __half_raw() const { return __half_raw{__x}; }
  __host__ __device__ __half &operator=(float f);
};

struct __attribute__((aligned(4))) __half2 {
  __half x, y;
  __half2() = default;
  __host__ __device__ constexpr __half2(__half a, __half b) : x(a), y(b) {}
  __host__ __device__ constexpr __half2(__half2_raw r)
      : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
};

typedef __half half;
typedef __half2 half2;

namespace __hg_fp16 {
__HG_HD unsigned int f2u(float f) {
  return __builtin_bit_cast(unsigned int, f);
}
__HG_HD float u2f(unsigned int u) { return __builtin_bit_cast(float, u); }
/// float -> binary16, round to nearest even.
__HG_HD unsigned short from_float(float v) {
  unsigned int f = f2u(v);
  unsigned int sign = (f >> 16) & 0x8000u;
  int exp = (int)((f >> 23) & 0xffu);
  unsigned int mant = f & 0x7fffffu;
  if (exp == 0xff) // inf, NaN (kept quiet)
    return (unsigned short)(sign | 0x7c00u |
                            (mant ? 0x200u | (mant >> 13) : 0u));
  int e = exp - 127 + 15;
  if (e >= 31)
    return (unsigned short)(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10)
      return (unsigned short)sign;
    mant |= 0x800000u;
    unsigned int shift = (unsigned int)(14 - e);
    unsigned int h = mant >> shift;
    unsigned int rem = mant & ((1u << shift) - 1u);
    unsigned int halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (h & 1u)))
      ++h;
    return (unsigned short)(sign | h);
  }
  unsigned int h = ((unsigned int)e << 10) | (mant >> 13);
  unsigned int rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
    ++h; // a carry into the exponent is the right result (up to inf)
  return (unsigned short)(sign | h);
}
/// binary16 -> float (exact).
__HG_HD float to_float(unsigned short h) {
  unsigned int sign = ((unsigned int)h & 0x8000u) << 16;
  int e = (h >> 10) & 0x1f;
  unsigned int m = h & 0x3ffu;
  if (e == 0x1f)
    return u2f(sign | 0x7f800000u | (m << 13));
  if (e == 0) {
    if (m == 0)
      return u2f(sign);
    e = 1;
    while (!(m & 0x400u)) {
      m <<= 1;
      --e;
    }
    m &= 0x3ffu;
  }
  return u2f(sign | ((unsigned int)(e + 112) << 23) | (m << 13));
}
__HG_HD __half make(unsigned short bits) { return __half(__half_raw{bits}); }
} // namespace __hg_fp16

namespace __hg_h16 {
template <> struct tr<__half> {
  static constexpr unsigned short inf = 0x7c00u, qnan = 0x7fffu, one = 0x3c00u;
  __HG_HD float to_float(unsigned short b) { return __hg_fp16::to_float(b); }
  __HG_HD unsigned short from_float(float v) {
    return __hg_fp16::from_float(v);
  }
};
} // namespace __hg_h16

__host__ __device__ inline __half::__half(float f)
    : __x(__hg_fp16::from_float(f)) {}
__host__ __device__ inline __half::__half(double d)
    : __x(__hg_h16::from_double<__half>(d, __hg_h16::rn).__x) {}
__host__ __device__ inline __half::__half(int i)
    : __x(__hg_fp16::from_float((float)i)) {}
__host__ __device__ inline __half::__half(unsigned int i)
    : __x(__hg_fp16::from_float((float)i)) {}
__host__ __device__ inline __half::operator float() const {
  return __hg_fp16::to_float(__x);
}
__host__ __device__ inline __half &__half::operator=(float f) {
  __x = __hg_fp16::from_float(f);
  return *this;
}

// ---- Conversions
// --------------------------------------------------------------
__HG_HD __half __float2half(float f) { return __half(f); }
__HG_HD __half __float2half_rn(float f) { return __half(f); }
__HG_HD float __half2float(__half h) { return __hg_fp16::to_float(h.__x); }
__HG_HD __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
__HG_HD __half2 __half2half2(__half a) { return __half2(a, a); }
__HG_HD __half2 make_half2(__half x, __half y) { return __half2(x, y); }
__HG_HD __half2 __float2half2_rn(float f) {
  return __half2(__half(f), __half(f));
}
__HG_HD __half2 __floats2half2_rn(float a, float b) {
  return __half2(__half(a), __half(b));
}
__HG_HD float2 __half22float2(__half2 h) {
  return make_float2(__half2float(h.x), __half2float(h.y));
}
__HG_HD __half2 __float22half2_rn(float2 f) {
  return __half2(__half(f.x), __half(f.y));
}
__HG_HD float __low2float(__half2 h) { return __half2float(h.x); }
__HG_HD float __high2float(__half2 h) { return __half2float(h.y); }
__HG_HD __half __low2half(__half2 h) { return h.x; }
__HG_HD __half __high2half(__half2 h) { return h.y; }
__HG_HD __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
__HG_HD __half2 __highs2half2(__half2 a, __half2 b) {
  return __half2(a.y, b.y);
}
__HG_HD __half2 __low2half2(__half2 a) { return __half2(a.x, a.x); }
__HG_HD __half2 __high2half2(__half2 a) { return __half2(a.y, a.y); }

// ---- Arithmetic (float, rounded once)
// -----------------------------------------
#define __HG_F(h) __half2float(h)
__HG_HD __half __hadd(__half a, __half b) {
  return __half(__HG_F(a) + __HG_F(b));
}
__HG_HD __half __hsub(__half a, __half b) {
  return __half(__HG_F(a) - __HG_F(b));
}
__HG_HD __half __hmul(__half a, __half b) {
  return __half(__HG_F(a) * __HG_F(b));
}
__HG_HD __half __hdiv(__half a, __half b) {
  return __half(__HG_F(a) / __HG_F(b));
}

#define __HG_H2BIN(Name, One)                                                  \
  __HG_HD __half2 Name(__half2 a, __half2 b) {                                 \
    return __half2(One(a.x, b.x), One(a.y, b.y));                              \
  }
__HG_H2BIN(__hadd2, __hadd)
__HG_H2BIN(__hsub2, __hsub)
__HG_H2BIN(__hmul2, __hmul)
__HG_H2BIN(__h2div, __hdiv)
#undef __HG_H2BIN
__HG_H16_OPS(__half, __half2)
__HG_H16_CONV(__half, half)
__HG_H16_MATH(__half, __half2)

// ---- Operators
// ------------------------------------------------------------------
#define __HG_HOP(Op, Fn)                                                       \
  __HG_HD __half operator Op(__half a, __half b) { return Fn(a, b); }          \
  __HG_HD __half &operator Op##=(__half &a, __half b) {                        \
    a = Fn(a, b);                                                              \
    return a;                                                                  \
  }                                                                            \
  __HG_HD __half2 operator Op(__half2 a, __half2 b) { return Fn##2(a, b); }    \
  __HG_HD __half2 &operator Op##=(__half2 &a, __half2 b) {                     \
    a = Fn##2(a, b);                                                           \
    return a;                                                                  \
  }
#define __hdiv2 __h2div
__HG_HOP(+, __hadd)
__HG_HOP(-, __hsub)
__HG_HOP(*, __hmul)
__HG_HOP(/, __hdiv)
#undef __hdiv2
#undef __HG_HOP
__HG_HD __half operator-(__half a) { return __hneg(a); }
__HG_HD __half operator+(__half a) { return a; }
__HG_HD __half2 operator-(__half2 a) { return __hneg2(a); }
__HG_HD bool operator==(__half a, __half b) { return __heq(a, b); }
__HG_HD bool operator!=(__half a, __half b) { return __hneu(a, b); }
__HG_HD bool operator<(__half a, __half b) { return __hlt(a, b); }
__HG_HD bool operator<=(__half a, __half b) { return __hle(a, b); }
__HG_HD bool operator>(__half a, __half b) { return __hgt(a, b); }
__HG_HD bool operator>=(__half a, __half b) { return __hge(a, b); }
#undef __HG_F

#if defined(__CUDA__) // device-only
// ---- Warp shuffles and atomics
// ------------------------------------------------------
#define __HG_HSHFL(Name, LaneT)                                                \
  static __inline__ __attribute__((always_inline, convergent))                 \
  __device__ __half                                                            \
  Name(unsigned int m, __half v, LaneT l, int w = 32) {                        \
    return __hg_fp16::make(                                                    \
        (unsigned short)Name(m, (unsigned int)v.__x, l, w));                   \
  }                                                                            \
  static __inline__ __attribute__((always_inline, convergent))                 \
  __device__ __half2                                                           \
  Name(unsigned int m, __half2 v, LaneT l, int w = 32) {                       \
    return __builtin_bit_cast(                                                 \
        __half2, Name(m, __builtin_bit_cast(unsigned int, v), l, w));          \
  }
__HG_HSHFL(__shfl_sync, int)
__HG_HSHFL(__shfl_up_sync, unsigned int)
__HG_HSHFL(__shfl_down_sync, unsigned int)
__HG_HSHFL(__shfl_xor_sync, int)
#undef __HG_HSHFL

/// 32-bit CAS loop on the word holding the value(s).
static __inline__ __attribute__((always_inline)) __device__ __half2
atomicAdd(__half2 *p, __half2 v) {
  unsigned int *w = (unsigned int *)p;
  unsigned int old = __atomic_load_n(w, __ATOMIC_RELAXED);
  while (true) {
    __half2 o = __builtin_bit_cast(__half2, old);
    unsigned int n = __builtin_bit_cast(unsigned int, __hadd2(o, v));
    if (__atomic_compare_exchange_n(w, &old, n, false, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED))
      return o;
  }
}
static __inline__ __attribute__((always_inline)) __device__ __half
atomicAdd(__half *p, __half v) {
  // The aligned 32-bit word containing *p; update only our 16 bits.
  unsigned long long a = (unsigned long long)p;
  unsigned int *w = (unsigned int *)(a & ~3ull);
  unsigned int shift = (unsigned int)(a & 2ull) * 8u;
  unsigned int old = __atomic_load_n(w, __ATOMIC_RELAXED);
  while (true) {
    __half o = __hg_fp16::make((unsigned short)(old >> shift));
    unsigned int n =
        (old & ~(0xffffu << shift)) | ((unsigned int)__hadd(o, v).__x << shift);
    if (__atomic_compare_exchange_n(w, &old, n, false, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED))
      return o;
  }
}

#endif // __CUDA__

#pragma pop_macro("__HG_HD")

#endif // HETGPU_CUDA_FP16_H
