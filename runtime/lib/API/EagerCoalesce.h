//===- EagerCoalesce.h - Small eager launches as one launch -----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Coalescing of eager launches (issue 23, item 3; docs/Graphs.md): with
/// HETGPU_COALESCE_EAGER=1, a launch of a small kernel (GraphCoalesce.h's
/// candidates) on a non-legacy stream that arrives while the device is busy
/// is held in its context's window; small launches of other streams join
/// it. The window is flushed (the launches fused through GraphCoalesce's
/// groups and cached fused kernels, or launched one by one) when it holds
/// 32, when HETGPU_COALESCE_WINDOW_US have passed since the first, and at
/// every call that could observe or order its work: every operation on a
/// stream with a held launch or on the legacy stream (resolve()), every
/// call through currentCtx() (device synchronisation, allocation, ...),
/// event queries and synchronisation, graph launches, capture begin,
/// stream destruction and program exit. An idle device launches at once.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_API_EAGERCOALESCE_H
#define HETGPU_RUNTIME_API_EAGERCOALESCE_H

#include "API/CudaAPI.h"

#include <atomic>

namespace hetgpu {
namespace rt {
namespace api {

/// Contexts whose window holds a launch; the flush hooks return at once
/// while it is 0.
extern std::atomic<int> EagerWindowsHeld;

/// The launch path (Launch.cpp, cudaLaunchKernel and <<<>>> only): offers
/// a checked, loaded launch of \p K (\p Kn on \p S's device). \p Held true:
/// it is in the window (its arguments copied) and will be queued by a
/// flush; false: the caller launches it now. Call with S.Ctx->M held.
void eagerOffer(StreamObj &S, KernelRecord &K, Kernel &Kn, const void *Func,
                dim3 Grid, dim3 Block, void **Args, size_t Shared, bool &Held);

/// Flushes \p Ctx's window.
void eagerFlushContextSlow(DeviceContext &Ctx);
/// Flushes \p S's context's window when it holds a launch of \p S or \p S
/// is the legacy stream.
void eagerFlushStreamSlow(StreamObj &S);

inline void eagerFlushContext(DeviceContext &Ctx) {
  if (EagerWindowsHeld.load(std::memory_order_acquire))
    eagerFlushContextSlow(Ctx);
}
inline void eagerFlushStream(StreamObj &S) {
  if (EagerWindowsHeld.load(std::memory_order_acquire))
    eagerFlushStreamSlow(S);
}

} // namespace api
} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_API_EAGERCOALESCE_H
