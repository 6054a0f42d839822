//===- vector_types.h - CUDA vector types and dim3 --------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// CUDA's built-in vector types (char1..double4, longlong1..4, ...) with
/// CUDA's sizes and alignments (so structs holding them have the same layout
/// on every target and on the host), and dim3. No NVIDIA SDK involved. The
/// make_* constructors are in vector_functions.h.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_VECTOR_TYPES_H
#define HETGPU_VECTOR_TYPES_H

// Also used by the runtime's own (non-CUDA) C++ sources through
// driver_types.h: the execution-space attributes only exist in CUDA mode.
#ifdef __CUDA__
#define __HG_VT_HD __attribute__((host, device))
#else
#define __HG_VT_HD
#endif

// HG_VEC1..4(Name, T, Align2, Align4): the four widths of one element type.
// Widths 1 and 3 have the element's alignment, 2 and 4 the given ones.
#define __HG_VEC_TYPES(Name, T, A2, A4)                                        \
  struct Name##1 {                                                             \
    T x;                                                                       \
  };                                                                           \
  struct __attribute__((aligned(A2))) Name##2 {                                \
    T x, y;                                                                    \
  };                                                                           \
  struct Name##3 {                                                             \
    T x, y, z;                                                                 \
  };                                                                           \
  struct __attribute__((aligned(A4))) Name##4 {                                \
    T x, y, z, w;                                                              \
  };                                                                           \
  typedef struct Name##1 Name##1;                                              \
  typedef struct Name##2 Name##2;                                              \
  typedef struct Name##3 Name##3;                                              \
  typedef struct Name##4 Name##4;

__HG_VEC_TYPES(char, signed char, 2, 4)
__HG_VEC_TYPES(uchar, unsigned char, 2, 4)
__HG_VEC_TYPES(short, short, 4, 8)
__HG_VEC_TYPES(ushort, unsigned short, 4, 8)
__HG_VEC_TYPES(int, int, 8, 16)
__HG_VEC_TYPES(uint, unsigned int, 8, 16)
__HG_VEC_TYPES(long, long, 2 * sizeof(long), 16)
__HG_VEC_TYPES(ulong, unsigned long, 2 * sizeof(unsigned long), 16)
__HG_VEC_TYPES(longlong, long long, 16, 16)
__HG_VEC_TYPES(ulonglong, unsigned long long, 16, 16)
__HG_VEC_TYPES(float, float, 8, 16)
__HG_VEC_TYPES(double, double, 16, 16)
#undef __HG_VEC_TYPES

struct dim3 {
  unsigned int x, y, z;
#ifdef __cplusplus
  __HG_VT_HD constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                            unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __HG_VT_HD constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  // From threadIdx/blockIdx/blockDim/gridDim (device_launch_parameters.h):
  // an exact-match constructor, so `dim3(blockIdx)` is not ambiguous between
  // their conversions to dim3 and to uint3 before C++17.
  template <class B, class = decltype(B::__fetch_builtin_x())>
  __HG_VT_HD dim3(const B &b) : x(b.x), y(b.y), z(b.z) {}
  __HG_VT_HD constexpr operator uint3() const { return {x, y, z}; }
#endif
};
typedef struct dim3 dim3;
#undef __HG_VT_HD

#endif // HETGPU_VECTOR_TYPES_H
