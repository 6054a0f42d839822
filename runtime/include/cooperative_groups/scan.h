//===- cooperative_groups/scan.h - cg::inclusive_scan/exclusive_scan -*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cg::inclusive_scan and cg::exclusive_scan over a thread_block_tile<N>
/// (Hillis-Steele with shfl_up), default operation cg::plus.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_COOPERATIVE_GROUPS_SCAN_H
#define HETGPU_COOPERATIVE_GROUPS_SCAN_H

// Device language: empty in a plain C/C++ (non-CUDA) compile.
#if defined(__CUDA__)

#include <cooperative_groups/reduce.h>

#pragma push_macro("__HG_CG")
#define __HG_CG __device__ __inline__ __attribute__((always_inline))

namespace cooperative_groups {

template <unsigned int N, class P, class T, class Op>
__HG_CG T inclusive_scan(const thread_block_tile<N, P> &g, T value, Op op) {
  unsigned int rank = g.thread_rank();
  for (unsigned int d = 1; d < N; d *= 2) {
    T other = g.shfl_up(value, d);
    if (rank >= d)
      value = op(other, value);
  }
  return value;
}
template <unsigned int N, class P, class T>
__HG_CG T inclusive_scan(const thread_block_tile<N, P> &g, T value) {
  return inclusive_scan(g, value, plus<T>());
}
/// Thread 0 gets T() (the identity of plus); use the three-argument form's
/// result only on ranks > 0 for other operations, as in CUDA.
template <unsigned int N, class P, class T, class Op>
__HG_CG T exclusive_scan(const thread_block_tile<N, P> &g, T value, Op op) {
  T inclusive = inclusive_scan(g, value, op);
  T shifted = g.shfl_up(inclusive, 1);
  return g.thread_rank() == 0 ? T() : shifted;
}
template <unsigned int N, class P, class T>
__HG_CG T exclusive_scan(const thread_block_tile<N, P> &g, T value) {
  return exclusive_scan(g, value, plus<T>());
}

} // namespace cooperative_groups

#pragma pop_macro("__HG_CG")

#endif // __CUDA__

#endif // HETGPU_COOPERATIVE_GROUPS_SCAN_H
