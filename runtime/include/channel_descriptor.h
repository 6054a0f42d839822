//===- channel_descriptor.h - cudaCreateChannelDesc<T>() ---------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The channel format of a texel type, as CUDA's channel_descriptor.h gives
/// it: cudaCreateChannelDesc<float4>() is {32, 32, 32, 32, Float}; and
/// cudaCreateChannelDescHalf/Half1/Half2/Half4 for half-float texels.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_CHANNEL_DESCRIPTOR_H
#define HETGPU_CHANNEL_DESCRIPTOR_H
#define __CHANNEL_DESCRIPTOR_H__

#include <cuda_runtime_api.h>
#include <texture_types.h>
#include <vector_types.h>

#ifdef __cplusplus
namespace __hg_channel {
template <typename S> constexpr cudaChannelFormatKind kind() {
  return __is_floating_point(S) ? cudaChannelFormatKindFloat
         : !__is_integral(S)   ? cudaChannelFormatKindNone
         : __is_signed(S)      ? cudaChannelFormatKindSigned
                               : cudaChannelFormatKindUnsigned;
}
template <typename T> struct info {
  using S = T;
  static constexpr int n = 1;
};
#define __HG_VEC(V, Sc, N)                                                     \
  template <> struct info<V> {                                                 \
    using S = Sc;                                                              \
    static constexpr int n = N;                                                \
  };
#define __HG_VECS(B, Sc)                                                       \
  __HG_VEC(B##1, Sc, 1) __HG_VEC(B##2, Sc, 2) __HG_VEC(B##4, Sc, 4)
__HG_VECS(char, signed char)
__HG_VECS(uchar, unsigned char)
__HG_VECS(short, short)
__HG_VECS(ushort, unsigned short)
__HG_VECS(int, int)
__HG_VECS(uint, unsigned int)
__HG_VECS(float, float)
#undef __HG_VECS
#undef __HG_VEC
} // namespace __hg_channel

template <typename T> static inline cudaChannelFormatDesc cudaCreateChannelDesc() {
  using I = __hg_channel::info<T>;
  int B = static_cast<int>(sizeof(typename I::S) * 8);
  return cudaCreateChannelDesc(B, I::n > 1 ? B : 0, I::n > 2 ? B : 0,
                               I::n > 3 ? B : 0,
                               __hg_channel::kind<typename I::S>());
}

/// Half-float texels (read as floats by the texture functions).
static inline cudaChannelFormatDesc cudaCreateChannelDescHalf() {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat);
}
static inline cudaChannelFormatDesc cudaCreateChannelDescHalf1() {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat);
}
static inline cudaChannelFormatDesc cudaCreateChannelDescHalf2() {
  return cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindFloat);
}
static inline cudaChannelFormatDesc cudaCreateChannelDescHalf4() {
  return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindFloat);
}
#endif

#endif // HETGPU_CHANNEL_DESCRIPTOR_H
