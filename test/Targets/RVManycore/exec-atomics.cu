// Atomics from many cores on shared DRAM: integer read-modify-write ops
// lower to A-extension AMOs, float atomicAdd and atomicCAS to LR/SC loops.
// RUN: %hetir %s -o %t.bc
// RUN: %rvmc_image %t.bc -o %t.elf
// RUN: llvm-objdump -d %t.elf | FileCheck --check-prefix=ISA %s
// ISA-DAG: amoadd.w
// ISA-DAG: amomax.w
// ISA-DAG: lr.w
// ISA-DAG: sc.w
// RUN: env HETGPU_TTSIM_CORES=4 hetgpu-ttsim-run %t.elf _Z1kPiPf --grid 32 \
// RUN:   --block 16 buf:i32:4 buf:f32:1 --print 0 --print 1 | FileCheck %s
// CHECK: param 0: 512 511 512 1024
// CHECK: param 1: 256
// REQUIRES: qemu-riscv64

__global__ void k(int *ip, float *fp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&ip[0], 1);
  atomicMax(&ip[1], i);
  int old = ip[2];
  int seen;
  while ((seen = atomicCAS(&ip[2], old, old + 1)) != old)
    old = seen;
  atomicOr(&ip[3], 0);
  atomicAdd(&ip[3], 2);
  atomicAdd(fp, 0.5f);
}
