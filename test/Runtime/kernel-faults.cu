// Kernel faults are errors, not deaths: a wild store or load, a store
// through NULL and a stack overflow end the launch with the sticky
// cudaErrorIllegalAddress (700, as an H200 reports them); the process lives,
// every later call that touches the device returns the error, and
// cudaGetLastError clears the last error (CUDA 13). Faults outside kernels
// stay crashes: the runtime's handlers chain to the one installed before
// them, or to the default action. Integer division by zero has the H200's
// values (measured with nvcc 13.0) and does not trap.
// REQUIRES: built-target-host
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t divide | FileCheck %s --check-prefix=DIV
// RUN: env HETGPU_DEVICE=cpu %t store 2>%t.store | FileCheck %s --check-prefixes=CHECK,STORE
// RUN: FileCheck %s --check-prefix=MSG-STORE < %t.store
// RUN: env HETGPU_DEVICE=cpu %t null | FileCheck %s --check-prefixes=CHECK,NULL
// RUN: env HETGPU_DEVICE=cpu %t load | FileCheck %s --check-prefixes=CHECK,LOAD
// RUN: env HETGPU_DEVICE=cpu HETGPU_CPU_STACK_MB=16 %t stack 2>%t.stack | FileCheck %s --check-prefixes=CHECK,STACK
// RUN: FileCheck %s --check-prefix=MSG-STACK < %t.stack
// RUN: env HETGPU_DEVICE=cpu %t blocks | FileCheck %s --check-prefixes=CHECK,BLOCKS
// RUN: env HETGPU_DEVICE=cpu %t chain | FileCheck %s --check-prefix=CHAIN
// RUN: env HETGPU_DEVICE=cpu not --crash %t host-crash 2>&1 | FileCheck %s --check-prefix=CRASH
// RUN: %if qemu-riscv64 %{ env HETGPU_DEVICE=tt-sim %t store | FileCheck %s --check-prefixes=CHECK,STORE %}
// RUN: %if qemu-riscv64 %{ env HETGPU_DEVICE=tt-sim %t divide | FileCheck %s --check-prefix=DIV %}
// RUN: %if pocl %{ env HETGPU_DEVICE=opencl %t divide | FileCheck %s --check-prefix=DIV %}
//
// CHECK: launch: 0
// STORE-NEXT: sync: 700 cudaErrorIllegalAddress
// NULL-NEXT: sync: 700 cudaErrorIllegalAddress
// LOAD-NEXT: sync: 700 cudaErrorIllegalAddress
// STACK-NEXT: sync: 700 cudaErrorIllegalAddress
// BLOCKS-NEXT: sync: 700 cudaErrorIllegalAddress
// CHECK-NEXT: last: 700
// CHECK-NEXT: last again: 0
// CHECK-NEXT: malloc: 700
// CHECK-NEXT: memcpy: 700
// CHECK-NEXT: launch after: 700
// CHECK-NEXT: alive
// MSG-STORE: hetgpu: error: kernel {{.*}}wildStore{{.*}}, block [0,0,0]: illegal address 0x{{[0-9a-f]+}} (SIGSEGV)
// MSG-STACK: hetgpu: error: kernel {{.*}}recurse{{.*}}, block [0,0,0]: stack overflow
//
// DIV: 32-bit 7/0: ffffffff 7 ffffffff 7
// DIV-NEXT: 32-bit -7/0: ffffffff fffffff9 ffffffff fffffff9
// DIV-NEXT: 32-bit min/-1: 80000000 0
// DIV-NEXT: 64-bit 7/0: ffffffff 7 ffffffff 7
// DIV-NEXT: 64-bit -7/0: ffffffffffffffff fffffffffffffff9 ffffffffffffffff fffffffffffffff9
// DIV-NEXT: 64-bit min/-1: 8000000000000000 0
// DIV-NEXT: errors: 0
//
// CHAIN: launch: 0
// CHAIN-NEXT: sync: 700
// CHAIN-NEXT: host fault next
// CHAIN-NEXT: the program's own handler ran for a host fault
//
// CRASH: host fault next
// CRASH-NOT: alive
#include <cuda_runtime.h>

#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

__global__ void wildStore(int *p, long long off) { p[off] = 1; }
__global__ void wildLoad(int *p, long long off, int *out) { *out = p[off]; }

__device__ int deep(volatile int *p, int n) {
  volatile int local[8];
  for (int i = 0; i < 8; ++i)
    local[i] = p[i] + n;
  if (n == 0)
    return local[0];
  int r = deep(p, n - 1); // the frame lives on: no loop can replace it
  return r + local[(r + n) & 7];
}
__global__ void recurse(int *p, int n) { p[0] = deep(p, n); }

// Block 37 of 64 stores 4 GiB past the allocation; the others write theirs.
__global__ void oneBadBlock(int *p) {
  long long off = blockIdx.x == 37 ? (1ll << 30) : blockIdx.x;
  p[off] = 1;
}

__global__ void divide(int a, int b, long long la, long long lb, int *i32,
                       unsigned *u32, long long *i64,
                       unsigned long long *u64) {
  i32[0] = a / b;
  i32[1] = a % b;
  u32[0] = unsigned(a) / unsigned(b);
  u32[1] = unsigned(a) % unsigned(b);
  i64[0] = la / lb;
  i64[1] = la % lb;
  u64[0] = (unsigned long long)la / (unsigned long long)lb;
  u64[1] = (unsigned long long)la % (unsigned long long)lb;
}

static int faultRun(const char *Mode) {
  int *D;
  cudaMalloc(&D, 64 * sizeof(int));
  cudaMemset(D, 0, 64 * sizeof(int));
  if (!strcmp(Mode, "store"))
    wildStore<<<1, 1>>>(D, 1ll << 30); // 4 GiB past the allocation
  else if (!strcmp(Mode, "null"))
    wildStore<<<1, 1>>>(nullptr, 0);
  else if (!strcmp(Mode, "load"))
    wildLoad<<<1, 1>>>(D, -(1ll << 32), D); // 2^34 bytes before it
  else if (!strcmp(Mode, "stack"))
    recurse<<<1, 1>>>(D, 1000000); // 10^6 frames on a 16 MiB stack
  else
    oneBadBlock<<<64, 1>>>(D);
  printf("launch: %d\n", int(cudaGetLastError()));
  cudaError_t E = cudaDeviceSynchronize();
  printf("sync: %d %s\n", int(E), cudaGetErrorName(E));
  printf("last: %d\n", int(cudaGetLastError()));
  printf("last again: %d\n", int(cudaGetLastError()));
  void *P;
  printf("malloc: %d\n", int(cudaMalloc(&P, 16)));
  int H = 0;
  printf("memcpy: %d\n",
         int(cudaMemcpy(&H, D, sizeof(H), cudaMemcpyDeviceToHost)));
  wildStore<<<1, 1>>>(D, 0);
  printf("launch after: %d\n", int(cudaGetLastError()));
  printf("alive\n");
  return 0;
}

static int divideRun() {
  int *I32;
  unsigned *U32;
  long long *I64;
  unsigned long long *U64;
  cudaMallocManaged(&I32, 8);
  cudaMallocManaged(&U32, 8);
  cudaMallocManaged(&I64, 16);
  cudaMallocManaged(&U64, 16);
  struct {
    const char *Name;
    int A, B;
    long long LA, LB;
  } Rows[] = {{"7/0", 7, 0, 7, 0},
              {"-7/0", -7, 0, -7, 0},
              {"min/-1", INT_MIN, -1, LLONG_MIN, -1}};
  int Errors = 0;
  for (auto &R : Rows) {
    divide<<<1, 1>>>(R.A, R.B, R.LA, R.LB, I32, U32, I64, U64);
    Errors += cudaDeviceSynchronize() != cudaSuccess;
    if (R.B == -1)
      printf("32-bit %s: %x %x\n", R.Name, unsigned(I32[0]), unsigned(I32[1]));
    else
      printf("32-bit %s: %x %x %x %x\n", R.Name, unsigned(I32[0]),
             unsigned(I32[1]), U32[0], U32[1]);
  }
  for (auto &R : Rows) {
    divide<<<1, 1>>>(R.A, R.B, R.LA, R.LB, I32, U32, I64, U64);
    Errors += cudaDeviceSynchronize() != cudaSuccess;
    if (R.B == -1)
      printf("64-bit %s: %llx %llx\n", R.Name, (unsigned long long)I64[0],
             (unsigned long long)I64[1]);
    else
      printf("64-bit %s: %llx %llx %llx %llx\n", R.Name,
             (unsigned long long)I64[0], (unsigned long long)I64[1], U64[0],
             U64[1]);
  }
  printf("errors: %d\n", Errors);
  return 0;
}

static void programHandler(int) {
  const char Msg[] = "the program's own handler ran for a host fault\n";
  if (write(1, Msg, sizeof(Msg) - 1) < 0)
    _exit(2);
  _exit(0);
}

int main(int Argc, char **Argv) {
  const char *Mode = Argc > 1 ? Argv[1] : "store";
  if (!strcmp(Mode, "divide"))
    return divideRun();
  if (!strcmp(Mode, "chain") || !strcmp(Mode, "host-crash")) {
    // A handler installed before the runtime's runs for faults outside
    // kernels; without one, a host fault is the crash it always was.
    if (!strcmp(Mode, "chain"))
      signal(SIGSEGV, programHandler);
    int *D;
    cudaMalloc(&D, 16);
    wildStore<<<1, 1>>>(D, 1ll << 30);
    printf("launch: %d\n", int(cudaGetLastError()));
    printf("sync: %d\n", int(cudaDeviceSynchronize()));
    printf("host fault next\n");
    fflush(stdout);
    volatile int *Null = nullptr;
    *Null = 1;
    printf("alive\n");
    return 0;
  }
  return faultRun(Mode);
}
