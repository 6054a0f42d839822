// A kernel with a byval struct between two other parameters: a container
// that lies about the struct's size would shift the parameter after it.
#include <cstdio>
struct Pair { int a; double b; };
__global__ void use(Pair p, int *out, int c) { *out = p.a + int(p.b) + c; }
int main() {
  int *d, h = 0;
  cudaMalloc(&d, sizeof(int));
  use<<<1, 1>>>(Pair{40, 2.0}, d, 100);
  cudaError_t E = cudaGetLastError();
  if (E == cudaSuccess)
    E = cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("launch: %s, result %d\n", cudaGetErrorName(E), h);
  return 0;
}
