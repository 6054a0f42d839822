//===- device_launch_parameters.h - threadIdx, blockIdx, ... ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The built-in variables threadIdx, blockIdx, blockDim, gridDim and
/// warpSize. Each is an object of an empty struct whose members x, y, z are
/// `__declspec(property)`s: reading `threadIdx.x` calls a getter that calls
/// the hetIR builtin (`__hetgpu_tid_x()`). This is the pattern clang's own
/// CUDA headers use, except that the objects are defined (empty constexpr
/// objects): no module ever refers to an undefined variable. Their address
/// cannot be taken and they cannot be assigned.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_DEVICE_LAUNCH_PARAMETERS_H
#define HETGPU_DEVICE_LAUNCH_PARAMETERS_H

// Device language: empty in a plain C/C++ (non-CUDA) compile.
#if defined(__CUDA__)

#include <hetgpu/cuda/builtins.h>
#include <vector_types.h>

#define __HG_BUILTIN_VAR_COMPONENT(Comp, Builtin)                              \
  __declspec(property(get = __fetch_builtin_##Comp)) unsigned int Comp;        \
  static __inline__ __attribute__((always_inline))                             \
  __device__ unsigned int __fetch_builtin_##Comp(void) {                       \
    return Builtin();                                                          \
  }

#define __HG_BUILTIN_VAR_TYPE(TypeName, Prefix)                                \
  struct TypeName {                                                            \
    __HG_BUILTIN_VAR_COMPONENT(x, __hetgpu_##Prefix##_x)                       \
    __HG_BUILTIN_VAR_COMPONENT(y, __hetgpu_##Prefix##_y)                       \
    __HG_BUILTIN_VAR_COMPONENT(z, __hetgpu_##Prefix##_z)                       \
    __device__ __forceinline__ operator dim3() const { return dim3(x, y, z); } \
    __device__ __forceinline__ operator uint3() const {                        \
      uint3 r;                                                                 \
      r.x = x;                                                                 \
      r.y = y;                                                                 \
      r.z = z;                                                                 \
      return r;                                                                \
    }                                                                          \
                                                                               \
    constexpr TypeName() {}                                                    \
                                                                               \
  private:                                                                     \
    __device__ TypeName(const TypeName &) = delete;                            \
    __device__ void operator=(const TypeName &) const = delete;                \
    __device__ TypeName *operator&() const = delete;                           \
  };

// The type names are clang's, so diagnostics read the same as with nvcc/clang.
__HG_BUILTIN_VAR_TYPE(__cuda_builtin_threadIdx_t, tid)
__HG_BUILTIN_VAR_TYPE(__cuda_builtin_blockIdx_t, ctaid)
__HG_BUILTIN_VAR_TYPE(__cuda_builtin_blockDim_t, ntid)
__HG_BUILTIN_VAR_TYPE(__cuda_builtin_gridDim_t, nctaid)
#undef __HG_BUILTIN_VAR_TYPE
#undef __HG_BUILTIN_VAR_COMPONENT

// Defined (empty, constexpr) objects rather than clang's extern weak
// declarations: nothing refers to an undefined variable even at -O0, where
// the conversion operators still receive `this`. Device code that binds them
// gets an internal constant; the host side registers nothing.
static constexpr __cuda_builtin_threadIdx_t threadIdx{};
static constexpr __cuda_builtin_blockIdx_t blockIdx{};
static constexpr __cuda_builtin_blockDim_t blockDim{};
static constexpr __cuda_builtin_gridDim_t gridDim{};

/// Warps are 32 lanes on every hetGPU target (docs/hetIR.md). A constant,
/// not a macro, so that `prop.warpSize` (cudaDeviceProp) still works.
static constexpr int warpSize = 32;

#endif // __CUDA__

#endif // HETGPU_DEVICE_LAUNCH_PARAMETERS_H
