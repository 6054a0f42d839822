/*===- RVManycorePrintf.h - Walk a CUDA printf format and its argument buffer -===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * One parser of printf conversion specifications, used by the device runtime
 * (to size the vprintf argument buffer and copy %s strings into the record)
 * and by the tt-sim backend (to format the record on the host), so both
 * sides agree on where each argument lives. The buffer layout is CUDA's
 * vprintf one: each argument at its natural alignment, integers narrower
 * than int promoted to int (4 bytes), float promoted to double, `long`,
 * `long long`, `size_t`, pointers and strings 8 bytes. A `*` width or
 * precision consumes an int argument.
 *
 * Plain freestanding C: no libc, no host headers.
 *
\*===----------------------------------------------------------------------===*/

#ifndef HETGPU_ABI_RVMANYCOREPRINTF_H
#define HETGPU_ABI_RVMANYCOREPRINTF_H

#include <stdint.h>

enum rvmc_fmt_kind {
  RVMC_FMT_TEXT = 0,    /* literal text (no argument) */
  RVMC_FMT_PERCENT = 1, /* "%%" */
  RVMC_FMT_INT = 2,     /* d i u o x X c, size 4 or 8 */
  RVMC_FMT_DOUBLE = 3,  /* f F e E g G a A */
  RVMC_FMT_STRING = 4,  /* s */
  RVMC_FMT_POINTER = 5, /* p */
  RVMC_FMT_BAD = 6,     /* n, an unknown conversion or a truncated spec */
};

typedef struct rvmc_fmt_piece {
  uint32_t begin;    /* offset of the piece in the format */
  uint32_t len;      /* bytes of the piece (the whole spec for conversions) */
  uint32_t kind;     /* rvmc_fmt_kind */
  uint32_t size;     /* argument bytes: 4 or 8, 0 for no argument */
  uint32_t stars;    /* '*' int arguments that come before the value */
  char conv;         /* conversion character */
  char is_long;      /* l, ll, z, j, t or L seen */
} rvmc_fmt_piece;

/* Reads the piece of \p fmt that starts at \p pos into \p p. Returns 0 at
 * the end of the format. */
static inline int rvmc_fmt_next(const char *fmt, uint32_t pos,
                                rvmc_fmt_piece *p) {
  uint32_t i = pos;
  p->begin = pos;
  p->len = 0;
  p->kind = RVMC_FMT_TEXT;
  p->size = 0;
  p->stars = 0;
  p->conv = 0;
  p->is_long = 0;
  if (!fmt[i])
    return 0;
  if (fmt[i] != '%') {
    while (fmt[i] && fmt[i] != '%')
      ++i;
    p->len = i - pos;
    return 1;
  }
  ++i;
  if (fmt[i] == '%') {
    p->kind = RVMC_FMT_PERCENT;
    p->len = 2;
    return 1;
  }
  while (fmt[i] == '-' || fmt[i] == '+' || fmt[i] == ' ' || fmt[i] == '#' ||
         fmt[i] == '0' || fmt[i] == '\'')
    ++i;
  if (fmt[i] == '*') {
    ++p->stars;
    ++i;
  } else {
    while (fmt[i] >= '0' && fmt[i] <= '9')
      ++i;
  }
  if (fmt[i] == '.') {
    ++i;
    if (fmt[i] == '*') {
      ++p->stars;
      ++i;
    } else {
      while (fmt[i] >= '0' && fmt[i] <= '9')
        ++i;
    }
  }
  for (;;) {
    char c = fmt[i];
    if (c == 'h') {
      ++i;
    } else if (c == 'l' || c == 'z' || c == 'j' || c == 't' || c == 'L' ||
               c == 'q') {
      p->is_long = 1;
      ++i;
    } else {
      break;
    }
  }
  p->conv = fmt[i];
  switch (fmt[i]) {
  case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
    p->kind = RVMC_FMT_INT;
    p->size = p->is_long ? 8 : 4;
    break;
  case 'c':
    p->kind = RVMC_FMT_INT;
    p->size = 4;
    break;
  case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a':
  case 'A':
    p->kind = RVMC_FMT_DOUBLE;
    p->size = 8;
    break;
  case 's':
    p->kind = RVMC_FMT_STRING;
    p->size = 8;
    break;
  case 'p':
    p->kind = RVMC_FMT_POINTER;
    p->size = 8;
    break;
  default:
    p->kind = RVMC_FMT_BAD;
    break;
  }
  if (fmt[i])
    ++i;
  p->len = i - pos;
  return 1;
}

/* Offset of an argument of \p size bytes placed after \p off bytes. */
static inline uint32_t rvmc_fmt_align(uint32_t off, uint32_t size) {
  return (off + size - 1) & ~(size - 1);
}

#endif /* HETGPU_ABI_RVMANYCOREPRINTF_H */
