/*===- hetgpu/cuda/texture_object.h - What a texture object points to -----===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * A cudaTextureObject_t made by hetGPU's cudaCreateTextureObject is the
 * device address of this descriptor, which the runtime writes into device
 * memory (so it moves with the rest of device memory when a program
 * migrates). tex1Dfetch (texture_fetch_functions.h) reads it. Shared by the
 * runtime (runtime/lib/API/Textures.cpp) and the device-side headers.
 *
\*===----------------------------------------------------------------------===*/
#ifndef HETGPU_CUDA_TEXTURE_OBJECT_H
#define HETGPU_CUDA_TEXTURE_OBJECT_H

#include <stdint.h>

#define HETGPU_TEXTURE_MAGIC 0x58455448u /* "HTEX" */

typedef struct hetgpu_texture_object {
  uint32_t magic;       /* HETGPU_TEXTURE_MAGIC */
  uint32_t read_mode;   /* cudaTextureReadMode */
  uint64_t base;        /* device address of element 0 */
  uint64_t size;        /* bytes */
  int32_t bits[4];      /* cudaChannelFormatDesc x, y, z, w */
  uint32_t kind;        /* cudaChannelFormatKind */
  uint32_t element;     /* bytes per element (all channels) */
} hetgpu_texture_object;

#endif /* HETGPU_CUDA_TEXTURE_OBJECT_H */
