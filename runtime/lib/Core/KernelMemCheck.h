//===- KernelMemCheck.h - HETGPU_MEMCHECK: checked kernel accesses -*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// With HETGPU_MEMCHECK=1 every module is translated with
/// HETGPU_TRANSLATE_MEMCHECK (hetgpu-instrument-memcheck): its kernels
/// check each global and shared access against a table of the memory they
/// may touch (include/hetgpu/ABI/MemCheck.h). This part of the runtime
/// keeps one table per device context, points every loaded module at it,
/// rewrites its ranges before each launch (allocations, module variables,
/// freed memory), runs the launch to its end and prints what the kernel
/// reported, compute-sanitizer style, on stderr. A launch with a report
/// ends with cudaErrorIllegalAddress (sticky), as the fault would on a GPU;
/// the refused accesses were never made, so the process lives.
/// Launches are serialised and synchronous while memcheck is on; live
/// migration and kernel groups are off (docs/Runtime.md "Memcheck").
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_CORE_KERNELMEMCHECK_H
#define HETGPU_RUNTIME_CORE_KERNELMEMCHECK_H

#include "Core/Device.h"
#include "hetgpu/ABI/MemCheck.h"

namespace hetgpu {
namespace rt {

struct DeviceContext;
struct KernelRecord;
struct LoadedModule;
struct StreamObj;

/// HETGPU_MEMCHECK is set to 1 (read once).
bool memCheckEnabled();

/// Bytes cudaMalloc leaves unused after each block while memcheck is on.
constexpr size_t MemCheckRedZone = abi::MemCheckNearBytes;

/// The translation flags of whole modules: live migration's and memcheck's.
unsigned moduleTranslateFlags();

/// Points module \p LM (just loaded on \p Ctx, described by \p MI) at the
/// context's table and records its variables as ranges. Call with Ctx.M
/// held.
Status memCheckModuleLoaded(DeviceContext &Ctx, const container::ModuleInfo &MI,
                            LoadedModule &LM);

/// Runs \p P of \p K on \p S with a fresh table and reports what the kernel
/// found. Call with Ctx.M held.
Status memCheckedLaunch(DeviceContext &Ctx, StreamObj &S, Kernel &K,
                        const KernelRecord &KR, const LaunchParams &P);

/// Frees \p Ctx's table (cudaDeviceReset). Call with Ctx.M held.
void memCheckResetContext(DeviceContext &Ctx);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_CORE_KERNELMEMCHECK_H
