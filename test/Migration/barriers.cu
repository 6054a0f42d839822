// Block barriers as safe points of watched launches (docs/Migration.md,
// "Barrier safe points"): `phases`, one block of barrier-separated phases
// over static shared memory (one of them __syncthreads_count), and
// `reduce`, a grid-stride loop followed by a block reduction in dynamic
// shared memory over 2 blocks, have no loop safe point (the tree loop of
// the reduction, `s >>= 1`, is not one the loop safe points recognise), so
// before barriers were tested they could be suspended only between
// blocks. Every phase also updates global memory (out = 5 out +
// ...), so a phase run twice or never shows up in the output. visit=3
// suspends both kernels at a barrier: `phases` (one block) has its entry
// as visit 1, `reduce` (two blocks) only two entries. Suspended on the CPU,
// through a checkpoint file, under random draws, CPU -> OpenCL -> CPU and
// CPU -> tt-sim.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: hetgpu-cc -c %s -o %t.o
// RUN: hetgpu-objdump %t.o | FileCheck --check-prefix=DUMP %s
// RUN: env HETGPU_DEVICE=cpu %t > %t.ref
// RUN: FileCheck --check-prefix=REF %s < %t.ref
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=3:verbose %t > %t.out.v 2> %t.err.v
// RUN: diff %t.ref %t.out.v
// RUN: FileCheck --check-prefix=MIG %s < %t.err.v
// Through a checkpoint file.
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=3:file=%t.ckpt:verbose %t > %t.out.f 2> %t.err.f
// RUN: diff %t.ref %t.out.f
// RUN: FileCheck --check-prefix=MIG %s < %t.err.f
// Random draws count barrier visits too: some seed suspends a block at a
// barrier.
// RUN: for s in 1 2 3 4 5 6; do \
// RUN:   env HETGPU_DEVICE=cpu HETGPU_MIGRATE=random:seed=$s:verbose %t > %t.out.r$s 2> %t.err.r$s || exit 1; \
// RUN:   diff %t.ref %t.out.r$s || exit 1; \
// RUN: done
// RUN: cat %t.err.r1 %t.err.r2 %t.err.r3 %t.err.r4 %t.err.r5 %t.err.r6 | grep -q 'by safe point: barrier [1-9]'
// Not watched (HETGPU_MIGRATE=on): the plain barriers, nothing suspends.
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=on:verbose %t > %t.out.on 2> %t.err.on
// RUN: diff %t.ref %t.out.on
// RUN: not grep -q suspended %t.err.on
// CPU -> OpenCL -> CPU.
// RUN: %if pocl && built-target-spirv %{ env HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=3:to=opencl,cpu:verbose %t > %t.out.o 2> %t.err.o %}
// RUN: %if pocl && built-target-spirv %{ diff %t.ref %t.out.o %}
// RUN: %if pocl && built-target-spirv %{ FileCheck --check-prefix=MIG %s < %t.err.o %}
// RUN: %if pocl && built-target-spirv %{ FileCheck --check-prefix=OCL %s < %t.err.o %}
// CPU -> tt-sim.
// RUN: %if qemu-riscv64 && built-target-rvmanycore %{ env HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=3:to=tt-sim:verbose %t > %t.out.t 2> %t.err.t %}
// RUN: %if qemu-riscv64 && built-target-rvmanycore %{ diff %t.ref %t.out.t %}
// RUN: %if qemu-riscv64 && built-target-rvmanycore %{ FileCheck --check-prefix=MIG %s < %t.err.t %}
// RUN: %if qemu-riscv64 && built-target-rvmanycore %{ FileCheck --check-prefix=TT %s < %t.err.t %}
// DUMP: state _Z6phasesPjS_:
// DUMP-NEXT: safepoint 0 entry: 0 slots, 0 bytes
// DUMP-NEXT: safepoint 1 barrier:
// DUMP: state _Z6reducePjPKji: 3 safe points
// DUMP-NEXT: safepoint 0 entry: 0 slots, 0 bytes
// DUMP-NEXT: safepoint 1 barrier:
// DUMP: safepoint 2 barrier:
// REF: phases ok
// REF: reduce ok
// `phases` suspends at its third visit, its second barrier; the resumed
// round passes the last two barriers (visits 1 and 2) and ends.
// MIG: hetgpu-migrate: _Z6phasesPjS_ suspended (1 of 1 blocks at a safe point)
// MIG-NEXT: hetgpu-migrate: _Z6phasesPjS_: suspended blocks by safe point: barrier 1, loop 0, entry 0, threads 0
// MIG-NOT: _Z6phasesPjS_ suspended
// The third visit of `reduce` is a barrier after its grid-stride loop.
// MIG: hetgpu-migrate: _Z6reducePjPKji suspended ({{[12]}} of 2 blocks at a safe point)
// MIG-NEXT: hetgpu-migrate: _Z6reducePjPKji: suspended blocks by safe point: barrier {{[12]}}, loop 0, entry {{[01]}}, threads 0
// The suspended `phases` resumes on OpenCL, `reduce` back on the CPU.
// OCL: hetgpu-migrate: _Z6phasesPjS_ suspended {{.*}} resumed on device 0: {{.*}}(opencl)
// OCL: hetgpu-migrate: _Z6reducePjPKji suspended {{.*}} resumed on device 0: {{.*}}(cpu)
// TT: hetgpu-migrate: _Z6phasesPjS_ suspended {{.*}} resumed on device 0: tt-sim{{.*}}(tt-sim)
#include <cstdio>
#include <vector>

constexpr int PT = 256; // threads of a `phases` block

// Each phase reads what another thread wrote before the barrier and
// updates global memory, so a resumed block must come back with its
// shared memory and live values as they were at the barrier.
__global__ void phases(unsigned *out, unsigned *count) {
  __shared__ unsigned A[PT], B[PT];
  unsigned t = threadIdx.x, n = blockDim.x;
  unsigned v = out[t] * 7u + 1u;
  A[t] = v;
  __syncthreads();
  B[t] = A[(t + 1) % n] * 3u + v;
  out[t] = out[t] * 5u + B[t];
  __syncthreads();
  A[t] = B[n - 1 - t] ^ (v << 3);
  out[t] = out[t] * 5u + A[t];
  int odd = __syncthreads_count(A[t] & 1u);
  B[t] = A[(t + 7) % n] + (unsigned)odd;
  out[t] = out[t] * 5u + B[t];
  __syncthreads();
  out[t] = out[t] * 5u + B[(t + 33) % n] + A[t];
  atomicAdd(count, 1u);
}

// A grid-stride loop (divergent trip count, no barrier in it), then a
// block reduction in dynamic shared memory.
__global__ void reduce(unsigned *out, const unsigned *x, int n) {
  extern __shared__ unsigned S[];
  unsigned t = threadIdx.x, sum = 0;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x)
    sum = sum * 3u + x[i];
  S[t] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      S[t] += S[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = out[blockIdx.x] * 5u + S[0];
}

static void phasesRef(std::vector<unsigned> &Out) {
  unsigned n = PT;
  std::vector<unsigned> A(n), B(n), V(n);
  for (unsigned t = 0; t < n; ++t)
    A[t] = V[t] = Out[t] * 7u + 1u;
  for (unsigned t = 0; t < n; ++t) {
    B[t] = A[(t + 1) % n] * 3u + V[t];
    Out[t] = Out[t] * 5u + B[t];
  }
  for (unsigned t = 0; t < n; ++t) {
    A[t] = B[n - 1 - t] ^ (V[t] << 3);
    Out[t] = Out[t] * 5u + A[t];
  }
  int odd = 0;
  for (unsigned t = 0; t < n; ++t)
    odd += A[t] & 1u;
  for (unsigned t = 0; t < n; ++t) {
    B[t] = A[(t + 7) % n] + (unsigned)odd;
    Out[t] = Out[t] * 5u + B[t];
  }
  for (unsigned t = 0; t < n; ++t)
    Out[t] = Out[t] * 5u + B[(t + 33) % n] + A[t];
}

int main() {
  const int N = 1 << 16, RB = 2, RT = 256;
  std::vector<unsigned> Out(PT), X(N), ROut(RB);
  for (int t = 0; t < PT; ++t)
    Out[t] = 11u * t + 2;
  for (int i = 0; i < N; ++i)
    X[i] = 7u * i + 1;
  for (int b = 0; b < RB; ++b)
    ROut[b] = 13u * b + 3;
  unsigned *dOut, *dCount, *dX, *dR;
  cudaMalloc(&dOut, PT * sizeof(unsigned));
  cudaMalloc(&dCount, sizeof(unsigned));
  cudaMalloc(&dX, N * sizeof(unsigned));
  cudaMalloc(&dR, RB * sizeof(unsigned));
  cudaMemcpy(dOut, Out.data(), PT * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemset(dCount, 0, sizeof(unsigned));
  cudaMemcpy(dX, X.data(), N * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(dR, ROut.data(), RB * sizeof(unsigned), cudaMemcpyHostToDevice);
  phases<<<1, PT>>>(dOut, dCount);
  reduce<<<RB, RT, RT * sizeof(unsigned)>>>(dR, dX, N);
  std::vector<unsigned> GOut(PT), GR(RB);
  unsigned Count = 0;
  cudaMemcpy(GOut.data(), dOut, PT * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(&Count, dCount, sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(GR.data(), dR, RB * sizeof(unsigned), cudaMemcpyDeviceToHost);
  phasesRef(Out);
  int Bad = Count != PT;
  for (int t = 0; t < PT; ++t)
    Bad += GOut[t] != Out[t];
  printf("phases %s\n", Bad ? "WRONG" : "ok");
  Bad = 0;
  for (int b = 0; b < RB; ++b) {
    std::vector<unsigned> S(RT);
    for (int t = 0; t < RT; ++t) {
      unsigned sum = 0;
      for (int i = b * RT + t; i < N; i += RT * RB)
        sum = sum * 3u + X[i];
      S[t] = sum;
    }
    for (int s = RT / 2; s > 0; s >>= 1)
      for (int t = 0; t < s; ++t)
        S[t] += S[t + s];
    Bad += GR[b] != ROut[b] * 5u + S[0];
  }
  printf("reduce %s\n", Bad ? "WRONG" : "ok");
  unsigned long long Sum = 0;
  for (int t = 0; t < PT; ++t)
    Sum += GOut[t];
  printf("sum %llu %u %u\n", Sum, GR[0], GR[1]);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
