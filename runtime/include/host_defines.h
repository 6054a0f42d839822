//===- host_defines.h - CUDA's declaration specifiers -----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The execution-space and memory-space keywords of CUDA C++ (`__global__`,
/// `__device__`, `__shared__`, ...) as clang attributes, plus the small
/// decoration macros CUDA code uses (`__forceinline__`, `__align__`, ...).
/// Clang in CUDA mode implements the semantics; these are only spellings.
/// In a plain C/C++ compile the keywords expand to nothing.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_HOST_DEFINES_H
#define HETGPU_HOST_DEFINES_H
// NVIDIA's header guard: Thrust's guarded_cuda_runtime_api.h tests it to
// decide whether __host__/__device__ come from CUDA's headers (then they
// stay) or from Thrust itself (then it undefines them).
#define __HOST_DEFINES_H__

#if defined(__CUDA__)
// vector_types.h may have defined __host__/__device__ already (same text).
#ifndef __host__
#define __host__ __attribute__((host))
#endif
#ifndef __device__
#define __device__ __attribute__((device))
#endif
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
// Clang implements `managed` for HIP only (CUDA mode ignores it with a
// warning), so a __managed__ variable is a __device__ variable here: device
// code sees one coherent variable; host code must go through
// cudaMemcpyTo/FromSymbol instead of touching it directly (docs/Headers.md).
#define __managed__ __attribute__((device))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __grid_constant__ __attribute__((grid_constant))

#define __forceinline__ __inline__ __attribute__((always_inline))
// Clang treats `__noinline__` as a keyword in CUDA mode (so that GCC's
// `__attribute__((__noinline__))` in system headers keeps working); only
// spell it as a macro where it is not one.
#if !__is_identifier(__noinline__)
// keyword: nothing to do
#else
#define __noinline__ __attribute__((noinline))
#endif
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(a) __align__(a)
#define __device_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __cudart_builtin__
#define CUDARTAPI

#else // Plain C or C++ (a .c/.cpp file that calls the runtime API).
// The keywords expand to nothing, as with nvcc's headers in a host compiler.
// `__noinline__` is left alone: system headers spell
// `__attribute__((__noinline__))`, which a macro would break.
#define __host__
#define __device__
#define __global__
#define __shared__
#define __constant__
#define __managed__
#define __launch_bounds__(...)
#define __grid_constant__
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(a) __align__(a)
#define __device_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __cudart_builtin__
#define CUDARTAPI
#endif // __CUDA__

/// hetGPU identifies itself; code may test it.
#define __HETGPU__ 1

#endif // HETGPU_HOST_DEFINES_H
