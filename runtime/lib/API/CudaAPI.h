//===- CudaAPI.h - Shared helpers of the CUDA runtime API layer -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// runtime/lib/API/ is the CUDA runtime API layer: the `extern "C"` cudaXxx
/// (and `__cuda*`) entry points of libhetgpu-rt, mapped onto Core (the
/// runtime state of Core/Runtime.h, the device interface of Core/Device.h).
/// One file per group of cuda_runtime_api.h:
///
///   Errors.cpp           last error, error names, versions, profiler stubs
///   Device.cpp           device selection, synchronisation, reset, flags,
///                        limits, cache/shared-memory configuration
///   DeviceProperties.cpp cudaGetDeviceProperties, cudaDeviceGetAttribute
///   Peer.cpp             peer access and copies between devices
///   Memory.cpp           allocation: device, pitched, host, managed,
///                        registered memory, pointer attributes, advice
///   Memcpy.cpp           cudaMemcpy*, cudaMemset* (same-device copies)
///   MemCheck.cpp         the checks of every copy and memset against the
///                        allocation table (CUDA 13's codes)
///   Symbols.cpp          copies to/from `__device__` variables, addresses
///   Streams.cpp          streams and host functions on streams
///   Events.cpp           events
///   Launch.cpp           cudaLaunchKernel (the configuration checks)
///   Functions.cpp        cudaFuncGetAttributes, cudaFuncSet*
///   Occupancy.cpp        cudaOccupancy*
///   Arrays.cpp           CUDA arrays (layered, cubemap), copies to/from
///                        them, cudaMemcpy3D
///   MipmappedArrays.cpp  mipmapped arrays (an array per level)
///   Textures.cpp         texture objects over linear, pitched 2D memory,
///                        arrays and mipmapped arrays
///   Registration.cpp     clang's host-side __cudaRegister* and call
///                        configuration
///   Graphs.cpp           CUDA graphs: creation, nodes, edges, clones
///   GraphExec.cpp        executable graphs: instantiation, replay,
///                        updates (docs/Graphs.md)
///   Capture.cpp          stream capture: the entry points and the gate
///                        every stream operation passes (captureWork)
///   HetGPUAPI.cpp        hetGPU's own introspection API (hetgpu/hetgpu.h)
///
/// Adding entry points: put them in the file of their group; a group the
/// layer does not have yet (e.g. stream-ordered allocation, cudaMallocAsync
/// and memory pools) gets a new `API/<Group>.cpp`, listed in
/// runtime/lib/CMakeLists.txt, built on the helpers below. Error behaviour
/// is CUDA's: every failing call records its error through ret(); launch
/// configuration errors are not sticky; faults of kernels become sticky
/// errors of the device (Runtime::absorb, through mapStatus), returned by
/// every later call until cudaDeviceReset. Live migration is reached only
/// through Core/MigrationService.h.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_API_CUDAAPI_H
#define HETGPU_RUNTIME_API_CUDAAPI_H

#include "Core/Graph.h"
#include "Core/Runtime.h"
#include "cuda_runtime_api.h"

#include <cstddef>
#include <functional>
#include <vector>

/// Marks an entry point exported by libhetgpu-rt (everything else is
/// hidden).
#define HETGPU_API extern "C" __attribute__((visibility("default")))

namespace hetgpu {
namespace rt {
namespace api {

inline Runtime &RT() { return Runtime::get(); }

/// Records \p E as the last error and returns it.
inline cudaError_t ret(cudaError_t E) { return setLastError(E); }

/// The current device, or the error of initialisation / a sticky error.
cudaError_t currentCtx(DeviceContext *&Ctx, bool CheckSticky = true);

/// Resolves \p S (see Runtime::resolveStream), then reports the sticky
/// error of its device.
cudaError_t resolve(cudaStream_t S, StreamObj *&Out);

/// cudaSuccess, or \p S absorbed by \p Ctx (sticky when a launch failed).
cudaError_t mapStatus(DeviceContext &Ctx, const Status &S);

/// Whether \p P is device or managed memory; \p Dev, when given, is then
/// its device.
bool isDevicePtr(const void *P, int *Dev = nullptr);

/// Whether a copy of kind \p K between \p Dst and \p Src must finish before
/// the call returns: as in CUDA, an "asynchronous" copy from or to pageable
/// host memory returns only once the host buffer has been read or written.
bool copyNeedsSync(const void *Dst, const void *Src, CopyKind K);

/// Which side of a copy or memset a pointer is on (MemCheck.cpp).
enum class MemSide { Host, Device };

/// What one side of a memory operation touches.
struct CheckedRange {
  Runtime::RangeState State = Runtime::RangeState::Unknown;
  Allocation A;                   ///< unless Unknown
  DeviceContext *Owner = nullptr; ///< the context of allocation A (Inside)
  /// A device side in page-locked host memory its device cannot reach: the
  /// operation treats it as host memory.
  bool AsHost = false;
};

/// Checks the \p N bytes at \p P that an operation named \p Who touches
/// as side \p Side against the allocation table; cudaErrorInvalidValue,
/// logged with the reason, where CUDA 13 refuses them.
cudaError_t checkRange(const void *P, size_t N, MemSide Side,
                       const char *Who, CheckedRange &Out);

/// Both sides of a copy; Skip: CUDA 13 returns cudaSuccess and nothing is
/// copied (freed device memory in a plain device-to-device copy).
struct CheckedCopy {
  CheckedRange Dst, Src;
  bool Skip = false;
};

/// Checks a copy of kind \p K that writes \p DstBytes at \p Dst and reads
/// \p SrcBytes at \p Src. \p FreedIsNoop: a device-to-device copy that
/// touches freed memory is CUDA 13's silent success (1D copies only).
cudaError_t checkCopy(void *Dst, size_t DstBytes, const void *Src,
                      size_t SrcBytes, CopyKind K, const char *Who,
                      bool FreedIsNoop, CheckedCopy &Out);

/// The bytes \p Height rows of \p Width bytes, \p Pitch apart, span;
/// false on overflow.
bool regionBytes(size_t Pitch, size_t Width, size_t Height, size_t &Out);

/// The copy kind \p Kind names for \p Dst and \p Src (cudaMemcpyDefault:
/// by the allocation table, as unified addressing does).
cudaError_t copyKind(const void *Dst, const void *Src, cudaMemcpyKind Kind,
                     CopyKind &Out);

/// Queues a copy on \p S with the legacy stream's ordering.
cudaError_t enqueueCopy(StreamObj &S, void *Dst, const void *Src, size_t N,
                        CopyKind K);

/// Waits for the work queued on \p S.
cudaError_t syncStream(StreamObj &S);

/// A copy of \p N bytes on \p Stream (Memcpy.cpp); \p Sync: wait for it.
cudaError_t memcpyImpl(void *Dst, const void *Src, size_t N,
                       cudaMemcpyKind Kind, cudaStream_t Stream, bool Sync);

/// Two CUDA devices that live migration put on one physical device: each
/// reaches the other's memory, which is that device's own (Peer.cpp).
bool samePhysical(const DeviceContext *A, const DeviceContext *B);

/// Copies \p N bytes of device memory from \p Src (context \p S) to \p Dst
/// (context \p D) (Peer.cpp). \p Q null: cudaMemcpyPeer, ordered after all
/// work of both devices and finished on return; else queued on \p Q (and
/// waited for when \p Sync).
cudaError_t peerCopy(DeviceContext *D, void *Dst, DeviceContext *S,
                     const void *Src, size_t N, StreamObj *Q, bool Sync);

/// Blocks of kernel \p K (null: no kernel limits) with \p BlockSize threads
/// and \p DynShared bytes of dynamic shared memory that fit on one
/// multiprocessor of a device with properties \p P (Occupancy.cpp).
int occupancy(const DeviceProperties &P, const container::KernelInfo *K,
              int BlockSize, size_t DynShared);

/// What a live CUDA array is (Arrays.cpp): row-major device memory at
/// \p Base, \p Pitch bytes a row, \p Slice bytes a 2D slice (or layer).
struct ArrayInfo {
  char *Base = nullptr;
  cudaChannelFormatDesc Desc;
  size_t Width = 0, Height = 0, Depth = 0; // CUDA's extent (0: absent)
  unsigned Flags = 0;
  size_t Element = 0, Pitch = 0, Slice = 0;
  /// The mipmapped array this is a level of (null: the program's own).
  const void *Owner = nullptr;
};

/// The largest CUDA array extents (those of compute capability 8.x and
/// later), which Arrays.cpp enforces and the device properties report.
namespace array_limits {
constexpr int Width1D = 131072;
constexpr int Width2D = 131072, Height2D = 65536;
constexpr int Extent3D = 16384;
constexpr int LayeredExtent = 32768, Layers = 2048;
constexpr int CubemapWidth = 32768, CubemapLayers = 2046;
} // namespace array_limits

/// Allocates a CUDA array with cudaMalloc3DArray's checks (\p Who names the
/// API in messages); a level of mipmapped array \p Owner when not null,
/// which only releaseArray frees (Arrays.cpp).
cudaError_t allocArray(cudaArray_t *Out, const cudaChannelFormatDesc *Desc,
                       size_t W, size_t H, size_t D, unsigned Flags,
                       const char *Who, const void *Owner = nullptr);

/// Frees array \p A, a level of a mipmapped array included.
cudaError_t releaseArray(cudaArray_t A);

/// Whether \p M is a live mipmapped array; its levels' records in \p Out
/// (MipmappedArrays.cpp).
bool findMipmappedArray(cudaMipmappedArray_const_t M,
                        std::vector<ArrayInfo> &Out);

/// Whether \p A is a live array; its record in \p Out.
bool findArray(cudaArray_const_t A, ArrayInfo &Out);

/// Bytes per element of channel format \p F, or 0 when CUDA refuses it
/// (channels of 8, 16 or 32 bits, the used ones first; Textures.cpp).
unsigned formatBytes(const cudaChannelFormatDesc &F);

/// cudaLaunchKernel's checks of a launch of \p K on a device with
/// properties \p P (grid and block dimensions, __launch_bounds__, the
/// device link's launch rules, dynamic shared memory): the error the launch
/// returns, or cudaSuccess (Launch.cpp; graphs check kernel nodes with it).
cudaError_t checkLaunchConfig(const KernelRecord &K, const DeviceProperties &P,
                              const dim3 &Grid, const dim3 &Block,
                              uint64_t Shared);

/// A kernel launch with cudaLaunchKernel's checks (Launch.cpp): what
/// graph replay calls for a kernel node.
cudaError_t launchKernel(const void *Func, dim3 Grid, dim3 Block, void **Args,
                         size_t Shared, cudaStream_t Stream);

//===--- Graphs (Graphs.cpp, GraphExec.cpp, Capture.cpp) -----------------===//

/// Sets \p N's parameters from CUDA's, with cudaGraphAdd*Node's checks (a
/// kernel node copies the argument bytes); \p Who names the API in logs.
cudaError_t setKernelParams(GraphNode &N, const cudaKernelNodeParams *P,
                            const char *Who);
cudaError_t setMemcpyParams(GraphNode &N, const cudaMemcpy3DParms *P);
cudaError_t setMemsetParams(GraphNode &N, const cudaMemsetParams *P);
cudaError_t setHostParams(GraphNode &N, const cudaHostNodeParams *P);
/// A 1D copy as a memcpy node's 3D parameters (one row of \p N bytes).
cudaMemcpy3DParms copy1D(void *Dst, const void *Src, size_t N,
                         cudaMemcpyKind Kind);

/// The gate of every operation that queues work on \p S (a kernel, copy,
/// memset, host function, event record or wait): \p Captured false and
/// cudaSuccess: run it. When \p S is capturing, \p Fill has set up the
/// node appended to the capture (after the stream's current dependencies)
/// and \p Captured is true. Errors: cudaErrorStreamCaptureImplicit for the
/// legacy stream while a blocking stream of its device captures (which
/// invalidates that capture), cudaErrorStreamCaptureInvalidated on an
/// invalidated capture, or \p Fill's error (which invalidates it).
/// (A template, so that eager work builds no std::function while no capture
/// is under way.)
template <typename FillFn>
cudaError_t captureWork(StreamObj &S, const char *Who, FillFn &&Fill,
                        bool &Captured);
/// Whether any stream capture is under way (one atomic load).
bool captureUnderWay();
cudaError_t captureWorkSlow(StreamObj &S, const char *Who,
                            const std::function<cudaError_t(GraphNode &)> &Fill,
                            bool &Captured);
template <typename FillFn>
cudaError_t captureWork(StreamObj &S, const char *Who, FillFn &&Fill,
                        bool &Captured) {
  Captured = false;
  if (!captureUnderWay())
    return cudaSuccess;
  return captureWorkSlow(S, Who, Fill, Captured);
}
/// captureWork for a 1D copy of \p N bytes: a memcpy node.
inline cudaError_t captureCopy(StreamObj &S, const char *Who, void *Dst,
                               const void *Src, size_t N, cudaMemcpyKind Kind,
                               bool &Captured) {
  return captureWork(
      S, Who,
      [&](GraphNode &Node) {
        Node.Kind = NodeKind::Memcpy;
        Node.Copy = copy1D(Dst, Src, N, Kind);
        return cudaSuccess;
      },
      Captured);
}
/// For an operation on \p S that capture cannot record (synchronisation,
/// queries, copies between devices): cudaErrorStreamCaptureUnsupported and
/// the capture invalidated when \p S is capturing, the legacy-stream
/// conflict as in captureWork, else cudaSuccess. \p Who names it in logs.
cudaError_t captureRefuse(StreamObj &S, const char *Who);
/// For a potentially unsafe call (cudaMalloc, a synchronous copy, a device
/// synchronisation): cudaErrorStreamCaptureUnsupported, and the captures
/// that forbid it invalidated, when the calling thread's capture mode and
/// the captures under way forbid it (cudaThreadExchangeStreamCaptureMode).
cudaError_t captureUnsafe(const char *Who);
/// cudaEventRecord on a capturing stream (\p Captured then true): the
/// event takes the stream's dependencies; with cudaEventRecordExternal an
/// event-record node is added too.
cudaError_t captureRecord(StreamObj &S, EventObj &E, unsigned Flags,
                          bool &Captured);
/// cudaStreamWaitEvent: joins \p S to the capture \p E was recorded in
/// (fork), merges the dependencies (join), or adds a wait node
/// (cudaEventWaitExternal); \p Captured false: no capture concerned.
cudaError_t captureWait(StreamObj &S, EventObj &E, unsigned Flags,
                        bool &Captured);
/// cudaErrorCapturedEvent when \p E was last recorded in a capture under way.
cudaError_t capturedEventCheck(EventObj &E);
/// cudaStreamDestroy of a capturing stream: it leaves its capture, which is
/// invalidated.
void captureForgetStream(StreamObj &S);
/// Whether \p S is capturing (cudaGraphLaunch then adds a child node).
bool isCapturing(StreamObj &S);
/// Before \p S is destroyed (cudaStreamDestroy, cudaDeviceReset): executable
/// graphs last launched on it record there the end-of-launch event they
/// put off (GraphExec.cpp).
void graphsForgetStream(StreamObj &S);

} // namespace api
} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_API_CUDAAPI_H
