//===- hetgpu/cuda/fp16_ops.h - __half / __nv_bfloat16 operations -*- C++ -*-=//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The operations cuda_fp16.h and cuda_bf16.h share, written once over a
/// 16-bit type H (with `unsigned short __x`) and its pair H2 (`.x`, `.y`):
/// directed-rounding conversions from float, double and the integer types,
/// conversions to integers with CUDA's saturation and NaN rules, ordered and
/// unordered comparisons (bool, half2-of-1.0, 0xFFFF masks, both-lanes bool),
/// max/min (NaN-dropping and NaN-propagating), saturating/ReLU arithmetic, a
/// once-rounded fma, __hcmadd and the device math functions. Each header
/// specializes `__hg_h16::tr<H>` (bits <-> float, round to nearest even, the
/// canonical NaN, the bits of 1.0) and expands __HG_H16_OPS / __HG_H16_CONV.
/// All of it is float and integer code: no LLVM `half`/`bfloat` in the IR.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_CUDA_FP16_OPS_H
#define HETGPU_CUDA_FP16_OPS_H

#define __HG_H16_HD                                                            \
  static __inline__ __attribute__((always_inline)) __host__ __device__

namespace __hg_h16 {
/// Specialized by cuda_fp16.h / cuda_bf16.h: to_float, from_float (round to
/// nearest even), inf (bits of +inf), qnan (canonical NaN), one (bits of 1).
template <typename H> struct tr;

enum { rn = 0, rz = 1, rd = 2, ru = 3 };

template <typename H> __HG_H16_HD H mk(unsigned short __b) {
  H __h;
  __h.__x = __b;
  return __h;
}
template <typename H> __HG_H16_HD float f(H __h) {
  return tr<H>::to_float(__h.__x);
}
template <typename H> __HG_H16_HD H r(float __v) {
  return mk<H>(tr<H>::from_float(__v));
}
template <typename H> __HG_H16_HD bool isnan(H __h) {
  return (__h.__x & 0x7fffu) > tr<H>::inf;
}
/// The neighbours of a (non-NaN) 16-bit pattern towards +inf / -inf.
__HG_H16_HD unsigned short step_up(unsigned short __b) {
  if (__b == 0x8000u)
    return 1u;
  return (unsigned short)((__b & 0x8000u) ? __b - 1u : __b + 1u);
}
__HG_H16_HD unsigned short step_down(unsigned short __b) {
  if (__b == 0u)
    return 0x8001u;
  return (unsigned short)((__b & 0x8000u) ? __b + 1u : __b - 1u);
}
/// Turns r = round-to-nearest(v) into the rounding `m` asks for; `g` is r's
/// exact value. r is one of v's two neighbours, so one step is enough.
template <typename V>
__HG_H16_HD unsigned short direct(unsigned short __r, V __g, V __v, int __m) {
  if (__m == rn || __v != __v || __g == __v)
    return __r;
  if (__m == rz)
    __m = __v > 0 ? rd : ru;
  if (__m == rd && __g > __v)
    return step_down(__r);
  if (__m == ru && __g < __v)
    return step_up(__r);
  return __r;
}
template <typename H> __HG_H16_HD H from_float(float __v, int __m) {
  unsigned short __r = tr<H>::from_float(__v);
  return mk<H>(direct(__r, tr<H>::to_float(__r), __v, __m));
}
/// double -> float rounded to odd: then rounding to 16 bits is correct (float
/// has more than two bits beyond H's precision), with no double rounding.
__HG_H16_HD float round_odd(double __d) {
  float __f = (float)__d;
  if (__f != __f || (double)__f == __d)
    return __f;
  unsigned int __u = __builtin_bit_cast(unsigned int, __f);
  if (__builtin_fabs((double)__f) > __builtin_fabs(__d))
    --__u; // truncate towards zero (inf -> FLT_MAX)
  return __builtin_bit_cast(float, __u | 1u);
}
template <typename H> __HG_H16_HD H from_double(double __d, int __m) {
  unsigned short __r = tr<H>::from_float(round_odd(__d));
  return mk<H>(direct(__r, (double)tr<H>::to_float(__r), __d, __m));
}
/// 64-bit integer -> float rounded to odd (exact below 2^24): no double in
/// the integer conversions, and the odd float keeps its side of every H value.
__HG_H16_HD float u64_odd(unsigned long long __u) {
  if (__u < (1ull << 24))
    return (float)__u;
  int __s = 40 - __builtin_clzll(__u);
  unsigned long long __k = __u >> __s;
  if (__u & ((1ull << __s) - 1ull))
    __k |= 1ull;
  return (float)__k * (float)(1ull << __s);
}
template <typename H> __HG_H16_HD H from_u64(unsigned long long __u, int __m) {
  return from_float<H>(u64_odd(__u), __m);
}
template <typename H> __HG_H16_HD H from_s64(long long __i, int __m) {
  if (__i >= 0)
    return from_u64<H>((unsigned long long)__i, __m);
  // -x rounded with the mirrored mode.
  int __mm = __m == rd ? ru : __m == ru ? rd : __m;
  H __h = from_u64<H>(0ull - (unsigned long long)__i, __mm);
  __h.__x ^= 0x8000u;
  return __h;
}
/// H -> integer type I: round with `m`, saturate, NaN -> `nanv`.
template <typename I, typename H>
__HG_H16_HD I to_int(H __h, int __m, I __nanv) {
  float __v = f(__h);
  if (__v != __v)
    return __nanv;
  __v = __m == rn   ? __builtin_elementwise_rint(__v)
        : __m == rz ? __builtin_elementwise_trunc(__v)
        : __m == rd ? __builtin_elementwise_floor(__v)
                    : __builtin_elementwise_ceil(__v);
  const bool __sgn = (I)-1 < (I)0;
  const unsigned long long __bits = sizeof(I) * 8;
  const I __max = __sgn ? (I)((1ull << (__bits - 1)) - 1ull) : (I)~(I)0;
  const I __min = __sgn ? (I)(-__max - 1) : (I)0;
  if (__v <= (float)__min)
    return __min;
  if (__v >= (float)__max)
    return __max;
  return (I)__v;
}

// ---- Comparisons: ordered ones are false on NaN, unordered ones true.
template <typename H> __HG_H16_HD bool eq(H a, H b) { return f(a) == f(b); }
template <typename H> __HG_H16_HD bool ne(H a, H b) {
  return f(a) < f(b) || f(a) > f(b);
}
template <typename H> __HG_H16_HD bool lt(H a, H b) { return f(a) < f(b); }
template <typename H> __HG_H16_HD bool le(H a, H b) { return f(a) <= f(b); }
template <typename H> __HG_H16_HD bool gt(H a, H b) { return f(a) > f(b); }
template <typename H> __HG_H16_HD bool ge(H a, H b) { return f(a) >= f(b); }
template <typename H> __HG_H16_HD bool equ(H a, H b) { return !ne(a, b); }
template <typename H> __HG_H16_HD bool neu(H a, H b) { return !eq(a, b); }
template <typename H> __HG_H16_HD bool ltu(H a, H b) { return !ge(a, b); }
template <typename H> __HG_H16_HD bool leu(H a, H b) { return !gt(a, b); }
template <typename H> __HG_H16_HD bool gtu(H a, H b) { return !le(a, b); }
template <typename H> __HG_H16_HD bool geu(H a, H b) { return !lt(a, b); }

// ---- max/min: (a > b) ? a : b with +0 > -0; `nan` picks NaN propagation.
template <typename H> __HG_H16_HD H max(H a, H b, bool __nan) {
  bool __na = isnan(a), __nb = isnan(b);
  if ((__na && __nb) || (__nan && (__na || __nb)))
    return mk<H>(tr<H>::qnan);
  if (__na || __nb)
    return __na ? b : a;
  if (f(a) == f(b))
    return (a.__x & 0x8000u) ? b : a;
  return f(a) > f(b) ? a : b;
}
template <typename H> __HG_H16_HD H min(H a, H b, bool __nan) {
  bool __na = isnan(a), __nb = isnan(b);
  if ((__na && __nb) || (__nan && (__na || __nb)))
    return mk<H>(tr<H>::qnan);
  if (__na || __nb)
    return __na ? b : a;
  if (f(a) == f(b))
    return (a.__x & 0x8000u) ? a : b;
  return f(a) < f(b) ? a : b;
}

// ---- Arithmetic
/// a * b + c rounded once: the float product is exact (2 x 11 or 2 x 8
/// bits), TwoSum gives the sum's exact error, the sum is rounded to odd in
/// float and then to nearest in H (no double rounding).
template <typename H> __HG_H16_HD H fma(H a, H b, H c) {
  float __p = f(a) * f(b), __c = f(c);
  float __s = __p + __c;
  float __bb = __s - __p;
  float __err = (__p - (__s - __bb)) + (__c - __bb);
  if (__err != 0.0f && __s - __s == 0.0f) {
    unsigned int __u = __builtin_bit_cast(unsigned int, __s);
    if ((__err < 0.0f) != (__s < 0.0f))
      --__u; // the exact sum is nearer zero: truncate
    __s = __builtin_bit_cast(float, __u | 1u);
  }
  return r<H>(__s);
}
/// Clamp to [0, 1], NaN -> +0 (the _sat forms).
template <typename H> __HG_H16_HD H sat(H __h) {
  float __v = f(__h);
  if (!(__v > 0.0f))
    return mk<H>(0u);
  return __v > 1.0f ? mk<H>(tr<H>::one) : __h;
}
/// max(x, 0), NaN -> canonical NaN (the _relu forms).
template <typename H> __HG_H16_HD H relu(H __h) {
  if (isnan(__h))
    return mk<H>(tr<H>::qnan);
  return f(__h) > 0.0f ? __h : mk<H>(0u);
}
} // namespace __hg_h16

// Lane-wise helpers for the pair type.
#define __HG_H16_LANES2(H2, Name, One)                                         \
  __HG_H16_HD H2 Name(H2 a, H2 b) { return H2(One(a.x, b.x), One(a.y, b.y)); }
#define __HG_H16_LANES1(H2, Name, One)                                         \
  __HG_H16_HD H2 Name(H2 a) { return H2(One(a.x), One(a.y)); }

/// One comparison `Op` in its CUDA forms: __h<op>, __h<op>2 (1.0 / 0.0 per
/// lane), __h<op>2_mask (0xFFFF / 0 per lane) and __hb<op>2 (both lanes).
#define __HG_H16_CMP(H, H2, Op)                                                \
  __HG_H16_HD bool __h##Op(H a, H b) { return __hg_h16::Op(a, b); }            \
  __HG_H16_HD H2 __h##Op##2(H2 a, H2 b) {                                      \
    return H2(__hg_h16::mk<H>(__hg_h16::Op(a.x, b.x) ? __hg_h16::tr<H>::one    \
                                                     : 0u),                    \
              __hg_h16::mk<H>(__hg_h16::Op(a.y, b.y) ? __hg_h16::tr<H>::one    \
                                                     : 0u));                   \
  }                                                                            \
  __HG_H16_HD unsigned int __h##Op##2_mask(H2 a, H2 b) {                       \
    return (__hg_h16::Op(a.x, b.x) ? 0xffffu : 0u) |                           \
           (__hg_h16::Op(a.y, b.y) ? 0xffff0000u : 0u);                        \
  }                                                                            \
  __HG_H16_HD bool __hb##Op##2(H2 a, H2 b) {                                   \
    return __hg_h16::Op(a.x, b.x) && __hg_h16::Op(a.y, b.y);                   \
  }

/// The functions whose names are the same for __half and __nv_bfloat16.
#define __HG_H16_OPS(H, H2)                                                    \
  __HG_H16_HD bool __hisnan(H a) { return __hg_h16::isnan(a); }                \
  __HG_H16_HD bool __hisnan2(H2 a) {                                           \
    return __hg_h16::isnan(a.x) || __hg_h16::isnan(a.y);                       \
  }                                                                            \
  __HG_H16_HD int __hisinf(H a) {                                              \
    return a.__x == __hg_h16::tr<H>::inf                                       \
               ? 1                                                             \
               : (a.__x == (__hg_h16::tr<H>::inf | 0x8000u) ? -1 : 0);         \
  }                                                                            \
  __HG_H16_HD H __hneg(H a) {                                                  \
    return __hg_h16::mk<H>((unsigned short)(a.__x ^ 0x8000u));                 \
  }                                                                            \
  __HG_H16_HD H __habs(H a) {                                                  \
    return __hg_h16::mk<H>((unsigned short)(a.__x & 0x7fffu));                 \
  }                                                                            \
  __HG_H16_LANES1(H2, __hneg2, __hneg)                                         \
  __HG_H16_LANES1(H2, __habs2, __habs)                                         \
  __HG_H16_HD H __hmax(H a, H b) { return __hg_h16::max(a, b, false); }        \
  __HG_H16_HD H __hmin(H a, H b) { return __hg_h16::min(a, b, false); }        \
  __HG_H16_HD H __hmax_nan(H a, H b) { return __hg_h16::max(a, b, true); }     \
  __HG_H16_HD H __hmin_nan(H a, H b) { return __hg_h16::min(a, b, true); }     \
  __HG_H16_LANES2(H2, __hmax2, __hmax)                                         \
  __HG_H16_LANES2(H2, __hmin2, __hmin)                                         \
  __HG_H16_LANES2(H2, __hmax2_nan, __hmax_nan)                                 \
  __HG_H16_LANES2(H2, __hmin2_nan, __hmin_nan)                            \
  __HG_H16_HD H __hadd_rn(H a, H b) { return __hadd(a, b); }                   \
  __HG_H16_HD H __hsub_rn(H a, H b) { return __hsub(a, b); }                   \
  __HG_H16_HD H __hmul_rn(H a, H b) { return __hmul(a, b); }                   \
  __HG_H16_HD H __hadd_sat(H a, H b) { return __hg_h16::sat(__hadd(a, b)); }   \
  __HG_H16_HD H __hsub_sat(H a, H b) { return __hg_h16::sat(__hsub(a, b)); }   \
  __HG_H16_HD H __hmul_sat(H a, H b) { return __hg_h16::sat(__hmul(a, b)); }   \
  __HG_H16_LANES2(H2, __hadd2_rn, __hadd)                                      \
  __HG_H16_LANES2(H2, __hsub2_rn, __hsub)                                      \
  __HG_H16_LANES2(H2, __hmul2_rn, __hmul)                                      \
  __HG_H16_LANES2(H2, __hadd2_sat, __hadd_sat)                                 \
  __HG_H16_LANES2(H2, __hsub2_sat, __hsub_sat)                                 \
  __HG_H16_LANES2(H2, __hmul2_sat, __hmul_sat)                                 \
  __HG_H16_HD H __hfma(H a, H b, H c) { return __hg_h16::fma(a, b, c); }       \
  __HG_H16_HD H __hfma_sat(H a, H b, H c) {                                    \
    return __hg_h16::sat(__hg_h16::fma(a, b, c));                              \
  }                                                                            \
  __HG_H16_HD H __hfma_relu(H a, H b, H c) {                                   \
    return __hg_h16::relu(__hg_h16::fma(a, b, c));                             \
  }                                                                            \
  __HG_H16_HD H2 __hfma2(H2 a, H2 b, H2 c) {                                   \
    return H2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));                   \
  }                                                                            \
  __HG_H16_HD H2 __hfma2_sat(H2 a, H2 b, H2 c) {                               \
    return H2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));           \
  }                                                                            \
  __HG_H16_HD H2 __hfma2_relu(H2 a, H2 b, H2 c) {                              \
    return H2(__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y));         \
  }                                                                            \
  __HG_H16_HD H2 __hcmadd(H2 a, H2 b, H2 c) {                                  \
    return H2(__hfma(__hneg(a.y), b.y, __hfma(a.x, b.x, c.x)),                 \
              __hfma(a.y, b.x, __hfma(a.x, b.y, c.y)));                        \
  }                                                                            \
  __HG_H16_HD H2 __lowhigh2highlow(H2 a) { return H2(a.y, a.x); }              \
  __HG_H16_CMP(H, H2, eq)                                                      \
  __HG_H16_CMP(H, H2, ne)                                                      \
  __HG_H16_CMP(H, H2, lt)                                                      \
  __HG_H16_CMP(H, H2, le)                                                      \
  __HG_H16_CMP(H, H2, gt)                                                      \
  __HG_H16_CMP(H, H2, ge)                                                      \
  __HG_H16_CMP(H, H2, equ)                                                     \
  __HG_H16_CMP(H, H2, neu)                                                     \
  __HG_H16_CMP(H, H2, ltu)                                                     \
  __HG_H16_CMP(H, H2, leu)                                                     \
  __HG_H16_CMP(H, H2, gtu)                                                     \
  __HG_H16_CMP(H, H2, geu)                                                     \
  __HG_H16_HD bool operator==(H2 a, H2 b) { return __hbeq2(a, b); }            \
  __HG_H16_HD bool operator!=(H2 a, H2 b) { return __hbneu2(a, b); }           \
  __HG_H16_HD bool operator<(H2 a, H2 b) { return __hblt2(a, b); }             \
  __HG_H16_HD bool operator<=(H2 a, H2 b) { return __hble2(a, b); }            \
  __HG_H16_HD bool operator>(H2 a, H2 b) { return __hbgt2(a, b); }             \
  __HG_H16_HD bool operator>=(H2 a, H2 b) { return __hbge2(a, b); }

/// Conversions whose names carry the type's name N (half, bfloat16).
#define __HG_H16_TO_INT(H, N, I, S, NaN)                                       \
  __HG_H16_HD I __##N##2##S##_rn(H h) {                                        \
    return __hg_h16::to_int<I>(h, __hg_h16::rn, (I)(NaN));                     \
  }                                                                            \
  __HG_H16_HD I __##N##2##S##_rz(H h) {                                        \
    return __hg_h16::to_int<I>(h, __hg_h16::rz, (I)(NaN));                     \
  }                                                                            \
  __HG_H16_HD I __##N##2##S##_rd(H h) {                                        \
    return __hg_h16::to_int<I>(h, __hg_h16::rd, (I)(NaN));                     \
  }                                                                            \
  __HG_H16_HD I __##N##2##S##_ru(H h) {                                        \
    return __hg_h16::to_int<I>(h, __hg_h16::ru, (I)(NaN));                     \
  }
#define __HG_H16_FROM_INT(H, N, I, S, From)                                    \
  __HG_H16_HD H __##S##2##N##_rn(I i) { return From<H>(i, __hg_h16::rn); }     \
  __HG_H16_HD H __##S##2##N##_rz(I i) { return From<H>(i, __hg_h16::rz); }     \
  __HG_H16_HD H __##S##2##N##_rd(I i) { return From<H>(i, __hg_h16::rd); }     \
  __HG_H16_HD H __##S##2##N##_ru(I i) { return From<H>(i, __hg_h16::ru); }
#define __HG_H16_CONV(H, N)                                                    \
  __HG_H16_HD H __float2##N##_rz(float v) {                                    \
    return __hg_h16::from_float<H>(v, __hg_h16::rz);                           \
  }                                                                            \
  __HG_H16_HD H __float2##N##_rd(float v) {                                    \
    return __hg_h16::from_float<H>(v, __hg_h16::rd);                           \
  }                                                                            \
  __HG_H16_HD H __float2##N##_ru(float v) {                                    \
    return __hg_h16::from_float<H>(v, __hg_h16::ru);                           \
  }                                                                            \
  __HG_H16_HD H __double2##N(double v) {                                       \
    return __hg_h16::from_double<H>(v, __hg_h16::rn);                          \
  }                                                                            \
  __HG_H16_TO_INT(H, N, int, int, 0)                                           \
  __HG_H16_TO_INT(H, N, unsigned int, uint, 0)                                 \
  __HG_H16_TO_INT(H, N, short, short, 0)                                       \
  __HG_H16_TO_INT(H, N, unsigned short, ushort, 0)                             \
  __HG_H16_TO_INT(H, N, long long, ll, 0x8000000000000000ull)                  \
  __HG_H16_TO_INT(H, N, unsigned long long, ull, 0x8000000000000000ull)        \
  __HG_H16_HD signed char __##N##2char_rz(H h) {                               \
    return __hg_h16::to_int<signed char>(h, __hg_h16::rz, (signed char)0);     \
  }                                                                            \
  __HG_H16_HD unsigned char __##N##2uchar_rz(H h) {                            \
    return __hg_h16::to_int<unsigned char>(h, __hg_h16::rz, (unsigned char)0); \
  }                                                                            \
  __HG_H16_FROM_INT(H, N, int, int, __hg_h16::from_s64)                        \
  __HG_H16_FROM_INT(H, N, unsigned int, uint, __hg_h16::from_u64)              \
  __HG_H16_FROM_INT(H, N, short, short, __hg_h16::from_s64)                    \
  __HG_H16_FROM_INT(H, N, unsigned short, ushort, __hg_h16::from_u64)          \
  __HG_H16_FROM_INT(H, N, long long, ll, __hg_h16::from_s64)                   \
  __HG_H16_FROM_INT(H, N, unsigned long long, ull, __hg_h16::from_u64)         \
  __HG_H16_HD short __##N##_as_short(H h) { return (short)h.__x; }             \
  __HG_H16_HD unsigned short __##N##_as_ushort(H h) { return h.__x; }          \
  __HG_H16_HD H __short_as_##N(short s) {                                      \
    return __hg_h16::mk<H>((unsigned short)s);                                 \
  }                                                                            \
  __HG_H16_HD H __ushort_as_##N(unsigned short u) {                            \
    return __hg_h16::mk<H>(u);                                                 \
  }

#if defined(__CUDA__)
/// Device math through float (CUDA's are device-only too): h<fn>, h2<fn>.
#define __HG_H16_MATH1(H, H2, Name, Fn)                                        \
  static __inline__ __attribute__((always_inline)) __device__ H h##Name(H a) { \
    return __hg_h16::r<H>(Fn(__hg_h16::f(a)));                                 \
  }                                                                            \
  static __inline__ __attribute__((always_inline)) __device__ H2 h2##Name(     \
      H2 a) {                                                                  \
    return H2(h##Name(a.x), h##Name(a.y));                                     \
  }
#define __HG_H16_RCP(x) (1.0f / (x))
#define __HG_H16_MATH(H, H2)                                                   \
  __HG_H16_MATH1(H, H2, sqrt, sqrtf)                                          \
  __HG_H16_MATH1(H, H2, rsqrt, rsqrtf)                                        \
  __HG_H16_MATH1(H, H2, rcp, __HG_H16_RCP)                                    \
  __HG_H16_MATH1(H, H2, exp, expf)                                            \
  __HG_H16_MATH1(H, H2, exp2, exp2f)                                          \
  __HG_H16_MATH1(H, H2, exp10, exp10f)                                        \
  __HG_H16_MATH1(H, H2, log, logf)                                            \
  __HG_H16_MATH1(H, H2, log2, log2f)                                          \
  __HG_H16_MATH1(H, H2, log10, log10f)                                        \
  __HG_H16_MATH1(H, H2, sin, sinf)                                            \
  __HG_H16_MATH1(H, H2, cos, cosf)                                            \
  __HG_H16_MATH1(H, H2, tanh, tanhf)                                          \
  __HG_H16_MATH1(H, H2, tanh_approx, tanhf)                                   \
  __HG_H16_MATH1(H, H2, floor, floorf)                                        \
  __HG_H16_MATH1(H, H2, ceil, ceilf)                                          \
  __HG_H16_MATH1(H, H2, trunc, truncf)                                        \
  __HG_H16_MATH1(H, H2, rint, rintf)
#else
#define __HG_H16_MATH(H, H2)
#endif

#endif // HETGPU_CUDA_FP16_OPS_H
