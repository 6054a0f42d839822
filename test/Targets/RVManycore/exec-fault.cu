// A kernel that stores through a bad pointer kills its core process: the
// launch fails and names the core and the signal.
// RUN: %hetir %s -o %t.bc
// RUN: %rvmc_image %t.bc -o %t.elf
// RUN: not env HETGPU_TTSIM_CORES=1 hetgpu-ttsim-run %t.elf _Z1kPi \
// RUN:   --grid 1 --block 1 i64:16 2>&1 | FileCheck %s
// CHECK: hetgpu-ttsim-run: launch: tt-sim: core 0 of the launch of '_Z1kPi' was killed by signal 11
// REQUIRES: qemu-riscv64

__global__ void k(int *p) { *p = 1; }
