//===- LoweringTarget.cpp - The out-of-line parts of LoweringTarget -------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The key function of LoweringTarget (its destructor), here rather than
/// in the registry so that target libraries need only HetGPUTargetSupport.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Targets/LoweringTarget.h"

namespace hetgpu {

LoweringTarget::~LoweringTarget() = default;

} // namespace hetgpu
