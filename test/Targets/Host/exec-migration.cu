// Live migration on the host: the kernel is instrumented by
// hetgpu-instrument-state (hidden state/control parameters, passed as the
// last two entries of `args`), suspended at the N-th safe-point visit
// (registers, private arrays and shared memory saved in the state buffer),
// and resumed by a second launch; the result equals an uninterrupted run.
// RUN: %hetir %s -o %t.bc
// RUN: hetgpu-host-run --grid=3 --block=64 --dyn-shared=256 --print=1 %t.bc \
// RUN:   _Z4scanPKiPii buf:i32:192:mod=7 buf:i32:192 i32=4 > %t.plain
// RUN: hetgpu-host-run --migrate-after=1 --grid=3 --block=64 --dyn-shared=256 --print=1 %t.bc \
// RUN:   _Z4scanPKiPii buf:i32:192:mod=7 buf:i32:192 i32=4 > %t.m1
// RUN: hetgpu-host-run --migrate-after=4 --grid=3 --block=64 --dyn-shared=256 --print=1 %t.bc \
// RUN:   _Z4scanPKiPii buf:i32:192:mod=7 buf:i32:192 i32=4 > %t.m4
// RUN: FileCheck --check-prefix=M1 %s < %t.m1
// RUN: FileCheck --check-prefix=M4 %s < %t.m4
// RUN: tail -n 1 %t.m1 | diff %t.plain -
// RUN: tail -n 1 %t.m4 | diff %t.plain -
// RUN: python3 %S/Inputs/scan_ref.py | diff - %t.plain
// A block tests the flag at one barrier visit in 32, the first test at
// visit 32 - ctaid.x (block 0 at its first barrier). With the trigger at
// the first tested visit every block suspends at its first test; at the
// 4th, block 0 has passed its own test already and raises the flag at its
// 33rd... so only one block suspends and the others run to their end.
// M1: migration: yield=1 suspended=3 ran-to-end=0
// M4: migration: yield=1 suspended=1 ran-to-end=2

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
