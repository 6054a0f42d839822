// Atomics from many cores on shared DRAM: integer read-modify-write ops
// lower to A-extension AMOs (32- and 64-bit), float/double atomicAdd and
// atomicCAS to LR/SC loops.
// RUN: %hetir %s -o %t.bc
// RUN: %rvmc_image %t.bc -o %t.elf
// RUN: llvm-objdump -d %t.elf | FileCheck --check-prefix=ISA %s
// ISA-DAG: amoadd.w
// ISA-DAG: amomax.w
// ISA-DAG: lr.w
// ISA-DAG: sc.w
// ISA-DAG: amoadd.d
// ISA-DAG: lr.d
// RUN: env HETGPU_TTSIM_CORES=4 hetgpu-ttsim-run %t.elf _Z1kPiPf --grid 32 \
// RUN:   --block 16 buf:i32:8 buf:f32:1 --print 0 --print 1 | FileCheck %s
// CHECK: param 0: 512 511 512 1024 512 0 0 1081081856{{$}}
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
  // 64-bit: a counter (512) and a double (256.0 = 0x40700000'00000000,
  // printed as two i32 words), in the buffer's upper half.
  atomicAdd((unsigned long long *)&ip[4], 1ull);
  atomicAdd((double *)&ip[6], 0.5);
}
