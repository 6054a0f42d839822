// 32-lane shuffles with widths, and shuffles executed under divergence
// within a warp (odd and even lanes run different shuffles with their own
// masks). Two warps; out[4*t + k].
// RUN: %hetir %s -o %t.bc
// RUN: hetgpu-host-run --block=64 %t.bc _Z4shflPi buf:i32:256 > %t.out
// RUN: FileCheck %s < %t.out
// RUN: python3 %S/Inputs/shfl_ref.py | diff - %t.out
// The same without lane-loop functions (one thread-function call per lane):
// RUN: env HETGPU_HOST_LANE_LOOPS=0 hetgpu-host-run --block=64 %t.bc _Z4shflPi buf:i32:256 > %t.plain.out
// RUN: python3 %S/Inputs/shfl_ref.py | diff - %t.plain.out
// Lane loops without per-warp arrays and without row loops:
// RUN: env HETGPU_HOST_WARP_ARRAYS=0 HETGPU_HOST_ROW_LOOPS=0 hetgpu-host-run --block=64 %t.bc _Z4shflPi buf:i32:256 > %t.states.out
// RUN: python3 %S/Inputs/shfl_ref.py | diff - %t.states.out
// CHECK: arg0: 31 1 31 21 41 11 41 31 51 1 51 41 

__global__ void shfl(int *out) {
  int t = threadIdx.x;
  int lane = t & 31;
  int v = t * 10 + 1;
  int *o = out + 4 * t;
  o[0] = __shfl_sync(0xffffffff, v, (lane + 3) & 31);
  o[1] = __shfl_up_sync(0xffffffff, v, 2, 8);
  o[2] = __shfl_down_sync(0xffffffff, v, 3, 16);
  int r;
  if (lane & 1)
    r = __shfl_xor_sync(0xaaaaaaaa, v, 2);
  else
    r = __shfl_down_sync(0x55555555, v, 2);
  o[3] = r;
}
