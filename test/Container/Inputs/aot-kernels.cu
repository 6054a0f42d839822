// aot-kernels.cu - ten kernels in one module and no device variables (so
// the runtime would translate them in kernel groups), each printing values
// that depend on its arithmetic: the outputs of a translation and of an
// ahead-of-time image must agree.
#include <cmath>
#include <cstdio>
#include <utility>

template <int K> __global__ void wave(float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = sinf(0.01f * I * (K + 1)) * (K + 1) + sqrtf(float(I + K));
}

template <int... Ks> void runAll(std::integer_sequence<int, Ks...>, float *D,
                                 int N) {
  ((wave<Ks><<<(N + 63) / 64, 64>>>(D + Ks * N, N)), ...);
}

int main() {
  const int N = 200, K = 10;
  float *D;
  if (cudaMallocManaged(&D, sizeof(float) * N * K) != cudaSuccess) {
    std::printf("FAIL alloc\n");
    return 1;
  }
  runAll(std::make_integer_sequence<int, K>(), D, N);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("FAIL sync\n");
    return 1;
  }
  for (int k = 0; k < K; ++k) {
    double Sum = 0;
    for (int i = 0; i < N; ++i)
      Sum += D[k * N + i];
    std::printf("kernel %d: %.6f %.6f\n", k, Sum, D[k * N + N - 1]);
  }
  cudaFree(D);
  std::printf("done\n");
  return 0;
}
