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

/// Butterfly over the N threads of a static tile.
template <unsigned int N, class P, class T, class Op>
__HG_CG T reduce(const thread_block_tile<N, P> &g, T value, Op op) {
  for (unsigned int off = N / 2; off > 0; off /= 2)
    value = op(value, g.shfl_xor(value, off));
  return value;
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
