//===- sm_32_atomic_functions.h - Old SDK name ------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// CUDA code sometimes includes this SDK header by name; the atomics (all
/// architectures' overloads, scoped variants too) are in
/// device_atomic_functions.h.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_SM_32_ATOMIC_FUNCTIONS_H
#define HETGPU_SM_32_ATOMIC_FUNCTIONS_H

#include <device_atomic_functions.h>

#endif // HETGPU_SM_32_ATOMIC_FUNCTIONS_H
