//===- hetgpu/cuda/builtins.h - hetIR builtin declarations --------*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Device-side declarations of the hetIR builtins of
/// include/hetgpu/IR/Builtins.def (the contract: keep the two in sync). The
/// CUDA headers implement the CUDA device API on top of these; the lowering
/// targets implement the builtins themselves. Internal to the headers: user
/// code should call the CUDA functions, not these.
///
/// Helpers of the headers are named `__hg_*`: the `__hetgpu_` prefix is
/// reserved for the table, and the verifier rejects any other name using it.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_CUDA_BUILTINS_H
#define HETGPU_CUDA_BUILTINS_H

// Device language: empty in a plain C/C++ (non-CUDA) compile.
#if defined(__CUDA__)

#include <host_defines.h>

#define __HG_BUILTIN extern "C" __device__

// index (pure, and not convergent: the same value for the whole life of a
// thread, so reads may be merged and hoisted)
#define __HG_INDEX                                                             \
  __HG_BUILTIN __attribute__((const, noconvergent)) unsigned int
__HG_INDEX __hetgpu_tid_x(void);
__HG_INDEX __hetgpu_tid_y(void);
__HG_INDEX __hetgpu_tid_z(void);
__HG_INDEX __hetgpu_ntid_x(void);
__HG_INDEX __hetgpu_ntid_y(void);
__HG_INDEX __hetgpu_ntid_z(void);
__HG_INDEX __hetgpu_ctaid_x(void);
__HG_INDEX __hetgpu_ctaid_y(void);
__HG_INDEX __hetgpu_ctaid_z(void);
__HG_INDEX __hetgpu_nctaid_x(void);
__HG_INDEX __hetgpu_nctaid_y(void);
__HG_INDEX __hetgpu_nctaid_z(void);
__HG_INDEX __hetgpu_lane_id(void);

// barrier (convergent: every thread of the block must reach it)
__HG_BUILTIN __attribute__((convergent)) void __hetgpu_barrier(void);
__HG_BUILTIN __attribute__((convergent)) int __hetgpu_barrier_count(int);
__HG_BUILTIN __attribute__((convergent)) int __hetgpu_barrier_and(int);
__HG_BUILTIN __attribute__((convergent)) int __hetgpu_barrier_or(int);

// grid (cooperative_groups::grid_group::sync)
__HG_BUILTIN __attribute__((convergent)) void __hetgpu_grid_sync(void);

// fence
__HG_BUILTIN void __hetgpu_fence_block(void);
__HG_BUILTIN void __hetgpu_fence_device(void);
__HG_BUILTIN void __hetgpu_fence_system(void);

// warp (32 lanes on every target)
__HG_BUILTIN __attribute__((convergent)) void __hetgpu_syncwarp(unsigned int);
__HG_BUILTIN __attribute__((convergent)) int
__hetgpu_shfl_idx_i32(unsigned int, int, int, int);
__HG_BUILTIN __attribute__((convergent)) int
__hetgpu_shfl_up_i32(unsigned int, int, int, int);
__HG_BUILTIN __attribute__((convergent)) int
__hetgpu_shfl_down_i32(unsigned int, int, int, int);
__HG_BUILTIN __attribute__((convergent)) int
__hetgpu_shfl_xor_i32(unsigned int, int, int, int);
__HG_BUILTIN __attribute__((convergent)) int __hetgpu_vote_any(unsigned int,
                                                               int);
__HG_BUILTIN __attribute__((convergent)) int __hetgpu_vote_all(unsigned int,
                                                               int);
__HG_BUILTIN __attribute__((convergent)) unsigned int
__hetgpu_vote_ballot(unsigned int, int);
__HG_BUILTIN __attribute__((convergent)) unsigned int __hetgpu_activemask(void);
__HG_BUILTIN __attribute__((convergent)) unsigned int
__hetgpu_match_any_i32(unsigned int, int);

// memory (dynamic_shared is not declared: only hetgpu-raise creates it, from
// `extern __shared__` arrays; test/Headers/builtins-in-sync.test checks the
// rest against the table)
__HG_BUILTIN void *__hetgpu_malloc(unsigned long long);
__HG_BUILTIN void __hetgpu_free(void *);

// time
__HG_BUILTIN int __hetgpu_clock(void);
__HG_BUILTIN long long __hetgpu_clock64(void);
__HG_BUILTIN unsigned long long __hetgpu_globaltimer(void);

// input, output, errors
__HG_BUILTIN int __hetgpu_printf(const char *, const void *);
__HG_BUILTIN __attribute__((noreturn)) void
__hetgpu_assert_fail(const char *, const char *, unsigned int, const char *);
__HG_BUILTIN __attribute__((noreturn)) void __hetgpu_trap(void);

// math: the C library function of the same name (f suffix: float)
#define __HG_MATH1(N)                                                          \
  __HG_BUILTIN float __hetgpu_math_##N##f(float);                              \
  __HG_BUILTIN double __hetgpu_math_##N(double);
#define __HG_MATH2(N)                                                          \
  __HG_BUILTIN float __hetgpu_math_##N##f(float, float);                       \
  __HG_BUILTIN double __hetgpu_math_##N(double, double);
__HG_MATH1(sin)
__HG_MATH1(cos)
__HG_MATH1(tan)
__HG_MATH1(asin)
__HG_MATH1(acos)
__HG_MATH1(atan)
__HG_MATH2(atan2)
__HG_MATH1(sinh)
__HG_MATH1(cosh)
__HG_MATH1(tanh)
__HG_MATH1(asinh)
__HG_MATH1(acosh)
__HG_MATH1(atanh)
__HG_MATH1(exp)
__HG_MATH1(exp2)
__HG_MATH1(exp10)
__HG_MATH1(expm1)
__HG_MATH1(log)
__HG_MATH1(log2)
__HG_MATH1(log10)
__HG_MATH1(log1p)
__HG_MATH1(logb)
__HG_MATH2(pow)
__HG_MATH1(cbrt)
__HG_MATH2(hypot)
__HG_MATH1(erf)
__HG_MATH1(erfc)
__HG_MATH1(lgamma)
__HG_MATH1(tgamma)
__HG_MATH2(fmod)
__HG_MATH2(remainder)
__HG_MATH2(nextafter)
__HG_MATH2(fdim)
#undef __HG_MATH1
#undef __HG_MATH2
#undef __HG_INDEX
#undef __HG_BUILTIN

#endif // __CUDA__

#endif // HETGPU_CUDA_BUILTINS_H
