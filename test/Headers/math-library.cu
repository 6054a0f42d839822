// The device math library: C names (sinf, sin), C++ overloads (sin(float)),
// std:: overloads and integer arguments resolve to the float/double
// __hetgpu_math_* builtins; exactly rounded functions become portable LLVM
// intrinsics. Never a call to the host libm name, never an nvvm intrinsic.
// RUN: %clangxx %cuda_device -O3 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --implicit-check-not=llvm.nvvm --implicit-check-not=asm \
// RUN:       --implicit-check-not="@sinf(" --implicit-check-not="@sin(" \
// RUN:       --implicit-check-not="@powf(" --implicit-check-not="@__nv_"
// Same with math.h/cmath included explicitly, and at -O0.
// RUN: %clangxx %cuda_device -DINCLUDE_STD -O0 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --check-prefix=O0 --implicit-check-not=llvm.nvvm \
// RUN:       --implicit-check-not="@sinf(" --implicit-check-not="@sin("
#ifdef INCLUDE_STD
#include <cmath>
#include <math.h>
#endif

// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}float_builtinsPf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_sinf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_cosf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_tanf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_asinf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_acosf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_atanf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_atan2f(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_sinhf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_coshf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_tanhf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_asinhf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_acoshf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_atanhf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_expf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_exp2f(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_exp10f(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_expm1f(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_logf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_log2f(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_log10f(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_log1pf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_logbf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_powf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_cbrtf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_hypotf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_erff(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_erfcf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_lgammaf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_tgammaf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_fmodf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_remainderf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_nextafterf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_fdimf(
// CHECK: ret void
// O0-LABEL: define {{.*}} @_Z{{[0-9]+}}float_builtinsPf(
// The wrappers are always_inline: even at -O0 the builtin is called directly.
// O0: call {{.*}}float @__hetgpu_math_sinf(
// O0: call {{.*}}float @__hetgpu_math_cosf(
__global__ void float_builtins(float *p) {
  float x = p[0], y = p[1];
  int i = 0;
  p[i++] = sinf(x);
  p[i++] = cosf(x);
  p[i++] = tanf(x);
  p[i++] = asinf(x);
  p[i++] = acosf(x);
  p[i++] = atanf(x);
  p[i++] = atan2f(x, y);
  p[i++] = sinhf(x);
  p[i++] = coshf(x);
  p[i++] = tanhf(x);
  p[i++] = asinhf(x);
  p[i++] = acoshf(x);
  p[i++] = atanhf(x);
  p[i++] = expf(x);
  p[i++] = exp2f(x);
  p[i++] = exp10f(x);
  p[i++] = expm1f(x);
  p[i++] = logf(x);
  p[i++] = log2f(x);
  p[i++] = log10f(x);
  p[i++] = log1pf(x);
  p[i++] = logbf(x);
  p[i++] = powf(x, y);
  p[i++] = cbrtf(x);
  p[i++] = hypotf(x, y);
  p[i++] = erff(x);
  p[i++] = erfcf(x);
  p[i++] = lgammaf(x);
  p[i++] = tgammaf(x);
  p[i++] = fmodf(x, y);
  p[i++] = remainderf(x, y);
  p[i++] = nextafterf(x, y);
  p[i++] = fdimf(x, y);
}

// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}double_builtinsPd(
// CHECK-DAG: call {{.*}}double @__hetgpu_math_sin(
// CHECK-DAG: call {{.*}}double @__hetgpu_math_cos(
// CHECK-DAG: call {{.*}}double @__hetgpu_math_tan(
// CHECK-DAG: call {{.*}}double @__hetgpu_math_exp(
// CHECK-DAG: call {{.*}}double @__hetgpu_math_exp10(
// CHECK-DAG: call {{.*}}double @__hetgpu_math_log(
// CHECK-DAG: call {{.*}}double @__hetgpu_math_log1p(
// CHECK-DAG: call {{.*}}double @__hetgpu_math_pow(
// CHECK-DAG: call {{.*}}double @__hetgpu_math_atan2(
// CHECK-DAG: call {{.*}}double @__hetgpu_math_erfc(
// CHECK-DAG: call {{.*}}double @__hetgpu_math_tgamma(
// CHECK-DAG: call {{.*}}double @__hetgpu_math_fmod(
// CHECK: ret void
__global__ void double_builtins(double *p) {
  double x = p[0], y = p[1];
  p[2] = sin(x);
  p[3] = cos(x);
  p[4] = tan(x);
  p[5] = exp(x);
  p[6] = exp10(x);
  p[7] = log(x);
  p[8] = log1p(x);
  p[9] = pow(x, y);
  p[10] = atan2(x, y);
  p[11] = erfc(x);
  p[12] = tgamma(x);
  p[13] = fmod(x, y);
}

// Overloads: sin(float) and std::sin(float) are the float builtin, sin(int)
// promotes to double, pow(float, int) stays float.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}overloadsPfPdi(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_sinf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_cosf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_expf(
// CHECK-DAG: [[N:%.*]] = sitofp i32 %2 to double
// CHECK-DAG: call {{.*}}double @__hetgpu_math_sin(double {{.*}}[[N]])
// CHECK-DAG: call {{.*}}float @__hetgpu_math_powf(float {{.*}}, float {{.*}}3.0
// CHECK-DAG: call {{.*}}double @__hetgpu_math_log2(
// CHECK-DAG: call {{.*}}double @__hetgpu_math_atan2(
// CHECK: ret void
__global__ void overloads(float *f, double *d, int n) {
  float x = f[0];
  f[1] = sin(x);
  f[2] = std::cos(x);
  f[3] = ::exp(x);
  d[0] = sin(n);
  f[4] = std::pow(x, 3);
  d[1] = std::log2(d[2]);
  d[3] = atan2(n, 2);
}

// Exactly rounded functions: portable intrinsics.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}exactPfPdPli(
// CHECK-DAG: call {{.*}}float @llvm.sqrt.f32(
// CHECK-DAG: call {{.*}}double @llvm.sqrt.f64(
// CHECK-DAG: call {{.*}}float @llvm.fabs.f32(
// CHECK-DAG: call {{.*}}float @llvm.floor.f32(
// CHECK-DAG: call {{.*}}double @llvm.ceil.f64(
// CHECK-DAG: call {{.*}}float @llvm.trunc.f32(
// CHECK-DAG: call {{.*}}float @llvm.round.f32(
// CHECK-DAG: call {{.*}}double @llvm.rint.f64(
// CHECK-DAG: call {{.*}}float @llvm.nearbyint.f32(
// CHECK-DAG: call {{.*}}float @llvm.minnum.f32(
// CHECK-DAG: call {{.*}}double @llvm.maxnum.f64(
// CHECK-DAG: call {{.*}}float @llvm.copysign.f32(
// CHECK-DAG: call {{.*}}float @llvm.fma.f32(
// CHECK-DAG: call {{.*}}double @llvm.fma.f64(
// CHECK-DAG: call {{.*}}float @llvm.ldexp.f32.i32(
// CHECK-DAG: call {{.*}} @llvm.frexp.f64.i32(
// CHECK-DAG: call {{.*}}i64 @llvm.lround.i64.f32(
// CHECK-DAG: call {{.*}}i64 @llvm.llrint.i64.f64(
// CHECK: ret void
__global__ void exact(float *f, double *d, long *l, int k) {
  float x = f[0], y = f[1];
  double u = d[0], v = d[1];
  int e;
  f[2] = sqrtf(x);
  d[2] = sqrt(u);
  f[3] = fabsf(x);
  f[4] = floorf(x);
  d[3] = ceil(u);
  f[5] = truncf(x);
  f[6] = roundf(x);
  d[4] = rint(u);
  f[7] = nearbyintf(x);
  f[8] = fminf(x, y);
  d[5] = fmax(u, v);
  f[9] = copysignf(x, y);
  f[10] = fmaf(x, y, x);
  d[6] = fma(u, v, u);
  f[11] = ldexpf(x, k);
  d[7] = frexp(u, &e);
  l[0] = lroundf(x) + e;
  l[1] = llrint(u);
}

// CUDA extras and fast intrinsics, composed from the builtins.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}extrasPf(
// CHECK-DAG: fdiv {{.*}}float 1.000000e+00, {{.*}}
// CHECK-DAG: call {{.*}}float @__hetgpu_math_cbrtf(
// CHECK-DAG: call {{.*}}double @__hetgpu_math_erfc(
// CHECK-DAG: call {{.*}}double @__hetgpu_math_erf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_exp10f(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_log2f(
// CHECK: ret void
__global__ void extras(float *f) {
  float x = f[0];
  float s, c;
  sincosf(x, &s, &c);
  f[1] = rsqrtf(x) + rcbrtf(x) + s + c;
  f[2] = normcdff(x);
  f[3] = erfinvf(x);
  f[4] = sinpif(x) + cospif(x);
  f[5] = __exp10f(x) + __log2f(x) + __expf(x) + __sinf(x) + __fdividef(x, 3.f);
}

// The intrinsics that promise IEEE round-to-nearest are never contracted
// into an fma, even under clang's CUDA default -ffp-contract=fast: their
// operations carry no `contract` flag (the twin below shows the default).
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}no_contractPfff(
// CHECK: fmul float %1, %2
// CHECK: fadd float
// CHECK-NOT: @llvm.fma
// CHECK: ret void
__global__ void no_contract(float *f, float a, float b) {
  f[0] = __fadd_rn(__fmul_rn(a, b), f[1]);
}
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}contractPfff(
// CHECK: fmul contract float %1, %2
__global__ void contract(float *f, float a, float b) { f[0] = a * b + f[1]; }
