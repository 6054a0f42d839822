//===- exhaustive-float.c - Every float input of the 1-argument functions --===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
/// \file
/// Checks all 2^32 float inputs of each one-argument single-precision math
/// builtin against glibc's double function (accurate to about 2^-52
/// relative, i.e. 2^-28 float ulp), on all cores. Too slow for lit on a
/// small machine (minutes); run by hand, see docs/DeviceMath.md:
///   clang -O2 -march=native -pthread -Iinclude exhaustive-float.c \
///     build/lib/hetgpu-math-x86_64-unknown-linux-gnu.bc -lm -o ex && ./ex [name]
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define HM_ARGS_F1 float
#define HM_ARGS_F2 float, float
#define HM_ARGS_D1 double
#define HM_ARGS_D2 double, double
#define HETGPU_MATH_F(N, A) float __hetgpu_math_##N##f(HM_ARGS_F##A);
#define HETGPU_MATH_D(N, A) double __hetgpu_math_##N(HM_ARGS_D##A);
#include "hetgpu/IR/Builtins.def"

typedef struct {
  const char *name;
  float (*mine)(float);
  double (*ref)(double);
  double bound, skip_lo, skip_hi;
} fn_t;

#define E(n, b) {#n "f", __hetgpu_math_##n##f, n, b, 0, 0}
static fn_t fns[] = {
    E(sin, 2),   E(cos, 2),    E(tan, 4),   E(asin, 2),  E(acos, 2),
    E(atan, 2),  E(sinh, 3),   E(cosh, 2),  E(tanh, 2),  E(asinh, 3),
    E(acosh, 4), E(atanh, 3),  E(exp, 2),   E(exp2, 2),  E(exp10, 2),
    E(expm1, 1), E(log, 1),    E(log2, 1),  E(log10, 2), E(log1p, 1),
    E(logb, 0),  E(cbrt, 1),   E(erf, 2),   E(erfc, 4),  {"lgammaf", __hetgpu_math_lgammaf, lgamma, 6, -10.001, -2.264},
    E(tgamma, 5),
};

typedef struct {
  fn_t *F;
  uint64_t lo, hi;
  double maxerr;
  uint32_t worst;
  long bad_special;
  uint32_t bad;
} job_t;

static double ulp_err(float got, double ref) {
  if (isnan(ref))
    return isnan(got) ? 0 : -1;
  if (isnan(got))
    return -1;
  if (isinf(ref) || ref == 0)
    return (got == ref && signbit(got) == signbit(ref)) ? 0 : -1;
  int e;
  frexp(ref, &e);
  int ue = e - 24 < -149 ? -149 : e - 24;
  if (isinf(got)) {
    if (fabs(ref) >= 0x1.ffffffp127)
      return signbit(got) == signbit(ref) ? 0 : -1;
    return fabs(copysign(0x1p128, got) - ref) / ldexp(1.0, ue);
  }
  return fabs((double)got - ref) / ldexp(1.0, ue);
}

static void *work(void *p) {
  job_t *J = p;
  for (uint64_t u = J->lo; u < J->hi; ++u) {
    uint32_t b = (uint32_t)u;
    float x;
    memcpy(&x, &b, 4);
    if (x >= J->F->skip_lo && x <= J->F->skip_hi)
      continue;
    double ref = J->F->ref(x);
    float got = J->F->mine(x);
    double e = ulp_err(got, ref);
    if (J->F->bound == 0 && e > 0 && e <= 0.5) // exact functions
      e = (float)ref == got ? 0 : 1;
    if (e < 0) {
      if (J->bad_special++ == 0)
        J->bad = b;
    } else if (e > J->maxerr) {
      J->maxerr = e;
      J->worst = b;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  int nt = (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (nt > 64)
    nt = 64;
  int fail = 0;
  for (unsigned k = 0; k < sizeof fns / sizeof fns[0]; ++k) {
    fn_t *F = &fns[k];
    if (argc > 1 && strcmp(argv[1], F->name))
      continue;
    pthread_t th[64];
    job_t jobs[64];
    uint64_t step = (1ULL << 32) / nt + 1;
    for (int t = 0; t < nt; ++t) {
      jobs[t] = (job_t){F, t * step, (t + 1) * step > (1ULL << 32) ? (1ULL << 32) : (t + 1) * step, 0, 0, 0, 0};
      pthread_create(&th[t], 0, work, &jobs[t]);
    }
    double m = 0;
    uint32_t worst = 0;
    long bad = 0;
    uint32_t badx = 0;
    for (int t = 0; t < nt; ++t) {
      pthread_join(th[t], 0);
      if (jobs[t].maxerr > m) {
        m = jobs[t].maxerr;
        worst = jobs[t].worst;
      }
      if (jobs[t].bad_special && !bad)
        badx = jobs[t].bad;
      bad += jobs[t].bad_special;
    }
    float wx, bx;
    memcpy(&wx, &worst, 4);
    memcpy(&bx, &badx, 4);
    int ok = m <= (F->bound == 0 ? 0 : F->bound) && bad == 0;
    printf("%-8s max %.4f ulp (bound %g) at %a; %ld special mismatches%s%s\n", F->name, m,
           F->bound, wx, bad, bad ? " e.g. " : "", ok ? "" : "  FAIL");
    if (bad)
      printf("    special mismatch at %a\n", bx);
    fflush(stdout);
    fail |= !ok;
  }
  return fail;
}
