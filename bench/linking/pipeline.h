// bench/linking/pipeline.h - what the components of the linking benchmark
// share: the facts (TILE floats per tile, STAGES buffers in flight, THREADS
// per block) and the device functions each defines.
// SPDX-License-Identifier: Apache-2.0
#ifndef HETGPU_BENCH_LINKING_PIPELINE_H
#define HETGPU_BENCH_LINKING_PIPELINE_H
#include <hetgpu/contract.h>

#ifndef TILE
#define TILE 1024
#endif
#ifndef STAGES
#define STAGES 3
#endif
#define THREADS 256

__device__ void load_tile(float *buf, const float *in, long tile); // stage.cu
__device__ float block_sum(float v, float *scratch);               // reduce.cu
__global__ void pipeline(const float *in, float *out, int tiles);  // kernel.cu
#endif
