//===- cuda/std/detail/config.h - Namespace of hetGPU's libcu++ -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// hetGPU's subset of libcu++ (NVIDIA's CUDA C++ standard library, not
/// packaged by Debian) lives in `cuda::std` and `cuda`. Its headers need
/// clang's CUDA mode or a host compile; `__host__`/`__device__` come from
/// host_defines.h either way.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_CUDA_STD_DETAIL_CONFIG_H
#define HETGPU_CUDA_STD_DETAIL_CONFIG_H

#include <host_defines.h>

#include <cstddef>

#define _HETGPU_CUDA_STD_BEGIN                                                 \
  namespace cuda {                                                             \
  namespace std {
#define _HETGPU_CUDA_STD_END                                                   \
  }                                                                            \
  }
/// libcu++'s version macro (the 1.9 API this subset follows).
#define _LIBCUDACXX_CUDA_API_VERSION 1009000

#endif // HETGPU_CUDA_STD_DETAIL_CONFIG_H
