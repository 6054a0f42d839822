//===- cuda_profiler_api.h - CUDA profiler control --------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaProfilerStart/cudaProfilerStop, declared with the runtime API.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_CUDA_PROFILER_API_H
#define HETGPU_CUDA_PROFILER_API_H

#include <cuda_runtime_api.h>

#endif // HETGPU_CUDA_PROFILER_API_H
