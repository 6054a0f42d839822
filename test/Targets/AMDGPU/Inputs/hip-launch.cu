#include <cstdio>
__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }
__global__ void do_trap() { __trap(); }
int main() {
  int *d = nullptr;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("device: %s warpSize %d\n", prop.name, prop.warpSize);
  std::printf("malloc: %s\n", cudaGetErrorName(cudaMalloc(&d, 64 * sizeof(int))));
  fill<<<2, 64>>>(d, 42);
  std::printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::fflush(stdout);
  std::printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  std::fflush(stdout);
  do_trap<<<1, 1>>>();
  std::printf("trap sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
