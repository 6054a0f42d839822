// Kernels whose safe points sit inside loop nests (hetgpu-cc puts loop
// safe points on the latches of these block-uniform loops; the resume path
// enters a copy of the loop nest through its headers, so the CFG stays
// reducible; the barriers stay plain barriers), used by the exec-migrate-*
// tests. Integer arithmetic: results are bit-identical on
// every device.
#include <cstdio>

// Barriers two loops deep (the inner trip count is a parameter, so the
// loop nest stays) and static shared memory.
__global__ void nest(const unsigned *in, unsigned *out, int rounds,
                     int inner) {
  __shared__ unsigned tile[128];
  unsigned t = threadIdx.x;
  unsigned v = in[blockIdx.x * 128 + t], w = 0;
  for (int r = 0; r < rounds; ++r) {
    for (int k = 1; k < inner; ++k) {
      tile[t] = v;
      __syncthreads();
      v += tile[(t + k) & 127] * 3u + (unsigned)r;
      w ^= v >> 3;
      __syncthreads();
    }
    v ^= w;
  }
  out[blockIdx.x * 128 + t] = v;
}

// Two barriers per iteration and dynamic shared memory.
__global__ void stencil(unsigned *d, int iters) {
  extern __shared__ unsigned s[];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t, n = blockDim.x;
  unsigned v = d[g];
  for (int i = 0; i < iters; ++i) {
    s[t] = v;
    __syncthreads();
    v = (s[(t + n - 1) % n] + s[(t + 1) % n]) * 2654435761u + v;
    __syncthreads();
  }
  d[g] = v;
}

int main() {
  const int Blocks = 8, N = Blocks * 128;
  unsigned h[N], *a, *b;
  for (int i = 0; i < N; ++i)
    h[i] = i * 2246822519u + 7;
  cudaMalloc(&a, sizeof(h));
  cudaMalloc(&b, sizeof(h));
  cudaMemcpy(a, h, sizeof(h), cudaMemcpyHostToDevice);
  nest<<<Blocks, 128>>>(a, b, 400, 9);
  stencil<<<Blocks, 128, 128 * sizeof(unsigned)>>>(a, 300);
  unsigned long long sa = 0, sb = 0;
  cudaMemcpy(h, b, sizeof(h), cudaMemcpyDeviceToHost);
  for (int i = 0; i < N; ++i)
    sb = sb * 31 + h[i];
  cudaMemcpy(h, a, sizeof(h), cudaMemcpyDeviceToHost);
  for (int i = 0; i < N; ++i)
    sa = sa * 31 + h[i];
  printf("nest %llu\nstencil %llu\n", sb, sa);
  return cudaGetLastError() != cudaSuccess;
}
