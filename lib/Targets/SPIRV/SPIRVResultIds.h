//===- SPIRVResultIds.h - Result ids of a SPIR-V binary ---------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A check of the one id rule of SPIR-V (every result id is defined once,
/// below the header's bound) on a binary from LLVM's SPIR-V backend, which
/// breaks it in a process that emitted a module before (SPIRVTarget.cpp).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_LIB_TARGETS_SPIRV_SPIRVRESULTIDS_H
#define HETGPU_LIB_TARGETS_SPIRV_SPIRVRESULTIDS_H

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace hetgpu {
namespace spirv {

/// What is wrong with the result ids of the SPIR-V binary \p Bytes (an id
/// defined twice, an id at or past the bound, a malformed instruction), or
/// an empty string.
std::string resultIdProblem(llvm::ArrayRef<char> Bytes);

} // namespace spirv
} // namespace hetgpu

#endif // HETGPU_LIB_TARGETS_SPIRV_SPIRVRESULTIDS_H
