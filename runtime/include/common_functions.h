//===- common_functions.h - Old SDK name ------------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Everything is in cuda_runtime.h, which hetgpu-cc pre-includes.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_COMMON_FUNCTIONS_H
#define HETGPU_COMMON_FUNCTIONS_H

#include <cuda_runtime.h>

#endif // HETGPU_COMMON_FUNCTIONS_H
