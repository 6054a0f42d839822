//===- Prefetch.h - Translate modules before their first launch -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Cold start (issue 21), two parts:
///
/// - Kernel groups. A module of several kernels and no device variables
///   (nothing two translations would each have a copy of) is translated in
///   groups of HETGPU_KERNEL_GROUP kernels (8 by default; 0 = whole modules
///   only), in the order of its kernel table, each group its own translation
///   and its own backend module. A launch whose kernel's group is not
///   translated yet translates that kernel alone (and the prefetch moves the
///   group to the front of its queue): a first launch waits for one kernel,
///   not for a 128-kernel module. Not while live migration is on
///   (instrumented translations are whole modules).
/// - Prefetch. Once the runtime has found its devices, one runtime thread
///   translates every module (or group) of the registered containers for
///   the default device (JIT-cache lookup, translation,
///   Device::finalizeBinary) while the program goes on allocating and
///   copying. A launch takes the finished translation, or waits for the one
///   in progress; one still queued is translated by the launching thread at
///   once. Containers registered later (shared libraries opened by the
///   program) are queued when they register. Off unless HETGPU_PREFETCH=1
///   (the crashes at exit seen with it on are fixed: Prefetch.cpp).
///
/// At exit the worker is stopped before the backends' libraries go away;
/// the translator library refuses translations once its own static
/// destructor ran (lib/Translate/Translate.cpp), so LLVM is never used after
/// it is torn down.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_CORE_PREFETCH_H
#define HETGPU_RUNTIME_CORE_PREFETCH_H

#include "Core/Device.h"

#include <string>
#include <vector>

namespace hetgpu {
namespace rt {

struct BinaryRecord;

/// Kernels per group of \p MI, or 0 when it is translated whole.
unsigned kernelGroupSize(const container::ModuleInfo &MI);
/// The group of kernel \p Name of \p MI (kernelGroupSize() > 0), or -1.
int kernelGroupOf(const container::ModuleInfo &MI, const std::string &Name);
/// The names of the kernels of group \p Group.
std::vector<std::string> kernelGroup(const container::ModuleInfo &MI,
                                     int Group);

/// Starts the worker for device \p Dev, queueing every valid container
/// registered so far (\p Binaries). Called once, after device discovery.
void startPrefetch(Device &Dev, const std::vector<BinaryRecord *> &Binaries);

/// Queues the modules of a container registered after startPrefetch().
void prefetchBinary(BinaryRecord &B);

/// The translation of module \p ModuleIndex of \p B (its kernel group
/// \p Group, or -1: the whole module) for \p Dev with translation flags
/// \p Flags, if the worker made or is making it: waits for one in progress,
/// then moves the binary (or the translation's failure) out. False when
/// there is none for exactly these arguments (never queued, still queued:
/// then dequeued, or made for another device or flags).
bool takePrefetched(const BinaryRecord &B, int ModuleIndex, int Group,
                    const Device &Dev, unsigned Flags,
                    std::vector<char> &Binary, Status &Result);

enum class Prefetched {
  Taken,  ///< the binary (or the failure) was moved out
  Queued, ///< the group waits in the queue, now at its front
  None,   ///< no prefetch of it
};

/// As takePrefetched() for a kernel group, except that a group still queued
/// stays queued and moves to the front of the queue (the launching thread
/// then translates its one kernel meanwhile).
Prefetched takeOrPromotePrefetched(const BinaryRecord &B, int ModuleIndex,
                                   int Group, const Device &Dev,
                                   unsigned Flags, std::vector<char> &Binary,
                                   Status &Result);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_CORE_PREFETCH_H
