/*===- TestKernels.c - A hand-written host-target module for tests --------===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * What the "host" lowering target produces for a small CUDA module, written
 * by hand against include/hetgpu/ABI/BlockABI.h, so the CPU backend and the CUDA API can
 * be tested without the translator. Kernel parameter tables are in
 * TestModule.h (the container side).
 *
\*===----------------------------------------------------------------------===*/

#include "hetgpu/ABI/BlockABI.h"

#include <stdint.h>
#include <string.h>
#include <time.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT const uint32_t __hetgpu_host_abi_version = HETGPU_HOST_ABI_VERSION;

/* __device__ int counter; __constant__ float table[4] = {1,2,3,4}; */
EXPORT int counter = 0;
EXPORT float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};

#define NTHREADS(c) ((c)->block_dim[0] * (c)->block_dim[1] * (c)->block_dim[2])

/* vecAdd(const float *a, const float *b, float *c, int n) */
EXPORT void __hetgpu_block_vecAdd(void **args, hetgpu_block_ctx *ctx) {
  const float *a = *(const float **)args[0];
  const float *b = *(const float **)args[1];
  float *c = *(float **)args[2];
  int n = *(int *)args[3];
  for (uint32_t t = 0; t < ctx->block_dim[0]; ++t) {
    int i = (int)(ctx->block_idx[0] * ctx->block_dim[0] + t);
    if (i < n)
      c[i] = a[i] + b[i];
  }
}

/* blockSum(const int *in, int *out): static __shared__ int s[1024]; */
EXPORT void __hetgpu_block_blockSum(void **args, hetgpu_block_ctx *ctx) {
  const int *in = *(const int **)args[0];
  int *out = *(int **)args[1];
  int *s = (int *)ctx->shared;
  uint32_t n = ctx->block_dim[0];
  for (uint32_t t = 0; t < n; ++t)
    s[t] = in[ctx->block_idx[0] * n + t];
  /* __syncthreads(); if (threadIdx.x == 0) */
  int sum = 0;
  for (uint32_t t = 0; t < n; ++t)
    sum += s[t];
  out[ctx->block_idx[0]] = sum;
}

/* dynShared(int *out): extern __shared__ int d[]; d[t] = 3*t; out = d[n-1-t] */
EXPORT void __hetgpu_block_dynShared(void **args, hetgpu_block_ctx *ctx) {
  int *out = *(int **)args[0];
  int *d = (int *)((char *)ctx->shared + ctx->dynamic_shared_offset);
  uint32_t n = ctx->block_dim[0];
  if (ctx->dynamic_shared_size < n * sizeof(int))
    ctx->services->trap(ctx->services->rt);
  for (uint32_t t = 0; t < n; ++t)
    d[t] = 3 * (int)t + (int)ctx->block_idx[0];
  for (uint32_t t = 0; t < n; ++t)
    out[ctx->block_idx[0] * n + t] = d[n - 1 - t];
}

/* printer(int x, double y): printf("x=%d y=%.2f s=%s id=%lld\n", x, y,
 * "hi", (long long)blockIdx.x) from thread 0 of each block. */
EXPORT void __hetgpu_block_printer(void **args, hetgpu_block_ctx *ctx) {
  struct {
    int x;
    double y;
    const char *s;
    long long id;
  } buf;
  buf.x = *(int *)args[0];
  buf.y = *(double *)args[1];
  buf.s = "hi";
  buf.id = ctx->block_idx[0];
  ctx->services->printf(ctx->services->rt, "x=%d y=%.2f s=%s id=%lld\n",
                        &buf);
}

/* asserter(int *out): assert(blockIdx.x != 1) in thread 0 */
EXPORT void __hetgpu_block_asserter(void **args, hetgpu_block_ctx *ctx) {
  int *out = *(int **)args[0];
  if (ctx->block_idx[0] == 1)
    ctx->services->assert_fail(ctx->services->rt, "blockIdx.x != 1",
                               "kernels.cu", 42, "void asserter(int *)");
  out[ctx->block_idx[0]] = 1;
}

/* trapper(): __trap() */
EXPORT void __hetgpu_block_trapper(void **args, hetgpu_block_ctx *ctx) {
  (void)args;
  ctx->services->trap(ctx->services->rt);
}

/* faulter(int how): a hardware fault in block 1 (native code, so the
   division traps): 0 a store through NULL, 1 an integer division by zero
   (SIGFPE), 2 an undefined instruction (SIGILL). */
EXPORT void __hetgpu_block_faulter(void **args, hetgpu_block_ctx *ctx) {
  int how = *(int *)args[0];
  if (ctx->block_idx[0] != 1)
    return;
  volatile int zero = 0, *volatile null = 0;
  if (how == 0)
    *null = 1;
  else if (how == 1)
    counter = 7 / zero;
  else
    __builtin_trap();
}

/* addToCounter(int v): atomicAdd(&counter, v) in every thread */
EXPORT void __hetgpu_block_addToCounter(void **args, hetgpu_block_ctx *ctx) {
  int v = *(int *)args[0];
  for (uint32_t t = 0; t < NTHREADS(ctx); ++t)
    __atomic_fetch_add(&counter, v, __ATOMIC_RELAXED);
}

/* readTable(float *out): out[t] = table[t] */
EXPORT void __hetgpu_block_readTable(void **args, hetgpu_block_ctx *ctx) {
  float *out = *(float **)args[0];
  for (uint32_t t = 0; t < ctx->block_dim[0] && t < 4; ++t)
    out[t] = table[t];
}

/* structArg(S s, long long *out) with struct S { int a; double b; char c; } */
struct S {
  int a;
  double b;
  char c;
};
EXPORT void __hetgpu_block_structArg(void **args, hetgpu_block_ctx *ctx) {
  struct S s;
  memcpy(&s, args[0], sizeof(s));
  long long *out = *(long long **)args[1];
  (void)ctx;
  out[0] = s.a;
  out[1] = (long long)s.b;
  out[2] = s.c;
}

/* slowSet(int *flag, int value, int ms): sleeps, then *flag = value */
EXPORT void __hetgpu_block_slowSet(void **args, hetgpu_block_ctx *ctx) {
  int *flag = *(int **)args[0];
  int value = *(int *)args[1];
  int ms = *(int *)args[2];
  (void)ctx;
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, 0);
  __atomic_store_n(flag, value, __ATOMIC_SEQ_CST);
}

/* services(unsigned long long *out): clock64, globaltimer, malloc/free */
EXPORT void __hetgpu_block_services(void **args, hetgpu_block_ctx *ctx) {
  unsigned long long *out = *(unsigned long long **)args[0];
  const hetgpu_host_services *s = ctx->services;
  out[0] = s->clock64(s->rt);
  out[1] = s->clock64(s->rt);
  out[2] = s->globaltimer(s->rt);
  int *p = (int *)s->malloc(s->rt, 64);
  p[15] = 1234;
  out[3] = (unsigned long long)p[15];
  s->free(s->rt, p);
  out[4] = ctx->grid_dim[0] * 100 + ctx->block_dim[0];
}
