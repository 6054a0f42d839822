//===- CudaErrors.cpp - cudaError_t names, strings and mapping ------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Tables generated from CudaErrors.def; the enum of driver_types.h is
/// checked against them at compile time.
///
//===----------------------------------------------------------------------===//

#include "Core/CudaErrors.h"

using namespace hetgpu;
using namespace hetgpu::rt;

#define HETGPU_CUDA_ERROR(Name, Value, String)                                 \
  static_assert(Name == Value, #Name " has CUDA's value");
#include "Core/CudaErrors.def"

namespace {
struct ErrorEntry {
  int Value;
  const char *Name;
  const char *String;
};
const ErrorEntry Errors[] = {
#define HETGPU_CUDA_ERROR(Name, Value, String) {Value, #Name, String},
#include "Core/CudaErrors.def"
};

const ErrorEntry *find(int E) {
  for (const ErrorEntry &Entry : Errors)
    if (Entry.Value == E)
      return &Entry;
  return nullptr;
}
} // namespace

const char *hetgpu::rt::cudaErrorNameOrNull(int E) {
  const ErrorEntry *Entry = find(E);
  return Entry ? Entry->Name : nullptr;
}

const char *hetgpu::rt::cudaErrorStringOrNull(int E) {
  const ErrorEntry *Entry = find(E);
  return Entry ? Entry->String : nullptr;
}

cudaError_t hetgpu::rt::toCudaError(ErrorCode C) {
  switch (C) {
  case ErrorCode::Success:
    return cudaSuccess;
  case ErrorCode::InvalidValue:
    return cudaErrorInvalidValue;
  case ErrorCode::OutOfMemory:
    return cudaErrorMemoryAllocation;
  case ErrorCode::InvalidDevicePointer:
    return cudaErrorInvalidDevicePointer;
  case ErrorCode::InvalidConfiguration:
    return cudaErrorInvalidConfiguration;
  case ErrorCode::LaunchOutOfResources:
    return cudaErrorLaunchOutOfResources;
  case ErrorCode::LaunchFailure:
    return cudaErrorLaunchFailure;
  case ErrorCode::Assert:
    return cudaErrorAssert;
  case ErrorCode::NotReady:
    return cudaErrorNotReady;
  case ErrorCode::NoBinaryForGpu:
    return cudaErrorNoKernelImageForDevice;
  case ErrorCode::InvalidSymbol:
    return cudaErrorInvalidSymbol;
  case ErrorCode::NotSupported:
    return cudaErrorNotSupported;
  case ErrorCode::DriverFailure:
    return cudaErrorUnknown;
  case ErrorCode::IllegalAddress:
    return cudaErrorIllegalAddress;
  case ErrorCode::InvalidAddressSpace:
    return cudaErrorInvalidAddressSpace;
  case ErrorCode::IllegalInstruction:
    return cudaErrorIllegalInstruction;
  case ErrorCode::MisalignedAddress:
    return cudaErrorMisalignedAddress;
  }
  return cudaErrorUnknown;
}

bool hetgpu::rt::isStickyError(cudaError_t E) {
  switch (E) {
  case cudaErrorLaunchFailure:
  case cudaErrorAssert:
  case cudaErrorIllegalAddress:
  case cudaErrorIllegalInstruction:
  case cudaErrorMisalignedAddress:
  case cudaErrorInvalidAddressSpace:
  case cudaErrorInvalidPc:
  case cudaErrorHardwareStackError:
  case cudaErrorLaunchTimeout:
  case cudaErrorECCUncorrectable:
    return true;
  default:
    return false;
  }
}
