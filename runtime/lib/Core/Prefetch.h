//===- Prefetch.h - Translate modules before their first launch -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Cold start (issue 21): once the runtime has found its devices, one
/// runtime thread translates every module of the registered containers for
/// the default device (JIT-cache lookup, translation, Device::finalizeBinary)
/// while the program goes on allocating and copying. The first launch of a
/// kernel then takes the finished translation, or waits for the one in
/// progress, instead of translating inside the program's own timer; a module
/// still queued is translated by the launching thread at once. Containers
/// registered later (shared libraries opened by the program) are queued when
/// they register. HETGPU_PREFETCH=0 turns it off.
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

#include <vector>

namespace hetgpu {
namespace rt {

struct BinaryRecord;

/// Starts the worker for device \p Dev, queueing every valid container
/// registered so far (\p Binaries). Called once, after device discovery.
void startPrefetch(Device &Dev, const std::vector<BinaryRecord *> &Binaries);

/// Queues the modules of a container registered after startPrefetch().
void prefetchBinary(BinaryRecord &B);

/// The translation of module \p ModuleIndex of \p B for \p Dev with
/// translation flags \p Flags, if the worker made or is making it: waits for
/// one in progress, then moves the binary (or the translation's failure) out.
/// False when there is none for exactly these arguments (never queued,
/// still queued: then dequeued, or made for another device or flags).
bool takePrefetched(const BinaryRecord &B, int ModuleIndex, const Device &Dev,
                    unsigned Flags, std::vector<char> &Binary, Status &Result);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_CORE_PREFETCH_H
