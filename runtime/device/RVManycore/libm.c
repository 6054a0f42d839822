//===- libm.c - C math functions the device code may call -----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Calls the device math library and LLVM's expansions of some intrinsics
/// (llvm.ldexp, llvm.frexp) leave to the C library. The F and D extensions
/// do most of them in one instruction; ldexp/frexp work on the bits.
///
//===----------------------------------------------------------------------===//

#include <stdint.h>

double fma(double X, double Y, double Z) { return __builtin_fma(X, Y, Z); }
float fmaf(float X, float Y, float Z) { return __builtin_fmaf(X, Y, Z); }
double sqrt(double X) { return __builtin_sqrt(X); }
float sqrtf(float X) { return __builtin_sqrtf(X); }
double fabs(double X) { return __builtin_fabs(X); }
float fabsf(float X) { return __builtin_fabsf(X); }
double copysign(double X, double Y) { return __builtin_copysign(X, Y); }
float copysignf(float X, float Y) { return __builtin_copysignf(X, Y); }
double fmin(double X, double Y) { return __builtin_fmin(X, Y); }
float fminf(float X, float Y) { return __builtin_fminf(X, Y); }
double fmax(double X, double Y) { return __builtin_fmax(X, Y); }
float fmaxf(float X, float Y) { return __builtin_fmaxf(X, Y); }

static uint64_t bitsOf(double X) {
  uint64_t U;
  __builtin_memcpy(&U, &X, 8);
  return U;
}
static double fromBits(uint64_t U) {
  double X;
  __builtin_memcpy(&X, &U, 8);
  return X;
}

/// X * 2^N with one rounding, as C's ldexp (scaling in steps that stay
/// exact until the last one).
double ldexp(double X, int N) {
  if (N > 3000)
    N = 3000;
  if (N < -3000)
    N = -3000;
  while (N > 1023) {
    X *= 0x1p1023;
    N -= 1023;
  }
  while (N < -1022) {
    // Scale by 2^-969 (= 2^-1022 * 2^53) so that the final step, not this
    // one, rounds when the result is subnormal.
    if (N >= -1022 - 53) {
      X *= 0x1p-969;
      N += 969;
      break;
    }
    X *= 0x1p-1022;
    N += 1022;
  }
  return X * fromBits((uint64_t)(N + 1023) << 52);
}
float ldexpf(float X, int N) { return (float)ldexp((double)X, N); }

double frexp(double X, int *E) {
  uint64_t U = bitsOf(X);
  int Exp = (int)((U >> 52) & 0x7ff);
  if (Exp == 0x7ff || X == 0.0) { // inf, nan, zero
    *E = 0;
    return X;
  }
  if (Exp == 0) { // subnormal: normalise first
    X *= 0x1p64;
    U = bitsOf(X);
    Exp = (int)((U >> 52) & 0x7ff) - 64;
  }
  *E = Exp - 1022;
  return fromBits((U & ~(0x7ffull << 52)) | (1022ull << 52));
}
float frexpf(float X, int *E) { return (float)frexp((double)X, E); }
