// Per-thread state that does not fit in core SRAM goes to DRAM. Each thread
// keeps a 2 KiB array live across __syncthreads, so the block executor
// holds it in the thread's frame: for 128 threads (256 KiB) the frames sit
// in SRAM after the shared memory (where = 1: the 1.5 MiB at 0x08000000),
// for 1024 threads (2 MiB, more than the SRAM) in the core's spill area in
// device DRAM (where = 2: from 0x10_0000_0000); both compute the same sums. Shared memory itself
// never spills: exec-shared-sram.cu.
// RUN: %hetir %s -o %t.bc
// RUN: %rvmc_image %t.bc -o %t.elf
// RUN: env HETGPU_TTSIM_CORES=2 hetgpu-ttsim-run %t.elf _Z1kPjS_i --grid 4 \
// RUN:   --block 128 buf:u32:512 buf:u32:512 i32:512 --print 0 --print 1 \
// RUN:   | FileCheck --check-prefix=SRAM %s
// SRAM: param 0: 130816 131328 131840 {{.*}} 195328 195840 130816 {{.*}} 195840{{$}}
// SRAM: param 1: 1 1 1 {{(1 )*}}1{{$}}
// RUN: env HETGPU_TTSIM_CORES=2 hetgpu-ttsim-run %t.elf _Z1kPjS_i --grid 4 \
// RUN:   --block 1024 buf:u32:4096 buf:u32:4096 i32:512 --print 0 --print 1 \
// RUN:   | FileCheck --check-prefix=DRAM %s
// DRAM: param 0: 130816 131328 131840 {{.*}} 654080 654592 130816 {{.*}} 654592{{$}}
// DRAM: param 1: 2 2 2 {{(2 )*}}2{{$}}
// REQUIRES: qemu-riscv64

__global__ void k(unsigned *sum, unsigned *where, int n) {
  unsigned local[512];
  for (int i = 0; i < n; ++i)
    local[i] = threadIdx.x + i;
  __syncthreads();
  unsigned s = 0;
  for (int i = 0; i < n; ++i)
    s += local[(i * 7) % n];
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  sum[t] = s;
  unsigned long long a = (unsigned long long)local;
  where[t] = a >= 0x08000000ull && a < 0x08180000ull ? 1
             : a >= 0x1000000000ull                  ? 2
                                                     : 0;
}
