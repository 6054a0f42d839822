// A move to NVIDIA that fails in its memory step, before any memory has
// changed device: the driver does not grant the arena's address
// (FAKE_CUDA_RESERVE_ELSEWHERE, as the H200's driver did on a first move).
// The suspended launch resumes on the CPU device with its module still
// loaded and the arena chunk mapped again, and the output is the
// unmigrated one. Before, the context had dropped its modules first and
// the resumed launch crashed (SIGSEGV on the H200).
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t > %t.ref
// RUN: FileCheck --check-prefix=OUT %s < %t.ref
// RUN: env FAKE_CUDA_RESERVE_ELSEWHERE=1 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=2:to=nvidia:verbose %t > %t.out 2> %t.err
// RUN: diff %t.ref %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// OUT: sum 523776 ok
// ERR: cuMemAddressReserve at {{.*}}: the driver chose {{.*}} instead; resuming on device 0 (cpu)
// ERR: suspended {{.*}} resumed on device 0: Host CPU {{.*}}(cpu)
#include <cstdio>

__global__ void accumulate(const int *in, unsigned long long *sum, int n) {
  unsigned long long s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s += in[i];
  atomicAdd(sum, s);
}

int main() {
  const int N = 1024;
  int h[N], *d;
  unsigned long long *sum, r = 0;
  for (int i = 0; i < N; ++i)
    h[i] = i;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&sum, sizeof *sum);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(sum, 0, sizeof *sum);
  accumulate<<<4, 64>>>(d, sum, N);
  cudaError_t e = cudaMemcpy(&r, sum, sizeof r, cudaMemcpyDeviceToHost);
  printf("sum %llu %s\n", r / 4, e == cudaSuccess ? "ok" : cudaGetErrorString(e));
  return 0;
}
