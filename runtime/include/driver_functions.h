/*===- driver_functions.h - make_cudaPitchedPtr, _Pos, _Extent ------------===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * The small constructors of CUDA's 3D copy types (driver_types.h), host
 * functions as in CUDA. Written for hetGPU; plain C/C++.
 *
\*===----------------------------------------------------------------------===*/
#ifndef HETGPU_DRIVER_FUNCTIONS_H
#define HETGPU_DRIVER_FUNCTIONS_H
#define __DRIVER_FUNCTIONS_H__

#include <driver_types.h>

static __inline__ struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p,
                                                            size_t xsz,
                                                            size_t ysz) {
  struct cudaPitchedPtr s;
  s.ptr = d;
  s.pitch = p;
  s.xsize = xsz;
  s.ysize = ysz;
  return s;
}

static __inline__ struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
  struct cudaPos p;
  p.x = x;
  p.y = y;
  p.z = z;
  return p;
}

static __inline__ struct cudaExtent make_cudaExtent(size_t w, size_t h,
                                                    size_t d) {
  struct cudaExtent e;
  e.width = w;
  e.height = h;
  e.depth = d;
  return e;
}

#endif /* HETGPU_DRIVER_FUNCTIONS_H */
