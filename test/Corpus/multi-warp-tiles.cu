// cooperative_groups tiles of several warps (cuda-samples reduction, kernel
// 9): __shared__ block_tile_memory<N>, this_thread_block(scratch),
// tiled_partition<64/128>(block), cg::reduce over the tile, and the tile's
// rank/size/meta-group queries. The 32-thread tile next to it is the twin:
// its reduce must stay within one warp.
// RUN: rm -rf %t && mkdir -p %t
// RUN: hetgpu-cc %s -o %t/tiles
// RUN: env HETGPU_DEVICE=cpu %t/tiles | FileCheck %s
// Sums of ranks 0..255 by tile: 64-thread tiles k hold 64k..64k+63.
// CHECK: tile64 0: 2016 rank 5 of 64, group 0 of 4
// CHECK: tile64 1: 6112 rank 5 of 64, group 1 of 4
// CHECK: tile64 3: 14304 rank 5 of 64, group 3 of 4
// CHECK: tile128 1: 24512 group 1 of 2
// CHECK: tile32 7: 7664 group 7 of 8
// CHECK: max128 0: 127 1: 255
// CHECK: tiles ok
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
namespace cg = cooperative_groups;

constexpr int Block = 256;

__global__ void tiles(int *out) {
  __shared__ cg::block_tile_memory<Block> scratch;
  auto block = cg::this_thread_block(scratch);
  auto t64 = cg::tiled_partition<64>(block);
  auto t128 = cg::tiled_partition<128>(block);
  auto t32 = cg::tiled_partition<32>(block);
  int v = (int)block.thread_rank();
  int s64 = cg::reduce(t64, v, cg::plus<int>());
  int s128 = cg::reduce(t128, v, cg::plus<int>());
  int m128 = cg::reduce(t128, v, cg::greater<int>());
  int s32 = cg::reduce(t32, v, cg::plus<int>());
  t64.sync();
  if (t64.thread_rank() == 5) {
    int g = t64.meta_group_rank();
    out[4 * g + 0] = s64;
    out[4 * g + 1] = t64.thread_rank();
    out[4 * g + 2] = t64.num_threads();
    out[4 * g + 3] = t64.meta_group_size();
  }
  if (t128.thread_rank() == 0) {
    out[16 + 2 * t128.meta_group_rank()] = s128;
    out[17 + 2 * t128.meta_group_rank()] = t128.meta_group_size();
    out[24 + t128.meta_group_rank()] = m128;
  }
  if (t32.thread_rank() == 31)
    out[32 + t32.meta_group_rank()] = s32 * 100 + t32.meta_group_size();
}

int main() {
  int *d, h[64] = {};
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  tiles<<<1, Block>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int g = 0; g < 4; g += 1 + (g == 1))
    std::printf("tile64 %d: %d rank %d of %d, group %d of %d\n", g, h[4 * g],
                h[4 * g + 1], h[4 * g + 2], g, h[4 * g + 3]);
  std::printf("tile128 1: %d group 1 of %d\n", h[18], h[19]);
  std::printf("tile32 7: %d group 7 of %d\n", h[39] / 100, h[39] % 100);
  std::printf("max128 0: %d 1: %d\n", h[24], h[25]);
  bool ok = true;
  for (int w = 0; w < 8; ++w) // each warp's own sum, never its neighbour's
    ok &= h[32 + w] / 100 == 32 * 32 * w + 496;
  std::printf(ok ? "tiles ok\n" : "tiles WRONG\n");
  return 0;
}
