//===- cuda.h - CUDA version macros (no driver API) -------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Only CUDA_VERSION and the runtime headers: hetGPU implements the CUDA
/// runtime API, not the driver API (cuInit, cuModuleLoad, ...), so code
/// that calls driver functions fails to compile with `undeclared
/// identifier' naming the function.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_CUDA_H
#define HETGPU_CUDA_H

#ifndef CUDA_VERSION
#define CUDA_VERSION 12080
#endif
#include <cuda_runtime.h>

#endif // HETGPU_CUDA_H
