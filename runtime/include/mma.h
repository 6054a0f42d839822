//===- mma.h - Warp matrix multiply-accumulate (nvcuda::wmma) -----*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// CUDA's WMMA API (namespace nvcuda::wmma: fragment, fill_fragment,
/// load_matrix_sync, store_matrix_sync, mma_sync) in portable code, for
/// every target: no tensor-core instructions. Shapes m16n16k16, m32n8k16,
/// m8n32k16 (half, bfloat16, signed/unsigned char), m16n16k8 (tf32) and
/// m8n8k4 (double); accumulators float, half, int, double.
///
/// Fragment layout (opaque in CUDA, so any layout is valid): an accumulator
/// is spread over the 32 lanes of the warp, element e of lane l being matrix
/// element l + 32 e in row-major order; a matrix_a/matrix_b fragment is held
/// whole by every lane. mma_sync then needs no communication between lanes:
/// each lane computes its own accumulator elements (K multiply-adds each).
/// Elementwise code over `frag.x[0..num_elements)` works as in CUDA. This is
/// correct everywhere and slower than tensor cores by design.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_MMA_H
#define HETGPU_MMA_H

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// Device language: empty in a plain C/C++ (non-CUDA) compile.
#if defined(__CUDA__)

#pragma push_macro("__HG_WMMA")
#define __HG_WMMA __device__ __inline__ __attribute__((always_inline))

namespace nvcuda {
namespace wmma {

struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;
enum layout_t { mem_row_major, mem_col_major };
namespace precision {
struct tf32;
} // namespace precision

namespace __detail {
template <class Use, int M, int N, int K> struct shape;
template <int M, int N, int K> struct shape<matrix_a, M, N, K> {
  static constexpr int rows = M, cols = K;
};
template <int M, int N, int K> struct shape<matrix_b, M, N, K> {
  static constexpr int rows = K, cols = N;
};
template <int M, int N, int K> struct shape<accumulator, M, N, K> {
  static constexpr int rows = M, cols = N;
};
template <class T> struct storage { typedef T type; };
template <> struct storage<precision::tf32> { typedef float type; };
template <class T, class U> struct same {
  static constexpr bool value = false;
};
template <class T> struct same<T, T> { static constexpr bool value = true; };
/// Values as the accumulation type sees them.
__HG_WMMA float widen(__half v) { return __half2float(v); }
__HG_WMMA float widen(__nv_bfloat16 v) { return __bfloat162float(v); }
__HG_WMMA float widen(float v) { return v; }
__HG_WMMA double widen(double v) { return v; }
__HG_WMMA int widen(signed char v) { return v; }
__HG_WMMA int widen(unsigned char v) { return v; }
__HG_WMMA int widen(int v) { return v; }
} // namespace __detail

template <class Use, int M, int N, int K, class T, class Layout = void>
class fragment {
  typedef __detail::shape<Use, M, N, K> shape_t;
  static constexpr bool distributed = __detail::same<Use, accumulator>::value;
  static_assert(!distributed || (M * N) % 32 == 0,
                "hetGPU: wmma accumulator sizes must be a multiple of 32");

public:
  typedef typename __detail::storage<T>::type storage_element_type;
  typedef storage_element_type element_type;
  static constexpr int rows = shape_t::rows;
  static constexpr int cols = shape_t::cols;
  static constexpr int num_elements =
      distributed ? rows * cols / 32 : rows * cols;
  storage_element_type x[num_elements];
};

template <class Use, int M, int N, int K, class T, class Layout>
__HG_WMMA void fill_fragment(
    fragment<Use, M, N, K, T, Layout> &f,
    const typename fragment<Use, M, N, K, T, Layout>::element_type &v) {
  for (int i = 0; i < f.num_elements; ++i)
    f.x[i] = v;
}

namespace __detail {
template <class Layout> struct is_col {
  static constexpr bool value = same<Layout, col_major>::value;
};
} // namespace __detail

/// matrix_a / matrix_b: every lane loads the whole tile.
template <class Use, int M, int N, int K, class T, class Layout, class U>
__HG_WMMA void load_matrix_sync(fragment<Use, M, N, K, T, Layout> &f,
                                const U *p, unsigned ldm) {
  typedef fragment<Use, M, N, K, T, Layout> F;
  static_assert(!__detail::same<Use, accumulator>::value,
                "hetGPU: an accumulator load needs a layout_t argument");
  for (int r = 0; r < F::rows; ++r)
    for (int c = 0; c < F::cols; ++c)
      f.x[r * F::cols + c] =
          __detail::is_col<Layout>::value ? p[c * ldm + r] : p[r * ldm + c];
}

/// Accumulator: each lane loads its own elements.
template <int M, int N, int K, class T, class U>
__HG_WMMA void load_matrix_sync(fragment<accumulator, M, N, K, T, void> &f,
                                const U *p, unsigned ldm, layout_t layout) {
  unsigned lane = __lane_id();
  for (int e = 0; e < f.num_elements; ++e) {
    unsigned idx = lane + 32u * e, r = idx / N, c = idx % N;
    f.x[e] = layout == mem_col_major ? p[c * ldm + r] : p[r * ldm + c];
  }
}

template <int M, int N, int K, class T, class U>
__HG_WMMA void
store_matrix_sync(U *p, const fragment<accumulator, M, N, K, T, void> &f,
                  unsigned ldm, layout_t layout) {
  unsigned lane = __lane_id();
  for (int e = 0; e < f.num_elements; ++e) {
    unsigned idx = lane + 32u * e, r = idx / N, c = idx % N;
    if (layout == mem_col_major)
      p[c * ldm + r] = f.x[e];
    else
      p[r * ldm + c] = f.x[e];
  }
}

/// d = a * b + c; each lane computes its accumulator elements. Half
/// accumulators are summed in float and rounded once; `satf` (clamp to the
/// finite range, NaN to 0) applies to floating-point results.
template <int M, int N, int K, class TA, class LA, class TB, class LB, class TC>
__HG_WMMA void mma_sync(fragment<accumulator, M, N, K, TC, void> &d,
                        const fragment<matrix_a, M, N, K, TA, LA> &a,
                        const fragment<matrix_b, M, N, K, TB, LB> &b,
                        const fragment<accumulator, M, N, K, TC, void> &c,
                        bool satf = false) {
  unsigned lane = __lane_id();
  for (int e = 0; e < d.num_elements; ++e) {
    unsigned idx = lane + 32u * e, r = idx / N, col = idx % N;
    auto acc = __detail::widen(c.x[e]);
    for (int k = 0; k < K; ++k)
      acc +=
          __detail::widen(a.x[r * K + k]) * __detail::widen(b.x[k * N + col]);
    if (satf && !__detail::same<TC, int>::value) {
      acc = acc != acc ? 0 : acc;
      if (__detail::same<TC, __half>::value)
        acc = acc > 65504.0f ? 65504.0f : (acc < -65504.0f ? -65504.0f : acc);
    }
    d.x[e] = (TC)acc;
  }
}

} // namespace wmma
} // namespace nvcuda

/// Rounds a float to TensorFloat-32 (10 mantissa bits, nearest even).
static __inline__ __attribute__((always_inline)) __device__ float
__float_to_tf32(float f) {
  unsigned int u = __builtin_bit_cast(unsigned int, f);
  if ((u & 0x7f800000u) == 0x7f800000u) // inf/NaN unchanged
    return f;
  u += 0xfffu + ((u >> 13) & 1u);
  return __builtin_bit_cast(float, u & 0xffffe000u);
}

#pragma pop_macro("__HG_WMMA")

#endif // __CUDA__

#endif // HETGPU_MMA_H
