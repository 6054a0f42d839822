// Static and dynamic shared memory live in the core's 1.5 MiB SRAM: a block
// that fits runs, one that needs more is refused before any core starts.
// RUN: %hetir %s -o %t.bc
// RUN: %rvmc_image %t.bc -o %t.elf
// RUN: env HETGPU_TTSIM_CORES=2 hetgpu-ttsim-run %t.elf _Z1kPii --grid 2 \
// RUN:   --block 64 --dyn-shared 524288 buf:i32:128 i32:131072 --print 0 \
// RUN:   | FileCheck %s
// CHECK: param 0: 0 1 2 3 {{.*}} 62 63 1000 1001 {{.*}} 1063{{$}}
// 1 MiB static + 600 KiB dynamic is more than a core has.
// RUN: not env HETGPU_TTSIM_CORES=2 hetgpu-ttsim-run %t.elf _Z1kPii --grid 2 \
// RUN:   --block 64 --dyn-shared 614400 buf:i32:128 i32:153600 2>&1 \
// RUN:   | FileCheck --check-prefix=ERR %s
// ERR: tt-sim: kernel '_Z1kPii' needs 1662976 bytes of shared memory (1048576 static + 614400 dynamic); a core's SRAM has 1572864
// REQUIRES: qemu-riscv64

__shared__ int big[262144]; // 1 MiB

__global__ void k(int *out, int n) {
  extern __shared__ int dyn[];
  int t = threadIdx.x;
  big[t * 4096] = t + 1000 * blockIdx.x;
  dyn[n - 1 - t] = big[t * 4096];
  out[blockIdx.x * blockDim.x + t] = dyn[n - 1 - t];
}
