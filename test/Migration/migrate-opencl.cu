// Live migration between devices: CPU -> OpenCL (PoCL) -> CPU -> ... at
// random safe points (HETGPU_MIGRATE to= list, one device per suspension in
// turn). PoCL's CPU device passes the runtime's arena probe, so its memory
// is the same host memory at the same addresses as the CPU device's: the
// linked lists of device pointers stay valid. Output must equal the
// unmigrated run and every run must really have moved to OpenCL and back
// (seeds chosen so that each suspends at least once; seed 6, for one, draws
// safe points past the end of both kernels).
// (Kernels here keep one barrier per loop iteration and no warp operations:
// the SPIR-V target refuses warp operations in instrumented kernels, and
// PoCL's kernel compiler slows down sharply with the number of barrier
// loops in an instrumented kernel; see docs/Migration.md.)
// REQUIRES: built-target-host, built-target-spirv, pocl
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t > %t.ref
// RUN: FileCheck --check-prefix=REF %s < %t.ref
// RUN: for s in 2 3 4 5 8 10; do \
// RUN:   env HETGPU_DEVICE=cpu HETGPU_MIGRATE=random:seed=$s:to=opencl,cpu:file=%t.ckpt:verbose %t > %t.out.$s 2> %t.err.$s || exit 1; \
// RUN:   diff %t.ref %t.out.$s || exit 1; \
// RUN:   grep -q 'resumed on device 0: .*(opencl)$' %t.err.$s || exit 1; \
// RUN: done
// RUN: cat %t.err.2 %t.err.3 %t.err.4 %t.err.5 %t.err.8 %t.err.10 | FileCheck --check-prefix=MIG %s
// A damaged checkpoint file is refused; the launch still moves and
// resumes from the in-memory image.
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=random:seed=2:to=opencl:file=%t.ckpt:fault=flip:verbose %t > %t.out.f 2> %t.err.f
// RUN: diff %t.ref %t.out.f
// RUN: FileCheck --check-prefix=FLIP %s < %t.err.f
// The time trigger moves the device: the running kernel at its next safe
// point, or between launches when it fires while none runs (timing decides).
// A timer thread woken late on a loaded machine may fire after the last
// launch, when there is nothing left to move: every run must give the
// reference output, and one of five must have moved.
// RUN: rm -f %t.err.t; for i in 1 2 3 4 5; do \
// RUN:   env HETGPU_DEVICE=cpu HETGPU_MIGRATE=after_ms=1:to=opencl:verbose %t > %t.out.t 2> %t.err.t.$i || exit 1; \
// RUN:   diff %t.ref %t.out.t || exit 1; \
// RUN:   if grep -q 'moved from Host CPU' %t.err.t.$i; then cp %t.err.t.$i %t.err.t; break; fi; \
// RUN: done
// RUN: FileCheck --check-prefix=TIME %s < %t.err.t
// REF: chase ok 72832346
// REF: tiles 77991158816096
// MIG-DAG: hetgpu-migrate: device 0 moved from Host CPU {{.*}} to {{.*}} (opencl), {{[0-9]+}} allocations kept in place (shared arena), {{[0-9]+}} managed allocations kept in host memory, 1 modules reloaded
// MIG-DAG: hetgpu-migrate: device 0 moved from {{.*}} to Host CPU {{.*}} (cpu)
// MIG-DAG: hetgpu-migrate: _Z6chase1PP4NodePii suspended {{.*}} resumed on device 0: {{.*}} (opencl)
// MIG-DAG: hetgpu-migrate: _Z5tilesPKjPyi suspended {{.*}} resumed on device 0: {{.*}} (opencl)
// FLIP: checkpoint refused: checksum mismatch (corrupted file)
// FLIP: resumed on device 0: {{.*}} (opencl)
// TIME: device 0 moved from Host CPU {{.*}} to {{.*}} (opencl)
#include "Inputs/lists.cuh"
#include <cstdio>

// Pointers stored in device memory, followed one hop per barrier step;
// shared memory (double-buffered: one barrier per step); atomics.
__global__ void chase1(Node **heads, int *sums, int steps) {
  __shared__ int hops[2][128];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  Node *p = heads[t];
  int sum = 0;
  for (int i = 0; i < steps; ++i) {
    sum += p->value;
    p = p->next;
    hops[i & 1][threadIdx.x] = sum & 0xff;
    __syncthreads();
    sum += hops[i & 1][(threadIdx.x + 1) % blockDim.x];
  }
  sums[t] = sum;
  atomicAdd(&sums[gridDim.x * blockDim.x], sum);
}

// Tiles staged through dynamic shared memory, a private array live across
// the barrier, 64-bit atomics.
__global__ void tiles(const unsigned *in, unsigned long long *out, int n) {
  extern __shared__ unsigned tile[];
  unsigned priv[3] = {1, 2, 3};
  unsigned t = threadIdx.x, b = blockDim.x;
  unsigned long long acc = 0;
  for (int i = 0; i < n; ++i) {
    unsigned *buf = tile + (i & 1) * b;
    buf[t] = in[(blockIdx.x * b + t + i * 13) % (gridDim.x * b)] ^ priv[i % 3];
    __syncthreads();
    acc += buf[(t + i) % b] * (priv[(t + i) % 3] + 1);
    priv[i % 3] += buf[b - 1 - t] & 7;
  }
  atomicAdd(out, acc);
}

int main() {
  const int NB = 8, NT = 128, N = NB * NT, L = 64, S = 400;
  int *sums;
  Node **heads = makeLists(N, L, &sums);
  chase1<<<NB, NT>>>(heads, sums, S);
  cudaDeviceSynchronize();
  reportChase(sums, N);

  const int B = 16, T = 64;
  unsigned *in;
  unsigned long long *out;
  cudaMallocManaged(&in, B * T * sizeof(unsigned));
  cudaMallocManaged(&out, sizeof(unsigned long long));
  for (int i = 0; i < B * T; ++i)
    in[i] = (i * 2654435761u) >> 12;
  *out = 0;
  tiles<<<B, T, 2 * T * sizeof(unsigned)>>>(in, out, 500);
  cudaError_t e = cudaDeviceSynchronize();
  printf("tiles %llu%s\n", *out, e == cudaSuccess ? "" : cudaGetErrorString(e));
  return 0;
}
