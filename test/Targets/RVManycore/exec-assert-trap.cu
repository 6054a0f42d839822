// A failed device assert stops the launch with the message, the kernel, the
// block and the core; __trap() is a launch failure. Other cores stop taking
// blocks.
// RUN: %hetir %s -o %t.bc
// RUN: %rvmc_image %t.bc -o %t.elf
// RUN: not env HETGPU_TTSIM_CORES=4 hetgpu-ttsim-run %t.elf _Z7checkerPii \
// RUN:   --grid 8 --block 16 buf:i32:128:iota i32:37 2>&1 | FileCheck %s
// CHECK: {{.*}}exec-assert-trap.cu:[[#@LINE+16]]: {{.*}}checker{{.*}}: block: [2,0,0], thread: [?,?,?] Assertion `p[i] != bad` failed.
// CHECK: hetgpu-ttsim-run: launch: tt-sim: {{.*}}Assertion{{.*}} (kernel '_Z7checkerPii', block 2, core {{[0-9]+}})
// Without the bad value the same kernel passes.
// RUN: env HETGPU_TTSIM_CORES=4 hetgpu-ttsim-run %t.elf _Z7checkerPii \
// RUN:   --grid 8 --block 16 buf:i32:128:iota i32:-1 2>&1 \
// RUN:   | FileCheck --check-prefix=OK --allow-empty %s
// OK-NOT: Assertion
// RUN: not env HETGPU_TTSIM_CORES=2 hetgpu-ttsim-run %t.elf _Z7trapperv \
// RUN:   --grid 4 --block 1 2>&1 | FileCheck --check-prefix=TRAP %s
// TRAP: hetgpu-ttsim-run: launch: tt-sim: __trap() called (kernel '_Z7trapperv', block 3, core {{[0-9]+}})
// REQUIRES: qemu-riscv64

#include <assert.h>

__global__ void checker(int *p, int bad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(p[i] != bad);
}

__global__ void trapper() {
  if (blockIdx.x == 3)
    __trap();
}
