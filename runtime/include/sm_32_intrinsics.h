//===- sm_32_intrinsics.h - Old SDK name ------------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// CUDA code sometimes includes this SDK header by name; __ldg and the other
/// cache-hinted loads are in device_functions.h, warp functions in
/// sm_30_intrinsics.h.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_SM_32_INTRINSICS_H
#define HETGPU_SM_32_INTRINSICS_H

#include <device_functions.h>
#include <sm_30_intrinsics.h>

#endif // HETGPU_SM_32_INTRINSICS_H
