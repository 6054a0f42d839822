//===- SPIRVToSPIR.h - SPIR-V for consumers that take SPIR 1.2 ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// OpenCL devices without SPIR-V ingestion (CL_DEVICE_IL_VERSION empty) that
/// accept SPIR 1.2 bitcode (cl_khr_spir; Debian's PoCL 3.1) get our SPIR-V
/// through the Khronos SPIRV-LLVM-Translator run in reverse
/// (`llvm-spirv -r`), as a subprocess: $HETGPU_LLVM_SPIRV, else
/// llvm-spirv-15 .. llvm-spirv-18 or llvm-spirv on PATH.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_OPENCL_SPIRVTOSPIR_H
#define HETGPU_RUNTIME_BACKENDS_OPENCL_SPIRVTOSPIR_H

#include <string>
#include <vector>

namespace hetgpu {
namespace rt {

/// Rewrites constructs of valid SPIR-V that older translators reject:
/// OpConstantNull of a scalar integer/float/bool type becomes OpConstant 0 /
/// OpConstantFalse; an OpPhi pair whose parent block branches to the phi's
/// block by several edges (switch cases with one target) is repeated once
/// per edge, as LLVM IR's phis need. Returns false (and sets \p Error) on a
/// malformed module.
bool legalizeSPIRVForTranslator(std::vector<char> &Module, std::string &Error);

/// The translator's path, or "" (with \p Error set) when none is found.
std::string findSPIRVTranslator(std::string &Error);

/// SPIR-V binary -> SPIR 1.2 bitcode. False with \p Error (the translator's
/// own messages included) on failure.
bool translateSPIRVToSPIR(const std::vector<char> &SPIRV,
                          std::vector<char> &Bitcode, std::string &Error);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_OPENCL_SPIRVTOSPIR_H
