//===- device_types.h - CUDA device types -----------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaRoundMode, as in CUDA's device_types.h.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_DEVICE_TYPES_H
#define HETGPU_DEVICE_TYPES_H

enum cudaRoundMode {
  cudaRoundNearest,
  cudaRoundZero,
  cudaRoundPosInf,
  cudaRoundMinInf
};

#endif // HETGPU_DEVICE_TYPES_H
