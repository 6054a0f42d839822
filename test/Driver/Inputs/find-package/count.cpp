#include <cstdio>
#include <cuda_runtime_api.h>
int main() {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  std::printf("devices %d %s\n", n, cudaGetErrorName(e));
  return 0;
}
