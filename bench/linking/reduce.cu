// bench/linking/reduce.cu - the reduction component of the linking
// benchmark: a block-wide sum by full-mask warp shuffles and a shared
// scratch of one value per warp (it executes __syncthreads()).
// SPDX-License-Identifier: Apache-2.0
#include "pipeline.h"

__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

__device__ float block_sum(float v, float *scratch) {
  v = warp_sum(v);
  if (threadIdx.x % 32 == 0)
    scratch[threadIdx.x / 32] = v;
  __syncthreads();
  float s = 0;
  if (threadIdx.x < 32) {
    s = threadIdx.x < blockDim.x / 32 ? scratch[threadIdx.x] : 0.0f;
    s = warp_sum(s);
  }
  __syncthreads();
  return s;
}
