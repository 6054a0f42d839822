// bench/linking/stage.cu - the producer component of the linking benchmark:
// copies one tile of the input into a shared-memory stage buffer.
// SPDX-License-Identifier: Apache-2.0
#include "pipeline.h"

HETGPU_EXPORT_FACT(TILE, TILE);
HETGPU_EXPORT_FACT(STAGES, STAGES);

__device__ void load_tile(float *buf, const float *in, long tile) {
  const float *src = in + tile * TILE;
  for (int i = threadIdx.x; i < TILE; i += blockDim.x)
    buf[i] = src[i];
}
