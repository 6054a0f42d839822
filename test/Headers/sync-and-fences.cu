// Block barriers, warp sync and memory fences map to the hetIR barrier,
// syncwarp and fence builtins (never nvvm intrinsics).
// RUN: %clangxx %cuda_device -O3 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --implicit-check-not=llvm.nvvm --implicit-check-not=asm
// -O0 keeps the header wrappers as functions; still nothing non-portable.
// RUN: %clangxx %cuda_device -O0 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --check-prefix=O0 --implicit-check-not=llvm.nvvm

// CHECK-LABEL: define {{.*}} @_Z8barriersPi(
// CHECK: call void @__hetgpu_barrier()
// CHECK: call {{.*}}i32 @__hetgpu_barrier_count(i32
// CHECK: call {{.*}}i32 @__hetgpu_barrier_and(i32
// CHECK: call {{.*}}i32 @__hetgpu_barrier_or(i32
// CHECK: ret void
// O0: call void @__hetgpu_barrier()
// O0: call {{.*}}@__hetgpu_barrier_count(
__global__ void barriers(int *p) {
  p[threadIdx.x] = 1;
  __syncthreads();
  int c = __syncthreads_count(p[0] > 0);
  int a = __syncthreads_and(p[1] > 0);
  int o = __syncthreads_or(p[2] > 0);
  p[threadIdx.x] = c + a + o;
}

// `::__syncthreads()` works too (clang predeclares the name as an nvvm
// builtin; the header redirects it).
// CHECK-LABEL: define {{.*}} @_Z9qualifiedv(
// CHECK: call void @__hetgpu_barrier()
__global__ void qualified() { ::__syncthreads(); }

// __syncwarp's mask defaults to all lanes.
// CHECK-LABEL: define {{.*}} @_Z4warpj(
// CHECK: call void @__hetgpu_syncwarp(i32 {{.*}}-1)
// CHECK: call void @__hetgpu_syncwarp(i32 {{.*}}%0)
__global__ void warp(unsigned m) {
  __syncwarp();
  __syncwarp(m);
}

// CHECK-LABEL: define {{.*}} @_Z6fencesPi(
// CHECK: call void @__hetgpu_fence_block()
// CHECK: call void @__hetgpu_fence_device()
// CHECK: call void @__hetgpu_fence_system()
__global__ void fences(int *p) {
  p[0] = 1;
  __threadfence_block();
  p[1] = 2;
  __threadfence();
  p[2] = 3;
  __threadfence_system();
  p[3] = 4;
}
