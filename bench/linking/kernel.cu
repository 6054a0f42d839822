// bench/linking/kernel.cu - the consumer component of the linking
// benchmark: a producer/consumer pipeline over STAGES shared-memory tile
// buffers; each block loads tile t + STAGES - 1 while it consumes tile t,
// then reduces its partial sums with block_sum (reduce.cu).
// SPDX-License-Identifier: Apache-2.0
#include "pipeline.h"

HETGPU_REQUIRE_FACT(TILE, TILE);
HETGPU_REQUIRE_FACT(STAGES, STAGES);

__global__ void __launch_bounds__(THREADS)
    pipeline(const float *in, float *out, int tiles) {
  __shared__ float buf[STAGES][TILE];
  __shared__ float scratch[32];
  long first = (long)blockIdx.x * tiles;
  for (int s = 0; s < STAGES - 1 && s < tiles; ++s)
    load_tile(buf[s], in, first + s);
  float acc = 0;
  for (int t = 0; t < tiles; ++t) {
    __syncthreads(); // tile t is in; buffer (t - 1) % STAGES is consumed
    if (t + STAGES - 1 < tiles)
      load_tile(buf[(t + STAGES - 1) % STAGES], in, first + t + STAGES - 1);
    const float *cur = buf[t % STAGES];
    for (int i = threadIdx.x; i < TILE; i += blockDim.x) {
      float x = cur[i];
      acc += x * x + 0.5f * x;
    }
  }
  float s = block_sum(acc, scratch);
  if (threadIdx.x == 0)
    out[blockIdx.x] = s;
}
