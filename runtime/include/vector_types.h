//===- vector_types.h - CUDA vector types and dim3 ---------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// CUDA's built-in vector types (char1..double4) and dim3, for host and
/// device code. No NVIDIA SDK involved.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_VECTOR_TYPES_H
#define HETGPU_VECTOR_TYPES_H

#ifndef __host__
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#endif

struct dim3 {
  unsigned int x, y, z;
#ifdef __cplusplus
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
#endif
};
typedef struct dim3 dim3;

#endif // HETGPU_VECTOR_TYPES_H
