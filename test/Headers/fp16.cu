// cuda_fp16.h: __half/__half2 are 16-bit storage converted with integer
// code, so the device IR never holds the LLVM `half` type; arithmetic is
// float; shuffles move the bits; atomicAdd is a 32-bit CAS loop.
// RUN: %clangxx %cuda_device -O3 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --implicit-check-not=llvm.nvvm --implicit-check-not=asm \
// RUN:       --implicit-check-not=" half"
// Host side: the same functions are host functions; 1.5 + 1.5 folds to 3.
// RUN: %clangxx %cuda_host -O2 -emit-llvm -S %s -o - | FileCheck %s --check-prefix=HOST
#include <cuda_fp16.h>

static_assert(sizeof(__half) == 2 && alignof(__half) == 2, "__half layout");
static_assert(sizeof(__half2) == 4 && alignof(__half2) == 4, "__half2 layout");

// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}arithP6__halfPf(
// CHECK: load i16
// CHECK: fadd {{.*}}float
// CHECK: store i16
// CHECK: ret void
__global__ void arith(__half *h, float *f) {
  __half a = h[0], b = h[1];
  h[2] = a + b;
  f[0] = __half2float(__hmul(a, b)) + __low2float(__floats2half2_rn(f[1], 2.f));
}

// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}shuffleP6__halfP7__half2(
// CHECK: call {{.*}}i32 @__hetgpu_shfl_xor_i32(
// CHECK: call {{.*}}i32 @__hetgpu_shfl_down_i32(
// CHECK: ret void
__global__ void shuffle(__half *h, __half2 *h2) {
  h[1] = __shfl_xor_sync(0xffffffffu, h[0], 1);
  h2[1] = __shfl_down_sync(0xffffffffu, h2[0], 2);
}

// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}atomicsP6__halfP7__half2S_(
// CHECK: cmpxchg ptr
// CHECK: cmpxchg ptr %1
// CHECK: ret void
__global__ void atomics(__half *h, __half2 *h2, __half v) {
  atomicAdd(h, v);
  atomicAdd(h2, __half2half2(v));
}

// HOST-LABEL: define {{.*}} @_Z{{[0-9]+}}host_addv(
// HOST: ret float 3.000000e+00
__host__ float host_add() {
  __half x = __float2half(1.5f);
  return __half2float(x + x);
}

// The CUDA 12 additions stay float/integer code: math through the float
// functions, masks and directed conversions as integer code.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}cuda12P7__half2P6__halfPjPx(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_exp10f(
// CHECK-DAG: call {{.*}}float @llvm.sqrt.f32(
// CHECK-DAG: call {{.*}}float @llvm.floor.f32(
// CHECK: ret void
__global__ void cuda12(__half2 *h2, __half *h, unsigned *m, long long *ll) {
  h2[0] = h2exp10(h2[1]);
  h2[2] = __hcmadd(h2sqrt(h2[3]), h2rcp(h2[4]), __hmax2_nan(h2[5], h2[6]));
  h[0] = hfloor(__hfma_relu(h[1], h[2], __float2half_ru(1.0f / (float)ll[1])));
  m[0] = __hgeu2_mask(h2[7], h2[8]) ^ __hbltu2(h2[7], h2[8]);
  ll[0] = __half2ll_rd(h[3]) + __half2ushort_rz(h[4]) + __half2char_rz(h[5]);
  h[6] = __ll2half_rd(ll[2]);
  h2[9] = __hadd2_sat(__lowhigh2highlow(h2[10]), __hmul2_sat(h2[11], h2[12]));
  h[7] = __ldg(&h[8]);
  h2[15] = make_half2(h[9], h[10]);
  __stcs(&h2[13], __ldcs(&h2[14]));
}
