// Live migration on the host: the kernel is instrumented by
// hetgpu-instrument-state (hidden state/control/round parameters, passed as
// the last three entries of `args`), suspended at the N-th safe-point visit
// (registers, private arrays and shared memory saved in the state buffer),
// and resumed by a second launch; the result equals an uninterrupted run.
// RUN: %hetir %s -o %t.bc
// RUN: hetgpu-host-run --grid=3 --block=64 --dyn-shared=256 --print=1 %t.bc \
// RUN:   _Z4scanPKiPii buf:i32:192:mod=7 buf:i32:192 i32=70 > %t.plain
// RUN: for n in 1 36 39 40; do \
// RUN:   hetgpu-host-run --migrate-after=$n --grid=3 --block=64 --dyn-shared=256 --print=1 %t.bc \
// RUN:     _Z4scanPKiPii buf:i32:192:mod=7 buf:i32:192 i32=70 > %t.m$n || exit 1; \
// RUN:   tail -n 1 %t.m$n | diff %t.plain - || exit 1; \
// RUN: done
// RUN: FileCheck --check-prefix=M1 %s < %t.m1
// RUN: FileCheck --check-prefix=M36 %s < %t.m36
// RUN: FileCheck --check-prefix=M36 %s < %t.m39
// RUN: FileCheck --check-prefix=M40 %s < %t.m40
// RUN: python3 %S/Inputs/scan_ref.py | diff - %t.plain
// The loops have barriers. The rounds loop runs in chunks of 32 iterations
// with a safe point between two chunks: 2 tests per block in 70 rounds.
// The inner loop (its step doubles d, so it keeps the counted form) gets a
// safe point every 32 of its back edges: 5 per round, 10 tests. So 12 per
// block, and each block's entry is a visit too (block-entry safe points):
// 39 in all. With the trigger at the first visit every block suspends at
// its first test; at the 36th and at the 39th, the block that makes it
// suspends and the two others have passed their last test and run to
// their end; at the 40th nothing yields.
// M1: migration: yield=1 suspended=3 ran-to-end=0
// M36: migration: yield=1 suspended=1 ran-to-end=2
// M40: migration: yield=0 suspended=0 ran-to-end=3

// Per block: an inclusive prefix sum (Hillis-Steele, a barrier per step)
// over dynamic shared memory, `rounds` times, with a private array that
// lives across the barriers.
__global__ void scan(const int *in, int *out, int rounds) {
  extern __shared__ int buf[];
  int t = threadIdx.x;
  int hist[4] = {0, 0, 0, 0};
  int v = in[blockIdx.x * blockDim.x + t];
  for (int r = 0; r < rounds; ++r) {
    buf[t] = v;
    __syncthreads();
    for (int d = 1; d < blockDim.x; d *= 2) {
      int add = t >= d ? buf[t - d] : 0;
      __syncthreads();
      buf[t] += add;
      __syncthreads();
    }
    v = buf[t] % 1000;
    hist[(v + r) & 3] += r;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + t] = v * 100 + hist[t & 3];
}
