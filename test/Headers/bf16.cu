// cuda_bf16.h: bfloat16 is 16-bit storage converted with integer code (no
// LLVM `bfloat` type in the IR), arithmetic in float, shuffles as bits,
// atomicAdd as a 32-bit CAS loop; it coexists with cuda_fp16.h's overloads
// of the same names (__hadd, __low2float, ...). Conversion results are
// checked in device-semantics.cu.
// RUN: %clangxx %cuda_device -O3 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --implicit-check-not=llvm.nvvm --implicit-check-not=" bfloat" \
// RUN:       --implicit-check-not=" half"
// RUN: %clangxx %cuda_host -fsyntax-only %s
// RUN: %clangxx -x c++ -fsyntax-only -isystem %hetgpu_src/runtime/include %s -DPLAIN
#include <cuda_bf16.h>
#include <cuda_fp16.h>

static_assert(sizeof(__nv_bfloat16) == 2 && sizeof(__nv_bfloat162) == 4,
              "bfloat16 layout");

#ifndef PLAIN
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}kP13__nv_bfloat16P14__nv_bfloat162PfP6__half(
// CHECK: call {{.*}}i32 @__hetgpu_shfl_xor_i32(
// CHECK: cmpxchg ptr
// CHECK: getelementptr {{.*}}ptr %1, i64 12
// CHECK: cmpxchg ptr
// CHECK: ret void
__global__ void k(__nv_bfloat16 *b, __nv_bfloat162 *b2, float *f, __half *h) {
  b[0] = b[1] * b[2] + __float2bfloat16(f[0]);
  b2[0] = __hmul2(b2[1], b2[2]);
  f[1] = __bfloat162float(__shfl_xor_sync(0xffffffffu, b[0], 1)) +
         __low2float(b2[0]) + __half2float(__hadd(h[0], h[1]));
  atomicAdd(&b[3], b[0]);
  atomicAdd(&b2[3], b2[0]);
}

// The CUDA 12 additions on bfloat16 (rounding checked in fp16-rounding.cu).
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}cuda12P14__nv_bfloat162P13__nv_bfloat16PjPx(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_exp10f(
// CHECK-DAG: call {{.*}}float @llvm.sqrt.f32(
// CHECK: ret void
__global__ void cuda12(__nv_bfloat162 *b2, __nv_bfloat16 *b, unsigned *m,
                       long long *ll) {
  b2[0] = h2exp10(b2[1]);
  b2[2] = __hcmadd(h2sqrt(b2[3]), __habs2(b2[4]), __hmin2_nan(b2[5], b2[6]));
  b[0] = htrunc(__hfma_sat(b[1], b[2], __float2bfloat16_rd((float)ll[1])));
  m[0] = __hne2_mask(b2[7], b2[8]) ^ __hbgt2(b2[7], b2[8]) ^ __hisinf(b[3]) ^
         __hisnan2(b2[9]);
  ll[0] = __bfloat162ll_ru(b[4]) + __bfloat162uint_rn(b[5]);
  b[6] = __ull2bfloat16_rz((unsigned long long)ll[2]);
  b2[10] = __lows2bfloat162(__highs2bfloat162(b2[11], b2[12]),
                            __low2bfloat162(b2[13]));
  b[7] = __short_as_bfloat16(__bfloat16_as_short(b[8]));
}
#endif
