// Kernels with block barriers and warp operations run through the block
// executor on each core: a shared-memory tree reduction with
// __syncthreads() (values live across barriers in the thread frames, which
// sit in core SRAM), __syncthreads_count, and 32-lane shuffles, votes and
// ballots emulated exactly.
// RUN: %hetir %s -o %t.bc
// RUN: %rvmc_image %t.bc -o %t.elf
// Executor kernels export their frame size for tt-sim's SRAM check.
// RUN: llvm-nm %t.elf | FileCheck --check-prefix=SYMS %s
// SYMS-DAG: R __hetgpu_rvmc_frame__Z6reducePKiPiS1_
// SYMS-DAG: R __hetgpu_rvmc_frame__Z4warpPi
// RUN: env HETGPU_TTSIM_CORES=3 hetgpu-ttsim-run %t.elf _Z6reducePKiPiS1_ \
// RUN:   --grid 4 --block 256 buf:i32:1024:iota buf:i32:4 buf:i32:4 \
// RUN:   --print 1 --print 2 | FileCheck --check-prefix=RED %s
// RED: param 1: 32640 98176 163712 229248
// RED: param 2: 86 85 85 86
// RUN: env HETGPU_TTSIM_CORES=2 hetgpu-ttsim-run %t.elf _Z4warpPi --grid 2 \
// RUN:   --block 64 buf:i32:16 --print 0 | FileCheck --check-prefix=WARP %s
// WARP: param 0: 496 1520 496 1520 1 0 1 0 -1431655766 -1431655766 -1431655766 -1431655766 31 63 31 63{{$}}
// REQUIRES: qemu-riscv64

__global__ void reduce(const int *in, int *out, int *counts) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int v = in[blockIdx.x * blockDim.x + t];
  s[t] = v;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k)
      s[t] += s[t + k];
    __syncthreads();
  }
  int c = __syncthreads_count(v % 3 == 0);
  if (t == 0) {
    out[blockIdx.x] = s[0];
    counts[blockIdx.x] = c;
  }
}

// Per warp w of block b: out[b*2+w] = sum of lane ids + 32*w (shfl_down),
// out[4+b*2+w] = all(lane < 32) - (w == 1 ? 1 : 0) (vote.all / any),
// out[8+..] = ballot(lane odd), out[12+..] = last lane via shfl_idx.
__global__ void warp(int *out) {
  int t = threadIdx.x, lane = t & 31, w = t >> 5, b = blockIdx.x;
  int v = t;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  int all = __all_sync(0xffffffffu, t < 32);
  unsigned odd = __ballot_sync(0xffffffffu, lane & 1);
  int last = __shfl_sync(0xffffffffu, t, 31);
  if (lane == 0) {
    out[b * 2 + w] = v;
    out[4 + b * 2 + w] = all;
    out[8 + b * 2 + w] = (int)odd;
    out[12 + b * 2 + w] = last;
  }
}
