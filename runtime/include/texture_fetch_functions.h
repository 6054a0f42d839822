//===- texture_fetch_functions.h - Texture object reads ----------*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `tex1Dfetch<T>(cudaTextureObject_t, int)` and `tex1Dfetch(T *, obj, int)`
/// for texture objects over linear memory: texel x of the resource, zero for
/// an index outside it (as CUDA returns), in the element type or, with
/// cudaReadModeNormalizedFloat and a float result, each 8- or 16-bit integer
/// channel scaled to [0, 1] (unsigned) or [-1, 1] (signed); half-float
/// channels (cudaCreateChannelDescHalf*) read as floats. The object is the
/// device address of a hetgpu_texture_object (hetgpu/cuda/texture_object.h).
/// The sampled reads (tex1D, tex2D, tex3D, the layered forms: filtering,
/// normalised coordinates, address modes) are in hetgpu/cuda/texture_sample.h.
/// Surfaces: surface_functions.h. Texture references are not implemented
/// (docs/Compatibility.md).
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_TEXTURE_FETCH_FUNCTIONS_H
#define HETGPU_TEXTURE_FETCH_FUNCTIONS_H

#if defined(__CUDA__) && defined(__cplusplus)

#include <hetgpu/cuda/texture_object.h>
#include <hetgpu/cuda/texture_sample.h>
#include <texture_types.h>
#include <vector_types.h>

template <typename T>
__device__ inline T tex1Dfetch(cudaTextureObject_t Obj, int X) {
  const hetgpu_texture_object *D = (const hetgpu_texture_object *)Obj;
  T R;
  __builtin_memset(&R, 0, sizeof(T));
  if (!D || X < 0 || (unsigned long long)(X + 1) * D->element > D->size)
    return R;
  const char *Texel = (const char *)D->base + (unsigned long long)X * D->element;
  using Ch = __hg_tex::channels<T>;
  if constexpr (__is_same(typename Ch::scalar, float)) {
    // Normalised reads, and half-float texels (read as floats).
    if (D->read_mode == cudaReadModeNormalizedFloat ||
        (D->kind == cudaChannelFormatKindFloat && D->bits[0] == 16)) {
      float *Out = (float *)&R;
      for (int C = 0; C < Ch::n; ++C)
        Out[C] = D->bits[C] ? __hg_tex::normalizedChannel(D, Texel, C) : 0.0f;
      return R;
    }
  }
  __builtin_memcpy(&R, Texel, sizeof(T) < D->element ? sizeof(T) : D->element);
  return R;
}

template <typename T>
__device__ inline void tex1Dfetch(T *Ret, cudaTextureObject_t Obj, int X) {
  *Ret = tex1Dfetch<T>(Obj, X);
}

#endif // __CUDA__ && __cplusplus

#endif // HETGPU_TEXTURE_FETCH_FUNCTIONS_H
