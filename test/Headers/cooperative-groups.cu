// cooperative_groups: block, static tiles, dynamic tiles, coalesced groups,
// grid indexing, cg::reduce and scans, all on the hetIR barrier and warp
// builtins.
// RUN: %clangxx %cuda_device -O3 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --implicit-check-not=llvm.nvvm --implicit-check-not=asm
// RUN: %clangxx %cuda_host -fsyntax-only %s
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

// thread_block: sync is the block barrier, rank the linear thread index.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}blockPj(
// CHECK: call void @__hetgpu_barrier()
// CHECK: call void @__hetgpu_barrier()
// CHECK-DAG: call {{.*}}i32 @__hetgpu_tid_z()
// CHECK-DAG: call {{.*}}i32 @__hetgpu_ntid_y()
// CHECK: ret void
__global__ void block(unsigned *out) {
  cg::thread_block b = cg::this_thread_block();
  b.sync();
  cg::sync(b);
  out[b.thread_rank()] = b.size() + b.group_index().x + b.thread_index().y +
                         b.dim_threads().z + b.num_threads();
}

// A 16-thread tile: syncwarp on the tile's lanes, shuffles of width 16,
// ballot shifted to tile-relative bits.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}tile16Pi(
// CHECK: [[LANE:%.*]] = {{.*}}call {{.*}}i32 @__hetgpu_lane_id()
// CHECK: [[BASE:%.*]] = and i32 [[LANE]], -16
// CHECK: [[MASK:%.*]] = shl {{.*}}i32 65535, [[BASE]]
// CHECK: call void @__hetgpu_syncwarp(i32 {{.*}}[[MASK]])
// CHECK: call {{.*}}i32 @__hetgpu_shfl_idx_i32(i32 {{.*}}[[MASK]], i32 {{.*}}, i32 {{.*}}0, i32 {{.*}}16)
// CHECK: call {{.*}}i32 @__hetgpu_shfl_down_i32(i32 {{.*}}[[MASK]], i32 {{.*}}, i32 {{.*}}2, i32 {{.*}}16)
// CHECK: call {{.*}}i32 @__hetgpu_vote_any(i32 {{.*}}[[MASK]],
// CHECK: [[B:%.*]] = {{.*}}call {{.*}}i32 @__hetgpu_vote_ballot(i32 {{.*}}[[MASK]],
// CHECK: lshr i32 [[B]], [[BASE]]
// CHECK: ret void
__global__ void tile16(int *out) {
  auto t = cg::tiled_partition<16>(cg::this_thread_block());
  t.sync();
  int v = out[t.thread_rank()];
  out[0] = t.shfl(v, 0);
  out[1] = t.shfl_down(v, 2);
  out[2] = t.any(v > 0);
  out[3] = t.ballot(v > 1);
  out[4] = t.meta_group_rank() + t.meta_group_size() + t.size();
}

// cg::reduce on a 32-thread tile: a 5-step xor butterfly.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}reduce32Pf(
// CHECK-COUNT-5: call {{.*}}i32 @__hetgpu_shfl_xor_i32(i32 {{.*}}-1,
// CHECK-NOT: @__hetgpu_shfl_xor_i32
// CHECK: ret void
__global__ void reduce32(float *f) {
  auto t = cg::tiled_partition<32>(cg::this_thread_block());
  f[0] = cg::reduce(t, f[threadIdx.x], cg::plus<float>());
}

// Shuffling a struct moves it 32 bits at a time (16 bytes: 4 shuffles).
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}shfl_structP4Quad(
// CHECK-COUNT-4: call {{.*}}i32 @__hetgpu_shfl_xor_i32(
// CHECK-NOT: @__hetgpu_shfl_xor_i32
// CHECK: ret void
struct Quad {
  int a;
  float b;
  double c;
};
__global__ void shfl_struct(Quad *q) {
  auto t = cg::tiled_partition<8>(cg::this_thread_block());
  q[1] = t.shfl_xor(q[0], 1);
}

// Coalesced group from the active mask; rank = popcount of lower lanes.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}coalescedPj(
// CHECK: [[M:%.*]] = {{.*}}call {{.*}}i32 @__hetgpu_activemask()
// CHECK: call {{.*}}i32 @llvm.ctpop.i32(
// CHECK: call void @__hetgpu_syncwarp(i32 {{.*}}[[M]])
// CHECK: ret void
__global__ void coalesced(unsigned *out) {
  if (out[threadIdx.x] > 3) {
    cg::coalesced_group g = cg::coalesced_threads();
    out[0] = g.thread_rank() + g.size();
    g.sync();
    out[1] = cg::reduce(g, out[2], cg::greater<unsigned>());
  }
}

// Dynamic tiles and the type-erased thread_group.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}dynamicPj(
// CHECK: call void @__hetgpu_syncwarp(
// CHECK: ret void
__global__ void dynamic(unsigned *out) {
  cg::thread_group g = cg::tiled_partition(cg::this_thread_block(), 8);
  g.sync();
  out[0] = g.thread_rank() + g.size();
}

// Scans on a tile use shfl_up.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}scanPi(
// CHECK: call {{.*}}i32 @__hetgpu_shfl_up_i32(i32 {{.*}}, i32 {{.*}}, i32 {{.*}}1, i32 {{.*}}4)
// CHECK: call {{.*}}i32 @__hetgpu_shfl_up_i32(i32 {{.*}}, i32 {{.*}}, i32 {{.*}}2, i32 {{.*}}4)
// CHECK: ret void
__global__ void scan(int *out) {
  auto t = cg::tiled_partition<4>(cg::this_thread_block());
  out[threadIdx.x] = cg::inclusive_scan(t, out[threadIdx.x]);
}

// Grid indexing works (sync does not: see grid-sync_errors.cu).
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}gridPy(
// CHECK-DAG: call {{.*}}i32 @__hetgpu_nctaid_x()
// CHECK-DAG: call {{.*}}i32 @__hetgpu_ctaid_y()
// CHECK: ret void
__global__ void grid(unsigned long long *out) {
  cg::grid_group g = cg::this_grid();
  out[0] = g.thread_rank() + g.size() + g.num_blocks() + g.block_rank();
}
