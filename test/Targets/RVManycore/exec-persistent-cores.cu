// Cores are persistent: a module's first launch starts its qemu-riscv64
// core processes and every later launch reuses them (50 launches on 4 cores
// start 4 cores), while HETGPU_TTSIM_PERSISTENT=0 starts the cores of every
// launch anew (3 launches start 12). Both count every block of every launch
// in a __device__ variable, so each launch ran completely.
// RUN: %hetir %s -o %t.bc
// RUN: %rvmc_image %t.bc -o %t.elf
// RUN: env HETGPU_LOG=info HETGPU_TTSIM_CORES=4 hetgpu-ttsim-run %t.elf \
// RUN:   _Z5countPi --launches 50 --grid 8 --block 32 buf:i32:8 \
// RUN:   --global blocks:i32:1 2>&1 | FileCheck --check-prefix=KEEP %s
// KEEP-COUNT-4: tt-sim: started core {{[0-3]}} (pid {{[0-9]+}}) for the module
// KEEP-NOT: started core
// KEEP: blocks: 400{{$}}
// RUN: env HETGPU_LOG=info HETGPU_TTSIM_CORES=4 HETGPU_TTSIM_PERSISTENT=0 \
// RUN:   hetgpu-ttsim-run %t.elf _Z5countPi --launches 3 --grid 8 --block 32 \
// RUN:   buf:i32:8 --global blocks:i32:1 2>&1 | FileCheck --check-prefix=ONCE %s
// ONCE-COUNT-12: tt-sim: started core {{[0-3]}} (pid {{[0-9]+}}) for one launch
// ONCE-NOT: started core
// ONCE: blocks: 24{{$}}
// REQUIRES: qemu-riscv64

__device__ int blocks;

__global__ void count(int *last) {
  if (threadIdx.x == 0) {
    atomicAdd(&blocks, 1);
    last[blockIdx.x] = blockIdx.x;
  }
}
