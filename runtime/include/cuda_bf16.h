//===- cuda_bf16.h - CUDA bfloat16 ------------------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `__nv_bfloat16` / `nv_bfloat16` and `__nv_bfloat162` / `nv_bfloat162`:
/// the upper 16 bits of an IEEE float, converted with integer code (round to
/// nearest even; NaNs stay quiet NaNs), arithmetic in float and rounded
/// back, so the device IR never holds the LLVM `bfloat` type. The same
/// function names as CUDA (`__float2bfloat16`, `__bfloat162float`, `__hadd`,
/// `__hmul2`, operators, comparisons, shuffles, atomicAdd, ...): everything
/// CUDA 12/13 documents for the two types except the cache-hint loads/stores
/// and the legacy non-_sync shuffles. Conversions in every rounding mode,
/// comparisons, max/min, fma/_sat/_relu and the math functions are shared
/// with cuda_fp16.h (hetgpu/cuda/fp16_ops.h).
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_CUDA_BF16_H
#define HETGPU_CUDA_BF16_H

#include <cuda_runtime.h>
#include <hetgpu/cuda/fp16_ops.h>

#ifdef __cplusplus

#pragma push_macro("__HG_HD")
#define __HG_HD                                                                \
  static __inline__ __attribute__((always_inline)) __host__ __device__

struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat162_raw {
  unsigned short x, y;
};

namespace __hg_bf16 {
__HG_HD unsigned short from_float(float f) {
  unsigned int u = __builtin_bit_cast(unsigned int, f);
  if ((u & 0x7fffffffu) > 0x7f800000u) // NaN: keep the sign, make it quiet
    return (unsigned short)((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u); // round to nearest even (may reach inf)
  return (unsigned short)(u >> 16);
}
__HG_HD float to_float(unsigned short b) {
  return __builtin_bit_cast(float, (unsigned int)b << 16);
}
} // namespace __hg_bf16

struct __attribute__((aligned(2))) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  __host__ __device__ constexpr __nv_bfloat16(__nv_bfloat16_raw r) : __x(r.x) {}
  __host__ __device__ __nv_bfloat16(float f) : __x(__hg_bf16::from_float(f)) {}
  __host__ __device__ __nv_bfloat16(double d);
  __host__ __device__ __nv_bfloat16(int i)
      : __x(__hg_bf16::from_float((float)i)) {}
  __host__ __device__ operator float() const {
    return __hg_bf16::to_float(__x);
  }
  __host__ __device__ operator __nv_bfloat16_raw() const {
    return __nv_bfloat16_raw{__x};
  }
};

struct __attribute__((aligned(4))) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __host__ __device__ constexpr __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b)
      : x(a), y(b) {}
  __host__ __device__ constexpr __nv_bfloat162(__nv_bfloat162_raw r)
      : x(__nv_bfloat16_raw{r.x}), y(__nv_bfloat16_raw{r.y}) {}
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

namespace __hg_bf16 {
__HG_HD __nv_bfloat16 make(unsigned short b) {
  return __nv_bfloat16(__nv_bfloat16_raw{b});
}
} // namespace __hg_bf16
namespace __hg_h16 {
template <> struct tr<__nv_bfloat16> {
  static constexpr unsigned short inf = 0x7f80u, qnan = 0x7fffu, one = 0x3f80u;
  __HG_HD float to_float(unsigned short b) { return __hg_bf16::to_float(b); }
  __HG_HD unsigned short from_float(float v) {
    return __hg_bf16::from_float(v);
  }
};
} // namespace __hg_h16
__host__ __device__ inline __nv_bfloat16::__nv_bfloat16(double d)
    : __x(__hg_h16::from_double<__nv_bfloat16>(d, __hg_h16::rn).__x) {}

// ---- Conversions
// ---------------------------------------------------------------
__HG_HD __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
__HG_HD __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
__HG_HD float __bfloat162float(__nv_bfloat16 b) {
  return __hg_bf16::to_float(b.__x);
}
__HG_HD __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162(__nv_bfloat16(a), __nv_bfloat16(b));
}
__HG_HD __nv_bfloat162 __float2bfloat162_rn(float a) {
  return __nv_bfloat162(__nv_bfloat16(a), __nv_bfloat16(a));
}
__HG_HD __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat162(a, b);
}
__HG_HD __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) {
  return __nv_bfloat162(a, a);
}
__HG_HD float2 __bfloat1622float2(__nv_bfloat162 b) {
  return make_float2(__bfloat162float(b.x), __bfloat162float(b.y));
}
__HG_HD __nv_bfloat162 __float22bfloat162_rn(float2 f) {
  return __nv_bfloat162(__nv_bfloat16(f.x), __nv_bfloat16(f.y));
}
__HG_HD float __low2float(__nv_bfloat162 b) { return __bfloat162float(b.x); }
__HG_HD float __high2float(__nv_bfloat162 b) { return __bfloat162float(b.y); }
__HG_HD __nv_bfloat16 __low2bfloat16(__nv_bfloat162 b) { return b.x; }
__HG_HD __nv_bfloat16 __high2bfloat16(__nv_bfloat162 b) { return b.y; }
__HG_HD __nv_bfloat162 __low2bfloat162(__nv_bfloat162 b) {
  return __nv_bfloat162(b.x, b.x);
}
__HG_HD __nv_bfloat162 __high2bfloat162(__nv_bfloat162 b) {
  return __nv_bfloat162(b.y, b.y);
}
__HG_HD __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(a.x, b.x);
}
__HG_HD __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(a.y, b.y);
}
__HG_HD __nv_bfloat162 make_bfloat162(__nv_bfloat16 x, __nv_bfloat16 y) {
  return __nv_bfloat162(x, y);
}

// ---- Arithmetic (float, rounded once)
// -------------------------------------------
#define __HG_BF(b) __bfloat162float(b)
#define __HG_BF_BIN(Name, Op)                                                  \
  __HG_HD __nv_bfloat16 Name(__nv_bfloat16 a, __nv_bfloat16 b) {               \
    return __nv_bfloat16(__HG_BF(a) Op __HG_BF(b));                            \
  }                                                                            \
  __HG_HD __nv_bfloat162 Name##2(__nv_bfloat162 a, __nv_bfloat162 b) {         \
    return __nv_bfloat162(Name(a.x, b.x), Name(a.y, b.y));                     \
  }
__HG_BF_BIN(__hadd, +)
__HG_BF_BIN(__hsub, -)
__HG_BF_BIN(__hmul, *)
#undef __HG_BF_BIN
__HG_HD __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat16(__HG_BF(a) / __HG_BF(b));
}
__HG_HD __nv_bfloat162 __h2div(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(__hdiv(a.x, b.x), __hdiv(a.y, b.y));
}
__HG_H16_OPS(__nv_bfloat16, __nv_bfloat162)
__HG_H16_CONV(__nv_bfloat16, bfloat16)
__HG_H16_MATH(__nv_bfloat16, __nv_bfloat162)

#define __HG_BF_OP(Op, Fn, Fn2)                                                \
  __HG_HD __nv_bfloat16 operator Op(__nv_bfloat16 a, __nv_bfloat16 b) {        \
    return Fn(a, b);                                                           \
  }                                                                            \
  __HG_HD __nv_bfloat16 &operator Op##=(__nv_bfloat16 &a, __nv_bfloat16 b) {   \
    a = Fn(a, b);                                                              \
    return a;                                                                  \
  }                                                                            \
  __HG_HD __nv_bfloat162 operator Op(__nv_bfloat162 a, __nv_bfloat162 b) {     \
    return Fn2(a, b);                                                          \
  }
__HG_BF_OP(+, __hadd, __hadd2)
__HG_BF_OP(-, __hsub, __hsub2)
__HG_BF_OP(*, __hmul, __hmul2)
__HG_BF_OP(/, __hdiv, __h2div)
#undef __HG_BF_OP
__HG_HD __nv_bfloat16 operator-(__nv_bfloat16 a) { return __hneg(a); }
__HG_HD __nv_bfloat16 operator+(__nv_bfloat16 a) { return a; }
__HG_HD __nv_bfloat162 operator-(__nv_bfloat162 a) { return __hneg2(a); }
__HG_HD bool operator==(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __heq(a, b);
}
__HG_HD bool operator!=(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __hneu(a, b);
}
__HG_HD bool operator<(__nv_bfloat16 a, __nv_bfloat16 b) { return __hlt(a, b); }
__HG_HD bool operator<=(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __hle(a, b);
}
__HG_HD bool operator>(__nv_bfloat16 a, __nv_bfloat16 b) { return __hgt(a, b); }
__HG_HD bool operator>=(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __hge(a, b);
}

#if defined(__CUDA__) // device-only

#define __HG_BF_SHFL(Name, LaneT)                                              \
  static __inline__ __attribute__((always_inline, convergent))                 \
  __device__ __nv_bfloat16                                                     \
  Name(unsigned int m, __nv_bfloat16 v, LaneT l, int w = 32) {                 \
    return __hg_bf16::make(                                                    \
        (unsigned short)Name(m, (unsigned int)v.__x, l, w));                   \
  }                                                                            \
  static __inline__ __attribute__((always_inline, convergent))                 \
  __device__ __nv_bfloat162                                                    \
  Name(unsigned int m, __nv_bfloat162 v, LaneT l, int w = 32) {                \
    return __builtin_bit_cast(                                                 \
        __nv_bfloat162, Name(m, __builtin_bit_cast(unsigned int, v), l, w));   \
  }
__HG_BF_SHFL(__shfl_sync, int)
__HG_BF_SHFL(__shfl_up_sync, unsigned int)
__HG_BF_SHFL(__shfl_down_sync, unsigned int)
__HG_BF_SHFL(__shfl_xor_sync, int)
#undef __HG_BF_SHFL

static __inline__ __attribute__((always_inline)) __device__ __nv_bfloat162
atomicAdd(__nv_bfloat162 *p, __nv_bfloat162 v) {
  unsigned int *w = (unsigned int *)p;
  unsigned int old = __atomic_load_n(w, __ATOMIC_RELAXED);
  while (true) {
    __nv_bfloat162 o = __builtin_bit_cast(__nv_bfloat162, old);
    unsigned int n = __builtin_bit_cast(unsigned int, __hadd2(o, v));
    if (__atomic_compare_exchange_n(w, &old, n, false, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED))
      return o;
  }
}
static __inline__ __attribute__((always_inline)) __device__ __nv_bfloat16
atomicAdd(__nv_bfloat16 *p, __nv_bfloat16 v) {
  unsigned long long a = (unsigned long long)p;
  unsigned int *w = (unsigned int *)(a & ~3ull);
  unsigned int shift = (unsigned int)(a & 2ull) * 8u;
  unsigned int old = __atomic_load_n(w, __ATOMIC_RELAXED);
  while (true) {
    __nv_bfloat16 o = __hg_bf16::make((unsigned short)(old >> shift));
    unsigned int n =
        (old & ~(0xffffu << shift)) | ((unsigned int)__hadd(o, v).__x << shift);
    if (__atomic_compare_exchange_n(w, &old, n, false, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED))
      return o;
  }
}
#endif // __CUDA__
#undef __HG_BF

#pragma pop_macro("__HG_HD")

#endif // __cplusplus

#endif // HETGPU_CUDA_BF16_H
