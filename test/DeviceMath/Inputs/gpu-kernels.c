/*===- gpu-kernels.c - One NVPTX kernel per math builtin, for gpu-check ---===*
 *
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * Compiled for nvptx64-nvidia-cuda and linked with the library's
 * hetgpu-math-nvptx64-nvidia-cuda.bc: k_<name>(x, y, out, n) computes
 * out[i] = __hetgpu_math_<name>(x[i] [, y[i]]) for i < n.
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
#define HETGPU_MATH_F(N, A)                                                    \
  float __hetgpu_math_##N##f(HM_ARGS_F##A);                                    \
  KERNEL void k_##N##f(const float *x, const float *y, float *o, int n) {      \
    int i = gid();                                                             \
    if (i < n)                                                                 \
      o[i] = HM_CALL##A(__hetgpu_math_##N##f);                                 \
  }
#define HETGPU_MATH_D(N, A)                                                    \
  double __hetgpu_math_##N(HM_ARGS_D##A);                                      \
  KERNEL void k_##N(const double *x, const double *y, double *o, int n) {      \
    int i = gid();                                                             \
    if (i < n)                                                                 \
      o[i] = HM_CALL##A(__hetgpu_math_##N);                                    \
  }
#include "hetgpu/IR/Builtins.def"
