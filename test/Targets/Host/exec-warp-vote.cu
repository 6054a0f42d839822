// Votes, ballot, activemask, match_any and syncwarp, with divergent
// predicates and under divergence within a warp; the second warp of the
// 48-thread block has 16 lanes. out[8*t + k].
// RUN: %hetir %s -o %t.bc
// RUN: hetgpu-translate --target=host %t.bc -o %t.so
// RUN: hetgpu-host-run --block=48 %t.so _Z4votePj buf:u32:384 > %t.out
// RUN: python3 %S/Inputs/vote_ref.py | diff - %t.out
// The same without lane-loop functions (one thread-function call per lane):
// RUN: env HETGPU_HOST_LANE_LOOPS=0 hetgpu-translate --target=host %t.bc -o %t.plain.so
// RUN: hetgpu-host-run --block=48 %t.plain.so _Z4votePj buf:u32:384 > %t.plain.out
// RUN: python3 %S/Inputs/vote_ref.py | diff - %t.plain.out
// Lane loops without per-warp arrays and without row loops:
// RUN: env HETGPU_HOST_WARP_ARRAYS=0 HETGPU_HOST_ROW_LOOPS=0 hetgpu-translate --target=host %t.bc -o %t.states.so
// RUN: hetgpu-host-run --block=48 %t.states.so _Z4votePj buf:u32:384 > %t.states.out
// RUN: python3 %S/Inputs/vote_ref.py | diff - %t.states.out

__global__ void vote(unsigned *out) {
  int t = threadIdx.x;
  int lane = t & 31, warp = t >> 5;
  unsigned *o = out + 8 * t;
  o[0] = __ballot_sync(0xffffffff, lane % 3 == 0);
  unsigned r = 0xdeadbeef;
  if (lane < 20)
    r = __ballot_sync(0xfffff, lane & 1);
  o[1] = r;
  if (lane >= 8)
    r = __activemask();
  else
    r = __activemask() | 0x80000000u;
  o[2] = r;
  o[3] = __any_sync(0xffffffff, lane == 15 && warp == 1);
  o[4] = __all_sync(0xffffffff, lane < 32);
  r = 0xdeadbeef;
  if (lane < 10)
    r = __all_sync(0x3ff, lane < 9);
  o[5] = r;
  o[6] = __match_any_sync(0xffffffff, lane / 4);
  __syncwarp();
  o[7] = __popc(__activemask());
}
