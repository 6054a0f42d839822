//===- libc.c - The C library functions LLVM may call on a core ------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// llvm.memcpy/memmove/memset become calls to these when not inlined.
/// Compiled with -fno-builtin so the loops are not turned back into calls.
///
//===----------------------------------------------------------------------===//

typedef unsigned long size_t;

void *memcpy(void *Dst, const void *Src, size_t N) {
  unsigned char *D = (unsigned char *)Dst;
  const unsigned char *S = (const unsigned char *)Src;
  if ((((unsigned long)D | (unsigned long)S) & 7) == 0) {
    for (; N >= 8; N -= 8, D += 8, S += 8)
      *(unsigned long *)D = *(const unsigned long *)S;
  }
  while (N--)
    *D++ = *S++;
  return Dst;
}

void *memmove(void *Dst, const void *Src, size_t N) {
  unsigned char *D = (unsigned char *)Dst;
  const unsigned char *S = (const unsigned char *)Src;
  if (D == S || N == 0)
    return Dst;
  if (D < S || D >= S + N)
    return memcpy(Dst, Src, N);
  while (N--)
    D[N] = S[N];
  return Dst;
}

void *memset(void *Dst, int C, size_t N) {
  unsigned char *D = (unsigned char *)Dst;
  while (N--)
    *D++ = (unsigned char)C;
  return Dst;
}

int memcmp(const void *A, const void *B, size_t N) {
  const unsigned char *X = (const unsigned char *)A;
  const unsigned char *Y = (const unsigned char *)B;
  for (; N; --N, ++X, ++Y)
    if (*X != *Y)
      return *X < *Y ? -1 : 1;
  return 0;
}
