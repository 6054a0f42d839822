//===- hetgpu/cuda/texture_sample.h - Software texture sampling -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// tex1D, tex2D, tex3D, tex1DLayered, tex2DLayered, tex2Dgather (and the
/// Lod/Grad forms at level 0, there being no mipmaps) on texture objects,
/// computed in software from the hetgpu_texture_object descriptor
/// (hetgpu/cuda/texture_object.h), as the CUDA programming guide's "Texture
/// Fetching" appendix describes them:
///
///  * coordinates: unnormalised x addresses texel floor(x) (texel centres at
///    i + 0.5); normalised x is scaled by the size first;
///  * point filtering reads texel floor(x); linear filtering blends the 2, 4
///    or 8 texels around x - 0.5 with weights alpha = frac(x - 0.5) rounded
///    to 9-bit fixed point with 8 fractional bits (round(alpha * 256) / 256),
///    as CUDA's hardware does;
///  * address modes apply to each texel index: wrap (index mod size) and
///    mirror only with normalised coordinates (otherwise clamp, CUDA's
///    rule), clamp to [0, size - 1], border (the border colour for a texel
///    outside). Layer indices are clamped;
///  * results: float (and float2/float4) results are the element's floats or,
///    with cudaReadModeNormalizedFloat, 8/16-bit integers scaled to [0, 1]
///    (unsigned) or [-1, 1] (signed); integer results are the texel as stored
///    (point filtering; border texels are the border colour converted).
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_CUDA_TEXTURE_SAMPLE_H
#define HETGPU_CUDA_TEXTURE_SAMPLE_H

#if defined(__CUDA__) && defined(__cplusplus)

#include <hetgpu/cuda/texture_object.h>
#include <texture_types.h>
#include <vector_types.h>

namespace __hg_tex {
/// The scalar type and channel count of a texel result type.
template <typename T> struct channels {
  using scalar = T;
  static constexpr int n = 1;
};
#define __HG_TEX_VEC(V, S, N)                                                  \
  template <> struct channels<V> {                                             \
    using scalar = S;                                                          \
    static constexpr int n = N;                                                \
  };
#define __HG_TEX_VECS(B, S)                                                    \
  __HG_TEX_VEC(B##1, S, 1) __HG_TEX_VEC(B##2, S, 2) __HG_TEX_VEC(B##4, S, 4)
__HG_TEX_VECS(char, signed char)
__HG_TEX_VECS(uchar, unsigned char)
__HG_TEX_VECS(short, short)
__HG_TEX_VECS(ushort, unsigned short)
__HG_TEX_VECS(int, int)
__HG_TEX_VECS(uint, unsigned int)
__HG_TEX_VECS(float, float)
#undef __HG_TEX_VECS
#undef __HG_TEX_VEC

/// Channel \p C of \p Texel as a float: a float channel as it is, an 8- or
/// 16-bit integer channel normalised.
__device__ inline float normalizedChannel(const hetgpu_texture_object *D,
                                          const char *Texel, int C) {
  int Off = 0;
  for (int I = 0; I < C; ++I)
    Off += D->bits[I] / 8;
  bool Signed = D->kind == cudaChannelFormatKindSigned;
  switch (D->bits[C]) {
  case 8:
    return Signed ? fmaxf(*(const signed char *)(Texel + Off) / 127.0f, -1.0f)
                  : *(const unsigned char *)(Texel + Off) / 255.0f;
  case 16:
    return Signed ? fmaxf(*(const short *)(Texel + Off) / 32767.0f, -1.0f)
                  : *(const unsigned short *)(Texel + Off) / 65535.0f;
  case 32:
    if (D->kind == cudaChannelFormatKindFloat)
      return *(const float *)(Texel + Off);
    return 0.0f;
  default:
    return 0.0f;
  }
}

/// Texel index \p I of a dimension of \p N texels under address mode \p M;
/// -1 for the border.
__device__ inline int addressIndex(int I, int N, unsigned M, bool Normalized) {
  if (!Normalized && (M == cudaAddressModeWrap || M == cudaAddressModeMirror))
    M = cudaAddressModeClamp;
  switch (M) {
  case cudaAddressModeWrap:
    I %= N;
    return I < 0 ? I + N : I;
  case cudaAddressModeMirror: {
    int P = 2 * N;
    I %= P;
    if (I < 0)
      I += P;
    return I < N ? I : P - 1 - I;
  }
  case cudaAddressModeBorder:
    return I < 0 || I >= N ? -1 : I;
  default:
    return I < 0 ? 0 : I >= N ? N - 1 : I;
  }
}

/// Where linear filtering (or point filtering, \p Linear false) starts in
/// one dimension: first texel index \p I0 and weight \p A of the next.
__device__ inline void position(float U, int N, bool Normalized, bool Linear,
                                int &I0, float &A) {
  if (Normalized)
    U *= (float)N;
  if (Linear)
    U -= 0.5f;
  U = fminf(fmaxf(U, -1.0e9f), 1.0e9f); // NaN and huge values: clamped
  float F = floorf(U);
  I0 = (int)F;
  // 9-bit fixed point, 8 fractional bits.
  A = Linear ? rintf((U - F) * 256.0f) * (1.0f / 256.0f) : 0.0f;
}

__device__ inline const char *texelAt(const hetgpu_texture_object *D,
                                      const int *Idx, int Layer) {
  return (const char *)D->base + (unsigned long long)Layer * D->layer_pitch +
         (unsigned long long)Idx[2] * D->slice_pitch +
         (unsigned long long)Idx[1] * D->pitch +
         (unsigned long long)Idx[0] * D->element;
}

__device__ inline int clampLayer(const hetgpu_texture_object *D, int Layer) {
  if (!D->layers)
    return 0;
  return Layer < 0 ? 0 : Layer >= (int)D->layers ? (int)D->layers - 1 : Layer;
}

/// Samples \p Dims coordinates of \p D as floats into \p Out (4 channels).
__device__ inline void sampleFloat(const hetgpu_texture_object *D, int Dims,
                                   const float *U, int Layer, float *Out) {
  const int N[3] = {(int)D->width, (int)D->height, (int)D->depth};
  bool Linear = D->filter == cudaFilterModeLinear, Norm = D->normalized;
  int I0[3] = {0, 0, 0};
  float A[3] = {0, 0, 0};
  for (int K = 0; K < Dims; ++K)
    position(U[K], N[K], Norm, Linear, I0[K], A[K]);
  Layer = clampLayer(D, Layer);
  for (int C = 0; C < 4; ++C)
    Out[C] = 0.0f;
  int Corners = Linear ? 1 << Dims : 1;
  for (int Corner = 0; Corner < Corners; ++Corner) {
    float W = 1.0f;
    int Idx[3] = {0, 0, 0};
    bool Border = false;
    for (int K = 0; K < Dims; ++K) {
      int Bit = (Corner >> K) & 1;
      W *= Bit ? A[K] : 1.0f - A[K];
      Idx[K] = addressIndex(I0[K] + Bit, N[K], D->address[K], Norm);
      Border |= Idx[K] < 0;
    }
    if (W == 0.0f)
      continue;
    if (Border) {
      for (int C = 0; C < 4; ++C)
        Out[C] += W * D->border[C];
      continue;
    }
    const char *Texel = texelAt(D, Idx, Layer);
    for (int C = 0; C < 4; ++C)
      if (D->bits[C])
        Out[C] += W * normalizedChannel(D, Texel, C);
  }
}

/// The texel of \p D at \p Dims coordinates as stored (point filtering).
template <typename T>
__device__ inline T sampleElement(const hetgpu_texture_object *D, int Dims,
                                  const float *U, int Layer) {
  using Ch = channels<T>;
  const int N[3] = {(int)D->width, (int)D->height, (int)D->depth};
  int Idx[3] = {0, 0, 0};
  bool Border = false;
  for (int K = 0; K < Dims; ++K) {
    float A;
    position(U[K], N[K], D->normalized, false, Idx[K], A);
    Idx[K] = addressIndex(Idx[K], N[K], D->address[K], D->normalized);
    Border |= Idx[K] < 0;
  }
  T R;
  __builtin_memset(&R, 0, sizeof(T));
  if (Border) {
    typename Ch::scalar *Out = (typename Ch::scalar *)&R;
    for (int C = 0; C < Ch::n; ++C)
      Out[C] = (typename Ch::scalar)D->border[C];
    return R;
  }
  const char *Texel = texelAt(D, Idx, clampLayer(D, Layer));
  __builtin_memcpy(&R, Texel, sizeof(T) < D->element ? sizeof(T) : D->element);
  return R;
}

/// Channel \p C of the texel at \p Idx (border: the border colour) as the
/// scalar \p S of a gather result.
template <typename S>
__device__ inline S gatherChannel(const hetgpu_texture_object *D,
                                  const int *Idx, int C) {
  if (Idx[0] < 0 || Idx[1] < 0)
    return (S)D->border[C];
  const char *Texel = texelAt(D, Idx, 0);
  if constexpr (__is_same(S, float))
    return D->bits[C] ? normalizedChannel(D, Texel, C) : 0.0f;
  int Off = 0;
  for (int I = 0; I < C; ++I)
    Off += D->bits[I] / 8;
  S R = 0;
  if (D->bits[C])
    __builtin_memcpy(&R, Texel + Off, sizeof(S) < D->bits[C] / 8 ? sizeof(S)
                                                                  : D->bits[C] / 8);
  return R;
}

template <typename T>
__device__ inline T sample(cudaTextureObject_t Obj, int Dims, float X, float Y,
                           float Z, int Layer) {
  const hetgpu_texture_object *D = (const hetgpu_texture_object *)Obj;
  const float U[3] = {X, Y, Z};
  using Ch = channels<T>;
  if constexpr (__is_same(typename Ch::scalar, float)) {
    T R;
    __builtin_memset(&R, 0, sizeof(T));
    if (!D)
      return R;
    float F[4];
    sampleFloat(D, Dims, U, Layer, F);
    __builtin_memcpy(&R, F, sizeof(T));
    return R;
  } else {
    if (!D) {
      T R;
      __builtin_memset(&R, 0, sizeof(T));
      return R;
    }
    return sampleElement<T>(D, Dims, U, Layer);
  }
}
} // namespace __hg_tex

template <typename T>
__device__ inline T tex1D(cudaTextureObject_t Obj, float X) {
  return __hg_tex::sample<T>(Obj, 1, X, 0, 0, 0);
}
template <typename T>
__device__ inline void tex1D(T *Ret, cudaTextureObject_t Obj, float X) {
  *Ret = tex1D<T>(Obj, X);
}

template <typename T>
__device__ inline T tex2D(cudaTextureObject_t Obj, float X, float Y) {
  return __hg_tex::sample<T>(Obj, 2, X, Y, 0, 0);
}
template <typename T>
__device__ inline void tex2D(T *Ret, cudaTextureObject_t Obj, float X,
                             float Y) {
  *Ret = tex2D<T>(Obj, X, Y);
}

template <typename T>
__device__ inline T tex3D(cudaTextureObject_t Obj, float X, float Y, float Z) {
  return __hg_tex::sample<T>(Obj, 3, X, Y, Z, 0);
}
template <typename T>
__device__ inline void tex3D(T *Ret, cudaTextureObject_t Obj, float X, float Y,
                             float Z) {
  *Ret = tex3D<T>(Obj, X, Y, Z);
}

template <typename T>
__device__ inline T tex1DLayered(cudaTextureObject_t Obj, float X, int Layer) {
  return __hg_tex::sample<T>(Obj, 1, X, 0, 0, Layer);
}
template <typename T>
__device__ inline void tex1DLayered(T *Ret, cudaTextureObject_t Obj, float X,
                                    int Layer) {
  *Ret = tex1DLayered<T>(Obj, X, Layer);
}

template <typename T>
__device__ inline T tex2DLayered(cudaTextureObject_t Obj, float X, float Y,
                                 int Layer) {
  return __hg_tex::sample<T>(Obj, 2, X, Y, 0, Layer);
}
template <typename T>
__device__ inline void tex2DLayered(T *Ret, cudaTextureObject_t Obj, float X,
                                    float Y, int Layer) {
  *Ret = tex2DLayered<T>(Obj, X, Y, Layer);
}

/// Channel \p Comp of the four texels bilinear filtering at (x, y) would
/// blend, in PTX tld4's order (counter-clockwise from the lower left):
/// (i, j+1), (i+1, j+1), (i+1, j), (i, j). T is a 4-vector.
template <typename T>
__device__ inline T tex2Dgather(cudaTextureObject_t Obj, float X, float Y,
                                int Comp = 0) {
  using S = typename __hg_tex::channels<T>::scalar;
  const hetgpu_texture_object *D = (const hetgpu_texture_object *)Obj;
  T R;
  __builtin_memset(&R, 0, sizeof(T));
  if (!D || Comp < 0 || Comp > 3)
    return R;
  const float U[2] = {X, Y};
  const int N[2] = {(int)D->width, (int)D->height};
  int I0[2];
  for (int K = 0; K < 2; ++K) {
    float A;
    __hg_tex::position(U[K], N[K], D->normalized, true, I0[K], A);
  }
  const int Corner[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
  S *Out = (S *)&R;
  for (int C = 0; C < 4; ++C) {
    int Idx[3] = {0, 0, 0};
    for (int K = 0; K < 2; ++K)
      Idx[K] = __hg_tex::addressIndex(I0[K] + Corner[C][K], N[K],
                                      D->address[K], D->normalized);
    Out[C] = __hg_tex::gatherChannel<S>(D, Idx, Comp);
  }
  return R;
}
template <typename T>
__device__ inline void tex2Dgather(T *Ret, cudaTextureObject_t Obj, float X,
                                   float Y, int Comp = 0) {
  *Ret = tex2Dgather<T>(Obj, X, Y, Comp);
}

// No mipmaps: every level of detail and gradient reads level 0.
template <typename T>
__device__ inline T tex1DLod(cudaTextureObject_t Obj, float X, float) {
  return tex1D<T>(Obj, X);
}
template <typename T>
__device__ inline T tex2DLod(cudaTextureObject_t Obj, float X, float Y,
                             float) {
  return tex2D<T>(Obj, X, Y);
}
template <typename T>
__device__ inline T tex3DLod(cudaTextureObject_t Obj, float X, float Y,
                             float Z, float) {
  return tex3D<T>(Obj, X, Y, Z);
}
template <typename T>
__device__ inline T tex2DLayeredLod(cudaTextureObject_t Obj, float X, float Y,
                                    int Layer, float) {
  return tex2DLayered<T>(Obj, X, Y, Layer);
}
template <typename T>
__device__ inline T tex2DGrad(cudaTextureObject_t Obj, float X, float Y,
                              float2, float2) {
  return tex2D<T>(Obj, X, Y);
}

#endif // __CUDA__ && __cplusplus

#endif // HETGPU_CUDA_TEXTURE_SAMPLE_H
