//===- NVIDIADevice.h - The NVIDIA backend's classes ------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The device, queue, event, module and kernel classes of the NVIDIA
/// backend (private to runtime/lib/Backends/NVIDIA): discovery and device
/// setup in NVIDIABackend.cpp, memory and unified addresses in
/// NVIDIAMemory.cpp, peers and GPU-to-GPU migration in NVIDIAPeers.cpp,
/// streams and events in NVIDIAQueue.cpp, PTX modules in NVIDIAModule.cpp.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_NVIDIA_NVIDIADEVICE_H
#define HETGPU_RUNTIME_BACKENDS_NVIDIA_NVIDIADEVICE_H

#include "Backends/NVIDIA/CudaDriver.h"
#include "Core/Device.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace hetgpu {
namespace rt {
namespace cu {

/// The ErrorCode of a driver result.
ErrorCode mapResult(CUresult R);

/// Status of driver call \p What that returned \p R.
Status check(const Driver &D, CUresult R, const char *What);

inline CUdeviceptr dptr(const void *P) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(P));
}

//===----------------------------------------------------------------------===//
// Device memory at unified addresses (Core/UnifiedMemory.h): the driver's
// virtual-memory API places this device's memory inside the process-wide
// arena, so an allocation keeps its address when a context migrates between
// this GPU and host-memory devices. Its entry points are optional (resolved
// here; CudaDriver.h lists what every driver has).
//===----------------------------------------------------------------------===//

struct VmmLocation {
  int Type, Id; // CU_MEM_LOCATION_TYPE_DEVICE = 1
};
struct VmmProp { // CUmemAllocationProp
  int Type, HandleTypes;
  VmmLocation Location;
  void *Win32;
  unsigned char Compression, GpuDirect;
  unsigned short Usage;
  unsigned char Reserved[4];
};
struct VmmAccess { // CUmemAccessDesc
  VmmLocation Location;
  int Flags; // CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 3
};

struct VmmApi {
  CUresult (*AddressReserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr,
                             unsigned long long) = nullptr;
  CUresult (*AddressFree)(CUdeviceptr, size_t) = nullptr;
  CUresult (*Create)(unsigned long long *, size_t, const VmmProp *,
                     unsigned long long) = nullptr;
  CUresult (*Release)(unsigned long long) = nullptr;
  CUresult (*Map)(CUdeviceptr, size_t, size_t, unsigned long long,
                  unsigned long long) = nullptr;
  CUresult (*Unmap)(CUdeviceptr, size_t) = nullptr;
  CUresult (*SetAccess)(CUdeviceptr, size_t, const VmmAccess *,
                        size_t) = nullptr;
  CUresult (*Granularity)(size_t *, const VmmProp *, int) = nullptr;
  // Host memory for kernels (managed memory at unified addresses).
  CUresult (*HostRegister)(void *, size_t, unsigned) = nullptr;
  CUresult (*HostUnregister)(void *) = nullptr;
  CUresult (*HostGetDevicePointer)(CUdeviceptr *, void *, unsigned) = nullptr;
};

/// The VMM entry points of the loaded driver, or null (with the reason).

/// The VMM entry points of the loaded driver, or null (with the reason).
const VmmApi *loadVmm(std::string &Why);

std::string hexAddr(uint64_t V);

/// The arena chunks reserved for GPU memory, shared by all NVIDIA devices of
/// the process: a virtual address reservation is process-wide, and while a
/// migration moves a context GPU -> GPU one chunk holds pages of both. Each
/// reserved chunk counts the pages (of any device) mapped in it; it goes
/// back to the host when the count drops to zero. The lock guards every
/// device's VMM bookkeeping.
struct SharedVA {
  std::mutex M;
  std::map<uint64_t, unsigned> Chunks; ///< chunk address -> mapped pages
  /// The whole arena range is one reservation of this process, made at
  /// discovery (reserveArenaRange): chunks are mapped inside it with no
  /// reservation of their own.
  bool Whole = false;
  /// Why the driver grants no more reservations at arena addresses (it
  /// chose another address once); empty while it does.
  std::string Refused;
};
SharedVA &sharedVA();

/// When the process wants the unified address space (arenaWanted) and the
/// host arena is not mapped yet: reserves the whole arena range at its fixed
/// base for the NVIDIA GPUs, with \p Ctx current. The H200's driver (580,
/// CUDA 13) grants no fixed 32 MiB reservation once a module using the
/// device runtime is loaded, but kept this one granted before
/// (bench/migration/vmm-arena-probe.cpp); without it chunks are reserved
/// one by one as they are lent.
void reserveArenaRange(const Driver &D, CUcontext Ctx);

class NVIDIADevice;

/// Makes a device's primary context current on this thread.
class ContextScope {
public:
  ContextScope(const Driver &D, CUcontext Ctx) {
    Result = D.CtxSetCurrent(Ctx);
  }
  CUresult Result;
};

class NVIDIAKernel final : public Kernel {
public:
  NVIDIAKernel(CUfunction F, container::KernelInfo Info)
      : Fn(F), Info(std::move(Info)) {}
  const container::KernelInfo &info() const override { return Info; }
  CUfunction Fn;
  /// Dynamic shared memory the function is configured for (48 KiB by
  /// default; raised on demand up to the opt-in limit).
  uint64_t DynamicSharedLimit = 48 * 1024;
  std::mutex Mu;

private:
  container::KernelInfo Info;
};

class NVIDIAModule final : public Module {
public:
  NVIDIAModule(const Driver &D, CUcontext Ctx, CUmodule M,
               const container::ModuleInfo &Info)
      : D(D), Ctx(Ctx), Mod(M), Info(Info) {}
  ~NVIDIAModule() override;

  Status getKernel(const std::string &Name, Kernel *&Out) override;

  Status getGlobal(const std::string &Name, void *&Addr, size_t &Size) override;

private:
  const Driver &D;
  CUcontext Ctx;
  CUmodule Mod;
  container::ModuleInfo Info;
  std::mutex Mu;
  std::map<std::string, std::unique_ptr<NVIDIAKernel>> Kernels;
};

class NVIDIAEvent final : public Event {
public:
  NVIDIAEvent(const Driver &D, CUcontext Ctx, CUevent E)
      : Ev(E), D(D), Ctx(Ctx) {}
  ~NVIDIAEvent() override;
  Status synchronize() override;
  Status query() override;
  Status elapsedSince(Event &Start, float &Ms) override;
  CUevent Ev;

private:
  const Driver &D;
  CUcontext Ctx;
};

class NVIDIAQueue final : public Queue {
public:
  NVIDIAQueue(const Driver &D, CUcontext Ctx, CUstream S, uint64_t OptinShared)
      : D(D), Ctx(Ctx), Stream(S), OptinShared(OptinShared) {}
  ~NVIDIAQueue() override;

  Status memcpy(void *Dst, const void *Src, size_t Bytes,
                CopyKind Kind) override;

  Status memset(void *Dst, int Value, size_t Bytes) override;

  Status launch(Kernel &K, const LaunchParams &P) override;

  Status hostFunc(std::function<void()> Fn) override;

  Status record(Event &E) override;
  Status wait(Event &E) override;
  Status synchronize() override;
  Status query() override;
  Status copyPeer(void *Dst, Device &DstDev, const void *Src, Device &SrcDev,
                  size_t Bytes) override;
  /// Through a ring of pinned buffers (NVIDIAStaging.cpp).
  Status copyInBulk(void *Dst, const void *Src, size_t Bytes) override;

  CUstream stream() const { return Stream; }

private:
  const Driver &D;
  CUcontext Ctx;
  CUstream Stream;
  uint64_t OptinShared;
};

/// Lets \p NK launch with \p Shared bytes of dynamic shared memory (past
/// 48 KiB the function's limit is raised, up to \p OptinShared with its
/// static shared memory). Call with the device's context current.
Status allowDynamicShared(const Driver &D, NVIDIAKernel &NK, uint64_t Shared,
                          uint64_t OptinShared);

/// True when \p Binary is an ELF image (a cubin from finalizeBinary), not
/// PTX text.
inline bool isCubin(const std::vector<char> &Binary) {
  return Binary.size() >= 4 && Binary[0] == 0x7f && Binary[1] == 'E' &&
         Binary[2] == 'L' && Binary[3] == 'F';
}

class NVIDIADevice final : public Device {
public:
  NVIDIADevice(const Driver &D, CUdevice Dev, CUcontext Ctx, DeviceProperties P)
      : D(D), Dev(Dev), Ctx(Ctx), Props(std::move(P)), Ordinal(Dev) {}
  ~NVIDIADevice() override { D.DevicePrimaryCtxRelease(Dev); }

  const DeviceProperties &properties() const override { return Props; }

  Status allocate(size_t Bytes, void *&Ptr) override;
  Status release(void *Ptr) override;
  Status allocateManaged(size_t Bytes, void *&Ptr) override;
  /// cudaDeviceReset after a fault: a CUDA context that saw a trap or an
  /// illegal address stays unusable, so the primary context is reset (every
  /// driver object of it dies; Core has released its own already).
  Status reset() override;
  /// The driver forgets a sticky error only in a primary context reset,
  /// which would take the other contexts' memory here with it: the error
  /// is reported and the context stays as it is.
  Status forgetFault() override;
  Status allocateHost(size_t Bytes, void *&Ptr) override;
  Status releaseHost(void *Ptr) override;
  Status memoryInfo(size_t &Free, size_t &Total) override;

  Status loadModule(const std::vector<char> &Binary,
                    const container::ModuleInfo &Info,
                    std::unique_ptr<Module> &Out) override;
  /// PTX -> cubin with the driver's linker (NVIDIACubin.cpp).
  Status finalizeBinary(std::vector<char> &Binary) override;
  std::string binaryCacheTag() override;

  Status createQueue(std::unique_ptr<Queue> &Out) override;
  Status createEvent(std::unique_ptr<Event> &Out) override;
  /// A CUgraph (NVIDIAGraph.cpp); NotSupported when the driver lacks the
  /// graph entry points.
  Status createGraph(std::unique_ptr<DeviceGraph> &Out) override;
  Status synchronize() override;

  /// Makes the arena allocation [Ptr, Ptr + Bytes) memory of this GPU at
  /// the same addresses: each 32 MiB arena chunk it touches is lent by the
  /// host (Arena::lend) and, unless the whole arena is reserved
  /// (reserveArenaRange), reserved with cuMemAddressReserve at that fixed
  /// address; each granularity page gets its own cuMemCreate + cuMemMap.
  Status attachArenaRange(void *Ptr, size_t Bytes) override;

  /// Drops this GPU's memory under the allocation at \p Ptr: pages no
  /// other attached allocation uses are unmapped; chunks left without pages
  /// go back to the host (the range stays an arena allocation).
  Status detachArenaRange(void *Ptr, size_t) override;

  Status attachHostRange(void *Ptr, size_t Bytes) override;
  Status detachHostRange(void *Ptr) override;

  //===--- Peers
  //-----------------------------------------------------------===//

  CUcontext context() const { return Ctx; }
  int ordinal() const { return Ordinal; }

  bool canAccessPeer(Device &PeerDev) override;

  /// Kernels of this GPU may use \p PeerDev's memory: cuCtxEnablePeerAccess
  /// for memory from cuMemAlloc and, at unified addresses (VMM), read/write
  /// access to every page the peer has mapped now and maps later.
  Status enablePeerAccess(Device &PeerDev) override;

  Status disablePeerAccess(Device &PeerDev) override;

  /// The unified-address (VMM) half of peer access: every page \p P maps,
  /// now and later, readable and writable by this GPU, or no longer.
  Status grantArenaAccess(NVIDIADevice &P, bool On);

  /// Whether a copy engine of this GPU may touch \p Ptr, memory of \p Owner:
  /// anything not at unified addresses (cuMemAlloc: the driver sorts out
  /// peers), or VMM pages that grant this GPU access.
  bool reaches(NVIDIADevice &Owner, const void *Ptr);

  /// GPU -> GPU live migration of one arena allocation: the target's pages
  /// are created and mapped at a temporary address (both GPUs may access
  /// them), this GPU's copy engine copies the bytes across (NVLink or PCIe
  /// peer-to-peer), then the source pages are unmapped from the arena
  /// address and the target's mapped there instead. The chunk reservation
  /// stays (it is process-wide, sharedVA counts the pages).
  Status transferArenaRange(Device &ToDev, void *Ptr, size_t Bytes) override;

private:
  /// cuMemSetAccess descriptors of this GPU's pages: itself and its peers.
  /// Call with VM held.
  std::vector<VmmAccess> accessList() const;

  /// Grants (or revokes) GPU \p Peer read/write access to every page this
  /// GPU maps. Call with VM held.
  Status setPeerAccess(int Peer, bool ReadWrite);

  /// Device memory at unified addresses: in a migratable process when the
  /// driver has the virtual-memory API.
  bool useArena();

  /// SharedVA::Refused, read under the lock.
  std::string arenaRefusal();

  const Driver &D;
  CUdevice Dev;
  CUcontext Ctx;
  DeviceProperties Props;
  int Ordinal = 0;
  std::once_flag ArenaOnce;
  bool InArena = false;
  std::string ArenaWhy;
  const VmmApi *Vmm = nullptr;
  uint64_t Gran = 2 << 20;
  unsigned ArenaTag = 0;
  std::mutex &VM = sharedVA().M;
  /// Ordinals of the GPUs whose kernels may use this GPU's memory at arena
  /// addresses (enablePeerAccess on them): cuMemSetAccess grants them every
  /// page mapped here.
  std::set<int> AccessFrom;
  /// A range of whole granules mapped at unified addresses with one
  /// cuMemCreate handle. The driver's cost is per mapping, not per byte
  /// (bench/multigpu/vmm-cost.cpp: 26 us to grant access to each 2 MiB
  /// mapping, 0.1 ms for one 256 MiB mapping), so an allocation maps as few
  /// spans as it can: one per arena chunk, and a granule of its own where
  /// the allocation covers it only in part (another allocation may share
  /// it).
  struct Span {
    uint64_t Bytes;
    unsigned long long Handle;
  };
  std::map<uint64_t, Span> Spans; ///< start -> span this GPU maps
  /// The span of this GPU that holds \p Pg, or Spans.end().
  std::map<uint64_t, Span>::const_iterator spanAt(uint64_t Pg) const;
  /// The first span that ends after \p Pg.
  std::map<uint64_t, Span>::iterator firstSpanFrom(uint64_t Pg);
  /// Where [A, A + Bytes) lacks pages on this GPU: [start, bytes) runs of
  /// granules that no span maps, cut at arena chunks, a granule the range
  /// covers only in part alone.
  std::vector<std::pair<uint64_t, uint64_t>> unmappedRuns(uint64_t A,
                                                          uint64_t Bytes) const;
  std::map<uint64_t, uint64_t> Attached;        ///< allocation -> bytes
  std::set<uint64_t> Registered;                ///< managed (host) allocations
};

} // namespace cu
} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_NVIDIA_NVIDIADEVICE_H
