// Cooperative launch: cudaLaunchCooperativeKernel with a grid-wide barrier
// (cg::this_grid().sync()) between phases that read other blocks' results,
// twice; a loop with two grid barriers per iteration, with a register and
// shared memory live across every barrier; the device attribute; a grid
// larger than the device runs at once is refused with
// cudaErrorCooperativeLaunchTooLarge. The CPU device runs each block of a
// cooperative launch on a thread of its own (8 blocks on a machine of 2
// workers); tt-sim one block per core. OpenCL promises no work-groups
// running at once (PoCL runs the two groups of its two units one after the
// other): there each grid barrier ends a round of the launch (every block
// saves its state and ends; the next round resumes them after the
// barrier), so any grid the occupancy calculator allows runs, 8 blocks on
// 2 units too, and an ordinary launch of such a kernel as well. Under
// HETGPU_MEMCHECK the OpenCL translation has no rounds: the attribute is 0
// and the launch is refused with cudaErrorNotSupported.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// One block per multiprocessor (the first run is the one the end-to-end
// suites take to the other devices), then 8 on the CPU device and on
// OpenCL (with an ordinary launch of the ring kernel there).
// RUN: env HETGPU_DEVICE=cpu %t sm | FileCheck %s
// RUN: env HETGPU_DEVICE=cpu %t 8 | FileCheck %s
// Under live migration the kernels are instrumented; a cooperative launch
// is not migrated but runs as it is (it crashed before: no hidden
// arguments).
// RUN: env HETGPU_MIGRATE=on HETGPU_DEVICE=cpu %t 8 | FileCheck %s
// RUN: %if qemu-riscv64 %{ env HETGPU_DEVICE=tt-sim %t sm | FileCheck %s %}
// RUN: %if pocl %{ env HETGPU_DEVICE=opencl %t sm | FileCheck %s %}
// RUN: %if pocl %{ env HETGPU_DEVICE=opencl %t 8 plain | FileCheck --check-prefixes=CHECK,PLAIN %s %}
// RUN: %if pocl %{ env HETGPU_DEVICE=opencl HETGPU_MEMCHECK=1 %t sm | FileCheck --check-prefix=NONE %s %}
// CHECK: attribute 1
// CHECK-NEXT: phases ok
// CHECK-NEXT: ring ok
// CHECK-NEXT: too large: cudaErrorCooperativeLaunchTooLarge
// PLAIN-NEXT: plain ring ok
// NONE: attribute 0
// NONE-NEXT: refused: cudaErrorNotSupported
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
namespace cg = cooperative_groups;

constexpr int Threads = 64;

__global__ void phases(int *a, int *b, long long *sum, int *valid) {
  cg::grid_group g = cg::this_grid();
  int n = int(g.size()), i = int(g.thread_rank());
  a[i] = 3 * i + 1;
  g.sync();
  // The next block's first element: written by another block.
  b[i] = a[(i + Threads) % n] - a[i];
  g.sync();
  if (i == 0) {
    long long s = 0;
    for (int k = 0; k < n; ++k)
      s += b[k];
    *sum = s;
    *valid = g.is_valid();
  }
}

// Iteration k: every thread takes the value the next block's thread held
// after iteration k - 1 (grid barrier), stores it plus one (grid barrier),
// and sums what it took in a register; a shared array written before the
// loop is read (another thread's element) after it.
__global__ void ring(int *buf, long long *out, int iters) {
  __shared__ int mark[Threads];
  cg::grid_group g = cg::this_grid();
  int n = int(g.size()), i = int(g.thread_rank());
  mark[threadIdx.x] = 7 * i + 3;
  buf[i] = i;
  long long took = 0;
  g.sync();
  for (int k = 0; k < iters; ++k) {
    int v = buf[(i + Threads) % n];
    g.sync();
    buf[i] = v + 1;
    took += v;
    g.sync();
  }
  out[i] = took * 1000 + mark[threadIdx.x ^ 1];
}

/// The ring kernel run on the host, compared element by element.
bool ringMatches(const long long *got, int n, int iters) {
  std::vector<int> buf(n);
  std::vector<long long> took(n, 0);
  for (int i = 0; i < n; ++i)
    buf[i] = i;
  for (int k = 0; k < iters; ++k) {
    std::vector<int> next(n);
    for (int i = 0; i < n; ++i) {
      int v = buf[(i + Threads) % n];
      next[i] = v + 1;
      took[i] += v;
    }
    buf = next;
  }
  for (int i = 0; i < n; ++i) {
    long long want = took[i] * 1000 + 7 * (i ^ 1) + 3;
    if (got[i] != want) {
      std::printf("ring: element %d is %lld, want %lld\n", i, got[i], want);
      return false;
    }
  }
  return true;
}

int main(int argc, char **argv) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int attr = -1;
  cudaDeviceGetAttribute(&attr, cudaDevAttrCooperativeLaunch, 0);
  std::printf("attribute %d\n", attr);
  int blocks = argc > 1 && std::strcmp(argv[1], "sm") == 0
                   ? prop.multiProcessorCount
                   : std::atoi(argc > 1 ? argv[1] : "8");
  int n = blocks * Threads;
  int *a, *b, *valid;
  long long *sum;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMalloc(&sum, sizeof(long long));
  cudaMalloc(&valid, sizeof(int));
  void *args[] = {&a, &b, &sum, &valid};
  if (attr == 0) {
    cudaError_t r = cudaLaunchCooperativeKernel(
        (const void *)phases, dim3(1), dim3(Threads), args, 0, 0);
    std::printf("refused: %s\n", cudaGetErrorName(r));
    return 0;
  }
  cudaError_t e = cudaLaunchCooperativeKernel((const void *)phases, dim3(blocks),
                                              dim3(Threads), args, 0, 0);
  cudaError_t s = cudaDeviceSynchronize();
  long long got = 0;
  int v = 0;
  cudaMemcpy(&got, sum, sizeof got, cudaMemcpyDeviceToHost);
  cudaMemcpy(&v, valid, sizeof v, cudaMemcpyDeviceToHost);
  // Sum of a[i + Threads] - a[i] around the ring: 3 * Threads per element
  // but the last block's, which wraps to the first (-(n - Threads) * 3).
  long long want = 0;
  for (int i = 0; i < n; ++i)
    want += (3LL * ((i + Threads) % n) + 1) - (3LL * i + 1);
  if (e != cudaSuccess || s != cudaSuccess || got != want || v != 1)
    std::printf("phases: launch %s, sync %s, sum %lld want %lld, valid %d\n",
                cudaGetErrorName(e), cudaGetErrorName(s), got, want, v);
  else
    std::printf("phases ok\n");
  int *buf;
  long long *out;
  int iters = 5;
  cudaMalloc(&buf, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(long long));
  cudaMemset(out, 0, n * sizeof(long long));
  void *ringArgs[] = {&buf, &out, &iters};
  e = cudaLaunchCooperativeKernel((const void *)ring, dim3(blocks),
                                  dim3(Threads), ringArgs, 0, 0);
  s = cudaDeviceSynchronize();
  std::vector<long long> ringOut(n);
  cudaMemcpy(ringOut.data(), out, n * sizeof(long long),
             cudaMemcpyDeviceToHost);
  if (e != cudaSuccess || s != cudaSuccess)
    std::printf("ring: launch %s, sync %s\n", cudaGetErrorName(e),
                cudaGetErrorName(s));
  else if (ringMatches(ringOut.data(), n, iters))
    std::printf("ring ok\n");
  e = cudaLaunchCooperativeKernel((const void *)phases, dim3(1 << 20),
                                  dim3(Threads), args, 0, 0);
  std::printf("too large: %s\n", cudaGetErrorName(e));
  // OpenCL runs a kernel with grid barriers in rounds in an ordinary launch
  // too (elsewhere it would wait forever unless every block is resident).
  if (argc > 2 && std::strcmp(argv[2], "plain") == 0) {
    cudaMemset(out, 0, n * sizeof(long long));
    ring<<<blocks, Threads>>>(buf, out, iters);
    s = cudaDeviceSynchronize();
    cudaMemcpy(ringOut.data(), out, n * sizeof(long long),
               cudaMemcpyDeviceToHost);
    if (s != cudaSuccess)
      std::printf("plain ring: %s\n", cudaGetErrorName(s));
    else if (ringMatches(ringOut.data(), n, iters))
      std::printf("plain ring ok\n");
  }
  return 0;
}
