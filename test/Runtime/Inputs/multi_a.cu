// multi_a.cu - first file of the multi-file test (has main).
#include "check.h"

static __device__ int hits;

__global__ void hitA(int v) { atomicAdd(&hits, v); }

int launchB(int v);   // multi_b.cu
int readHitsB();      // multi_b.cu
__global__ void addArrays(const int *a, const int *b, int *c); // multi_b.cu

int main() {
  int zero = 0;
  CHECK(cudaMemcpyToSymbol(hits, &zero, sizeof(int)));
  hitA<<<1, 3>>>(1);
  CHECK(cudaGetLastError());
  CHECK((cudaError_t)launchB(100));
  int a = 0;
  CHECK(cudaMemcpyFromSymbol(&a, hits, sizeof(int)));
  std::printf("a: %d b: %d\n", a, readHitsB());
  int *d;
  CHECK(cudaMallocManaged(&d, 3 * sizeof(int)));
  d[0] = a;
  d[1] = readHitsB();
  addArrays<<<1, 1>>>(d, d + 1, d + 2);
  CHECK(cudaDeviceSynchronize());
  std::printf("sum %d\n", d[2]);
  CHECK(cudaFree(d));
  std::printf("PASS\n");
  return 0;
}
