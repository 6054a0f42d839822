/*===- surface_types.h - CUDA surface object types (hetGPU) ---------------===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * cudaSurfaceObject_t and the boundary modes of surface reads and writes
 * (CUDA 12 names and values). Surfaces over CUDA arrays made with
 * cudaArraySurfaceLoadStore: runtime/lib/API/Textures.cpp and
 * hetgpu/cuda/surface_functions.h. Written for hetGPU; plain C/C++.
 *
\*===----------------------------------------------------------------------===*/
#ifndef HETGPU_SURFACE_TYPES_H
#define HETGPU_SURFACE_TYPES_H
#define __SURFACE_TYPES_H__

typedef unsigned long long cudaSurfaceObject_t;

enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2,
};

enum cudaSurfaceFormatMode {
  cudaFormatModeForced = 0,
  cudaFormatModeAuto = 1,
};

#endif /* HETGPU_SURFACE_TYPES_H */
