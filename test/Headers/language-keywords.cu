// The execution-space and memory-space keywords and decorations of
// host_defines.h, as clang attributes: variables land in the right address
// spaces, __launch_bounds__ reaches the kernel, inlining decorations hold.
// RUN: %clangxx %cuda_device -O1 -emit-llvm -S %s -o - | FileCheck %s
// With a (fake) device binary clang also emits the host-side registration.
// RUN: %clangxx %cuda_host -Xclang -fcuda-include-gpubinary \
// RUN:   -Xclang %S/Inputs/fake-gpubinary.txt -O1 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --check-prefix=HOST

// CHECK-DAG: @dev_var = {{.*}}addrspace(1) {{.*}}global i32 7
// CHECK-DAG: @const_table = {{.*}}addrspace(4) {{.*}}constant [4 x float]
// CHECK-DAG: @managed_var = {{.*}}addrspace(1)
// CHECK-DAG: @dyn = external {{.*}}addrspace(3) global [0 x float]
// CHECK-DAG: @{{.*}}tile{{.*}} = {{.*}}addrspace(3) global [64 x float]
__device__ int dev_var = 7;
__constant__ float const_table[4] = {1, 2, 3, 4};
__managed__ int managed_var;
extern __shared__ float dyn[];

struct __align__(16) Aligned {
  float a, b;
};
static_assert(alignof(Aligned) == 16, "__align__");

__device__ __noinline__ int not_inlined(int x) { return x * 3; }
__device__ __forceinline__ int inlined(int x) { return x + 1; }
__host__ __device__ int both(int x) { return x - 1; }

// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}boundedPfPKf(
// CHECK-SAME: #[[ATTRS:[0-9]+]]
// CHECK: call {{.*}}i32 @_Z11not_inlinedi(
// CHECK-NOT: call {{.*}}@_Z7inlinedi(
// CHECK: ret void
// CHECK: attributes #[[ATTRS]] = {{.*}}"nvvm.maxntid"="256"{{.*}}
__global__ void __launch_bounds__(256, 2)
    bounded(float *__restrict__ out, const float *__restrict__ in) {
  __shared__ float tile[64];
  tile[threadIdx.x] = in[threadIdx.x] + const_table[1] + dev_var + dyn[0];
  __syncthreads();
  out[threadIdx.x] = tile[63 - threadIdx.x] + not_inlined(managed_var) +
                     inlined(both(2));
}

// The host side sees the host twin of `both`, and registers the variables:
// __constant__ with constant=1; __managed__ as a device variable (clang has
// no managed variables in CUDA mode, see host_defines.h).
// HOST-LABEL: define {{.*}} @_Z4bothi(
// HOST: call void @__cudaRegisterVar(ptr %{{.*}}, ptr {{.*}}@dev_var, ptr {{.*}}, ptr {{.*}}, i32 0, i64 4, i32 0, i32 0)
// HOST: call void @__cudaRegisterVar(ptr %{{.*}}, ptr {{.*}}@const_table, ptr {{.*}}, ptr {{.*}}, i32 0, i64 16, i32 1, i32 0)
// HOST: call void @__cudaRegisterVar(ptr %{{.*}}, ptr {{.*}}@managed_var,
int host_use() { return both(5); }
