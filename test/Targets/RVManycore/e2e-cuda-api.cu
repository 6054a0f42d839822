// The CUDA runtime API on the tt-sim device, end to end: hetgpu-cc builds
// the program, libhetgpu translates its hetIR for rvmc at first launch and
// tt-sim runs it on 3 qemu cores. Covers properties, memory and symbol
// copies, managed memory, a barrier kernel with static shared memory, two
// streams with events, printf, a block whose dynamic shared memory fills
// the SRAM (thread states spill to DRAM), the SRAM limit for shared memory
// (an ordinary, non-sticky launch error; the backend's own message is
// tested by exec-shared-sram.cu) and a device-side assert (sticky until reset).
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=tt-sim HETGPU_TTSIM_CORES=3 %t 2>%t.err | FileCheck %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// CHECK: device: tt-sim RISC-V many-core (3 rv64imafd cores, qemu-riscv64) SMs 3 optin-shared 1572864
// CHECK-NEXT: reverse ok
// CHECK-DAG: hello from block 0
// CHECK-DAG: hello from block 1
// CHECK: constant ok
// CHECK-NEXT: streams ok, elapsed ok
// CHECK-NEXT: managed 42
// CHECK-NEXT: full SRAM: ok
// CHECK-NEXT: too much shared: cudaErrorInvalidValue cudaErrorInvalidValue
// CHECK-NEXT: still usable: 42
// CHECK-NEXT: assert: cudaErrorAssert
// CHECK-NEXT: after reset: cudaSuccess 7
// CHECK-NEXT: PASS
// ERR: e2e-cuda-api.cu:{{[0-9]+}}: {{.*}}checkPositive{{.*}}: block: [1,0,0], thread: [?,?,?] Assertion `v > 0 || blockIdx.x != 1` failed.
// REQUIRES: qemu-riscv64
#include <cassert>
#include <cstdio>
#include <cstring>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::printf("FAIL %s: %s\n", #x, cudaGetErrorName(e_));                  \
      return 1;                                                                \
    }                                                                          \
  } while (0)

__constant__ float scale[4];

__global__ void reverse(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  out[blockIdx.x * 128 + t] = s[127 - t];
}

__global__ void scaleBy(float *p) {
  p[blockIdx.x * blockDim.x + threadIdx.x] *= scale[threadIdx.x % 4];
  if (threadIdx.x == 0)
    printf("hello from block %d\n", blockIdx.x);
}

__global__ void addOne(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += 1;
}

// With a barrier, the block also needs SRAM for its threads' states and
// frames: all of SRAM as dynamic shared memory is then too much.
__global__ void bigShared(int *p) {
  extern __shared__ int dyn[];
  dyn[threadIdx.x] = threadIdx.x;
  __syncthreads();
  p[threadIdx.x] = dyn[31 - threadIdx.x];
}

__global__ void bigSharedStatic(int *p) {
  __shared__ int pad[1024];
  extern __shared__ int dyn[];
  pad[threadIdx.x] = threadIdx.x;
  __syncthreads();
  dyn[threadIdx.x] = pad[31 - threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = dyn[31 - threadIdx.x];
}

__global__ void checkPositive(int *p, int v) {
  assert(v > 0 || blockIdx.x != 1);
  p[blockIdx.x] = v;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s SMs %d optin-shared %zu\n", prop.name,
              prop.multiProcessorCount, prop.sharedMemPerBlockOptin);

  const int n = 4 * 128;
  int h[n], r[n];
  for (int i = 0; i < n; ++i)
    h[i] = i;
  int *din, *dout;
  CHECK(cudaMalloc(&din, sizeof h));
  CHECK(cudaMalloc(&dout, sizeof h));
  CHECK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0xff, sizeof h));
  reverse<<<4, 128>>>(din, dout);
  CHECK(cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok &= r[i] == (i / 128) * 128 + 127 - i % 128;
  std::printf("reverse %s\n", ok ? "ok" : "WRONG");

  float hs[4] = {1, 2, 3, 4}, f[64];
  for (int i = 0; i < 64; ++i)
    f[i] = 1.0f;
  float *df;
  CHECK(cudaMemcpyToSymbol(scale, hs, sizeof hs));
  CHECK(cudaMalloc(&df, sizeof f));
  CHECK(cudaMemcpy(df, f, sizeof f, cudaMemcpyHostToDevice));
  scaleBy<<<2, 32>>>(df);
  CHECK(cudaMemcpy(f, df, sizeof f, cudaMemcpyDeviceToHost));
  float back[4];
  CHECK(cudaMemcpyFromSymbol(back, scale, sizeof back));
  std::printf("constant %s\n", f[0] == 1 && f[3] == 4 && f[33] == 2 &&
                                       back[2] == 3 ? "ok" : "WRONG");

  cudaStream_t s1, s2;
  cudaEvent_t e0, e1;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  int *a, *b;
  CHECK(cudaMalloc(&a, 1000 * sizeof(int)));
  CHECK(cudaMalloc(&b, 1000 * sizeof(int)));
  CHECK(cudaMemsetAsync(a, 0, 1000 * sizeof(int), s1));
  CHECK(cudaEventRecord(e0, s1));
  addOne<<<8, 128, 0, s1>>>(a, 1000);
  CHECK(cudaEventRecord(e1, s1));
  CHECK(cudaStreamWaitEvent(s2, e1, 0));
  CHECK(cudaMemcpyAsync(b, a, 1000 * sizeof(int), cudaMemcpyDeviceToDevice, s2));
  addOne<<<8, 128, 0, s2>>>(b, 1000);
  CHECK(cudaStreamSynchronize(s2));
  int hb[1000];
  CHECK(cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, e0, e1));
  std::printf("streams %s, elapsed %s\n",
              hb[0] == 2 && hb[999] == 2 ? "ok" : "WRONG",
              ms >= 0 ? "ok" : "WRONG");

  int *m;
  CHECK(cudaMallocManaged(&m, sizeof(int)));
  *m = 41;
  addOne<<<1, 1>>>(m, 1);
  CHECK(cudaDeviceSynchronize());
  std::printf("managed %d\n", *m);

  const int sram = (int)prop.sharedMemPerBlockOptin;
  CHECK(cudaFuncSetAttribute(bigShared,
                             cudaFuncAttributeMaxDynamicSharedMemorySize, sram));
  bigShared<<<1, 32, sram - 4096>>>(a);
  CHECK(cudaDeviceSynchronize()); // fits: 4 KiB is enough for 32 threads
  CHECK(cudaMemset(a, 0, 32 * sizeof(int)));
  bigShared<<<1, 32, sram>>>(a); // all of SRAM: the thread states go to DRAM
  CHECK(cudaDeviceSynchronize());
  int ha[32];
  CHECK(cudaMemcpy(ha, a, sizeof ha, cudaMemcpyDeviceToHost));
  std::printf("full SRAM: %s\n", ha[0] == 31 && ha[31] == 0 ? "ok" : "WRONG");
  // 4 KiB static + 1.5 MiB dynamic is more than the SRAM: refused.
  cudaError_t ea = cudaFuncSetAttribute(
      bigSharedStatic, cudaFuncAttributeMaxDynamicSharedMemorySize, sram);
  bigSharedStatic<<<1, 32, sram>>>(a);
  std::printf("too much shared: %s %s\n", cudaGetErrorName(ea),
              cudaGetErrorName(cudaGetLastError()));
  addOne<<<1, 1>>>(m, 1);
  CHECK(cudaDeviceSynchronize());
  *m = 42;
  std::printf("still usable: %d\n", *m);

  checkPositive<<<3, 1>>>(a, -1);
  std::printf("assert: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaError_t rs = cudaDeviceReset();
  int *c, hc = 0;
  CHECK(cudaMalloc(&c, 3 * sizeof(int)));
  checkPositive<<<3, 1>>>(c, 7);
  CHECK(cudaMemcpy(&hc, c + 1, sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("after reset: %s %d\n", cudaGetErrorName(rs), hc);
  std::printf("PASS\n");
  return 0;
}
