/*===- device-semantics-main.c - Host driver for device-semantics.cu ------===*\
 * SPDX-License-Identifier: Apache-2.0
 *
 * Calls the device functions of test/Headers/device-semantics.cu (compiled
 * for the device, retargeted to the host) and prints their results. The
 * __hetgpu_math_* builtins come from the host libm, as on the CPU target.
\*===----------------------------------------------------------------------===*/
#include <complex.h>
#include <math.h>
#include <stdio.h>

#define M1(N)                                                                  \
  float __hetgpu_math_##N##f(float x) { return N##f(x); }                      \
  double __hetgpu_math_##N(double x) { return N(x); }
#define M2(N)                                                                  \
  float __hetgpu_math_##N##f(float x, float y) { return N##f(x, y); }          \
  double __hetgpu_math_##N(double x, double y) { return N(x, y); }
M1(sin) M1(cos) M1(tan) M1(exp) M1(log) M1(erf) M1(erfc) M1(cbrt) M1(logb)
M2(fmod) M2(remainder) M2(hypot) M2(pow)

unsigned t_byte_perm(unsigned, unsigned, unsigned);
unsigned t_fns(unsigned, unsigned, int);
unsigned t_fsl(unsigned, unsigned, unsigned);
unsigned t_fsr(unsigned, unsigned, unsigned);
unsigned t_fslc(unsigned, unsigned, unsigned);
unsigned t_fsrc(unsigned, unsigned, unsigned);
int t_mulhi(int, int);
unsigned t_umulhi(unsigned, unsigned);
long long t_mul64hi(long long, long long);
unsigned long long t_umul64hi(unsigned long long, unsigned long long);
int t_mul24(int, int);
unsigned t_umul24(unsigned, unsigned);
int t_hadd(int, int);
int t_rhadd(int, int);
unsigned t_sad(int, int, unsigned);
int t_dp4a(int, int, int);
int t_clz(int);
int t_ffs(int);
unsigned t_brev(unsigned);
int t_popc(unsigned);
int t_f2i_rn(float);
int t_f2i_rz(float);
int t_f2i_rd(float);
int t_f2i_ru(float);
unsigned t_f2u_rn(float);
long long t_d2ll_rz(double);
float t_saturate(float);
unsigned t_min_mixed(int, unsigned);
int t_min_int(int, int);
unsigned t_max_mixed(int, unsigned);
double t_max_mixed_fp(float, double);
unsigned short t_f2h(float);
float t_h2f(unsigned short);
float t_hadd_f(float, float);
float t_hdiv_f(float, float);
int t_hlt(float, float);
unsigned short t_f2bf(float);
float t_bfadd(float, float);
float t_bf2f(unsigned short);
float t_sinpi(float);
float t_cospi(float);
double t_sinpi_d(double);
float t_erfinvf(float);
double t_erfinv(double);
double t_erfcinv(double);
float t_normcdff(float);
double t_normcdf(double);
double t_normcdfinv(double);
double t_remquo(double, double, int *);
float t_modff(float, float *);
int t_ilogbf(float);
float t_norm3df(float, float, float);
float t_rnorm3df(float, float, float);
float t_rsqrtf(float);
float t_rcbrtf(float);
unsigned t_atomic_inc(unsigned *, unsigned);
unsigned t_atomic_dec(unsigned *, unsigned);
float t_atomic_fmin(float *, float);
double t_atomic_dmax(double *, double);
void t_cmul(float *, float, float, float, float);
void t_cdiv(float *, float, float, float, float);
int t_cg_op(int, int, int);
void t_philox(unsigned *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
unsigned t_rand_nth(unsigned long long, unsigned long long, unsigned long long, int, int);
void t_rand_moments(int, double *);
float t_tf32(float);

int main(void) {
  /* identity selector 0x3210 gives x back; 0xA selects byte 2 and
   * replicates its sign bit. */
  printf("byte_perm %x %x %x %x\n", t_byte_perm(0x33221100u, 0x77665544u, 0x1357u),
         t_byte_perm(0x33221100u, 0, 0x3210u) == 0x33221100u ? 0x3210u : 0,
         t_byte_perm(0x00800000u, 0, 0xAA22u), t_byte_perm(0, 0x77777777u, 0x4567u));
  printf("fns %x %x %x %x %x\n", t_fns(0x15u, 0, 3), t_fns(0x15u, 0, 4),
         t_fns(0xf0u, 3, 4), t_fns(0x15u, 31, -1), t_fns(0x15u, 1, 0));
  /* the plain forms use the shift modulo 32, the c forms clamp it to 32 */
  printf("funnel %x %x %x %x %x\n", t_fsl(0x80000000u, 0, 33), t_fslc(0x80000000u, 0, 33),
         t_fsr(0, 1, 32), t_fsrc(0, 1, 32), t_fslc(0, 0xffffffffu, 0));
  printf("mulhi %x %x %llx %llx %llx\n", t_mulhi(-2, 0x7fffffff), t_umulhi(0x80000000u, 2),
         t_mul64hi(-1, 1), t_umul64hi(0x8000000000000000ull, 4),
         t_mul64hi(-3, 0x7fffffffffffffffll) );
  printf("int24 %d %u hadd %d %d sad %u dp4a %d %d\n", t_mul24(0xff000003, -2),
         t_umul24(0xff000005u, 6), t_hadd(-3, -2), t_rhadd(-3, -2), t_sad(-3, 2, 2),
         t_dp4a(0x01020304, 0x01010101, -5), t_dp4a(0xff, 0x7f7f7f7f, -383));
  printf("bits %d %d %d %d %d %x %d\n", t_clz(0), t_ffs(0), t_ffs(1), t_ffs((int)0x40000000),
         t_clz(-1), t_brev(1), t_popc(0x13));
  printf("f2i %d %d %d %d %d %d %d %u %u %lld\n", t_f2i_rn(2.5f), t_f2i_rz(-2.7f),
         t_f2i_rd(-2.5f), t_f2i_ru(2.1f), t_f2i_rn(3e10f), t_f2i_rn(-3e10f),
         t_f2i_rn(NAN), t_f2u_rn(-1.0f), t_f2u_rn(1e20f), t_d2ll_rz(-1e300));
  printf("saturate %g %g %g %g\n", t_saturate(NAN), t_saturate(1.5f), t_saturate(-1.0f),
         t_saturate(0.25f));
  printf("minmax %u %d %u %g\n", t_min_mixed(-1, 2u), t_min_int(-1, 2), t_max_mixed(-1, 2u),
         t_max_mixed_fp(1.0f, 2.5));
  /* ties on the normal path: 1 + 2^-11 -> 1.0 (even), 1 + 3*2^-11 -> up */
  printf("half_ties %x %x\n", t_f2h(1.0f + ldexpf(1, -11)), t_f2h(1.0f + 3 * ldexpf(1, -11)));
  printf("half %x %x %x %x %x %x %x %x %g %g %g %g %g\n", t_f2h(1.0f / 3), t_f2h(1.0f),
         t_f2h(65520.0f), t_f2h(65519.0f), t_f2h(ldexpf(1, -24)), t_f2h(3 * ldexpf(1, -25)),
         t_f2h(NAN), t_f2h(-0.0f), t_h2f(0x3555), t_h2f(0x3c00), t_h2f(0x7bff), t_h2f(1),
         t_h2f(0x8000));
  printf("half_arith %g %g %d %d\n", t_hadd_f(1.5f, 1.5f), t_hdiv_f(1, 2), t_hlt(1, 2), t_hlt(2, 1));
  {
    union { unsigned u; float f; } nan_payload = {0xff820000u}; /* -sNaN */
    printf("bf16 %x %x %x %x %x %x %x %g %g\n", t_f2bf(1.0f / 3), t_f2bf(1.0f),
           t_f2bf(1.0f + ldexpf(1, -8)), t_f2bf(1.0f + 3 * ldexpf(1, -8)),
           t_f2bf(3.4e38f), t_f2bf(NAN), t_f2bf(nan_payload.f), t_bfadd(1.5f, 1.5f),
           t_bf2f(0x3eab));
  }
  printf("sinpi %g %g %g %g %g %g %g %g %g\n", t_sinpi(1), t_sinpi(-1), t_sinpi(0.5f),
         t_cospi(0.5f), t_sinpi(0.25f), t_cospi(2), t_cospi(3), t_sinpi_d(1e300), t_sinpi(INFINITY));
  printf("erfinv %g %.16g %.15g %.15g %g %.16g\n", t_erfinvf(0.5f), t_erfinv(0.5), t_erfinv(0.9),
         t_erfinv(-0.9), t_erfinv(1), t_erfcinv(0.5));
  printf("normcdf %g %g %.16g %.12f\n", t_normcdff(0), t_normcdff(1), t_normcdf(1.96),
         t_normcdfinv(0.975));
  int q1, q2, q3;
  double r1 = t_remquo(10, 3, &q1), r2 = t_remquo(-7, 2, &q2), r3 = t_remquo(11, 3, &q3);
  printf("remquo %g %d %g %d %g %d\n", r1, q1, r2, q2, r3, q3);
  float ip1, ip2;
  float f1 = t_modff(-3.5f, &ip1), f2 = t_modff(INFINITY, &ip2);
  printf("modf %g %g %g %g ilogb %d %d %d\n", f1, ip1, f2, ip2, t_ilogbf(8), t_ilogbf(0),
         t_ilogbf(0.6f));
  printf("norm %g %g %g rsqrt %g rcbrt %g\n", t_norm3df(3, 4, 12), t_rnorm3df(3, 4, 12),
         t_norm3df(3e30f, 4e30f, 0), t_rsqrtf(4), t_rcbrtf(8));
  unsigned u = 0;
  unsigned a0 = t_atomic_inc(&u, 2), a1 = t_atomic_inc(&u, 2), a2 = t_atomic_inc(&u, 2);
  unsigned a3 = t_atomic_inc(&u, 2), a4 = u;
  unsigned d0 = t_atomic_dec(&u, 2), d1 = t_atomic_dec(&u, 2), d2 = t_atomic_dec(&u, 2);
  printf("atomic_inc %u %u %u %u %u atomic_dec %u %u %u %u\n", a0, a1, a2, a3, a4, d0, d1, d2, u);
  float fm = 1.5f;
  double dm = -2;
  float o1 = t_atomic_fmin(&fm, -2);
  double o2 = t_atomic_dmax(&dm, 7);
  printf("atomic_fminmax %g %g %g %g\n", o1, fm, o2, dm);
  float c[2], dv[2], ci[2];
  t_cmul(c, 1, 2, 3, 4);
  t_cdiv(dv, 1, 2, 3, 4);
  t_cmul(ci, INFINITY, 0, INFINITY, NAN);
  volatile float vinf = INFINITY, vnan = NAN;
  _Complex float hz = __builtin_complex(vinf, 0.0f) * __builtin_complex(vinf, vnan);
  printf("complex %g %g %g %g %g host %g\n", c[0], c[1], dv[0], dv[1], ci[0], __real__ hz);
  printf("cg less %d greater %d plus %d\n", t_cg_op(0, 3, 9), t_cg_op(1, 3, 9), t_cg_op(2, 3, 9));
  unsigned o[4];
  t_philox(o, 0, 0, 0, 0, 0, 0);
  printf("philox %08x %08x %08x %08x\n", o[0], o[1], o[2], o[3]);
  t_philox(o, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u);
  printf("philox %08x %08x %08x %08x\n", o[0], o[1], o[2], o[3]);
  t_philox(o, 0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u);
  printf("philox %08x %08x %08x %08x\n", o[0], o[1], o[2], o[3]);
  int offset_ok = t_rand_nth(42, 0, 5, 0, 0) == t_rand_nth(42, 0, 0, 5, 0) &&
                  t_rand_nth(42, 3, 7, 2, 0) == t_rand_nth(42, 3, 0, 9, 0);
  int sub_differs = t_rand_nth(42, 0, 0, 0, 0) != t_rand_nth(42, 1, 0, 0, 0);
  int skip_ok = t_rand_nth(9, 2, 1, 13, 1) == t_rand_nth(9, 2, 0, 14, 0) &&
                t_rand_nth(9, 2, 3, 6, 1) == t_rand_nth(9, 2, 0, 9, 0);
  printf("curand offset-ok %d subsequence-differs %d skipahead-ok %d\n", offset_ok,
         sub_differs, skip_ok);
  double m[6];
  t_rand_moments(200000, m);
  printf("curand uniform mean %.2f in-range %d normal mean %.2f var %.2f double mean %.2f "
         "normal-double var %.2f\n", m[0], (int)m[1], fabs(m[2]), m[3], m[4], m[5]);
  printf("tf32 %g %g %g %g %g\n", t_tf32(1.0f + ldexpf(1, -11)),
         t_tf32(1.0f + 3 * ldexpf(1, -11)), t_tf32(1.0f + ldexpf(1, -10) + ldexpf(1, -20)),
         t_tf32(INFINITY), fabsf(t_tf32(NAN)));
  return 0;
}
