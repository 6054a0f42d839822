// The C++ conveniences of cuda_runtime.h resolve on the host side and call
// the C API of cuda_runtime_api.h with the right arguments: symbols pass the
// address of their host shadow, kernels the address of their stub.
// RUN: %clangxx %cuda_host -O1 -emit-llvm -S %s -o - | FileCheck %s
// The device side parses the same file (host code is not emitted there).
// RUN: %clangxx %cuda_device -O1 -emit-llvm -S %s -o - | FileCheck %s --check-prefix=DEV

__constant__ float coef[16];
__device__ int counter;
struct Params {
  float scale;
  int n;
};
template <typename T> __global__ void scale(T *p, Params q) {
  p[threadIdx.x] *= q.scale;
}
__global__ void kern(float *p) { p[0] = coef[0] + counter; }

// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}allocationsv(
// CHECK: call {{.*}} @cudaMalloc(ptr {{.*}}, i64 {{.*}}64)
// CHECK: call {{.*}} @cudaMallocManaged(ptr {{.*}}, i64 {{.*}}8, i32 {{.*}}1)
// CHECK: call {{.*}} @cudaHostAlloc(ptr {{.*}}, i64 {{.*}}4, i32 {{.*}}0)
// CHECK: call {{.*}} @cudaMallocPitch(ptr
// CHECK: call {{.*}} @cudaEventCreateWithFlags(ptr {{.*}}, i32 {{.*}}2)
int allocations() {
  float *d;
  double *m;
  int *h;
  char *pitched;
  size_t pitch;
  cudaEvent_t e;
  return cudaMalloc(&d, 64) + cudaMallocManaged(&m, 8) +
         cudaMallocHost(&h, 4) + cudaMallocPitch(&pitched, &pitch, 10, 10) +
         cudaEventCreate(&e, 2);
}

// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}symbolsPf(
// CHECK: call {{.*}} @cudaMemcpyToSymbol(ptr {{.*}}@coef, ptr {{.*}}, i64 {{.*}}64, i64 {{.*}}0, i32 {{.*}}1)
// CHECK: call {{.*}} @cudaMemcpyFromSymbol(ptr {{.*}}, ptr {{.*}}@counter, i64 {{.*}}4, i64 {{.*}}0, i32 {{.*}}2)
// CHECK: call {{.*}} @cudaMemcpyToSymbolAsync(ptr {{.*}}@coef, ptr {{.*}}, i64 {{.*}}8, i64 {{.*}}4, i32 {{.*}}1, ptr {{.*}}null)
// CHECK: call {{.*}} @cudaMemcpyFromSymbolAsync(ptr {{.*}}, ptr {{.*}}@coef, i64 {{.*}}4, i64 {{.*}}0, i32 {{.*}}2, ptr {{.*}}null)
// CHECK: call {{.*}} @cudaGetSymbolAddress(ptr {{.*}}, ptr {{.*}}@counter)
// CHECK: call {{.*}} @cudaGetSymbolSize(ptr {{.*}}, ptr {{.*}}@coef)
int symbols(float *host) {
  void *addr;
  size_t size;
  return cudaMemcpyToSymbol(coef, host, sizeof(coef)) +
         cudaMemcpyFromSymbol(host, counter, sizeof(int)) +
         cudaMemcpyToSymbolAsync(coef, host, 8, 4) +
         cudaMemcpyFromSymbolAsync(host, coef, 4) +
         cudaGetSymbolAddress(&addr, counter) +
         cudaGetSymbolSize(&size, coef);
}

// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}kernelsPf(
// CHECK: call {{.*}} @cudaLaunchKernel(ptr {{.*}}@_Z{{[0-9]+}}__device_stub__kernPf,
// CHECK: call {{.*}} @cudaFuncGetAttributes(ptr {{.*}}, ptr {{.*}}@_Z{{[0-9]+}}__device_stub__kernPf)
// CHECK: call {{.*}} @cudaFuncSetAttribute(ptr {{.*}}@_Z{{[0-9]+}}__device_stub__kernPf, i32 {{.*}}8, i32 {{.*}}4096)
// CHECK: call {{.*}} @cudaOccupancyMaxActiveBlocksPerMultiprocessor(ptr {{.*}}, ptr {{.*}}@_Z{{[0-9]+}}__device_stub__scaleIfEvPT_6Params, i32 {{.*}}128, i64 {{.*}}0)
// CHECK: call {{.*}} @__hetgpuOccupancyMaxPotentialBlockSize(ptr {{.*}}, ptr {{.*}}, ptr {{.*}}@_Z{{[0-9]+}}__device_stub__kernPf, i64 {{.*}}0, i32 {{.*}}256)
// The variable-shared-memory search is in the header, over the C API.
// CHECK: call {{.*}} @cudaFuncGetAttributes(
// CHECK: call {{.*}} @cudaOccupancyMaxActiveBlocksPerMultiprocessor(
int kernels(float *d) {
  void *args[] = {&d};
  cudaFuncAttributes attr;
  int blocks, minGrid, block;
  return cudaLaunchKernel(kern, dim3(2), dim3(32), args) +
         cudaFuncGetAttributes(&attr, kern) +
         cudaFuncSetAttribute(kern,
                              cudaFuncAttributeMaxDynamicSharedMemorySize,
                              4096) +
         cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scale<float>,
                                                       128, 0) +
         cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, kern, 0, 256) +
         cudaOccupancyMaxPotentialBlockSizeVariableSMem(
             &minGrid, &block, kern, [](int b) { return b * 4; });
}

// A triple-chevron launch of a template kernel with a struct by value.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}launchPf(
// CHECK: call {{.*}} @__cudaPushCallConfiguration(
// CHECK: call {{.*}} @cudaLaunchKernel(ptr {{.*}}@_Z{{[0-9]+}}__device_stub__scaleIfEvPT_6Params,
void launch(float *d) { scale<<<1, 32>>>(d, Params{2.0f, 3}); }

// DEV: define {{.*}} @_Z{{[0-9]+}}kernPf(
// DEV-NOT: cudaMalloc

// CUDA's global min/max are host functions too (mixed signedness compares
// unsigned, as in CUDA): min(-1, 5u) is 5u, max(2.5f, 1.0) is 2.5.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}host_minmaxv(
// CHECK: ret i32 12
int host_minmax() { return min(-1, 5u) + (int)max(2.5f, 1.0) + min(4, 7) + umax(1u, 0u); }
