// Warp operations with the full mask and constant operands, which the lane
// loops compute as vector code when all 32 lanes stopped at them
// (uniform-warp-ops.ll), next to the cases that must take the executor's
// path: the partial second warp of a 48-thread block, lanes reaching a
// full-mask ballot from two divergent shuffles, partial masks, and lanes
// that return early. out[10*t + k].
// RUN: %hetir %s -o %t.bc
// RUN: hetgpu-translate --target=host %t.bc -o %t.so
// RUN: hetgpu-host-run --block=48 --grid=2 %t.so _Z3uniPj buf:u32:960 > %t.out
// RUN: python3 %S/Inputs/uniform_ref.py | diff - %t.out
// Without the vector code (__hetgpu_exec_fuse_soa for every operation):
// RUN: env HETGPU_HOST_UNIFORM_WARP_OPS=0 hetgpu-translate --target=host %t.bc -o %t.off.so
// RUN: hetgpu-host-run --block=48 --grid=2 %t.off.so _Z3uniPj buf:u32:960 > %t.off.out
// RUN: python3 %S/Inputs/uniform_ref.py | diff - %t.off.out

__global__ void uni(unsigned *out) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  int lane = threadIdx.x & 31;
  unsigned v = t * 7 + 3;
  unsigned *o = out + 10 * t;
  o[0] = __ballot_sync(0xffffffffu, v & 1);
  o[1] = __any_sync(0xffffffffu, v % 13 == 0);
  o[2] = __all_sync(0xffffffffu, v % 5 != 0);
  o[3] = __shfl_down_sync(0xffffffffu, v, 3, 8);
  o[4] = __shfl_up_sync(0xffffffffu, v, 5, 16);
  o[5] = __shfl_xor_sync(0xffffffffu, v, 6);
  o[6] = __shfl_sync(0xffffffffu, v, 9, 4);
  // Two groups at two shuffles, then all lanes at one full-mask ballot.
  unsigned r;
  if (lane & 1)
    r = __shfl_xor_sync(0xaaaaaaaau, v, 2);
  else
    r = __shfl_xor_sync(0x55555555u, v, 2);
  o[7] = __ballot_sync(0xffffffffu, r % 3 == 0);
  // A partial mask.
  r = 0xdeadbeef;
  if (lane < 12)
    r = __ballot_sync(0xfffu, v & 2);
  o[8] = r;
  // Lanes that exited: the others' full-mask ballot counts only them.
  if (lane % 5 == 4 && blockIdx.x == 1)
    return;
  o[9] = __ballot_sync(0xffffffffu, v & 4);
}
