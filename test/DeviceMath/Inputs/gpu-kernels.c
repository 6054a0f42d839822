/*===- gpu-kernels.c - One NVPTX kernel per math builtin, for gpu-check ---===*
 *
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * Compiled for nvptx64-nvidia-cuda and linked with the library's
 * hetgpu-math-nvptx64-nvidia-cuda.bc: k_<name>(x, y, out, n) computes
 * out[i] = __hetgpu_math_<name>(x[i] [, y[i]]) for i < n; b_<name> is the
 * throughput kernel of gpu-bench.c (32 dependent-free calls per thread).
 * With -DHM_LIBDEVICE the calls go to libdevice's __nv_<name> instead.
 *===----------------------------------------------------------------------===*/

#define KERNEL __attribute__((nvptx_kernel))

static inline int gid(void) {
  return __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() +
         __nvvm_read_ptx_sreg_tid_x();
}

#define HM_ARGS_F1 float
#define HM_ARGS_F2 float, float
#define HM_ARGS_D1 double
#define HM_ARGS_D2 double, double
#define HM_CALL1(F) F(x[i])
#define HM_CALL2(F) F(x[i], y[i])
#define HM_BCALL1(F, T) F(xv + (T)j * (T)0x1p-10)
#define HM_BCALL2(F, T) F(xv + (T)j * (T)0x1p-10, yv)
#ifdef HM_LIBDEVICE
#include "gpu-libdevice-names.h"
#endif
#define HETGPU_MATH_F(N, A)                                                    \
  float __hetgpu_math_##N##f(HM_ARGS_F##A);                                    \
  KERNEL void k_##N##f(const float *x, const float *y, float *o, int n) {      \
    int i = gid();                                                             \
    if (i < n)                                                                 \
      o[i] = HM_CALL##A(__hetgpu_math_##N##f);                                 \
  }                                                                            \
  KERNEL void b_##N##f(const float *x, const float *y, float *o, int n) {      \
    int i = gid();                                                             \
    if (i >= n)                                                                \
      return;                                                                  \
    float xv = x[i], yv = y[i], acc = 0;                                       \
    for (int j = 0; j < 32; ++j)                                               \
      acc += HM_BCALL##A(__hetgpu_math_##N##f, float);                         \
    o[i] = acc;                                                                \
  }
#define HETGPU_MATH_D(N, A)                                                    \
  double __hetgpu_math_##N(HM_ARGS_D##A);                                      \
  KERNEL void k_##N(const double *x, const double *y, double *o, int n) {      \
    int i = gid();                                                             \
    if (i < n)                                                                 \
      o[i] = HM_CALL##A(__hetgpu_math_##N);                                    \
  }                                                                            \
  KERNEL void b_##N(const double *x, const double *y, double *o, int n) {      \
    int i = gid();                                                             \
    if (i >= n)                                                                \
      return;                                                                  \
    double xv = x[i], yv = y[i], acc = 0;                                      \
    for (int j = 0; j < 32; ++j)                                               \
      acc += HM_BCALL##A(__hetgpu_math_##N, double);                           \
    o[i] = acc;                                                                \
  }
#include "hetgpu/IR/Builtins.def"
