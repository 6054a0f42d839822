// Warp functions: 32-bit shuffles are one __hetgpu_shfl_* call, 64-bit ones
// two (low and high word), floats move as bits; width defaults to 32. Votes,
// activemask, match and the sm_80 reductions.
// RUN: %clangxx %cuda_device -O3 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --implicit-check-not=llvm.nvvm --implicit-check-not=asm

// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}shfl_i32Pij(
// CHECK: call {{.*}}i32 @__hetgpu_shfl_idx_i32(i32 {{.*}}%1, i32 {{.*}}, i32 {{.*}}3, i32 {{.*}}32)
// CHECK: call {{.*}}i32 @__hetgpu_shfl_up_i32(i32 {{.*}}%1, i32 {{.*}}, i32 {{.*}}1, i32 {{.*}}16)
// CHECK: call {{.*}}i32 @__hetgpu_shfl_down_i32(i32 {{.*}}%1, i32 {{.*}}, i32 {{.*}}2, i32 {{.*}}32)
// CHECK: call {{.*}}i32 @__hetgpu_shfl_xor_i32(i32 {{.*}}%1, i32 {{.*}}, i32 {{.*}}4, i32 {{.*}}8)
// CHECK: ret void
__global__ void shfl_i32(int *p, unsigned m) {
  int v = p[0];
  p[1] = __shfl_sync(m, v, 3);
  p[2] = __shfl_up_sync(m, v, 1, 16);
  p[3] = __shfl_down_sync(m, v, 2);
  p[4] = __shfl_xor_sync(m, v, 4, 8);
}

// A float is shuffled as its bit pattern (the optimizer then forwards the
// bits from memory directly): one 32-bit call, nothing float-typed.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}shfl_f32Pf(
// CHECK: [[B:%.*]] = load i32, ptr %0
// CHECK-NEXT: [[R:%.*]] = {{.*}}call {{.*}}i32 @__hetgpu_shfl_down_i32(i32 {{.*}}-1, i32 {{.*}}[[B]], i32 {{.*}}1, i32 {{.*}}32)
// CHECK-NOT: call
// CHECK: store i32 [[R]]
__global__ void shfl_f32(float *p) {
  p[1] = __shfl_down_sync(0xffffffffu, p[0], 1);
}

// 64-bit values: two 32-bit shuffles, low word then high word.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}shfl_64PdPxPy(
// CHECK: [[D:%.*]] = load i64, ptr %0
// CHECK: [[LO:%.*]] = trunc i64 [[D]] to i32
// CHECK: call {{.*}}i32 @__hetgpu_shfl_xor_i32(i32 {{.*}}-1, i32 {{.*}}[[LO]], i32 {{.*}}1, i32 {{.*}}32)
// CHECK: [[HS:%.*]] = lshr i64 [[D]], 32
// CHECK: [[HI:%.*]] = trunc {{.*}}i64 [[HS]] to i32
// CHECK: call {{.*}}i32 @__hetgpu_shfl_xor_i32(i32 {{.*}}-1, i32 {{.*}}[[HI]], i32 {{.*}}1, i32 {{.*}}32)
// CHECK-COUNT-2: call {{.*}}i32 @__hetgpu_shfl_idx_i32(
// CHECK-COUNT-2: call {{.*}}i32 @__hetgpu_shfl_up_i32(
// CHECK: ret void
__global__ void shfl_64(double *d, long long *l, unsigned long long *u) {
  d[1] = __shfl_xor_sync(0xffffffffu, d[0], 1);
  l[1] = __shfl_sync(0xffffffffu, l[0], 7);
  u[1] = __shfl_up_sync(0xffffffffu, u[0], 2);
}

// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}votesPjj(
// CHECK: call {{.*}}i32 @__hetgpu_activemask()
// CHECK: call {{.*}}i32 @__hetgpu_vote_any(i32
// CHECK: call {{.*}}i32 @__hetgpu_vote_all(i32
// CHECK: call {{.*}}i32 @__hetgpu_vote_ballot(i32
// CHECK: call {{.*}}i32 @__hetgpu_match_any_i32(i32
// CHECK: ret void
__global__ void votes(unsigned *p, unsigned v) {
  unsigned m = __activemask();
  p[0] = __any_sync(m, v > 3);
  p[1] = __all_sync(m, v > 4);
  p[2] = __ballot_sync(m, v & 1);
  p[3] = __match_any_sync(m, v);
}

// A 64-bit match is the intersection of the matches of its two words.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}match64Pjd(
// CHECK: [[A:%.*]] = {{.*}}call {{.*}}i32 @__hetgpu_match_any_i32(
// CHECK: [[B:%.*]] = {{.*}}call {{.*}}i32 @__hetgpu_match_any_i32(
// CHECK: and i32 {{.*}}[[A]]
__global__ void match64(unsigned *p, double v) {
  p[0] = __match_any_sync(0xffffffffu, v);
}

// Lane masks come from the lane id.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}lanemasksPj(
// lt = (1 << lane) - 1 = ~(-1 << lane); ge = -1 << lane.
// CHECK: [[L:%.*]] = {{.*}}call {{.*}}i32 @__hetgpu_lane_id()
// CHECK: [[S:%.*]] = shl {{.*}}i32 -1, [[L]]
// CHECK: [[LT:%.*]] = xor i32 [[S]], -1
// CHECK: store i32 [[LT]]
// CHECK: store i32 [[S]]
__global__ void lanemasks(unsigned *p) {
  p[0] = __lanemask_lt();
  p[1] = __lanemask_ge();
}

// Full-warp reduction: a 5-step xor butterfly.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}reducePij(
// CHECK: call {{.*}}@__hetgpu_shfl_xor_i32(i32 {{.*}}-1, i32 {{.*}}, i32 {{.*}}16, i32 {{.*}}32)
// CHECK: call {{.*}}@__hetgpu_shfl_xor_i32(i32 {{.*}}-1, i32 {{.*}}, i32 {{.*}}8, i32 {{.*}}32)
// CHECK: call {{.*}}@__hetgpu_shfl_xor_i32(i32 {{.*}}-1, i32 {{.*}}, i32 {{.*}}4, i32 {{.*}}32)
// CHECK: call {{.*}}@__hetgpu_shfl_xor_i32(i32 {{.*}}-1, i32 {{.*}}, i32 {{.*}}2, i32 {{.*}}32)
// CHECK: call {{.*}}@__hetgpu_shfl_xor_i32(i32 {{.*}}-1, i32 {{.*}}, i32 {{.*}}1, i32 {{.*}}32)
// Partial mask: every lane of the mask is read with an indexed shuffle.
// CHECK: call {{.*}}@__hetgpu_shfl_idx_i32(
// CHECK: ret void
__global__ void reduce(int *p, unsigned m) {
  p[0] = __reduce_add_sync(0xffffffffu, p[0]);
  p[1] = __reduce_max_sync(m, p[1]);
}
