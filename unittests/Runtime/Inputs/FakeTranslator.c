/*===- FakeTranslator.c - A stand-in for libhetgpu-translate in tests -----===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * Implements Translate.h by returning the bytes of the file named by
 * HETGPU_TEST_MODULE (a prebuilt host-target module) for target "host", and
 * an error naming the target otherwise. Every call appends a line to
 * HETGPU_TEST_TRANSLATE_LOG when set, so tests can count translations.
 *
\*===----------------------------------------------------------------------===*/

#include "hetgpu/Translate/Translate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

static char *dupString(const char *S) {
  char *D = (char *)malloc(strlen(S) + 1);
  strcpy(D, S);
  return D;
}

EXPORT int hetgpu_translate(const hetgpu_translate_request *req,
                            hetgpu_translate_result *res) {
  res->data = 0;
  res->size = 0;
  res->error = 0;
  const char *Log = getenv("HETGPU_TEST_TRANSLATE_LOG");
  if (Log) {
    FILE *F = fopen(Log, "a");
    if (F) {
      fprintf(F, "%s %zu\n", req->target, req->ir_size);
      fclose(F);
    }
  }
  if (strcmp(req->target, "host") != 0) {
    res->error = dupString("fake translator: only target host");
    return 1;
  }
  if (req->ir_size >= 4 && memcmp(req->ir, "FAIL", 4) == 0) {
    res->error = dupString("fake translator: kernel 'broken' uses an "
                           "unsupported construct");
    return 1;
  }
  const char *Path = getenv("HETGPU_TEST_MODULE");
  FILE *F = Path ? fopen(Path, "rb") : 0;
  if (!F) {
    res->error = dupString("fake translator: HETGPU_TEST_MODULE unreadable");
    return 1;
  }
  fseek(F, 0, SEEK_END);
  long N = ftell(F);
  fseek(F, 0, SEEK_SET);
  res->data = malloc((size_t)N);
  res->size = fread(res->data, 1, (size_t)N, F);
  fclose(F);
  return 0;
}

EXPORT void hetgpu_translate_dispose(hetgpu_translate_result *res) {
  free(res->data);
  free(res->error);
  res->data = 0;
  res->error = 0;
}

EXPORT const char *hetgpu_translate_version(void) { return "fake 1"; }
