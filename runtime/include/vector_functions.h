//===- vector_functions.h - make_* constructors of vector types --*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// make_char1 ... make_double4, usable from host and device code.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_VECTOR_FUNCTIONS_H
#define HETGPU_VECTOR_FUNCTIONS_H

#include <host_defines.h>
#include <vector_types.h>

#define __HG_MAKE_VEC(Name, T)                                                 \
  static __inline__ __host__ __device__ Name##1 make_##Name##1(T x) {          \
    Name##1 r;                                                                 \
    r.x = x;                                                                   \
    return r;                                                                  \
  }                                                                            \
  static __inline__ __host__ __device__ Name##2 make_##Name##2(T x, T y) {     \
    Name##2 r;                                                                 \
    r.x = x;                                                                   \
    r.y = y;                                                                   \
    return r;                                                                  \
  }                                                                            \
  static __inline__ __host__ __device__ Name##3 make_##Name##3(T x, T y,       \
                                                               T z) {          \
    Name##3 r;                                                                 \
    r.x = x;                                                                   \
    r.y = y;                                                                   \
    r.z = z;                                                                   \
    return r;                                                                  \
  }                                                                            \
  static __inline__ __host__ __device__ Name##4 make_##Name##4(T x, T y, T z,  \
                                                               T w) {          \
    Name##4 r;                                                                 \
    r.x = x;                                                                   \
    r.y = y;                                                                   \
    r.z = z;                                                                   \
    r.w = w;                                                                   \
    return r;                                                                  \
  }

__HG_MAKE_VEC(char, signed char)
__HG_MAKE_VEC(uchar, unsigned char)
__HG_MAKE_VEC(short, short)
__HG_MAKE_VEC(ushort, unsigned short)
__HG_MAKE_VEC(int, int)
__HG_MAKE_VEC(uint, unsigned int)
__HG_MAKE_VEC(long, long)
__HG_MAKE_VEC(ulong, unsigned long)
__HG_MAKE_VEC(longlong, long long)
__HG_MAKE_VEC(ulonglong, unsigned long long)
__HG_MAKE_VEC(float, float)
__HG_MAKE_VEC(double, double)
#undef __HG_MAKE_VEC

#endif // HETGPU_VECTOR_FUNCTIONS_H
