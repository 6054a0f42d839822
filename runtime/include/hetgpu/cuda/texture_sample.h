//===- hetgpu/cuda/texture_sample.h - Software texture sampling -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// tex1D, tex2D, tex3D, tex1DLayered, tex2DLayered, tex2Dgather, the
/// Lod/Grad forms and texCubemap(Layered)(Lod/Grad) on texture objects,
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
///  * results: float (and float2/float4) results are the element's floats
///    (half-float channels converted) or, with cudaReadModeNormalizedFloat,
///    8/16-bit integers scaled to [0, 1] (unsigned) or [-1, 1] (signed);
///    integer results are the texel as stored (point filtering; border
///    texels are the border colour converted);
///  * mipmaps: the level of detail is the *Lod argument (0 for the forms
///    without one) or, for *Grad, log2 of the longer derivative vector in
///    texels of level 0 plus mipmapLevelBias; it is clamped to
///    [minMipmapLevelClamp, maxMipmapLevelClamp] and to the levels there
///    are. Point mipmap filtering reads level floor(lod + 0.5); linear
///    blends levels floor(lod) and floor(lod) + 1 with the fraction rounded
///    to 8 fractional bits, as the texel weights. Normalised coordinates
///    address every level alike; unnormalised ones address the texels of
///    the level read;
///  * cubemaps: the face and its coordinates as the programming guide's
///    cubemap table gives them (cubeFace), then 2D sampling of the face with
///    normalised coordinates clamped to its edges (no filtering across
///    faces, no seamless mode); texCubemapGrad's gradients are those of the
///    face coordinates (cubeGradientLod).
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

/// A half-precision number's bits \p H as a float.
__device__ inline float halfToFloat(unsigned short H) {
  unsigned Sign = (unsigned)(H >> 15) << 31, E = (H >> 10) & 31, M = H & 1023;
  if (E == 0) { // zero and subnormals: M * 2^-24, exact in float
    float V = (float)M * 5.9604644775390625e-8f;
    return Sign ? -V : V;
  }
  unsigned Bits = Sign | (E == 31 ? 0x7f800000u | (M << 13)
                                  : ((E + 112u) << 23) | (M << 13));
  float V;
  __builtin_memcpy(&V, &Bits, sizeof V);
  return V;
}

/// Channel \p C of \p Texel as a float: a float channel as it is (a 16-bit
/// one converted from half precision), an 8- or 16-bit integer channel
/// normalised.
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
    if (D->kind == cudaChannelFormatKindFloat)
      return halfToFloat(*(const unsigned short *)(Texel + Off));
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

/// One mipmap level of a texture (level 0 of one without mipmaps) and how
/// it is addressed: a cubemap face is addressed with normalised
/// coordinates, clamped.
struct view {
  const char *base;
  int n[3];
  unsigned long long pitch, slice, layer;
  bool norm;
  unsigned address[3];
};

__device__ inline view levelView(const hetgpu_texture_object *D, int L,
                                 bool Face) {
  view V;
  if (D->levels > 1) {
    const hetgpu_texture_level &G = D->level[L];
    V.base = (const char *)G.base;
    V.n[0] = (int)G.width;
    V.n[1] = (int)G.height;
    V.n[2] = (int)G.depth;
    V.pitch = G.pitch;
    V.slice = G.slice_pitch;
    V.layer = G.layer_pitch;
  } else {
    V.base = (const char *)D->base;
    V.n[0] = (int)D->width;
    V.n[1] = (int)D->height;
    V.n[2] = (int)D->depth;
    V.pitch = D->pitch;
    V.slice = D->slice_pitch;
    V.layer = D->layer_pitch;
  }
  V.norm = Face || D->normalized;
  for (int K = 0; K < 3; ++K)
    V.address[K] = Face ? (unsigned)cudaAddressModeClamp : D->address[K];
  return V;
}

__device__ inline const char *texelAt(const hetgpu_texture_object *D,
                                      const view &V, const int *Idx,
                                      int Layer) {
  return V.base + (unsigned long long)Layer * V.layer +
         (unsigned long long)Idx[2] * V.slice +
         (unsigned long long)Idx[1] * V.pitch +
         (unsigned long long)Idx[0] * D->element;
}

__device__ inline int clampLayer(const hetgpu_texture_object *D, int Layer) {
  if (!D->layers)
    return 0;
  return Layer < 0 ? 0 : Layer >= (int)D->layers ? (int)D->layers - 1 : Layer;
}

/// Samples \p Dims coordinates of level \p V of \p D as floats into \p Out
/// (4 channels).
__device__ inline void sampleFloat(const hetgpu_texture_object *D,
                                   const view &V, int Dims, const float *U,
                                   int Layer, float *Out) {
  bool Linear = D->filter == cudaFilterModeLinear;
  int I0[3] = {0, 0, 0};
  float A[3] = {0, 0, 0};
  for (int K = 0; K < Dims; ++K)
    position(U[K], V.n[K], V.norm, Linear, I0[K], A[K]);
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
      Idx[K] = addressIndex(I0[K] + Bit, V.n[K], V.address[K], V.norm);
      Border |= Idx[K] < 0;
    }
    if (W == 0.0f)
      continue;
    if (Border) {
      for (int C = 0; C < 4; ++C)
        Out[C] += W * D->border[C];
      continue;
    }
    const char *Texel = texelAt(D, V, Idx, Layer);
    for (int C = 0; C < 4; ++C)
      if (D->bits[C])
        Out[C] += W * normalizedChannel(D, Texel, C);
  }
}

/// The texel of level \p V of \p D at \p Dims coordinates as stored (point
/// filtering).
template <typename T>
__device__ inline T sampleElement(const hetgpu_texture_object *D, const view &V,
                                  int Dims, const float *U, int Layer) {
  using Ch = channels<T>;
  int Idx[3] = {0, 0, 0};
  bool Border = false;
  for (int K = 0; K < Dims; ++K) {
    float A;
    position(U[K], V.n[K], V.norm, false, Idx[K], A);
    Idx[K] = addressIndex(Idx[K], V.n[K], V.address[K], V.norm);
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
  const char *Texel = texelAt(D, V, Idx, clampLayer(D, Layer));
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
  const char *Texel = texelAt(D, levelView(D, 0, false), Idx, 0);
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

//===-- Levels of detail --------------------------------------------------===//

/// The level of detail a gradient selects (before the clamps): log2 of the
/// longer of the two derivative vectors in texels of level 0 (normalised
/// coordinates scaled by level 0's extent), plus mipmapLevelBias.
__device__ inline float gradientLod(const hetgpu_texture_object *D, int Dims,
                                    const float *DX, const float *DY) {
  const float N[3] = {(float)D->width, (float)D->height, (float)D->depth};
  float SX = 0.0f, SY = 0.0f;
  for (int K = 0; K < Dims; ++K) {
    float Scale = D->normalized ? N[K] : 1.0f;
    float A = DX[K] * Scale, B = DY[K] * Scale;
    SX += A * A;
    SY += B * B;
  }
  return 0.5f * log2f(fmaxf(SX, SY)) + D->lod_bias;
}

/// \p Lod clamped to [minMipmapLevelClamp, maxMipmapLevelClamp] and to the
/// levels there are (NaN: the lowest).
__device__ inline float clampLod(const hetgpu_texture_object *D, float Lod) {
  Lod = fminf(fmaxf(Lod, D->min_lod), D->max_lod);
  return fminf(fmaxf(Lod, 0.0f), (float)(D->levels - 1));
}

/// The level point mipmap filtering reads: the nearest, halves rounded up.
__device__ inline int nearestLevel(const hetgpu_texture_object *D, float Lod) {
  if (D->levels <= 1)
    return 0;
  return (int)floorf(clampLod(D, Lod) + 0.5f);
}

/// Samples \p D at level of detail \p Lod as floats: one level with point
/// mipmap filtering (or no mipmaps), else the two levels around it blended
/// with the fraction rounded to 8 fractional bits like the texel weights.
__device__ inline void sampleLod(const hetgpu_texture_object *D, int Dims,
                                 const float *U, int Layer, bool Face,
                                 float Lod, float *Out) {
  if (D->levels <= 1 || D->mipmap_filter != cudaFilterModeLinear) {
    sampleFloat(D, levelView(D, nearestLevel(D, Lod), Face), Dims, U, Layer,
                Out);
    return;
  }
  Lod = clampLod(D, Lod);
  float F = floorf(Lod);
  int L0 = (int)F;
  float W = rintf((Lod - F) * 256.0f) * (1.0f / 256.0f);
  sampleFloat(D, levelView(D, L0, Face), Dims, U, Layer, Out);
  if (W == 0.0f || L0 + 1 >= (int)D->levels)
    return;
  float Hi[4];
  sampleFloat(D, levelView(D, L0 + 1, Face), Dims, U, Layer, Hi);
  for (int C = 0; C < 4; ++C)
    Out[C] = (1.0f - W) * Out[C] + W * Hi[C];
}

template <typename T>
__device__ inline T sampleAt(const hetgpu_texture_object *D, int Dims,
                             const float *U, int Layer, bool Face, float Lod) {
  using Ch = channels<T>;
  T R;
  __builtin_memset(&R, 0, sizeof(T));
  if (!D)
    return R;
  if constexpr (__is_same(typename Ch::scalar, float)) {
    float F[4];
    sampleLod(D, Dims, U, Layer, Face, Lod, F);
    __builtin_memcpy(&R, F, sizeof(T));
    return R;
  } else {
    return sampleElement<T>(D, levelView(D, nearestLevel(D, Lod), Face), Dims,
                            U, Layer);
  }
}

template <typename T>
__device__ inline T sample(cudaTextureObject_t Obj, int Dims, float X, float Y,
                           float Z, int Layer, float Lod = 0.0f) {
  const float U[3] = {X, Y, Z};
  return sampleAt<T>((const hetgpu_texture_object *)Obj, Dims, U, Layer, false,
                     Lod);
}

template <typename T>
__device__ inline T sampleGrad(cudaTextureObject_t Obj, int Dims, float X,
                               float Y, float Z, int Layer, const float *DX,
                               const float *DY) {
  const hetgpu_texture_object *D = (const hetgpu_texture_object *)Obj;
  const float U[3] = {X, Y, Z};
  float Lod = D && D->levels > 1 ? gradientLod(D, Dims, DX, DY) : 0.0f;
  return sampleAt<T>(D, Dims, U, Layer, false, Lod);
}

//===-- Cubemaps ----------------------------------------------------------===//

/// The face direction (x, y, z) points at and the face coordinates s, t in
/// [0, 1], from the CUDA programming guide's cubemap table: the major axis
/// is the coordinate of largest magnitude (ties: x before y before z), sc
/// and tc the two others signed per face, s = (sc / |ma| + 1) / 2 and
/// t = (tc / |ma| + 1) / 2.
__device__ inline int cubeFace(float X, float Y, float Z, float &S, float &T) {
  float AX = fabsf(X), AY = fabsf(Y), AZ = fabsf(Z), SC, TC, MA;
  int F;
  if (AX >= AY && AX >= AZ) {
    MA = AX;
    F = X >= 0.0f ? 0 : 1;
    SC = X >= 0.0f ? -Z : Z;
    TC = -Y;
  } else if (AY >= AZ) {
    MA = AY;
    F = Y >= 0.0f ? 2 : 3;
    SC = X;
    TC = Y >= 0.0f ? Z : -Z;
  } else {
    MA = AZ;
    F = Z >= 0.0f ? 4 : 5;
    SC = Z >= 0.0f ? X : -X;
    TC = -Y;
  }
  S = (SC / MA + 1.0f) * 0.5f;
  T = (TC / MA + 1.0f) * 0.5f;
  return F;
}

/// Cube \p Cube (of a layered cubemap; clamped) of \p Obj towards (x, y, z):
/// its face sampled in 2D with normalised coordinates, clamped to the edge
/// (no filtering across faces).
template <typename T>
__device__ inline T sampleCube(cudaTextureObject_t Obj, float X, float Y,
                               float Z, int Cube, float Lod) {
  const hetgpu_texture_object *D = (const hetgpu_texture_object *)Obj;
  float U[3] = {0, 0, 0};
  int F = cubeFace(X, Y, Z, U[0], U[1]);
  int Cubes = D && D->layers >= 6 ? (int)D->layers / 6 : 1;
  Cube = Cube < 0 ? 0 : Cube >= Cubes ? Cubes - 1 : Cube;
  return sampleAt<T>(D, 2, U, 6 * Cube + F, true, Lod);
}

/// The level of detail of a cubemap read towards \p P with derivatives
/// \p DX, \p DY of the direction: as gradientLod, the derivatives being
/// those of the face coordinates (s, t) (quotient rule on sc / |ma|, the
/// face of \p P held fixed) in texels of level 0's faces.
__device__ inline float cubeGradientLod(const hetgpu_texture_object *D,
                                        const float *P, const float *DX,
                                        const float *DY) {
  // Per face: the axes of sc and tc and their signs (cubeFace's table).
  const int Axis[6][2] = {{2, 1}, {2, 1}, {0, 2}, {0, 2}, {0, 1}, {0, 1}};
  const float Sign[6][2] = {{-1, -1}, {1, -1}, {1, 1},
                            {1, -1},  {1, -1}, {-1, -1}};
  float S, T;
  int F = cubeFace(P[0], P[1], P[2], S, T);
  float M = P[F / 2], MA = fabsf(M), W = (float)D->width;
  float Len[2];
  const float *G[2] = {DX, DY};
  for (int K = 0; K < 2; ++K) {
    float DMA = (M >= 0.0f ? 1.0f : -1.0f) * G[K][F / 2], Sq = 0.0f;
    for (int C = 0; C < 2; ++C) {
      int A = Axis[F][C];
      float D1 = 0.5f * Sign[F][C] * (G[K][A] * MA - P[A] * DMA) / (MA * MA);
      Sq += D1 * W * D1 * W;
    }
    Len[K] = Sq;
  }
  return 0.5f * log2f(fmaxf(Len[0], Len[1])) + D->lod_bias;
}

template <typename T>
__device__ inline T sampleCubeGrad(cudaTextureObject_t Obj, float X, float Y,
                                   float Z, int Cube, float4 DX, float4 DY) {
  const hetgpu_texture_object *D = (const hetgpu_texture_object *)Obj;
  const float P[3] = {X, Y, Z}, GX[3] = {DX.x, DX.y, DX.z},
              GY[3] = {DY.x, DY.y, DY.z};
  float Lod = D && D->levels > 1 ? cubeGradientLod(D, P, GX, GY) : 0.0f;
  return sampleCube<T>(Obj, X, Y, Z, Cube, Lod);
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

// Levels of detail and gradients (level 0 of a texture without mipmaps),
// cubemaps. Each has the pointer form of CUDA's headers too.
#define __HG_TEX_PTR_FORM(Name)                                                \
  template <typename T, typename... A>                                         \
  __device__ inline void Name(T *Ret, cudaTextureObject_t Obj, A... Args) {    \
    *Ret = Name<T>(Obj, Args...);                                              \
  }

template <typename T>
__device__ inline T tex1DLod(cudaTextureObject_t Obj, float X, float Level) {
  return __hg_tex::sample<T>(Obj, 1, X, 0, 0, 0, Level);
}
__HG_TEX_PTR_FORM(tex1DLod)
template <typename T>
__device__ inline T tex2DLod(cudaTextureObject_t Obj, float X, float Y,
                             float Level) {
  return __hg_tex::sample<T>(Obj, 2, X, Y, 0, 0, Level);
}
__HG_TEX_PTR_FORM(tex2DLod)
template <typename T>
__device__ inline T tex3DLod(cudaTextureObject_t Obj, float X, float Y, float Z,
                             float Level) {
  return __hg_tex::sample<T>(Obj, 3, X, Y, Z, 0, Level);
}
__HG_TEX_PTR_FORM(tex3DLod)
template <typename T>
__device__ inline T tex1DLayeredLod(cudaTextureObject_t Obj, float X, int Layer,
                                    float Level) {
  return __hg_tex::sample<T>(Obj, 1, X, 0, 0, Layer, Level);
}
__HG_TEX_PTR_FORM(tex1DLayeredLod)
template <typename T>
__device__ inline T tex2DLayeredLod(cudaTextureObject_t Obj, float X, float Y,
                                    int Layer, float Level) {
  return __hg_tex::sample<T>(Obj, 2, X, Y, 0, Layer, Level);
}
__HG_TEX_PTR_FORM(tex2DLayeredLod)

template <typename T>
__device__ inline T tex1DGrad(cudaTextureObject_t Obj, float X, float DX,
                              float DY) {
  return __hg_tex::sampleGrad<T>(Obj, 1, X, 0, 0, 0, &DX, &DY);
}
__HG_TEX_PTR_FORM(tex1DGrad)
template <typename T>
__device__ inline T tex2DGrad(cudaTextureObject_t Obj, float X, float Y,
                              float2 DX, float2 DY) {
  const float GX[2] = {DX.x, DX.y}, GY[2] = {DY.x, DY.y};
  return __hg_tex::sampleGrad<T>(Obj, 2, X, Y, 0, 0, GX, GY);
}
__HG_TEX_PTR_FORM(tex2DGrad)
template <typename T>
__device__ inline T tex3DGrad(cudaTextureObject_t Obj, float X, float Y,
                              float Z, float4 DX, float4 DY) {
  const float GX[3] = {DX.x, DX.y, DX.z}, GY[3] = {DY.x, DY.y, DY.z};
  return __hg_tex::sampleGrad<T>(Obj, 3, X, Y, Z, 0, GX, GY);
}
__HG_TEX_PTR_FORM(tex3DGrad)
template <typename T>
__device__ inline T tex1DLayeredGrad(cudaTextureObject_t Obj, float X,
                                     int Layer, float DX, float DY) {
  return __hg_tex::sampleGrad<T>(Obj, 1, X, 0, 0, Layer, &DX, &DY);
}
__HG_TEX_PTR_FORM(tex1DLayeredGrad)
template <typename T>
__device__ inline T tex2DLayeredGrad(cudaTextureObject_t Obj, float X, float Y,
                                     int Layer, float2 DX, float2 DY) {
  const float GX[2] = {DX.x, DX.y}, GY[2] = {DY.x, DY.y};
  return __hg_tex::sampleGrad<T>(Obj, 2, X, Y, 0, Layer, GX, GY);
}
__HG_TEX_PTR_FORM(tex2DLayeredGrad)

template <typename T>
__device__ inline T texCubemap(cudaTextureObject_t Obj, float X, float Y,
                               float Z) {
  return __hg_tex::sampleCube<T>(Obj, X, Y, Z, 0, 0.0f);
}
__HG_TEX_PTR_FORM(texCubemap)
template <typename T>
__device__ inline T texCubemapLayered(cudaTextureObject_t Obj, float X, float Y,
                                      float Z, int Layer) {
  return __hg_tex::sampleCube<T>(Obj, X, Y, Z, Layer, 0.0f);
}
__HG_TEX_PTR_FORM(texCubemapLayered)
template <typename T>
__device__ inline T texCubemapLod(cudaTextureObject_t Obj, float X, float Y,
                                  float Z, float Level) {
  return __hg_tex::sampleCube<T>(Obj, X, Y, Z, 0, Level);
}
__HG_TEX_PTR_FORM(texCubemapLod)
template <typename T>
__device__ inline T texCubemapLayeredLod(cudaTextureObject_t Obj, float X,
                                         float Y, float Z, int Layer,
                                         float Level) {
  return __hg_tex::sampleCube<T>(Obj, X, Y, Z, Layer, Level);
}
__HG_TEX_PTR_FORM(texCubemapLayeredLod)

template <typename T>
__device__ inline T texCubemapGrad(cudaTextureObject_t Obj, float X, float Y,
                                   float Z, float4 DX, float4 DY) {
  return __hg_tex::sampleCubeGrad<T>(Obj, X, Y, Z, 0, DX, DY);
}
__HG_TEX_PTR_FORM(texCubemapGrad)
template <typename T>
__device__ inline T texCubemapLayeredGrad(cudaTextureObject_t Obj, float X,
                                          float Y, float Z, int Layer,
                                          float4 DX, float4 DY) {
  return __hg_tex::sampleCubeGrad<T>(Obj, X, Y, Z, Layer, DX, DY);
}
__HG_TEX_PTR_FORM(texCubemapLayeredGrad)

#undef __HG_TEX_PTR_FORM

#endif // __CUDA__ && __cplusplus

#endif // HETGPU_CUDA_TEXTURE_SAMPLE_H
