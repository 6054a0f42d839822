// Shuffles of full warps whose lanes all pass the same lane/delta and width
// (the executor decodes those once): every kind, widths 32, 8, 4 and 16,
// sources inside and outside the segment. Two warps; out[6*t + k].
// RUN: %hetir %s -o %t.bc
// RUN: hetgpu-host-run --block=64 %t.bc _Z4shflPi buf:i32:384 > %t.out
// RUN: python3 %S/Inputs/shfl_uniform_ref.py | diff - %t.out
// RUN: env HETGPU_HOST_LANE_LOOPS=0 hetgpu-host-run --block=64 %t.bc _Z4shflPi buf:i32:384 > %t.plain.out
// RUN: python3 %S/Inputs/shfl_uniform_ref.py | diff - %t.plain.out

__global__ void shfl(int *out) {
  int t = threadIdx.x;
  int v = t * 3 + 1;
  int *o = out + 6 * t;
  o[0] = __shfl_sync(0xffffffff, v, 5);
  o[1] = __shfl_sync(0xffffffff, v, 3, 8);
  o[2] = __shfl_xor_sync(0xffffffff, v, 1);
  o[3] = __shfl_xor_sync(0xffffffff, v, 6, 4);
  o[4] = __shfl_up_sync(0xffffffff, v, 3);
  o[5] = __shfl_down_sync(0xffffffff, v, 5, 16);
}
