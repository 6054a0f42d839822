//===- cooperative_groups/reduce.h - cg::reduce -------------------*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cg::reduce(group, value, op) for thread_block_tile<N> and coalesced_group,
/// with the function objects cg::plus, cg::less (the smaller value),
/// cg::greater (the larger value), cg::bit_and, cg::bit_or, cg::bit_xor.
/// Every thread of the group gets the result.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_COOPERATIVE_GROUPS_REDUCE_H
#define HETGPU_COOPERATIVE_GROUPS_REDUCE_H

// Device language: empty in a plain C/C++ (non-CUDA) compile.
#if defined(__CUDA__)

#include <cooperative_groups.h>

#pragma push_macro("__HG_CG")
#define __HG_CG __device__ __inline__ __attribute__((always_inline))

namespace cooperative_groups {

template <class T> struct plus {
  __HG_CG T operator()(const T &a, const T &b) const { return a + b; }
};
template <class T> struct less {
  __HG_CG T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <class T> struct greater {
  __HG_CG T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <class T> struct bit_and {
  __HG_CG T operator()(const T &a, const T &b) const { return a & b; }
};
template <class T> struct bit_or {
  __HG_CG T operator()(const T &a, const T &b) const { return a | b; }
};
template <class T> struct bit_xor {
  __HG_CG T operator()(const T &a, const T &b) const { return a ^ b; }
};

namespace details {
/// Butterfly over the \p n (power of two <= 32) lanes of the caller's tile.
template <class T, class Op>
__HG_CG T reduce_lanes(unsigned int n, T value, Op op) {
  unsigned int m = tile_mask(n);
  for (unsigned int off = n / 2; off > 0; off /= 2)
    value = op(value, shfl(shfl_xor, m, value, (int)off, (int)n));
  return value;
}

/// Reduction over a tile of several warps: each warp reduces, then every
/// thread folds its tile's warp results (in warp order) through shared
/// memory between two block barriers.
template <unsigned int N, bool MultiWarp = (N > 32)> struct tile_reduce {
  template <class T, class Op> static __HG_CG T run(T value, Op op) {
    return reduce_lanes(N, value, op);
  }
};
template <unsigned int N> struct tile_reduce<N, true> {
  template <class T, class Op> static __HG_CG T run(T value, Op op) {
    constexpr unsigned int words = (sizeof(T) + 7) / 8;
    __shared__ unsigned long long partial[32 * words];
    value = reduce_lanes(32, value, op);
    unsigned int warp = block_rank_linear() / 32;
    if (__lane_id() == 0)
      __builtin_memcpy(&partial[warp * words], &value, sizeof(T));
    __syncthreads();
    unsigned int first = warp & ~(N / 32 - 1u);
    T result = value;
    __builtin_memcpy(&result, &partial[first * words], sizeof(T));
    for (unsigned int w = first + 1; w < first + N / 32; ++w) {
      T other = value;
      __builtin_memcpy(&other, &partial[w * words], sizeof(T));
      result = op(result, other);
    }
    __syncthreads(); // partial[] is free for the next reduction
    return result;
  }
};
} // namespace details

/// Butterfly over the N threads of a static tile (see tile_reduce for tiles
/// of several warps).
template <unsigned int N, class P, class T, class Op>
__HG_CG T reduce(const thread_block_tile<N, P> &, T value, Op op) {
  return details::tile_reduce<N>::run(value, op);
}

/// Rank-ordered fold over an arbitrary set of active lanes.
template <class T, class Op>
__HG_CG T reduce(const coalesced_group &g, T value, Op op) {
  unsigned int n = g.size();
  T result = g.shfl(value, 0);
  for (unsigned int r = 1; r < n; ++r)
    result = op(result, g.shfl(value, r));
  return result;
}

} // namespace cooperative_groups

#pragma pop_macro("__HG_CG")

#endif // __CUDA__

#endif // HETGPU_COOPERATIVE_GROUPS_REDUCE_H
