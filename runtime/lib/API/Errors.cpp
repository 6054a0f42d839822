//===- Errors.cpp - CUDA errors, versions, profiler -----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaGetLastError and cudaPeekAtLastError (a sticky error of the current
/// device wins over the thread's last error), error names and strings
/// (Core/CudaErrors.def), runtime and driver versions, and the profiler
/// control calls (no-ops).
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"
#include "Core/CudaErrors.h"

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

HETGPU_API cudaError_t cudaGetLastError(void) {
  DeviceContext *Ctx;
  if (RT().current(Ctx) == cudaSuccess && Ctx->Sticky.load()) {
    takeLastError(true);
    return static_cast<cudaError_t>(Ctx->Sticky.load());
  }
  return takeLastError(true);
}

HETGPU_API cudaError_t cudaPeekAtLastError(void) {
  DeviceContext *Ctx;
  if (RT().current(Ctx) == cudaSuccess && Ctx->Sticky.load())
    return static_cast<cudaError_t>(Ctx->Sticky.load());
  return takeLastError(false);
}

HETGPU_API const char *cudaGetErrorName(cudaError_t E) {
  const char *N = cudaErrorNameOrNull(E);
  return N ? N : "unrecognized error code";
}

HETGPU_API const char *cudaGetErrorString(cudaError_t E) {
  const char *S = cudaErrorStringOrNull(E);
  return S ? S : "unrecognized error code";
}

HETGPU_API cudaError_t cudaRuntimeGetVersion(int *V) {
  if (!V)
    return ret(cudaErrorInvalidValue);
  *V = CUDART_VERSION;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaDriverGetVersion(int *V) {
  if (!V)
    return ret(cudaErrorInvalidValue);
  *V = CUDART_VERSION;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
HETGPU_API cudaError_t cudaProfilerStop(void) { return cudaSuccess; }
