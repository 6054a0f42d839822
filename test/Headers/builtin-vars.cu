// threadIdx/blockIdx/blockDim/gridDim read the hetIR index builtins through
// property getters; warpSize is the constant 32; dim3/uint3 conversions.
// RUN: %clangxx %cuda_device -O3 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --implicit-check-not=llvm.nvvm --implicit-check-not=asm
// At -O0 the conversion operators still receive `this`: the objects are
// defined internal constants, never undefined (extern) variables.
// RUN: %clangxx %cuda_device -O0 -emit-llvm -S %s -o - | FileCheck %s --check-prefix=O0
// O0-NOT: extern_weak
// O0: @_ZL9threadIdx = internal {{.*}}constant
// O0-NOT: extern_weak
// Host twin: the same source compiles on the host side, where nothing of the
// kernel body is emitted.
// RUN: %clangxx %cuda_host -emit-llvm -S %s -o - | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: define {{.*}} @_Z7indicesPj(
// CHECK-DAG: call {{.*}}i32 @__hetgpu_tid_x()
// CHECK-DAG: call {{.*}}i32 @__hetgpu_tid_y()
// CHECK-DAG: call {{.*}}i32 @__hetgpu_tid_z()
// CHECK-DAG: call {{.*}}i32 @__hetgpu_ctaid_x()
// CHECK-DAG: call {{.*}}i32 @__hetgpu_ctaid_y()
// CHECK-DAG: call {{.*}}i32 @__hetgpu_ctaid_z()
// CHECK-DAG: call {{.*}}i32 @__hetgpu_ntid_x()
// CHECK-DAG: call {{.*}}i32 @__hetgpu_ntid_y()
// CHECK-DAG: call {{.*}}i32 @__hetgpu_ntid_z()
// CHECK-DAG: call {{.*}}i32 @__hetgpu_nctaid_x()
// CHECK-DAG: call {{.*}}i32 @__hetgpu_nctaid_y()
// CHECK-DAG: call {{.*}}i32 @__hetgpu_nctaid_z()
// CHECK: ret void
__global__ void indices(unsigned *out) {
  out[0] = threadIdx.x;
  out[1] = threadIdx.y;
  out[2] = threadIdx.z;
  out[3] = blockIdx.x;
  out[4] = blockIdx.y;
  out[5] = blockIdx.z;
  out[6] = blockDim.x;
  out[7] = blockDim.y;
  out[8] = blockDim.z;
  out[9] = gridDim.x;
  out[10] = gridDim.y;
  out[11] = gridDim.z;
}

// The builtins are `const`: repeated reads fold into one call.
// CHECK-LABEL: define {{.*}} @_Z6reusedPj(
// CHECK: call {{.*}}i32 @__hetgpu_tid_x()
// CHECK-NOT: call {{.*}}@__hetgpu_tid_x()
// CHECK: ret void
__global__ void reused(unsigned *out) {
  out[threadIdx.x] = threadIdx.x + threadIdx.x * 3;
}

// warpSize is 32 on every target, a compile-time constant.
// CHECK-LABEL: define {{.*}} @_Z4warpPi(
// CHECK: store i32 32,
// CHECK: ret void
static_assert(warpSize == 32, "warpSize");
__global__ void warp(int *out) { out[0] = warpSize; }

// dim3 and uint3 from the built-in variables.
// CHECK-LABEL: define {{.*}} @_Z4dimsPj(
// CHECK-DAG: call {{.*}}i32 @__hetgpu_ntid_y()
// CHECK-DAG: call {{.*}}i32 @__hetgpu_ctaid_z()
// CHECK: ret void
__global__ void dims(unsigned *out) {
  dim3 b = blockDim;
  uint3 i = blockIdx;
  dim3 copy(i);
  out[0] = b.y + copy.z;
}

// HOST-NOT: __hetgpu_
// HOST: define {{.*}} @_Z22__device_stub__indicesPj(
// HOST-NOT: __hetgpu_

// Before C++17, dim3(blockIdx) must not be ambiguous between the conversions
// to dim3 and to uint3.
// RUN: %clangxx %cuda_device -std=c++14 -fsyntax-only %s
// RUN: %clangxx %cuda_device -std=c++11 -fsyntax-only %s
__device__ unsigned dim3_from_builtins() {
  dim3 a(blockIdx), b = dim3(threadIdx), c = gridDim;
  uint3 d = blockDim;
  return a.x + b.y + c.z + d.x;
}
