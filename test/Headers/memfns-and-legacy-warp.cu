// memcpy/memset/memmove in device code are the LLVM memory intrinsics; the
// pre-CUDA-9 mask-less warp functions (__shfl, __any, __ballot, ...) use
// the active mask.
// RUN: %clangxx %cuda_device -O3 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --implicit-check-not=llvm.nvvm \
// RUN:       --implicit-check-not="@memcpy(" --implicit-check-not="@memset("
// Host code still calls the C library.
// RUN: %clangxx %cuda_host -O1 -emit-llvm -S %s -o - | FileCheck %s --check-prefix=HOST
#include <cstring>

// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}memfnsPcPKci(
// CHECK: call void @llvm.memcpy.p0.p0.i64(
// CHECK: call void @llvm.memset.p0.i64(
// CHECK: call void @llvm.memmove.p0.p0.i64(
__global__ void memfns(char *d, const char *s, int n) {
  memcpy(d, s, n);
  memset(d + n, 0, n);
  memmove(d + 1, d, n);
}

// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}legacyPfi(
// CHECK: [[M:%.*]] = {{.*}}call {{.*}}i32 @__hetgpu_activemask()
// CHECK: call {{.*}}i32 @__hetgpu_shfl_idx_i32(i32 {{.*}}[[M]], i32 {{.*}}, i32 {{.*}}0, i32 {{.*}}32)
// CHECK: call {{.*}}i32 @__hetgpu_shfl_xor_i32(i32 {{.*}}, i32 {{.*}}, i32 {{.*}}4, i32 {{.*}}16)
// CHECK: call {{.*}}i32 @__hetgpu_vote_any(
// CHECK: call {{.*}}i32 @__hetgpu_vote_all(
// CHECK: call {{.*}}i32 @__hetgpu_vote_ballot(
__global__ void legacy(float *f, int n) {
  f[0] = __shfl(f[1], 0);
  f[1] = __shfl_xor(f[2], 4, 16);
  f[2] = __any(n > 1) + __all(n > 2) + __ballot(n > 3);
}

// HOST-LABEL: define {{.*}} @_Z{{[0-9]+}}host_copyPcPKcm(
// HOST: call void @llvm.memcpy.p0.p0.i64(
void host_copy(char *d, const char *s, size_t n) { memcpy(d, s, n); }
