//===- Profile.h - The CUDA architecture hetIR is compiled for -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// hetgpu-cc compiles all device code once, for one portable profile: clang
/// sees `--cuda-gpu-arch=sm_<Major><Minor>`, so `__CUDA_ARCH__` is
/// Major * 100 + Minor * 10 in every hetIR module, whatever device runs it.
/// Libraries pick tuning policies from `__CUDA_ARCH__` in device code and
/// from the PTX version that cudaFuncGetAttributes reports in host code
/// (CUB's PtxVersion, Thrust's agent plans); the runtime reports this
/// profile there on every device, so both sides choose the same policy
/// (docs/Libraries.md). Compute capability queries (cudaGetDeviceProperties,
/// cudaDeviceGetAttribute) still describe the real device.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_ABI_PROFILE_H
#define HETGPU_ABI_PROFILE_H

namespace hetgpu {
namespace abi {

constexpr int ProfileComputeMajor = 8;
constexpr int ProfileComputeMinor = 0;
/// Bytes of static `__shared__` memory one kernel may use on every device
/// (CUDA's limit; dynamic shared memory may go beyond it by opt-in). The
/// device link checks each kernel's joint layout against it.
constexpr unsigned long long StaticSharedLimit = 48 * 1024;
/// `cudaFuncAttributes::ptxVersion` / `binaryVersion` of every kernel.
constexpr int ProfilePTXVersion = ProfileComputeMajor * 10 + ProfileComputeMinor;

} // namespace abi
} // namespace hetgpu

#endif // HETGPU_ABI_PROFILE_H
