//===- builtin_types.h - Old SDK name ---------------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The vector types and the runtime types.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_BUILTIN_TYPES_H
#define HETGPU_BUILTIN_TYPES_H

#include <driver_types.h>
#include <vector_types.h>

#endif // HETGPU_BUILTIN_TYPES_H
