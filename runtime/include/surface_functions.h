//===- surface_functions.h - Surface object reads and writes -----*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// surf1Dread/write, surf2Dread/write, surf3Dread/write, the 1D/2D layered
/// and the cubemap (layered) forms on surface objects (cudaCreateSurfaceObject
/// over a CUDA array made with cudaArraySurfaceLoadStore). As in CUDA, x is a
/// byte offset in the row and y, z, the layer are indices. Out of range:
/// cudaBoundaryModeTrap (the default) traps the kernel, cudaBoundaryModeClamp
/// clamps each coordinate (x to the last whole T of the row),
/// cudaBoundaryModeZero reads zero and drops writes. The object is a
/// hetgpu_texture_object (hetgpu/cuda/texture_object.h) in device memory.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_SURFACE_FUNCTIONS_H
#define HETGPU_SURFACE_FUNCTIONS_H
#define __SURFACE_FUNCTIONS_H__

#if defined(__CUDA__) && defined(__cplusplus)

#include <hetgpu/cuda/texture_object.h>
#include <surface_types.h>

namespace __hg_surf {
/// The address of the T at byte \p X of row \p Y, slice \p Z, layer \p L
/// (the ones a \p Dims-dimensional access uses), or null under
/// cudaBoundaryModeZero when outside.
template <typename T>
__device__ inline char *address(cudaSurfaceObject_t Obj, int Dims,
                                bool Layered, int X, int Y, int Z, int L,
                                cudaSurfaceBoundaryMode M) {
  const hetgpu_texture_object *D = (const hetgpu_texture_object *)Obj;
  long long C[4] = {X, Dims > 1 ? Y : 0, Dims > 2 ? Z : 0, Layered ? L : 0};
  const long long Max[4] = {(long long)D->width * D->element - (long long)sizeof(T),
                            (long long)D->height - 1, (long long)D->depth - 1,
                            D->layers ? (long long)D->layers - 1 : 0};
  for (int K = 0; K < 4; ++K) {
    if (C[K] >= 0 && C[K] <= Max[K])
      continue;
    if (M == cudaBoundaryModeZero)
      return nullptr;
    if (M == cudaBoundaryModeTrap)
      __trap();
    C[K] = C[K] < 0 ? 0 : Max[K];
  }
  return (char *)D->base + C[3] * D->layer_pitch + C[2] * D->slice_pitch +
         C[1] * D->pitch + C[0];
}

template <typename T>
__device__ inline T read(cudaSurfaceObject_t Obj, int Dims, bool Layered,
                         int X, int Y, int Z, int L,
                         cudaSurfaceBoundaryMode M) {
  T R;
  __builtin_memset(&R, 0, sizeof(T));
  if (const char *P = address<T>(Obj, Dims, Layered, X, Y, Z, L, M))
    __builtin_memcpy(&R, __builtin_assume_aligned(P, alignof(T)), sizeof(T));
  return R;
}

template <typename T>
__device__ inline void write(T V, cudaSurfaceObject_t Obj, int Dims,
                             bool Layered, int X, int Y, int Z, int L,
                             cudaSurfaceBoundaryMode M) {
  // CUDA requires x aligned to the element: the store is one access of T
  // (byte stores of an unaligned float came out wrong on NVIDIA).
  if (char *P = address<T>(Obj, Dims, Layered, X, Y, Z, L, M))
    __builtin_memcpy(__builtin_assume_aligned(P, alignof(T)), &V, sizeof(T));
}
} // namespace __hg_surf

#define __HG_SURF_MODE cudaSurfaceBoundaryMode M = cudaBoundaryModeTrap

template <typename T>
__device__ inline T surf1Dread(cudaSurfaceObject_t S, int X, __HG_SURF_MODE) {
  return __hg_surf::read<T>(S, 1, false, X, 0, 0, 0, M);
}
template <typename T>
__device__ inline void surf1Dread(T *R, cudaSurfaceObject_t S, int X,
                                  __HG_SURF_MODE) {
  *R = surf1Dread<T>(S, X, M);
}
template <typename T>
__device__ inline T surf2Dread(cudaSurfaceObject_t S, int X, int Y,
                               __HG_SURF_MODE) {
  return __hg_surf::read<T>(S, 2, false, X, Y, 0, 0, M);
}
template <typename T>
__device__ inline void surf2Dread(T *R, cudaSurfaceObject_t S, int X, int Y,
                                  __HG_SURF_MODE) {
  *R = surf2Dread<T>(S, X, Y, M);
}
template <typename T>
__device__ inline T surf3Dread(cudaSurfaceObject_t S, int X, int Y, int Z,
                               __HG_SURF_MODE) {
  return __hg_surf::read<T>(S, 3, false, X, Y, Z, 0, M);
}
template <typename T>
__device__ inline void surf3Dread(T *R, cudaSurfaceObject_t S, int X, int Y,
                                  int Z, __HG_SURF_MODE) {
  *R = surf3Dread<T>(S, X, Y, Z, M);
}
template <typename T>
__device__ inline T surf1DLayeredread(cudaSurfaceObject_t S, int X, int L,
                                      __HG_SURF_MODE) {
  return __hg_surf::read<T>(S, 1, true, X, 0, 0, L, M);
}
template <typename T>
__device__ inline void surf1DLayeredread(T *R, cudaSurfaceObject_t S, int X,
                                         int L, __HG_SURF_MODE) {
  *R = surf1DLayeredread<T>(S, X, L, M);
}
template <typename T>
__device__ inline T surf2DLayeredread(cudaSurfaceObject_t S, int X, int Y,
                                      int L, __HG_SURF_MODE) {
  return __hg_surf::read<T>(S, 2, true, X, Y, 0, L, M);
}
template <typename T>
__device__ inline void surf2DLayeredread(T *R, cudaSurfaceObject_t S, int X,
                                         int Y, int L, __HG_SURF_MODE) {
  *R = surf2DLayeredread<T>(S, X, Y, L, M);
}

template <typename T>
__device__ inline void surf1Dwrite(T V, cudaSurfaceObject_t S, int X,
                                   __HG_SURF_MODE) {
  __hg_surf::write(V, S, 1, false, X, 0, 0, 0, M);
}
template <typename T>
__device__ inline void surf2Dwrite(T V, cudaSurfaceObject_t S, int X, int Y,
                                   __HG_SURF_MODE) {
  __hg_surf::write(V, S, 2, false, X, Y, 0, 0, M);
}
template <typename T>
__device__ inline void surf3Dwrite(T V, cudaSurfaceObject_t S, int X, int Y,
                                   int Z, __HG_SURF_MODE) {
  __hg_surf::write(V, S, 3, false, X, Y, Z, 0, M);
}
template <typename T>
__device__ inline void surf1DLayeredwrite(T V, cudaSurfaceObject_t S, int X,
                                          int L, __HG_SURF_MODE) {
  __hg_surf::write(V, S, 1, true, X, 0, 0, L, M);
}
template <typename T>
__device__ inline void surf2DLayeredwrite(T V, cudaSurfaceObject_t S, int X,
                                          int Y, int L, __HG_SURF_MODE) {
  __hg_surf::write(V, S, 2, true, X, Y, 0, L, M);
}

// Cubemaps: face f (of cube c: layer 6 * c + f) is a 2D layer.
template <typename T>
__device__ inline T surfCubemapread(cudaSurfaceObject_t S, int X, int Y,
                                    int Face, __HG_SURF_MODE) {
  return __hg_surf::read<T>(S, 2, true, X, Y, 0, Face, M);
}
template <typename T>
__device__ inline void surfCubemapread(T *R, cudaSurfaceObject_t S, int X,
                                       int Y, int Face, __HG_SURF_MODE) {
  *R = surfCubemapread<T>(S, X, Y, Face, M);
}
template <typename T>
__device__ inline T surfCubemapLayeredread(cudaSurfaceObject_t S, int X, int Y,
                                           int LayerFace, __HG_SURF_MODE) {
  return __hg_surf::read<T>(S, 2, true, X, Y, 0, LayerFace, M);
}
template <typename T>
__device__ inline void surfCubemapLayeredread(T *R, cudaSurfaceObject_t S,
                                              int X, int Y, int LayerFace,
                                              __HG_SURF_MODE) {
  *R = surfCubemapLayeredread<T>(S, X, Y, LayerFace, M);
}
template <typename T>
__device__ inline void surfCubemapwrite(T V, cudaSurfaceObject_t S, int X,
                                        int Y, int Face, __HG_SURF_MODE) {
  __hg_surf::write(V, S, 2, true, X, Y, 0, Face, M);
}
template <typename T>
__device__ inline void surfCubemapLayeredwrite(T V, cudaSurfaceObject_t S,
                                               int X, int Y, int LayerFace,
                                               __HG_SURF_MODE) {
  __hg_surf::write(V, S, 2, true, X, Y, 0, LayerFace, M);
}

#undef __HG_SURF_MODE

#endif // __CUDA__ && __cplusplus

#endif // HETGPU_SURFACE_FUNCTIONS_H
