/*===- hetgpu/cuda/texture_object.h - What a texture object points to -----===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * A cudaTextureObject_t made by hetGPU's cudaCreateTextureObject is the
 * device address of this descriptor, which the runtime writes into device
 * memory (so it moves with the rest of device memory when a program
 * migrates). tex1Dfetch (texture_fetch_functions.h) and tex1D/2D/3D and the
 * layered forms (hetgpu/cuda/texture_sample.h) read it. Shared by the
 * runtime (runtime/lib/API/Textures.cpp) and the device-side headers.
 *
 * A cudaSurfaceObject_t is the same descriptor (magic HETGPU_SURFACE_MAGIC,
 * no sampling state) read and written by hetgpu/cuda/surface_functions.h.
 *
 * Texel (x, y, z) of layer l is at base + l * layer_pitch + z * slice_pitch
 * + y * pitch + x * element. Linear resources have width = size / element,
 * height = depth = 1. A cubemap (cubemap != 0) keeps its faces as layers,
 * face f of cube c being layer 6 * c + f.
 *
 * A texture over a mipmapped array has levels > 1 and level[i] the geometry
 * of level i (level[0] repeats base, width, ... above); the sampling state
 * of mipmaps (filter, bias, clamps) is kept for every texture.
 *
\*===----------------------------------------------------------------------===*/
#ifndef HETGPU_CUDA_TEXTURE_OBJECT_H
#define HETGPU_CUDA_TEXTURE_OBJECT_H

#include <stdint.h>

#define HETGPU_TEXTURE_MAGIC 0x58455448u /* "HTEX" */
#define HETGPU_SURFACE_MAGIC 0x46525548u /* "HURF": a surface object */

/* The most mipmap levels: 1 + log2 of CUDA's largest 1D extent (131072). */
#define HETGPU_TEXTURE_MAX_LEVELS 18

/* Where one mipmap level is and its extent, in the terms above. */
typedef struct hetgpu_texture_level {
  uint64_t base;
  uint32_t width, height, depth, reserved;
  uint64_t pitch, slice_pitch, layer_pitch;
} hetgpu_texture_level;

typedef struct hetgpu_texture_object {
  uint32_t magic;       /* HETGPU_TEXTURE_MAGIC */
  uint32_t read_mode;   /* cudaTextureReadMode */
  uint64_t base;        /* device address of element 0 */
  uint64_t size;        /* bytes */
  int32_t bits[4];      /* cudaChannelFormatDesc x, y, z, w */
  uint32_t kind;        /* cudaChannelFormatKind */
  uint32_t element;     /* bytes per element (all channels) */
  uint32_t width;       /* texels */
  uint32_t height;      /* 1 for 1D */
  uint32_t depth;       /* 1 unless 3D */
  uint32_t layers;      /* 0: not layered, else the number of layers */
  uint64_t pitch;       /* bytes per row */
  uint64_t slice_pitch; /* bytes per 2D slice of a 3D resource */
  uint64_t layer_pitch; /* bytes per layer */
  uint32_t address[3];  /* cudaTextureAddressMode of x, y, z */
  uint32_t filter;      /* cudaTextureFilterMode */
  uint32_t normalized;  /* normalised coordinates */
  uint32_t reserved;
  float border[4];      /* border colour (cudaAddressModeBorder) */
  uint32_t cubemap;     /* faces are layers, 6 a cube */
  uint32_t levels;      /* mipmap levels; 0 or 1: none */
  uint32_t mipmap_filter; /* cudaTextureFilterMode between levels */
  float lod_bias;         /* mipmapLevelBias */
  float min_lod;          /* minMipmapLevelClamp */
  float max_lod;          /* maxMipmapLevelClamp */
  hetgpu_texture_level level[HETGPU_TEXTURE_MAX_LEVELS];
} hetgpu_texture_object;

#endif /* HETGPU_CUDA_TEXTURE_OBJECT_H */
