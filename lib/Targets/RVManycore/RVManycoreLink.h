//===- RVManycoreLink.h - Link a kernel object into a core image -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Links the RISC-V object of a lowered module with the device runtime
/// archive (embedded at build time) into the static-PIE image tt-sim loads.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TARGETS_RVMANYCORE_RVMANYCORELINK_H
#define HETGPU_TARGETS_RVMANYCORE_RVMANYCORELINK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace hetgpu {

/// The device runtime archive (librvmc-rt.a) compiled into this library.
llvm::ArrayRef<unsigned char> rvmcRuntimeArchive();

/// Runs ld.lld (HETGPU_LLD, the one found at build time, or ld.lld on PATH)
/// on \p Object and the runtime archive; returns the image bytes.
llvm::Expected<std::vector<char>>
linkRVManycoreImage(llvm::ArrayRef<char> Object);

} // namespace hetgpu

#endif // HETGPU_TARGETS_RVMANYCORE_RVMANYCORELINK_H
