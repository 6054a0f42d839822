//===- Runtime.h - Process-wide state of the CUDA runtime -------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The state behind the CUDA runtime API: registered containers, kernels and
/// variables (from clang's host-side registration calls), the devices and
/// their contexts (default stream, user streams, loaded modules, sticky
/// error), the allocation table and the thread's last error. The singleton
/// is never destroyed, so atexit-time calls (__cudaUnregisterFatBinary) and
/// backend threads never see a dead runtime.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_CORE_RUNTIME_H
#define HETGPU_RUNTIME_CORE_RUNTIME_H

#include "Core/Device.h"
#include "hetgpu/ABI/MemCheck.h"
#include "Core/Registry.h"
#include "driver_types.h"

#include <atomic>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace hetgpu {
namespace rt {

struct DeviceContext;
struct CaptureSeq;
class GraphNode;

/// A registered container (one per .cu file of the program).
struct BinaryRecord {
  static constexpr uint32_t MagicValue = 0x48474642; // "HGFB"
  uint32_t Magic = MagicValue;
  bool Valid = false;
  std::string Error; ///< why the container was rejected
  container::Container C;
  bool Unregistered = false;
};

/// A `__global__` function registered by its host stub.
struct KernelRecord {
  BinaryRecord *Bin = nullptr;
  int ModuleIndex = -1; ///< -1 when the container lacks the kernel
  std::string Name;
  const container::KernelInfo *Info = nullptr;
  /// cudaFuncAttributeMaxDynamicSharedMemorySize, -1 = not set.
  int MaxDynamicShared = -1;
};

/// A `__device__`/`__constant__`/managed variable registered by its host
/// shadow.
struct VarRecord {
  BinaryRecord *Bin = nullptr;
  int ModuleIndex = -1;
  std::string Name;
  size_t Size = 0;
  bool Constant = false;
  void **ManagedPtr = nullptr; ///< host pointer variable of a managed var
};

/// cudaStream_t points to one of these.
struct StreamObj {
  static constexpr uint32_t MagicValue = 0x53545245; // "STRE"
  uint32_t Magic = MagicValue;
  DeviceContext *Ctx = nullptr;
  std::unique_ptr<Queue> Q;
  /// Recorded on this queue when another queue must wait for it.
  std::unique_ptr<Event> Marker;
  unsigned Flags = 0;
  int Priority = 0;
  bool IsNull = false;
  /// Stream capture (API/Capture.cpp, under its lock): the capture this
  /// stream takes part in and the nodes the next captured operation
  /// depends on.
  CaptureSeq *Capture = nullptr;
  std::vector<GraphNode *> CaptureDeps;
};

/// cudaEvent_t points to one of these.
struct EventObj {
  static constexpr uint32_t MagicValue = 0x45564e54; // "EVNT"
  uint32_t Magic = MagicValue;
  DeviceContext *Ctx = nullptr;
  std::unique_ptr<Event> E;
  unsigned Flags = 0;
  bool Recorded = false;
  /// Set when live migration replaced E by an event recorded on the new
  /// device (Migration/MoveContext.cpp): how long before that replacement
  /// the original completed, so elapsed times across a move stay true.
  float AgeMs = 0;
  /// Last recorded in a capturing stream (API/Capture.cpp): the capture's
  /// id (0: not) and the nodes a wait on the event depends on.
  unsigned long long CaptureId = 0;
  std::vector<GraphNode *> CaptureDeps;
};

struct LoadedModule {
  std::unique_ptr<Module> M;
  Status Error; ///< translation/load failure, reported once
  std::map<std::string, Kernel *> Kernels;
  /// Modules translated in kernel groups (Core/Prefetch.h): one backend
  /// module per group, described by a ModuleInfo that lists its kernels.
  std::list<container::ModuleInfo> PartInfos;
  std::vector<std::unique_ptr<Module>> Parts;
  /// The images passed over were logged by the first launch that
  /// translates a kernel group (no image fits the device).
  bool ImagesChecked = false;
};

/// One device and what the runtime keeps for it (CUDA's primary context).
/// Live migration (Migration/MoveContext.h) may move a context onto another
/// physical device: `Dev` then points to that device (shared with the
/// target's own context) and the CUDA device number stays.
struct DeviceContext {
  int Index = 0;
  std::shared_ptr<Device> Dev;
  std::string Backend;
  /// The device and backend this context was created for.
  std::shared_ptr<Device> Home;
  std::string HomeBackend;
  std::recursive_mutex M;
  std::unique_ptr<StreamObj> NullStream;
  std::set<StreamObj *> Streams;
  std::map<std::pair<const BinaryRecord *, int>, LoadedModule> Modules;
  std::atomic<int> Sticky{0}; ///< cudaError_t, 0 = none
  size_t Limits[7] = {1024, 1 << 20, 8 << 20, 2, 2048, 0, 0};
  unsigned Flags = 0;
  int CacheConfig = 0;
  int SharedMemConfig = 0;
  /// Devices whose memory kernels of this one may use
  /// (cudaDeviceEnablePeerAccess).
  std::set<int> Peers;
  /// `__device__` variables whose address cudaGetSymbolAddress gave the
  /// program: it changes when the context moves, so live migration refuses
  /// to move this context (docs/Migration.md, "Known limits").
  std::set<std::string> SymbolAddressesTaken;
  /// A kernel launched under live migration that calls device malloc or
  /// free (the first one): its blocks may hold, or leave behind, memory of
  /// this device's heap, which no other device's heap knows, so the
  /// context is not moved until cudaDeviceReset (docs/Migration.md).
  std::string HeapKernel;
};

enum class AllocKind { Device, Host, Managed, Registered };

struct Allocation {
  uintptr_t Base = 0;
  size_t Size = 0;
  int Device = 0;
  AllocKind Kind = AllocKind::Device;
  unsigned Flags = 0;
  /// The device that allocated host memory (cudaHostAlloc): it frees it,
  /// also after the context migrated to another device.
  hetgpu::rt::Device *Owner = nullptr;
};

class Runtime {
public:
  static Runtime &get();

  //===--- Registration ---------------------------------------------------===//
  std::mutex RegM;
  std::vector<std::unique_ptr<BinaryRecord>> Binaries;
  std::map<const void *, KernelRecord> Kernels; ///< host stub -> kernel
  std::map<const void *, VarRecord> Vars;       ///< host shadow -> variable

  KernelRecord *findKernel(const void *Stub);
  VarRecord *findVar(const void *Shadow);

  //===--- Devices ----------------------------------------------------------===//
  /// Discovers devices once; returns the error every call reports when no
  /// device can be used (cudaErrorNoDevice), or cudaSuccess.
  cudaError_t init();
  /// Devices the CUDA API sees. Contexts past this count are devices it
  /// does not count: without HETGPU_DEVICE those that are not GPUs when
  /// there are GPUs (or not the CPU), and migration targets (HETGPU_MIGRATE
  /// to= naming a backend that HETGPU_DEVICE left out).
  int deviceCount() const { return VisibleCount; }
  int contextCount() const { return static_cast<int>(Contexts.size()); }
  /// Context index of a HETGPU_DEVICE-style name (backend name or index),
  /// or -1.
  int findContext(const std::string &Spec);
  DeviceContext *context(int Index);
  /// The calling thread's current device (cudaSetDevice), initialised.
  cudaError_t current(DeviceContext *&Ctx);
  int currentIndex();
  void setCurrentIndex(int I);
  const std::vector<BackendReport> &backendReports() { return Reports; }

  //===--- Streams, events ------------------------------------------------===//
  cudaError_t createStream(DeviceContext &Ctx, unsigned Flags, int Priority,
                           StreamObj *&Out);
  /// Resolves a cudaStream_t (0, cudaStreamLegacy, cudaStreamPerThread or a
  /// live stream) on the current device.
  cudaError_t resolveStream(cudaStream_t S, StreamObj *&Out);
  cudaError_t destroyStream(StreamObj *S);
  bool isLiveStream(StreamObj *S);
  bool isLiveEvent(EventObj *E);
  std::mutex HandleM;
  std::set<StreamObj *> LiveStreams;
  std::set<EventObj *> LiveEvents;

  /// Orders work about to be queued on \p S after the legacy default stream
  /// (blocking streams) or after every blocking stream (the NULL stream).
  /// Call with S.Ctx->M held.
  void orderLegacy(StreamObj &S);

  /// Turns an error of asynchronous work into a cudaError_t and makes
  /// launch failures sticky.
  cudaError_t absorb(DeviceContext &Ctx, const Status &S);

  //===--- Modules ----------------------------------------------------------===//
  cudaError_t getKernel(DeviceContext &Ctx, KernelRecord &K, Kernel *&Out);
  /// Loads module \p ModuleIndex of \p B on \p Ctx's device (cached).
  cudaError_t loadModuleOf(DeviceContext &Ctx, BinaryRecord &B,
                           int ModuleIndex, LoadedModule *&Out) {
    return loadModule(Ctx, B, ModuleIndex, Out);
  }
  cudaError_t getSymbol(DeviceContext &Ctx, const void *Symbol, void *&Addr,
                        size_t &Size);

  //===--- Memory -----------------------------------------------------------===//
  std::mutex AllocM;
  std::map<uintptr_t, Allocation> Allocs;
  void addAlloc(const Allocation &A);
  /// The allocation containing \p P, or false.
  bool findAlloc(const void *P, Allocation &Out);
  bool removeAlloc(const void *Base, AllocKind Kind, Allocation &Out);
  void removeDeviceAllocs(int Device);

  /// What the bytes [P, P + N) are in the allocation table
  /// (Core/AllocTable.cpp): the one lookup every copy, memset, symbol,
  /// array and peer copy is checked with.
  enum class RangeState {
    Unknown, ///< in no allocation: pageable host memory or a bogus pointer
    Inside,  ///< inside one allocation (Out)
    PastEnd, ///< starts in allocation Out and runs past its end
    Freed,   ///< in device memory freed by cudaFree (Out: what it was)
  };
  RangeState lookupRange(const void *P, size_t N, Allocation &Out);
  /// Records the `__device__`/`__constant__` variable at \p Addr of
  /// context \p Device (getSymbol), device memory for lookupRange that
  /// cudaFree refuses.
  void addSymbolRange(void *Addr, size_t Size, int Device);
  /// Releases device allocation \p A of \p Dev, freed by cudaFree. On
  /// devices whose memory is host heap memory (integrated) small blocks
  /// wait in a bounded quarantine first, so that a stale pointer is known
  /// as freed and the heap never hands that memory to the host program
  /// while the runtime still calls it freed device memory.
  Status releaseDevice(const Allocation &A, std::shared_ptr<Device> Dev);
  /// The memory a kernel of context \p Device may touch, for memcheck
  /// (Core/KernelMemCheck.h): its allocations and module variables and
  /// every context's host and managed memory as live ranges, its freed
  /// memory as freed ranges; sorted by Begin, not overlapping.
  void memCheckRanges(int Device, std::vector<abi::MemCheckRange> &Out);
  /// Releases the quarantined blocks of context \p Device (reset).
  void flushQuarantine(int Device);

private:
  Runtime() = default;
  struct FreedBlock {
    Allocation A;
    std::shared_ptr<Device> Dev; ///< releases it (null: already released)
  };
  /// Freed device ranges by base (AllocM): quarantined blocks and, on
  /// devices with memory of their own, the most recent frees.
  std::map<uintptr_t, FreedBlock> Freed;
  std::deque<uintptr_t> QuarantineOrder; ///< quarantined bases, oldest first
  std::deque<uintptr_t> RecentOrder;     ///< the other freed bases
  /// Variables of loaded modules by address (AllocM).
  std::map<uintptr_t, Allocation> SymbolRanges;
  size_t QuarantineBytes = 0;
  void forgetFreedOverlapping(uintptr_t Base, size_t Size);

  cudaError_t loadModule(DeviceContext &Ctx, BinaryRecord &B, int ModuleIndex,
                         LoadedModule *&Out);
  /// The kernel group of \p K, translated (or prefetched) and loaded as a
  /// part of its module (Core/Prefetch.h); false when its module is loaded
  /// whole.
  bool loadKernelPart(DeviceContext &Ctx, KernelRecord &K, Kernel *&Out,
                      cudaError_t &E);

  std::once_flag InitOnce;
  cudaError_t InitError = cudaSuccess;
  std::vector<std::unique_ptr<DeviceContext>> Contexts;
  std::vector<BackendReport> Reports;
  int DefaultIndex = 0;
  int VisibleCount = 0;
};

/// Sets the calling thread's last error when \p E is an error; returns E.
cudaError_t setLastError(cudaError_t E);
/// The calling thread's last error; cleared when \p Reset.
cudaError_t takeLastError(bool Reset);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_CORE_RUNTIME_H
