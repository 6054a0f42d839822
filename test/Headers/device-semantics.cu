// The header functions compute CUDA's results. Device code is compiled with
// the headers, retargeted to the host (it is plain portable LLVM) and run
// against Inputs/device-semantics-main.c, which provides the
// __hetgpu_math_* builtins from the host libm and prints the results.
// RUN: %clangxx %cuda_device -O2 -emit-llvm -S %s -o %t.ll
// RUN: sed -e '/^target triple/d' -e '/^target datalayout/d' \
// RUN:     -e 's/"target-cpu"="[^"]*"//' -e 's/"target-features"="[^"]*"//' \
// RUN:     %t.ll > %t.host.ll
// RUN: %clang_c -w -O1 %t.host.ll %S/Inputs/device-semantics-main.c -lm -o %t.exe
// RUN: %t.exe | FileCheck %s
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>
#include <curand_kernel.h>
#include <mma.h>
#include <cuda_fp16.h>
#include <complex>

#define T extern "C" __device__

// CHECK: byte_perm 11335577 3210 ffff8080 77777777
T unsigned t_byte_perm(unsigned x, unsigned y, unsigned s) {
  return __byte_perm(x, y, s);
}
// CHECK-NEXT: fns 4 ffffffff 7 4 ffffffff
T unsigned t_fns(unsigned m, unsigned b, int o) { return __fns(m, b, o); }
// CHECK-NEXT: funnel 1 80000000 0 1 ffffffff
T unsigned t_fsl(unsigned lo, unsigned hi, unsigned s) {
  return __funnelshift_l(lo, hi, s);
}
T unsigned t_fsr(unsigned lo, unsigned hi, unsigned s) {
  return __funnelshift_r(lo, hi, s);
}
T unsigned t_fslc(unsigned lo, unsigned hi, unsigned s) {
  return __funnelshift_lc(lo, hi, s);
}
T unsigned t_fsrc(unsigned lo, unsigned hi, unsigned s) {
  return __funnelshift_rc(lo, hi, s);
}
// CHECK-NEXT: mulhi ffffffff 1 ffffffffffffffff 2 fffffffffffffffe
T int t_mulhi(int a, int b) { return __mulhi(a, b); }
T unsigned t_umulhi(unsigned a, unsigned b) { return __umulhi(a, b); }
T long long t_mul64hi(long long a, long long b) { return __mul64hi(a, b); }
T unsigned long long t_umul64hi(unsigned long long a, unsigned long long b) {
  return __umul64hi(a, b);
}
// CHECK-NEXT: int24 -6 30 hadd -3 -2 sad 7 dp4a 5 -510
T int t_mul24(int a, int b) { return __mul24(a, b); }
T unsigned t_umul24(unsigned a, unsigned b) { return __umul24(a, b); }
T int t_hadd(int a, int b) { return __hadd(a, b); }
T int t_rhadd(int a, int b) { return __rhadd(a, b); }
T unsigned t_sad(int a, int b, unsigned c) { return __sad(a, b, c); }
T int t_dp4a(int a, int b, int c) { return __dp4a(a, b, c); }
// CHECK-NEXT: bits 32 0 1 31 0 80000000 3
T int t_clz(int x) { return __clz(x); }
T int t_ffs(int x) { return __ffs(x); }
T unsigned t_brev(unsigned x) { return __brev(x); }
T int t_popc(unsigned x) { return __popc(x); }
// CHECK-NEXT: f2i 2 -2 -3 3 2147483647 -2147483648 0 0 4294967295 -9223372036854775808
T int t_f2i_rn(float x) { return __float2int_rn(x); }
T int t_f2i_rz(float x) { return __float2int_rz(x); }
T int t_f2i_rd(float x) { return __float2int_rd(x); }
T int t_f2i_ru(float x) { return __float2int_ru(x); }
T unsigned t_f2u_rn(float x) { return __float2uint_rn(x); }
T long long t_d2ll_rz(double x) { return __double2ll_rz(x); }
// CHECK-NEXT: saturate 0 1 0 0.25
T float t_saturate(float x) { return __saturatef(x); }
// CHECK-NEXT: minmax 2 -1 4294967295 2.5
T unsigned t_min_mixed(int a, unsigned b) { return min(a, b); }
T int t_min_int(int a, int b) { return min(a, b); }
T unsigned t_max_mixed(int a, unsigned b) { return max(a, b); }
T double t_max_mixed_fp(float a, double b) { return max(a, b); }
// CHECK-NEXT: half_ties 3c00 3c02
// CHECK-NEXT: half 3555 3c00 7c00 7bff 1 2 7e00 8000 0.333252 1 65504 5.96046e-08 -0
T unsigned short t_f2h(float x) { return __half_as_ushort(__float2half(x)); }
T float t_h2f(unsigned short x) { return __half2float(__ushort_as_half(x)); }
// CHECK-NEXT: half_arith 3 0.5 1 0
T float t_hadd_f(float a, float b) {
  return __half2float(__float2half(a) + __float2half(b));
}
T float t_hdiv_f(float a, float b) {
  return __half2float(__float2half(a) / __float2half(b));
}
T int t_hlt(float a, float b) { return __float2half(a) < __float2half(b); }
// bfloat16: round to nearest even, ties to even, overflow to inf, quiet NaN.
// CHECK-NEXT: bf16 3eab 3f80 3f80 3f82 7f80 7fc0 ffc2 3 0.333984
T unsigned short t_f2bf(float x) {
  return __bfloat16_as_ushort(__float2bfloat16(x));
}
T float t_bfadd(float a, float b) {
  return __bfloat162float(__float2bfloat16(a) + __float2bfloat16(b));
}
T float t_bf2f(unsigned short x) {
  return __bfloat162float(__ushort_as_bfloat16(x));
}
// CHECK-NEXT: sinpi 0 -0 1 0 0.707107 1 -1 0 {{-?nan}}
T float t_sinpi(float x) { return sinpif(x); }
T float t_cospi(float x) { return cospif(x); }
T double t_sinpi_d(double x) { return sinpi(x); }
// CHECK-NEXT: erfinv 0.476936 0.4769362762044699 1.16308715367667 -1.16308715367667 inf 0.4769362762044699
T float t_erfinvf(float x) { return erfinvf(x); }
T double t_erfinv(double x) { return erfinv(x); }
T double t_erfcinv(double x) { return erfcinv(x); }
// CHECK-NEXT: normcdf 0.5 0.841345 0.9750021048517795 1.959963984540
T float t_normcdff(float x) { return normcdff(x); }
T double t_normcdf(double x) { return normcdf(x); }
T double t_normcdfinv(double x) { return normcdfinv(x); }
// CHECK-NEXT: remquo 1 3 1 -4 -1 4
T double t_remquo(double x, double y, int *q) { return remquo(x, y, q); }
// CHECK-NEXT: modf -0.5 -3 0 inf ilogb 3 -2147483648 -1
T float t_modff(float x, float *i) { return modff(x, i); }
T int t_ilogbf(float x) { return ilogbf(x); }
// CHECK-NEXT: norm 13 0.0769231 5e+30 rsqrt 0.5 rcbrt 0.5
T float t_norm3df(float a, float b, float c) { return norm3df(a, b, c); }
T float t_rnorm3df(float a, float b, float c) { return rnorm3df(a, b, c); }
T float t_rsqrtf(float x) { return rsqrtf(x); }
T float t_rcbrtf(float x) { return rcbrtf(x); }
// CHECK-NEXT: atomic_inc 0 1 2 0 1 atomic_dec 1 0 2 1
T unsigned t_atomic_inc(unsigned *p, unsigned l) { return atomicInc(p, l); }
T unsigned t_atomic_dec(unsigned *p, unsigned l) { return atomicDec(p, l); }
// CHECK-NEXT: atomic_fminmax 1.5 -2 -2 7
T float t_atomic_fmin(float *p, float v) { return atomicMin(p, v); }
T double t_atomic_dmax(double *p, double v) { return atomicMax(p, v); }
// Annex G recovery: (inf + 0i) * (inf + NaN i) has an infinite real part
// where the naive formula gives NaN; the host's compiler-rt agrees.
// CHECK-NEXT: complex -5 10 0.44 0.08 inf host inf
T void t_cmul(float *r, float a, float b, float c, float d) {
  std::complex<float> z = std::complex<float>(a, b) * std::complex<float>(c, d);
  r[0] = z.real();
  r[1] = z.imag();
}
T void t_cdiv(float *r, float a, float b, float c, float d) {
  std::complex<float> z = std::complex<float>(a, b) / std::complex<float>(c, d);
  r[0] = z.real();
  r[1] = z.imag();
}
// CHECK-NEXT: cg less 3 greater 9 plus 12
T int t_cg_op(int which, int a, int b) {
  namespace cg = cooperative_groups;
  return which == 0   ? cg::less<int>()(a, b)
         : which == 1 ? cg::greater<int>()(a, b)
                      : cg::plus<int>()(a, b);
}
// curand_kernel.h: Philox4x32-10 known-answer vectors (Random123), the
// cuRAND sequence rules (offset skips outputs, subsequences differ), and the
// moments of the distributions.
// CHECK-NEXT: philox 6627e8d5 e169c58d bc57ac4c 9b00dbd8
// CHECK-NEXT: philox 408f276d 41c83b0e a20bc7c6 6d5451fd
// CHECK-NEXT: philox d16cfe09 94fdcceb 5001e420 24126ea1
// CHECK-NEXT: curand offset-ok 1 subsequence-differs 1 skipahead-ok 1
// CHECK-NEXT: curand uniform mean 0.50 in-range 1 normal mean 0.00 var 1.00 double mean 0.50 normal-double var 1.00
T void t_philox(unsigned *out, unsigned c0, unsigned c1, unsigned c2,
                unsigned c3, unsigned k0, unsigned k1) {
  uint4 r = __hg_rand::philox4x32_10(make_uint4(c0, c1, c2, c3),
                                     make_uint2(k0, k1));
  out[0] = r.x;
  out[1] = r.y;
  out[2] = r.z;
  out[3] = r.w;
}
/// Output number \p skip (0-based) after curand_init(seed, sub, offset),
/// drawn one by one, or after a skipahead when \p use_skipahead.
T unsigned t_rand_nth(unsigned long long seed, unsigned long long sub,
                      unsigned long long offset, int skip, int use_skipahead) {
  curandState s;
  curand_init(seed, sub, offset, &s);
  if (use_skipahead)
    skipahead((unsigned long long)skip, &s);
  else
    for (int i = 0; i < skip; ++i)
      curand(&s);
  return curand(&s);
}
T void t_rand_moments(int n, double *m) {
  curandStatePhilox4_32_10_t s;
  curand_init(1234, 7, 0, &s);
  double su = 0, sn = 0, sn2 = 0, sd = 0, snd2 = 0;
  int in_range = 1;
  for (int i = 0; i < n; ++i) {
    float u = curand_uniform(&s);
    in_range &= u > 0.0f && u <= 1.0f;
    su += u;
    float z = curand_normal(&s);
    sn += z;
    sn2 += (double)z * z;
    sd += curand_uniform_double(&s);
    double zd = curand_normal_double(&s);
    snd2 += zd * zd;
  }
  m[0] = su / n;
  m[1] = in_range;
  m[2] = sn / n;
  m[3] = sn2 / n;
  m[4] = sd / n;
  m[5] = snd2 / n;
}
// __float_to_tf32: 10 mantissa bits, ties to even; inf and NaN unchanged.
// CHECK-NEXT: tf32 1 1.00195 1.00098 inf nan
T float t_tf32(float x) { return __float_to_tf32(x); }
