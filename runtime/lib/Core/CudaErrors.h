//===- CudaErrors.h - cudaError_t names, strings and mapping ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Name and string tables of cudaError_t (CudaErrors.def) and the mapping of
/// backend ErrorCodes to cudaError_t.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_CORE_CUDAERRORS_H
#define HETGPU_RUNTIME_CORE_CUDAERRORS_H

#include "Core/Device.h"
#include "driver_types.h"

namespace hetgpu {
namespace rt {

/// "cudaErrorInvalidValue"; nullptr for a value that is not a cudaError_t.
const char *cudaErrorNameOrNull(int E);
/// "invalid argument"; nullptr for a value that is not a cudaError_t.
const char *cudaErrorStringOrNull(int E);
/// The cudaError_t a backend error becomes.
cudaError_t toCudaError(ErrorCode C);
/// Whether \p E corrupts the context (sticky until cudaDeviceReset).
bool isStickyError(cudaError_t E);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_CORE_CUDAERRORS_H
