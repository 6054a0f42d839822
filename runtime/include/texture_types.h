/*===- texture_types.h - CUDA texture object types (hetGPU) ---------------===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * CUDA's texture and resource descriptor types (cudaTextureObject_t,
 * cudaResourceDesc, cudaTextureDesc, cudaChannelFormatDesc, ...), with CUDA
 * 12's field names. What hetGPU implements of them: docs/Compatibility.md
 * (texture objects over linear memory, pitched 2D memory, CUDA arrays and
 * mipmapped arrays).
 *
\*===----------------------------------------------------------------------===*/
#ifndef HETGPU_TEXTURE_TYPES_H
#define HETGPU_TEXTURE_TYPES_H
#define __TEXTURE_TYPES_H__

#include <driver_types.h>  /* cudaArray_t (runtime/lib/API/Arrays.cpp) */
#include <stddef.h>
#include <surface_types.h> /* cudaSurfaceObject_t */

typedef unsigned long long cudaTextureObject_t;

/* Mipmapped arrays: runtime/lib/API/MipmappedArrays.cpp. */
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
typedef const struct cudaMipmappedArray *cudaMipmappedArray_const_t;

enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3,
};

struct cudaChannelFormatDesc {
  int x, y, z, w; /* bits per channel */
  enum cudaChannelFormatKind f;
};

enum cudaResourceType {
  cudaResourceTypeArray = 0x00,
  cudaResourceTypeMipmappedArray = 0x01,
  cudaResourceTypeLinear = 0x02,
  cudaResourceTypePitch2D = 0x03,
};

struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      cudaMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t width;
      size_t height;
      size_t pitchInBytes;
    } pitch2D;
  } res;
};

enum cudaResourceViewFormat { cudaResViewFormatNone = 0x00 };

struct cudaResourceViewDesc {
  enum cudaResourceViewFormat format;
  size_t width, height, depth;
  unsigned int firstMipmapLevel, lastMipmapLevel, firstLayer, lastLayer;
};

enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3,
};

enum cudaTextureFilterMode {
  cudaFilterModePoint = 0,
  cudaFilterModeLinear = 1,
};

enum cudaTextureReadMode {
  cudaReadModeElementType = 0,
  cudaReadModeNormalizedFloat = 1,
};

struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};

#endif /* HETGPU_TEXTURE_TYPES_H */
