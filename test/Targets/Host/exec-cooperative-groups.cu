// Cooperative groups on the host: tiled_partition<16> reductions with
// shfl_down (16-lane width, 64-bit payload split in two shuffles),
// coalesced_threads() under divergence (rank and size from the active
// mask), thread_block::sync(), and __syncwarp with a partial mask.
// RUN: %hetir %s -o %t.bc
// RUN: hetgpu-translate --target=host %t.bc -o %t.so
// RUN: hetgpu-host-run --block=64 %t.so _Z6groupsPxPj buf:i64:64 buf:u32:128 > %t.out
// RUN: python3 %S/Inputs/cg_ref.py | diff - %t.out
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void groups(long long *sums, unsigned *info) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int t = threadIdx.x;
  long long v = (long long)t << 33 | t;
  for (int o = tile.size() / 2; o > 0; o /= 2)
    v += tile.shfl_down(v, o);
  sums[t] = tile.thread_rank() == 0 ? v : -1;
  block.sync();
  unsigned rank = 0xffffffffu, size = 0;
  if (t % 3 == 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    rank = active.thread_rank();
    size = active.size();
  }
  if ((t & 31) < 8) {
    info[t] = rank;
    __syncwarp(0xff);
  } else {
    info[t] = rank;
  }
  info[64 + t] = size;
}
