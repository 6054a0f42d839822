// saxpy_reduce.cu - hetGPU's sample program: SAXPY, then a block reduction
// (shared memory, __syncthreads, warp shuffles) and a global atomicAdd,
// checked against the host. Build: hetgpu-cc saxpy_reduce.cu -o saxpy_reduce
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,       \
                   cudaGetErrorString(err_));                                  \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

template <int BlockSize>
__global__ void sum(const float *in, int n, float *total) {
  __shared__ float warpSums[BlockSize / 32];
  float v = 0.0f;
  for (int i = blockIdx.x * BlockSize + threadIdx.x; i < n;
       i += gridDim.x * BlockSize)
    v += in[i];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0)
    warpSums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < BlockSize / 32 ? warpSums[threadIdx.x] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x == 0)
      atomicAdd(total, v);
  }
}

int main() {
  const int n = 1 << 20;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 100) * 0.5f;
    y[i] = 1.0f;
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s\n", prop.name);

  float *dx, *dy, *dsum;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMalloc(&dsum, sizeof(float)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dsum, 0, sizeof(float)));

  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, dx, dy);
  CHECK(cudaGetLastError());
  sum<256><<<64, 256>>>(dy, n, dsum);
  CHECK(cudaGetLastError());

  float gpuSum = 0;
  CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&gpuSum, dsum, sizeof(float), cudaMemcpyDeviceToHost));

  double ref = 0;
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float expect = 2.0f * (float(i % 100) * 0.5f) + 1.0f;
    if (y[i] != expect && ++bad < 5)
      std::printf("mismatch at %d: %f != %f\n", i, y[i], expect);
    ref += expect;
  }
  double relErr = std::fabs(gpuSum - ref) / ref;
  std::printf("saxpy: %s, sum = %.1f (host %.1f, rel. error %.2e)\n",
              bad ? "FAILED" : "ok", gpuSum, ref, relErr);
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dsum));
  bool pass = !bad && relErr < 1e-4;
  std::printf("%s\n", pass ? "Test PASSED" : "Test FAILED");
  return pass ? 0 : 1;
}
