//===- sm_30_intrinsics.h - CUDA warp-level functions -----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Warp shuffles, votes, match, lane masks and the sm_80 warp reductions.
/// Warps are 32 lanes on every target. The hetIR shuffle builtins move 32
/// bits; 64-bit values are split into two 32-bit shuffles here, floats are
/// moved as their bit patterns.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_SM_30_INTRINSICS_H
#define HETGPU_SM_30_INTRINSICS_H

// Device language: empty in a plain C/C++ (non-CUDA) compile.
#if defined(__CUDA__)

#include <hetgpu/cuda/builtins.h>

#pragma push_macro("__DEVICE__")
#define __DEVICE__                                                             \
  static __inline__ __attribute__((always_inline, convergent)) __device__

//===----------------------------------------------------------------------===//
// Shuffles
//===----------------------------------------------------------------------===//

// Name, hetIR builtin, type of the lane/delta/laneMask operand.
#define __HG_SHFL(Name, Builtin, LaneT)                                        \
  __DEVICE__ int Name(unsigned int __mask, int __v, LaneT __l,                 \
                      int __width = 32) {                                      \
    return Builtin(__mask, __v, (int)__l, __width);                            \
  }                                                                            \
  __DEVICE__ unsigned int Name(unsigned int __mask, unsigned int __v,          \
                               LaneT __l, int __width = 32) {                  \
    return (unsigned int)Builtin(__mask, (int)__v, (int)__l, __width);         \
  }                                                                            \
  __DEVICE__ float Name(unsigned int __mask, float __v, LaneT __l,             \
                        int __width = 32) {                                    \
    return __builtin_bit_cast(                                                 \
        float,                                                                 \
        Builtin(__mask, __builtin_bit_cast(int, __v), (int)__l, __width));     \
  }                                                                            \
  __DEVICE__ unsigned long long Name(unsigned int __mask,                      \
                                     unsigned long long __v, LaneT __l,        \
                                     int __width = 32) {                       \
    int __lo = Builtin(__mask, (int)(unsigned int)__v, (int)__l, __width);     \
    int __hi =                                                                 \
        Builtin(__mask, (int)(unsigned int)(__v >> 32), (int)__l, __width);    \
    return ((unsigned long long)(unsigned int)__hi << 32) |                    \
           (unsigned int)__lo;                                                 \
  }                                                                            \
  __DEVICE__ long long Name(unsigned int __mask, long long __v, LaneT __l,     \
                            int __width = 32) {                                \
    return (long long)Name(__mask, (unsigned long long)__v, __l, __width);     \
  }                                                                            \
  __DEVICE__ long Name(unsigned int __mask, long __v, LaneT __l,               \
                       int __width = 32) {                                     \
    return (long)Name(__mask, (unsigned long long)__v, __l, __width);          \
  }                                                                            \
  __DEVICE__ unsigned long Name(unsigned int __mask, unsigned long __v,        \
                                LaneT __l, int __width = 32) {                 \
    return (unsigned long)Name(__mask, (unsigned long long)__v, __l, __width); \
  }                                                                            \
  __DEVICE__ double Name(unsigned int __mask, double __v, LaneT __l,           \
                         int __width = 32) {                                   \
    return __builtin_bit_cast(                                                 \
        double, Name(__mask, __builtin_bit_cast(unsigned long long, __v), __l, \
                     __width));                                                \
  }

__HG_SHFL(__shfl_sync, __hetgpu_shfl_idx_i32, int)
__HG_SHFL(__shfl_up_sync, __hetgpu_shfl_up_i32, unsigned int)
__HG_SHFL(__shfl_down_sync, __hetgpu_shfl_down_i32, unsigned int)
__HG_SHFL(__shfl_xor_sync, __hetgpu_shfl_xor_i32, int)
#undef __HG_SHFL

// Pre-CUDA-9 shuffles without a mask (removed for sm_70+ by NVIDIA; kept
// here for old code): the lanes active at the call take part.
#define __HG_SHFL_LEGACY(Name, Sync, LaneT)                                    \
  template <typename __T>                                                      \
  __DEVICE__ __T Name(__T __v, LaneT __l, int __width = 32) {                  \
    return Sync(__hetgpu_activemask(), __v, __l, __width);                     \
  }
__HG_SHFL_LEGACY(__shfl, __shfl_sync, int)
__HG_SHFL_LEGACY(__shfl_up, __shfl_up_sync, unsigned int)
__HG_SHFL_LEGACY(__shfl_down, __shfl_down_sync, unsigned int)
__HG_SHFL_LEGACY(__shfl_xor, __shfl_xor_sync, int)
#undef __HG_SHFL_LEGACY

//===----------------------------------------------------------------------===//
// Votes, active mask, lane masks
//===----------------------------------------------------------------------===//

__DEVICE__ int __any_sync(unsigned int __mask, int __pred) {
  return __hetgpu_vote_any(__mask, __pred);
}
__DEVICE__ int __all_sync(unsigned int __mask, int __pred) {
  return __hetgpu_vote_all(__mask, __pred);
}
__DEVICE__ int __uni_sync(unsigned int __mask, int __pred) {
  return __hetgpu_vote_all(__mask, __pred) ||
         !__hetgpu_vote_any(__mask, __pred);
}
__DEVICE__ unsigned int __ballot_sync(unsigned int __mask, int __pred) {
  return __hetgpu_vote_ballot(__mask, __pred);
}
__DEVICE__ unsigned int __activemask(void) { return __hetgpu_activemask(); }
// Pre-CUDA-9 votes without a mask (see __shfl above).
__DEVICE__ int __any(int __pred) {
  return __hetgpu_vote_any(__hetgpu_activemask(), __pred);
}
__DEVICE__ int __all(int __pred) {
  return __hetgpu_vote_all(__hetgpu_activemask(), __pred);
}
__DEVICE__ unsigned int __ballot(int __pred) {
  return __hetgpu_vote_ballot(__hetgpu_activemask(), __pred);
}

static __inline__ __attribute__((always_inline)) __device__ unsigned int
__lanemask_eq(void) {
  return 1u << __hetgpu_lane_id();
}
static __inline__ __attribute__((always_inline)) __device__ unsigned int
__lanemask_lt(void) {
  return (1u << __hetgpu_lane_id()) - 1u;
}
static __inline__ __attribute__((always_inline)) __device__ unsigned int
__lanemask_le(void) {
  return __lanemask_lt() | __lanemask_eq();
}
static __inline__ __attribute__((always_inline)) __device__ unsigned int
__lanemask_gt(void) {
  return ~__lanemask_le();
}
static __inline__ __attribute__((always_inline)) __device__ unsigned int
__lanemask_ge(void) {
  return ~__lanemask_lt();
}
/// Lane of the calling thread in its warp (not a CUDA API; handy and free).
static __inline__ __attribute__((always_inline)) __device__ unsigned int
__lane_id(void) {
  return __hetgpu_lane_id();
}

//===----------------------------------------------------------------------===//
// Match (sm_70). A 64-bit value matches where both halves match.
//===----------------------------------------------------------------------===//

__DEVICE__ unsigned int __match_any_sync(unsigned int __mask,
                                         unsigned int __v) {
  return __hetgpu_match_any_i32(__mask, (int)__v);
}
__DEVICE__ unsigned int __match_any_sync(unsigned int __mask, int __v) {
  return __hetgpu_match_any_i32(__mask, __v);
}
__DEVICE__ unsigned int __match_any_sync(unsigned int __mask, float __v) {
  return __hetgpu_match_any_i32(__mask, __builtin_bit_cast(int, __v));
}
__DEVICE__ unsigned int __match_any_sync(unsigned int __mask,
                                         unsigned long long __v) {
  return __hetgpu_match_any_i32(__mask, (int)(unsigned int)__v) &
         __hetgpu_match_any_i32(__mask, (int)(unsigned int)(__v >> 32));
}
__DEVICE__ unsigned int __match_any_sync(unsigned int __mask, long long __v) {
  return __match_any_sync(__mask, (unsigned long long)__v);
}
__DEVICE__ unsigned int __match_any_sync(unsigned int __mask, long __v) {
  return __match_any_sync(__mask, (unsigned long long)__v);
}
__DEVICE__ unsigned int __match_any_sync(unsigned int __mask,
                                         unsigned long __v) {
  return __match_any_sync(__mask, (unsigned long long)__v);
}
__DEVICE__ unsigned int __match_any_sync(unsigned int __mask, double __v) {
  return __match_any_sync(__mask, __builtin_bit_cast(unsigned long long, __v));
}
/// All lanes of \p __mask hold the same value: returns \p __mask and sets
/// *__pred; otherwise 0 and clears it.
template <typename __T>
__DEVICE__ unsigned int __match_all_sync(unsigned int __mask, __T __v,
                                         int *__pred) {
  unsigned int __same = __match_any_sync(__mask, __v);
  *__pred = __same == __mask;
  return *__pred ? __mask : 0u;
}

//===----------------------------------------------------------------------===//
// Warp reductions (sm_80): a butterfly over the full warp, otherwise every
// lane of the mask reads every other lane of it (any mask, fewer lanes).
//===----------------------------------------------------------------------===//

namespace __hg_warp {
template <typename T, typename Op>
__DEVICE__ T reduce(unsigned int mask, T v, Op op) {
  if (mask == 0xffffffffu) {
    for (int off = 16; off > 0; off >>= 1)
      v = op(v, (T)__hetgpu_shfl_xor_i32(mask, (int)v, off, 32));
    return v;
  }
  T r = v;
  bool first = true;
  for (int l = 0; l < 32; ++l) {
    if (!((mask >> l) & 1u))
      continue;
    T o = (T)__hetgpu_shfl_idx_i32(mask, (int)v, l, 32);
    r = first ? o : op(r, o);
    first = false;
  }
  return r;
}
} // namespace __hg_warp

__DEVICE__ unsigned int __reduce_add_sync(unsigned int __mask,
                                          unsigned int __v) {
  return __hg_warp::reduce(
      __mask, __v, [](unsigned int a, unsigned int b) { return a + b; });
}
__DEVICE__ int __reduce_add_sync(unsigned int __mask, int __v) {
  return (int)__reduce_add_sync(__mask, (unsigned int)__v);
}
__DEVICE__ unsigned int __reduce_min_sync(unsigned int __mask,
                                          unsigned int __v) {
  return __hg_warp::reduce(__mask, __v, [](unsigned int a, unsigned int b) {
    return b < a ? b : a;
  });
}
__DEVICE__ int __reduce_min_sync(unsigned int __mask, int __v) {
  return __hg_warp::reduce(__mask, __v,
                           [](int a, int b) { return b < a ? b : a; });
}
__DEVICE__ unsigned int __reduce_max_sync(unsigned int __mask,
                                          unsigned int __v) {
  return __hg_warp::reduce(__mask, __v, [](unsigned int a, unsigned int b) {
    return a < b ? b : a;
  });
}
__DEVICE__ int __reduce_max_sync(unsigned int __mask, int __v) {
  return __hg_warp::reduce(__mask, __v,
                           [](int a, int b) { return a < b ? b : a; });
}
__DEVICE__ unsigned int __reduce_and_sync(unsigned int __mask,
                                          unsigned int __v) {
  return __hg_warp::reduce(
      __mask, __v, [](unsigned int a, unsigned int b) { return a & b; });
}
__DEVICE__ unsigned int __reduce_or_sync(unsigned int __mask,
                                         unsigned int __v) {
  return __hg_warp::reduce(
      __mask, __v, [](unsigned int a, unsigned int b) { return a | b; });
}
__DEVICE__ unsigned int __reduce_xor_sync(unsigned int __mask,
                                          unsigned int __v) {
  return __hg_warp::reduce(
      __mask, __v, [](unsigned int a, unsigned int b) { return a ^ b; });
}

#pragma pop_macro("__DEVICE__")

#endif // __CUDA__

#endif // HETGPU_SM_30_INTRINSICS_H
