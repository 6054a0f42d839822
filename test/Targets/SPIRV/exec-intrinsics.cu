// Constructs LLVM 22's SPIR-V backend cannot take as they come, lowered by
// hetgpu-lower-spirv: lrintf/llrintf/lroundf to 64 bits (llvm.lrint and
// llvm.lround i64 <- f32 do not legalise), frexp (llvm.frexp crashes the
// instruction selector with a constant operand), and a tiled matrix
// product whose loop the code generator's strength reduction would give an
// i28 induction variable (dropped by the backend: invalid module). Every
// module passes spirv-val; on PoCL the results match the host's.
// RUN: %hetir %s -o %t.bc
// RUN: %spirv_translate --features=+defer-unsupported,+fence-as-atomic,+warp-loop %t.bc -o %t.spv
// RUN: spirv-val %t.spv
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=opencl %t | FileCheck %s
// REQUIRES: spirv-val
// REQUIRES: pocl, llvm-spirv
#include <cmath>
#include <cstdio>

__global__ void rounding(const float *x, long *l, long long *ll, long *r,
                         float *m, int *e, double *md, int *ed) {
  int i = threadIdx.x;
  l[i] = lrintf(x[i]);
  ll[i] = llrintf(x[i] * 3.0e9f);
  r[i] = lroundf(x[i]);
  m[i] = frexpf(x[i], &e[i]);
  md[i] = frexp((double)x[i] * 1e-310, &ed[i]);
  if (i == 0) {
    int z;
    m[32] = frexpf(0.0f, &z); // constant operand
    e[32] = z;
  }
}

constexpr int Tile = 16;
__global__ void matmul(const float *a, const float *b, float *c, int n) {
  __shared__ float as[Tile][Tile], bs[Tile][Tile];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * Tile + ty, col = blockIdx.x * Tile + tx;
  float acc = 0;
  for (int k0 = 0; k0 < n; k0 += Tile) {
    as[ty][tx] = a[row * n + k0 + tx];
    bs[ty][tx] = b[(k0 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < Tile; ++k)
      acc += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  c[row * n + col] = acc;
}

int main() {
  const int N = 32;
  float hx[N];
  for (int i = 0; i < N; ++i)
    hx[i] = (i - 16) * 0.75f + (i % 3 ? 0.5f : 0.25f);
  float *x, *m;
  long *l, *r;
  long long *ll;
  int *e, *ed;
  double *md;
  cudaMallocManaged(&x, sizeof hx);
  cudaMallocManaged(&l, N * sizeof(long));
  cudaMallocManaged(&ll, N * sizeof(long long));
  cudaMallocManaged(&r, N * sizeof(long));
  cudaMallocManaged(&m, (N + 1) * sizeof(float));
  cudaMallocManaged(&e, (N + 1) * sizeof(int));
  cudaMallocManaged(&md, N * sizeof(double));
  cudaMallocManaged(&ed, N * sizeof(int));
  for (int i = 0; i < N; ++i)
    x[i] = hx[i];
  rounding<<<1, N>>>(x, l, ll, r, m, e, md, ed);
  cudaError_t err = cudaDeviceSynchronize();
  int bad = 0;
  for (int i = 0; i < N; ++i) {
    int he, hed;
    float hm = frexpf(hx[i], &he);
    double hmd = frexp((double)hx[i] * 1e-310, &hed);
    bad += l[i] != lrintf(hx[i]) || ll[i] != llrintf(hx[i] * 3.0e9f) ||
           r[i] != lroundf(hx[i]) || m[i] != hm || e[i] != he ||
           md[i] != hmd || ed[i] != hed;
  }
  bad += m[N] != 0.0f || e[N] != 0;
  // CHECK: rounding: no error, 0 wrong
  printf("rounding: %s, %d wrong\n", cudaGetErrorString(err), bad);

  const int n = 64;
  float *a, *b, *c;
  cudaMallocManaged(&a, n * n * 4);
  cudaMallocManaged(&b, n * n * 4);
  cudaMallocManaged(&c, n * n * 4);
  for (int i = 0; i < n * n; ++i) {
    a[i] = (i % 7) * 0.5f;
    b[i] = (i % 5) - 2.0f;
  }
  matmul<<<dim3(n / Tile, n / Tile), dim3(Tile, Tile)>>>(a, b, c, n);
  err = cudaDeviceSynchronize();
  bad = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int k = 0; k < n; ++k)
        s += a[i * n + k] * b[k * n + j];
      bad += fabsf(s - c[i * n + j]) > 1e-3f;
    }
  // CHECK: matmul: no error, 0 wrong
  printf("matmul: %s, %d wrong\n", cudaGetErrorString(err), bad);
  return 0;
}
