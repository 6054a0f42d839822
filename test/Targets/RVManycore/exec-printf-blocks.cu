// printf from many blocks on several cores: every record arrives once.
// RUN: %hetir %s -o %t.bc
// RUN: %rvmc_image %t.bc -o %t.elf
// RUN: env HETGPU_TTSIM_CORES=4 hetgpu-ttsim-run %t.elf _Z1kv --grid 16 \
// RUN:   --block 4 | sort -n -k2,2 -k4,4 | FileCheck %s
// CHECK: block 0 thread 0
// CHECK-NEXT: block 0 thread 3
// CHECK: block 15 thread 3
// CHECK-NOT: block
// RUN: env HETGPU_TTSIM_CORES=4 hetgpu-ttsim-run %t.elf _Z1kv --grid 16 \
// RUN:   --block 4 | wc -l | FileCheck --check-prefix=COUNT %s
// COUNT: {{^ *}}32{{$}}
// REQUIRES: qemu-riscv64

__global__ void k() {
  if (threadIdx.x == 0 || threadIdx.x == 3)
    printf("block %d thread %d\n", blockIdx.x, threadIdx.x);
}
