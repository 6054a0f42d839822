// multi_b.cu - second file of the multi-file test.
#include "check.h"

static __device__ int hits;

__global__ void hitB(int v) { atomicAdd(&hits, v); }

__global__ void addArrays(const int *a, const int *b, int *c) {
  *c = *a + *b;
}

int launchB(int v) {
  int zero = 0;
  cudaError_t e = cudaMemcpyToSymbol(hits, &zero, sizeof(int));
  if (e)
    return e;
  hitB<<<3, 1>>>(v);
  return cudaDeviceSynchronize();
}

int readHitsB() {
  int h = -1;
  cudaMemcpyFromSymbol(&h, hits, sizeof(int));
  return h;
}
