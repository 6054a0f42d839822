// Live migration between devices: CPU -> tt-sim -> CPU. Kernels with
// barriers in loops, static and dynamic shared memory, warp shuffles,
// atomics and pointers stored in device memory are suspended at random safe
// points and resumed on the other device (HETGPU_MIGRATE to= list, one device
// per suspension in turn); every allocation keeps its address (one address
// layout: the arena at RVMC_DRAM_BASE is tt-sim's DRAM). Output must equal
// the unmigrated run and every run must really have moved.
// REQUIRES: built-target-host, built-target-rvmanycore, qemu-riscv64
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t > %t.ref
// RUN: FileCheck --check-prefix=REF %s < %t.ref
// RUN: for s in 1 2 3 4; do \
// RUN:   env HETGPU_DEVICE=cpu HETGPU_MIGRATE=random:seed=$s:to=tt-sim,cpu:file=%t.ckpt:verbose %t > %t.out.$s 2> %t.err.$s || exit 1; \
// RUN:   diff %t.ref %t.out.$s || exit 1; \
// RUN:   grep -q 'resumed on device 0: tt-sim.*(tt-sim)$' %t.err.$s || exit 1; \
// RUN: done
// RUN: cat %t.err.1 %t.err.2 %t.err.3 %t.err.4 | FileCheck --check-prefix=MIG %s
// The time trigger moves the running kernel too.
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=after_ms=1:to=tt-sim:verbose %t > %t.out.t 2> %t.err.t
// RUN: diff %t.ref %t.out.t
// RUN: FileCheck --check-prefix=TIME %s < %t.err.t
// A name that is no device is refused by name.
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=random:seed=1:to=gpu9 %t 2>&1 | FileCheck --check-prefix=BAD %s
// REF: reduce 54974528000
// REF: chase ok 36431260
// REF: stencil ok 24481.388947
// MIG-DAG: hetgpu-migrate: device 0 moved from Host CPU {{.*}} to tt-sim {{.*}} allocations kept in place (shared arena), {{[0-9]+}} managed allocations kept in host memory, 1 modules reloaded
// MIG-DAG: hetgpu-migrate: device 0 moved from tt-sim {{.*}} to Host CPU {{.*}} (cpu)
// MIG-DAG: hetgpu-migrate: _Z6reducePKjPyi suspended {{.*}} resumed on device 0: tt-sim
// MIG-DAG: hetgpu-migrate: _Z5chasePP4NodePii suspended {{.*}} resumed on device 0: tt-sim
// MIG-DAG: hetgpu-migrate: _Z7stencilPfi suspended {{.*}} resumed on device 0: tt-sim
// TIME: suspended {{.*}} resumed on device 0: tt-sim
// BAD: HETGPU_MIGRATE to=gpu9: no such device
#include <cstdio>

struct Node {
  Node *next;
  int value;
};

// Barriers in a loop, shared memory, warp shuffles, atomics.
__global__ void reduce(const unsigned *in, unsigned long long *out, int rounds) {
  __shared__ unsigned s[128];
  unsigned t = threadIdx.x;
  unsigned long long acc = 0;
  for (int r = 0; r < rounds; ++r) {
    s[t] = in[(blockIdx.x * 128 + t + r * 7) % (gridDim.x * 128)] + r;
    __syncthreads();
    unsigned v = s[t] + s[(t + 64) % 128];
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_xor_sync(0xffffffffu, v, o);
    __syncthreads();
    acc += v;
  }
  atomicAdd(out, acc);
}

// Pointers stored in device memory, followed one hop per barrier step.
__global__ void chase(Node **heads, int *sums, int steps) {
  __shared__ int hops[128];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  Node *p = heads[t];
  int sum = 0;
  for (int i = 0; i < steps; ++i) {
    sum += p->value;
    p = p->next;
    hops[threadIdx.x] = sum & 0xff;
    __syncthreads();
    sum += hops[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  }
  sums[t] = sum;
  atomicAdd(&sums[gridDim.x * blockDim.x], sum);
}

// Dynamic shared memory.
__global__ void stencil(float *data, int iters) {
  extern __shared__ float buf[];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  for (int i = 0; i < iters; ++i) {
    buf[t] = data[g];
    __syncthreads();
    float l = buf[(t + blockDim.x - 1) % blockDim.x];
    float r = buf[(t + 1) % blockDim.x];
    __syncthreads();
    data[g] = 0.25f * (l + r) + 0.5f * data[g];
  }
}

int main() {
  const int B = 32, R = 100;
  unsigned *in;
  unsigned long long *out;
  cudaMallocManaged(&in, B * 128 * sizeof(unsigned));
  cudaMallocManaged(&out, sizeof(unsigned long long));
  for (int i = 0; i < B * 128; ++i)
    in[i] = (i * 2654435761u) >> 20;
  *out = 0;
  reduce<<<B, 128>>>(in, out, R);
  cudaDeviceSynchronize();
  printf("reduce %llu\n", *out);

  const int NB = 8, NT = 128, N = NB * NT, L = 64, S = 200;
  Node *nodes;
  Node **heads;
  int *sums;
  cudaMallocManaged(&nodes, N * L * sizeof(Node));
  cudaMallocManaged(&heads, N * sizeof(Node *));
  cudaMallocManaged(&sums, (N + 1) * sizeof(int));
  for (int i = 0; i < N; ++i) {
    for (int k = 0; k < L; ++k) {
      nodes[i * L + k].value = (i * 31 + k * 7) % 101;
      nodes[i * L + k].next = &nodes[i * L + (k * 5 + 3) % L];
    }
    heads[i] = &nodes[i * L];
  }
  sums[N] = 0;
  chase<<<NB, NT>>>(heads, sums, S);
  cudaDeviceSynchronize();
  long total = 0;
  for (int i = 0; i < N; ++i)
    total += sums[i];
  printf("chase %s %d\n", total == sums[N] ? "ok" : "FAIL", sums[N]);

  float *data;
  cudaMallocManaged(&data, 16 * 64 * sizeof(float));
  for (int i = 0; i < 16 * 64; ++i)
    data[i] = float(i % 17);
  stencil<<<16, 64, 64 * sizeof(float)>>>(data, 300);
  cudaError_t e = cudaDeviceSynchronize();
  double cs = 0;
  for (int i = 0; i < 16 * 64; ++i)
    cs += data[i] * (i % 5 + 1);
  printf("stencil %s %.6f\n", e == cudaSuccess ? "ok" : cudaGetErrorString(e), cs);
  return 0;
}
