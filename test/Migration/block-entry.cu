// Block-entry safe points (docs/Migration.md): kernels without any loop --
// an elementwise update over 4096 blocks and a barrier-separated
// shared-memory reversal -- are suspended between blocks: blocks that start
// after the yield flag is raised return at once and run in the resumed
// launch, blocks that had started run to their end once. `visit=N` makes
// the suspension deterministic (thread 0 of the N-th block to start raises
// the flag). The updates are not idempotent (y = 3y + x) and every thread
// counts its block's run, so a block run twice or never shows up in the
// output. Resumed on the CPU, through a checkpoint file, on OpenCL (PoCL)
// and on tt-sim.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t > %t.ref
// RUN: FileCheck --check-prefix=REF %s < %t.ref
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=100:verbose %t > %t.out.v 2> %t.err.v
// RUN: diff %t.ref %t.out.v
// RUN: FileCheck --check-prefix=MIG %s < %t.err.v
// Through a checkpoint file.
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=7:file=%t.ckpt:verbose %t > %t.out.f 2> %t.err.f
// RUN: diff %t.ref %t.out.f
// RUN: FileCheck --check-prefix=MIG %s < %t.err.f
// Random draws count block entries too: seeds that draw a visit within the
// 4096 blocks suspend the kernels.
// RUN: for s in 1 2 3; do \
// RUN:   env HETGPU_DEVICE=cpu HETGPU_MIGRATE=random:seed=$s:verbose %t > %t.out.r$s 2> %t.err.r$s || exit 1; \
// RUN:   diff %t.ref %t.out.r$s || exit 1; \
// RUN: done
// RUN: grep -q '_Z11elementwisePjPKji suspended' %t.err.r1 %t.err.r2 %t.err.r3
// A bad visit count is refused by name.
// RUN: env HETGPU_LOG=warn HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=0 %t 2>&1 | FileCheck --check-prefix=BAD %s
// CPU -> OpenCL -> CPU.
// RUN: %if pocl && built-target-spirv %{ env HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=100:to=opencl,cpu:verbose %t > %t.out.o 2> %t.err.o %}
// RUN: %if pocl && built-target-spirv %{ diff %t.ref %t.out.o %}
// RUN: %if pocl && built-target-spirv %{ FileCheck --check-prefix=OCL %s < %t.err.o %}
// CPU -> tt-sim -> CPU.
// RUN: %if qemu-riscv64 && built-target-rvmanycore %{ env HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=100:to=tt-sim,cpu:verbose %t > %t.out.t 2> %t.err.t %}
// RUN: %if qemu-riscv64 && built-target-rvmanycore %{ diff %t.ref %t.out.t %}
// RUN: %if qemu-riscv64 && built-target-rvmanycore %{ FileCheck --check-prefix=TT %s < %t.err.t %}
// REF: elementwise ok
// REF: reverse ok
// REF: blocks ran once ok
// MIG-DAG: hetgpu-migrate: _Z11elementwisePjPKji suspended ({{[1-9][0-9]*}} of 4096 blocks at a safe point)
// MIG-DAG: hetgpu-migrate: _Z7reversePjS_ suspended ({{[1-9][0-9]*}} of 4096 blocks at a safe point)
// BAD: HETGPU_MIGRATE='visit=0': cannot parse 'visit=0'
// OCL: hetgpu-migrate: _Z11elementwisePjPKji suspended {{.*}} resumed on device 0: {{.*}}(opencl)
// OCL: hetgpu-migrate: _Z7reversePjS_ suspended {{.*}} resumed on device 0: {{.*}}(opencl)
// TT: hetgpu-migrate: _Z11elementwisePjPKji suspended {{.*}} resumed on device 0: tt-sim{{.*}}(tt-sim)
// TT: hetgpu-migrate: _Z7reversePjS_ suspended {{.*}} resumed on device 0: tt-sim{{.*}}(tt-sim)
#include <cstdio>
#include <vector>

__global__ void elementwise(unsigned *y, const unsigned *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = y[i] * 3u + x[i];
}

// Two phases separated by a barrier, no loop: each block reverses its
// slice through shared memory and counts its run.
__global__ void reverse(unsigned *v, unsigned *ran) {
  __shared__ unsigned S[128];
  unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
  S[t] = v[base + t];
  __syncthreads();
  v[base + t] = S[blockDim.x - 1 - t] + 1u;
  atomicAdd(&ran[blockIdx.x], 1u);
}

int main() {
  const int Blocks = 4096, Threads = 128, N = Blocks * Threads;
  std::vector<unsigned> X(N), Y(N), V(N);
  for (int i = 0; i < N; ++i) {
    X[i] = 7u * i + 1;
    Y[i] = 3u * i + 5;
    V[i] = 11u * i;
  }
  unsigned *dX, *dY, *dV, *dRan;
  cudaMalloc(&dX, N * sizeof(unsigned));
  cudaMalloc(&dY, N * sizeof(unsigned));
  cudaMalloc(&dV, N * sizeof(unsigned));
  cudaMalloc(&dRan, Blocks * sizeof(unsigned));
  cudaMemcpy(dX, X.data(), N * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(dY, Y.data(), N * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(dV, V.data(), N * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemset(dRan, 0, Blocks * sizeof(unsigned));
  elementwise<<<Blocks, Threads>>>(dY, dX, N);
  elementwise<<<Blocks, Threads>>>(dY, dX, N);
  reverse<<<Blocks, Threads>>>(dV, dRan);
  std::vector<unsigned> RY(N), RV(N), Ran(Blocks);
  cudaMemcpy(RY.data(), dY, N * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(RV.data(), dV, N * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(Ran.data(), dRan, Blocks * sizeof(unsigned),
             cudaMemcpyDeviceToHost);
  int Bad = 0;
  for (int i = 0; i < N; ++i)
    Bad += RY[i] != (Y[i] * 3u + X[i]) * 3u + X[i];
  printf("elementwise %s\n", Bad ? "WRONG" : "ok");
  Bad = 0;
  for (int b = 0; b < Blocks; ++b)
    for (int t = 0; t < Threads; ++t)
      Bad += RV[b * Threads + t] != V[b * Threads + Threads - 1 - t] + 1u;
  printf("reverse %s\n", Bad ? "WRONG" : "ok");
  Bad = 0;
  for (int b = 0; b < Blocks; ++b)
    Bad += Ran[b] != unsigned(Threads);
  printf("blocks ran once %s\n", Bad ? "WRONG" : "ok");
  unsigned long long Sum = 0;
  for (int i = 0; i < N; ++i)
    Sum += RY[i] + RV[i];
  printf("sum %llu\n", Sum);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
