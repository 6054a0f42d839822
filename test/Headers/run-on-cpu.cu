// End to end on the CPU device: hetgpu-cc compiles with these headers, the
// runtime runs the kernel; the results must be CUDA's. Warp shuffles, votes,
// match, lane masks, warp reductions (full and partial masks), counting
// barriers, cooperative groups (tile reduce/ballot/scan, coalesced groups),
// contended atomics (atomicInc, CAS loop, float max/add), device printf,
// math and fp16.
// REQUIRES: target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cstdio>
#include <cuda_fp16.h>
namespace cg = cooperative_groups;

struct Results {
  int shfl[64], up[64], down[64], xr[64];
  double dshfl[64];
  unsigned ballot, any, all, match[64], lt[64];
  int reduce_add, reduce_min, count, andv, orv;
  int tile_sum[64], tile_ballot[64], tile_rank[64], scan[64], sub_meta[64];
  int coalesced_rank[64], coalesced_size[64];
  unsigned inc, cas_total;
  float fmax, fsum;
  float sinpi, erfinv, pw, half_sum;
};

__global__ void warp_ops(Results *r, unsigned *counter, float *fvals) {
  unsigned t = threadIdx.x, lane = t % 32;
  int v = (int)t * 10;
  r->shfl[t] = __shfl_sync(0xffffffffu, v, 3);
  r->up[t] = __shfl_up_sync(0xffffffffu, v, 1, 8);
  r->down[t] = __shfl_down_sync(0xffffffffu, v, 2);
  r->xr[t] = __shfl_xor_sync(0xffffffffu, v, 1);
  r->dshfl[t] = __shfl_sync(0xffffffffu, 0.5 + t * 1e10, 31);
  unsigned b = __ballot_sync(0xffffffffu, lane % 3 == 0);
  int any = __any_sync(0xffffffffu, t == 40);
  int all = __all_sync(0xffffffffu, t < 64);
  if (t == 32)
    r->ballot = b, r->any = any, r->all = all;
  r->match[t] = __match_any_sync(0xffffffffu, (int)(lane / 4));
  r->lt[t] = __lanemask_lt();
  int ra = __reduce_add_sync(0xffffffffu, (int)t);
  if (t == 32)
    r->reduce_add = ra;
  if (lane >= 8 && lane < 16) {
    int mn = __reduce_min_sync(0x0000ff00u, (int)(100 - lane));
    if (t == 8)
      r->reduce_min = mn;
  }
  int c = __syncthreads_count(t % 4 == 0);
  int a = __syncthreads_and(t < 64);
  int o = __syncthreads_or(t == 63);
  if (t == 0)
    r->count = c, r->andv = a, r->orv = o;

  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  r->tile_sum[t] = cg::reduce(tile, (int)t, cg::plus<int>());
  r->tile_ballot[t] = tile.ballot(tile.thread_rank() % 2);
  r->tile_rank[t] = tile.thread_rank() + 100 * tile.meta_group_rank();
  r->scan[t] = cg::exclusive_scan(tile, 1);
  auto sub = cg::tiled_partition<4>(tile); // a tile of a tile
  r->sub_meta[t] = sub.meta_group_rank() + 10 * sub.meta_group_size() +
                   100 * cg::reduce(sub, 1, cg::plus<int>());
  if (lane % 2 == 1) {
    cg::coalesced_group g = cg::coalesced_threads();
    r->coalesced_rank[t] = g.thread_rank();
    r->coalesced_size[t] = g.size();
  } else {
    r->coalesced_rank[t] = -1;
    r->coalesced_size[t] = -1;
  }

  atomicInc(&counter[0], 9u); // 64 increments, wrapping after 9
  unsigned old = counter[1], assumed;
  do {
    assumed = old;
    old = atomicCAS(&counter[1], assumed, assumed + t);
  } while (old != assumed);
  atomicMax(&fvals[0], (float)t * 0.5f);
  atomicAdd(&fvals[1], 0.25f);
  __syncthreads();
  if (t == 0) {
    r->inc = counter[0];
    r->cas_total = counter[1];
    r->fmax = fvals[0];
    r->fsum = fvals[1];
    r->sinpi = sinpif(0.5f) + cospif(1.0f);
    r->erfinv = erfinvf(0.5f);
    r->pw = powf(2.0f, 10.0f) + exp2f(3.0f) + sqrtf(16.0f);
    r->half_sum = __half2float(__float2half(1.5f) + __float2half(2.25f));
    printf("device printf: %d %.2f %s\n", 42, 3.5, "ok");
  }
}

int main() {
  Results *d;
  unsigned *counter;
  float *fv;
  cudaMalloc(&d, sizeof(Results));
  cudaMalloc(&counter, 2 * sizeof(unsigned));
  cudaMalloc(&fv, 2 * sizeof(float));
  cudaMemset(counter, 0, 2 * sizeof(unsigned));
  cudaMemset(fv, 0, 2 * sizeof(float));
  warp_ops<<<1, 64>>>(d, counter, fv);
  cudaError_t e = cudaDeviceSynchronize();
  Results r;
  cudaMemcpy(&r, d, sizeof r, cudaMemcpyDeviceToHost);
  // CHECK: device printf: 42 3.50 ok
  // CHECK: status no error
  printf("status %s\n", cudaGetErrorString(e));
  // Lane 3 of each warp; segments of 8 for `up`; lanes past 31 keep theirs.
  // CHECK-NEXT: shfl 30 30 350
  printf("shfl %d %d %d\n", r.shfl[0], r.shfl[31], r.shfl[40]);
  // CHECK-NEXT: up 0 0 80
  printf("up %d %d %d\n", r.up[0], r.up[1], r.up[9]);
  // CHECK-NEXT: down 20 300 310
  printf("down %d %d %d\n", r.down[0], r.down[30], r.down[31]);
  // CHECK-NEXT: xor 10 320
  printf("xor %d %d\n", r.xr[0], r.xr[33]);
  // CHECK-NEXT: dshfl 310000000000.5 630000000000.5
  printf("dshfl %.1f %.1f\n", r.dshfl[0], r.dshfl[40]);
  // Lanes 0,3,...,30 set.
  // CHECK-NEXT: vote 49249249 1 1
  printf("vote %x %d %d\n", r.ballot, r.any, r.all);
  // CHECK-NEXT: match f f0 lt 0 7
  printf("match %x %x lt %x %x\n", r.match[0], r.match[37], r.lt[0], r.lt[35]);
  // 32 + ... + 63 = 1520; min over lanes 8..15 of 100 - lane = 85.
  // CHECK-NEXT: reduce 1520 85
  printf("reduce %d %d\n", r.reduce_add, r.reduce_min);
  // CHECK-NEXT: count 16 and 1 or 1
  printf("count %d and %d or %d\n", r.count, r.andv, r.orv);
  // 0+..+7 = 28, 56+..+63 = 476; odd ranks of the tile: 0xaa.
  // CHECK-NEXT: tile 28 476 aa 105 707 scan 0 7
  printf("tile %d %d %x %d %d scan %d %d\n", r.tile_sum[0], r.tile_sum[63],
         r.tile_ballot[5], r.tile_rank[13], r.tile_rank[63], r.scan[8],
         r.scan[15]);
  // Thread 13: rank 5 in its 8-tile, so sub-tile 1 of 2, 4 threads each.
  // CHECK-NEXT: subtile 421 420
  printf("subtile %d %d\n", r.sub_meta[13], r.sub_meta[10]);
  // CHECK-NEXT: coalesced 0 3 16 -1
  printf("coalesced %d %d %d %d\n", r.coalesced_rank[1], r.coalesced_rank[7],
         r.coalesced_size[33], r.coalesced_rank[2]);
  // 64 wrapping increments: 64 mod 10 = 4; 0 + ... + 63 = 2016.
  // CHECK-NEXT: atomics 4 2016 31.5 16.0
  printf("atomics %u %u %.1f %.1f\n", r.inc, r.cas_total, r.fmax, r.fsum);
  // CHECK-NEXT: math 0 0.476936 1036 half 3.75
  printf("math %g %g %g half %g\n", r.sinpi, r.erfinv, r.pw, r.half_sum);
  return 0;
}
