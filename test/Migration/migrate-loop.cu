// Loop safe points (docs/LoopSafePoints.md): a kernel without barriers whose
// long loop runs the same number of times in every thread (the trip count
// is a kernel argument) is suspended in the loop at random points (seeds
// that draw a visit within the launches), resumed (also CPU -> OpenCL ->
// CPU where PoCL is there) and computes what an unmigrated run computes.
// The grid-stride kernel gets no block-uniform loop safe point (its loop is
// not block-uniform) but a per-thread one (test/Migration/thread-loops.cu);
// it is suspended at block entry or per thread and still computes the same. A warp shuffle after the loop
// does not keep the loop from being suspended.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// The container records the loop safe point, with the per-thread value and
// the loop counters live there.
// RUN: hetgpu-cc -c %s -o %t.o
// RUN: hetgpu-objdump %t.o | FileCheck --check-prefix=DUMP %s
// (clang unrolls the loop: the unrolled body and the remainder loop each
// get one.)
// DUMP: state _Z7iteratePjii: 3 safe points
// DUMP-NEXT: safepoint 0 entry: 0 slots, 0 bytes
// DUMP-NEXT: safepoint 1 loop-latch:
// DUMP: safepoint 2 loop-latch:
// DUMP: state _Z12iterate_shflPji: 3 safe points
// DUMP-NEXT: safepoint 0 entry: 0 slots, 0 bytes
// DUMP-NEXT: safepoint 1 loop-latch:
// DUMP: state _Z10gridstridePji: 2 safe points
// DUMP-NEXT: safepoint 0 entry: 0 slots, 0 bytes
// DUMP-NEXT: safepoint 1 thread-loop:
// DUMP-NOT: loop-latch
// RUN: env HETGPU_DEVICE=cpu %t > %t.ref
// RUN: FileCheck --check-prefix=REF %s < %t.ref
// RUN: for s in 2 3 4 5 7 8 11; do \
// RUN:   env HETGPU_DEVICE=cpu HETGPU_MIGRATE=random:seed=$s:verbose %t > %t.out.$s 2> %t.err.$s || exit 1; \
// RUN:   diff %t.ref %t.out.$s || exit 1; \
// RUN:   grep -q 'hetgpu-migrate: _Z7iteratePjii suspended' %t.err.$s || exit 1; \
// RUN: done
// The kernel with a warp shuffle after its loop is suspended too, in at
// least one of the seeds (after the first suspension of a process a
// kernel's first launch is armed with probability 1/2).
// RUN: grep -q 'hetgpu-migrate: _Z12iterate_shflPji suspended' %t.err.2 %t.err.3 %t.err.4 %t.err.5 %t.err.7 %t.err.8 %t.err.11
// The time trigger stops the running loop too.
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=after_ms=1:verbose %t > %t.out.t 2> %t.err.t
// RUN: diff %t.ref %t.out.t
// RUN: grep -q 'hetgpu-migrate: _Z7iteratePjii suspended' %t.err.t
// To OpenCL (PoCL) and back.
// RUN: %if pocl && built-target-spirv %{ for s in 2 4 8; do \
// RUN:   env HETGPU_DEVICE=cpu HETGPU_MIGRATE=random:seed=$s:to=opencl,cpu:verbose %t > %t.out.o$s 2> %t.err.o$s || exit 1; \
// RUN:   diff %t.ref %t.out.o$s || exit 1; \
// RUN:   grep -q 'resumed on device 0: .*(opencl)$' %t.err.o$s || exit 1; \
// RUN: done %}
// REF: iterate ok
// REF: gridstride ok
// REF: iterate_shfl ok
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void iterate(unsigned *x, int iters, int salt) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = x[id];
  for (int i = 0; i < iters; ++i)
    v = v * 1664525u + (unsigned)i * 2654435761u + (unsigned)salt;
  x[id] = v;
}

// The loop qualifies although the kernel has a warp operation after it.
__global__ void iterate_shfl(unsigned *x, int iters) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = x[id];
  for (int i = 0; i < iters; ++i)
    v = v * 1103515245u + (unsigned)i;
  x[id] = v + __shfl_xor_sync(0xffffffffu, v, 1);
}

__global__ void gridstride(unsigned *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = y[i] * 3u + (unsigned)i;
}

static unsigned iterateRef(unsigned v, int iters, int salt) {
  for (int i = 0; i < iters; ++i)
    v = v * 1664525u + (unsigned)i * 2654435761u + (unsigned)salt;
  return v;
}

int main() {
  const int Blocks = 32, Threads = 64, Iters = 1 << 16, N = 100000;
  const int Total = Blocks * Threads;
  std::vector<unsigned> X(Total), Y(N);
  for (int i = 0; i < Total; ++i)
    X[i] = 7u * i + 1;
  for (int i = 0; i < N; ++i)
    Y[i] = i;
  unsigned *dX, *dY;
  cudaMalloc(&dX, Total * sizeof(unsigned));
  cudaMalloc(&dY, N * sizeof(unsigned));
  cudaMemcpy(dX, X.data(), Total * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(dY, Y.data(), N * sizeof(unsigned), cudaMemcpyHostToDevice);
  iterate<<<Blocks, Threads>>>(dX, Iters, 3);
  iterate<<<Blocks, Threads>>>(dX, Iters + 5, 11);
  gridstride<<<8, 64>>>(dY, N);
  std::vector<unsigned> Z(Total);
  for (int i = 0; i < Total; ++i)
    Z[i] = 5u * i + 2;
  unsigned *dZ;
  cudaMalloc(&dZ, Total * sizeof(unsigned));
  cudaMemcpy(dZ, Z.data(), Total * sizeof(unsigned), cudaMemcpyHostToDevice);
  iterate_shfl<<<Blocks, Threads>>>(dZ, Iters);
  std::vector<unsigned> RZ(Total);
  cudaMemcpy(RZ.data(), dZ, Total * sizeof(unsigned), cudaMemcpyDeviceToHost);
  std::vector<unsigned> RX(Total), RY(N);
  cudaMemcpy(RX.data(), dX, Total * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(RY.data(), dY, N * sizeof(unsigned), cudaMemcpyDeviceToHost);
  int Bad = 0;
  for (int i = 0; i < Total; ++i)
    Bad += RX[i] != iterateRef(iterateRef(X[i], Iters, 3), Iters + 5, 11);
  printf("iterate %s\n", Bad ? "WRONG" : "ok");
  unsigned long long Sum = 0;
  for (int i = 0; i < Total; ++i)
    Sum += RX[i];
  printf("iterate sum %llu\n", Sum);
  Bad = 0;
  for (int i = 0; i < N; ++i)
    Bad += RY[i] != Y[i] * 3u + (unsigned)i;
  printf("gridstride %s\n", Bad ? "WRONG" : "ok");
  std::vector<unsigned> W(Total);
  for (int i = 0; i < Total; ++i) {
    unsigned v = Z[i];
    for (int k = 0; k < Iters; ++k)
      v = v * 1103515245u + (unsigned)k;
    W[i] = v;
  }
  Bad = 0;
  for (int i = 0; i < Total; ++i)
    Bad += RZ[i] != W[i] + W[i ^ 1];
  printf("iterate_shfl %s\n", Bad ? "WRONG" : "ok");
  return 0;
}
