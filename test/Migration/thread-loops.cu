// Per-thread safe points (docs/Migration.md, "Per-thread safe points"): a
// grid-stride loop launched with 2 blocks over 2^19 elements and a
// data-dependent while loop (Collatz steps of 32 values per thread, one
// block) have no block-uniform safe point; each thread checks the yield
// flag every 1024 back edges of its own loop, saves its own record and
// returns; the resumed launch continues each thread where it stopped
// (finished threads return). Both updates are not idempotent (y = 3y + x,
// out = 5 out + steps), so an iteration run twice or never shows up in the
// output. A third kernel has a block-uniform loop before a per-thread one
// (the uniform point's slots share the record's first bytes with the
// per-thread word). Suspended under visit= (deterministic) and random on
// the CPU, through a checkpoint file, CPU -> OpenCL -> CPU and CPU ->
// tt-sim.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: hetgpu-cc -c %s -o %t.o
// RUN: hetgpu-objdump %t.o | FileCheck --check-prefix=DUMP %s
// RUN: env HETGPU_DEVICE=cpu %t > %t.ref
// RUN: FileCheck --check-prefix=REF %s < %t.ref
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=100:verbose %t > %t.out.v 2> %t.err.v
// RUN: diff %t.ref %t.out.v
// RUN: FileCheck --check-prefix=MIG %s < %t.err.v
// Through a checkpoint file.
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=150:file=%t.ckpt:verbose %t > %t.out.f 2> %t.err.f
// RUN: diff %t.ref %t.out.f
// RUN: FileCheck --check-prefix=MIG %s < %t.err.f
// Both kinds in one kernel: visit=3 suspends `mixed` at its block-uniform
// loop (twice), then threads in its per-thread loop.
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=3:verbose %t > %t.out.m 2> %t.err.m
// RUN: diff %t.ref %t.out.m
// RUN: FileCheck --check-prefix=MIXED %s < %t.err.m
// Random draws count per-thread visits (every thread counts its own).
// RUN: for s in 1 2 3 4; do \
// RUN:   env HETGPU_DEVICE=cpu HETGPU_MIGRATE=random:seed=$s:verbose %t > %t.out.r$s 2> %t.err.r$s || exit 1; \
// RUN:   diff %t.ref %t.out.r$s || exit 1; \
// RUN: done
// RUN: grep -q '_Z10gridstridePjPKji: [1-9][0-9]* threads suspended at per-thread safe points' %t.err.r1 %t.err.r2 %t.err.r3 %t.err.r4
// RUN: grep -q '_Z7collatzPji: [1-9][0-9]* threads suspended at per-thread safe points' %t.err.r1 %t.err.r2 %t.err.r3 %t.err.r4
// CPU -> OpenCL -> CPU.
// RUN: %if pocl && built-target-spirv %{ env HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=100:to=opencl,cpu:verbose %t > %t.out.o 2> %t.err.o %}
// RUN: %if pocl && built-target-spirv %{ diff %t.ref %t.out.o %}
// RUN: %if pocl && built-target-spirv %{ FileCheck --check-prefix=MIG %s < %t.err.o %}
// RUN: %if pocl && built-target-spirv %{ FileCheck --check-prefix=OCL %s < %t.err.o %}
// RUN: %if pocl && built-target-spirv %{ env HETGPU_DEVICE=cpu HETGPU_MIGRATE=random:seed=2:to=opencl,cpu:verbose %t > %t.out.o2 2> %t.err.o2 %}
// RUN: %if pocl && built-target-spirv %{ diff %t.ref %t.out.o2 %}
// CPU -> tt-sim (the Collatz launch then runs, suspends and resumes there).
// RUN: %if qemu-riscv64 && built-target-rvmanycore %{ env HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=100:to=tt-sim:verbose %t > %t.out.t 2> %t.err.t %}
// RUN: %if qemu-riscv64 && built-target-rvmanycore %{ diff %t.ref %t.out.t %}
// RUN: %if qemu-riscv64 && built-target-rvmanycore %{ FileCheck --check-prefix=MIG %s < %t.err.t %}
// RUN: %if qemu-riscv64 && built-target-rvmanycore %{ FileCheck --check-prefix=TT %s < %t.err.t %}
// DUMP: state _Z10gridstridePjPKji: 2 safe points
// DUMP-NEXT: safepoint 0 entry: 0 slots, 0 bytes
// DUMP-NEXT: safepoint 1 thread-loop:
// DUMP: state _Z7collatzPji:
// DUMP-NEXT: safepoint 0 entry: 0 slots, 0 bytes
// DUMP-NEXT: safepoint 1 thread-loop:
// DUMP: state _Z5mixedPji:
// DUMP: loop-latch
// DUMP: thread-loop
// REF: gridstride ok
// REF: collatz ok
// REF: mixed ok
// MIXED: hetgpu-migrate: _Z5mixedPji suspended (1 of 1 blocks at a safe point)
// MIXED-NOT: _Z5mixedPji: {{.*}} per-thread
// MIXED: hetgpu-migrate: _Z5mixedPji suspended (1 of 1 blocks at a safe point)
// MIXED: hetgpu-migrate: _Z5mixedPji: {{[1-9][0-9]*}} threads suspended at per-thread safe points
// MIG-DAG: hetgpu-migrate: _Z10gridstridePjPKji suspended ({{[1-9]}} of 2 blocks at a safe point)
// MIG-DAG: hetgpu-migrate: _Z10gridstridePjPKji: {{[1-9][0-9]*}} threads suspended at per-thread safe points
// MIG-DAG: hetgpu-migrate: _Z7collatzPji suspended (1 of 1 blocks at a safe point)
// MIG-DAG: hetgpu-migrate: _Z7collatzPji: {{[1-9][0-9]*}} threads suspended at per-thread safe points
// (Which kernel moves where depends on how often the grid-stride launch
// suspends; the first suspension goes to OpenCL, the next back.)
// OCL: hetgpu-migrate: {{.*}} suspended {{.*}} resumed on device 0: {{.*}}(opencl)
// OCL: hetgpu-migrate: {{.*}} suspended {{.*}} resumed on device 0: {{.*}}(cpu)
// TT-DAG: hetgpu-migrate: _Z10gridstridePjPKji suspended {{.*}} resumed on device 0: tt-sim{{.*}}(tt-sim)
// TT-DAG: hetgpu-migrate: _Z7collatzPji suspended {{.*}} resumed on device 0: tt-sim{{.*}}(tt-sim)
#include <cstdio>
#include <vector>

__global__ void gridstride(unsigned *y, const unsigned *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = y[i] * 3u + x[i];
}

// Collatz steps of the values [1 + id * m, 1 + (id + 1) * m): a while loop
// whose trip count depends on the data, inside a loop whose bounds depend
// on the thread.
__global__ void collatz(unsigned *out, int m) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned steps = 0;
  for (unsigned long long v = 1ull + id * (unsigned long long)m;
       v < 1ull + (id + 1ull) * m; ++v) {
    unsigned long long x = v;
    while (x != 1) {
      x = (x & 1) ? 3 * x + 1 : x >> 1;
      ++steps;
    }
  }
  out[id] = out[id] * 5u + steps;
}

// A block-uniform loop (its safe point saves at record offset 0, where the
// per-thread word of the later loop lives), then a loop whose trip count
// depends on the thread: both kinds in one kernel.
__global__ void mixed(unsigned *out, int reps) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = out[id];
  for (int r = 0; r < reps; ++r)
    v = v * 1664525u + (unsigned)r;
  for (unsigned k = 0; k < id * 1024u; ++k)
    v = v * 3u + k;
  out[id] = v;
}

static unsigned mixedRef(unsigned v, unsigned id, int reps) {
  for (int r = 0; r < reps; ++r)
    v = v * 1664525u + (unsigned)r;
  for (unsigned k = 0; k < id * 1024u; ++k)
    v = v * 3u + k;
  return v;
}

static unsigned collatzRef(unsigned id, int m) {
  unsigned steps = 0;
  for (unsigned long long v = 1ull + id * (unsigned long long)m;
       v < 1ull + (id + 1ull) * m; ++v)
    for (unsigned long long x = v; x != 1; ++steps)
      x = (x & 1) ? 3 * x + 1 : x >> 1;
  return steps;
}

int main() {
  const int N = 1 << 19, Threads = 128, M = 32;
  std::vector<unsigned> X(N), Y(N), Out(Threads);
  for (int i = 0; i < N; ++i) {
    X[i] = 7u * i + 1;
    Y[i] = 3u * i + 5;
  }
  for (int t = 0; t < Threads; ++t)
    Out[t] = 11u * t + 2;
  unsigned *dX, *dY, *dOut;
  cudaMalloc(&dX, N * sizeof(unsigned));
  cudaMalloc(&dY, N * sizeof(unsigned));
  cudaMalloc(&dOut, Threads * sizeof(unsigned));
  cudaMemcpy(dX, X.data(), N * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(dY, Y.data(), N * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(dOut, Out.data(), Threads * sizeof(unsigned),
             cudaMemcpyHostToDevice);
  gridstride<<<2, Threads>>>(dY, dX, N);
  collatz<<<1, Threads>>>(dOut, M);
  unsigned *dMix;
  cudaMalloc(&dMix, Threads * sizeof(unsigned));
  cudaMemcpy(dMix, Out.data(), Threads * sizeof(unsigned),
             cudaMemcpyHostToDevice);
  mixed<<<1, Threads>>>(dMix, 65536);
  std::vector<unsigned> RY(N), ROut(Threads), RMix(Threads);
  cudaMemcpy(RMix.data(), dMix, Threads * sizeof(unsigned),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(RY.data(), dY, N * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(ROut.data(), dOut, Threads * sizeof(unsigned),
             cudaMemcpyDeviceToHost);
  int Bad = 0;
  for (int i = 0; i < N; ++i)
    Bad += RY[i] != Y[i] * 3u + X[i];
  printf("gridstride %s\n", Bad ? "WRONG" : "ok");
  Bad = 0;
  for (int t = 0; t < Threads; ++t)
    Bad += ROut[t] != Out[t] * 5u + collatzRef(t, M);
  printf("collatz %s\n", Bad ? "WRONG" : "ok");
  Bad = 0;
  for (int t = 0; t < Threads; ++t)
    Bad += RMix[t] != mixedRef(Out[t], t, 65536);
  printf("mixed %s\n", Bad ? "WRONG" : "ok");
  unsigned long long Sum = 0;
  for (int i = 0; i < N; ++i)
    Sum += RY[i];
  for (int t = 0; t < Threads; ++t)
    Sum += ROut[t] + RMix[t];
  printf("sum %llu\n", Sum);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
