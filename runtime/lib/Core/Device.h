//===- Device.h - The interface every device backend implements -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A backend (CPU, NVIDIA, OpenCL, Level Zero, HIP, tt-sim) discovers devices;
/// a device allocates memory, loads translated modules and creates queues
/// (in-order streams) and events. The CUDA runtime API in Core maps CUDA
/// calls onto this interface; it never includes a vendor header, and no
/// backend includes a CUDA header: errors are ErrorCode values that Core
/// turns into cudaError_t.
///
/// Threading: Device, Queue and Event methods may be called from any host
/// thread; implementations synchronise internally.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_CORE_DEVICE_H
#define HETGPU_RUNTIME_CORE_DEVICE_H

#include "hetgpu/IR/Container.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace hetgpu {
namespace rt {

/// The errors a backend can report; Core maps each to a cudaError_t.
enum class ErrorCode {
  Success = 0,
  InvalidValue,         ///< cudaErrorInvalidValue
  OutOfMemory,          ///< cudaErrorMemoryAllocation
  InvalidDevicePointer, ///< cudaErrorInvalidDevicePointer
  InvalidConfiguration, ///< cudaErrorInvalidConfiguration
  LaunchOutOfResources, ///< cudaErrorLaunchOutOfResources
  LaunchFailure,        ///< cudaErrorLaunchFailure (trap, fault)
  Assert,               ///< cudaErrorAssert (device-side assert)
  NotReady,             ///< cudaErrorNotReady
  NoBinaryForGpu,       ///< cudaErrorNoKernelImageForDevice (JIT failed)
  InvalidSymbol,        ///< cudaErrorInvalidSymbol
  NotSupported,         ///< cudaErrorNotSupported
  DriverFailure,        ///< cudaErrorUnknown (vendor driver error)
  IllegalAddress,       ///< cudaErrorIllegalAddress (a kernel's wild access)
  InvalidAddressSpace,  ///< cudaErrorInvalidAddressSpace (GPU drivers)
  IllegalInstruction,   ///< cudaErrorIllegalInstruction (GPU drivers)
  MisalignedAddress,    ///< cudaErrorMisalignedAddress (GPU drivers)
};

/// An error value: a code and a message naming the operation and the reason.
struct Status {
  ErrorCode Code = ErrorCode::Success;
  std::string Message;

  Status() = default;
  Status(ErrorCode C, std::string M) : Code(C), Message(std::move(M)) {}
  static Status ok() { return Status(); }
  explicit operator bool() const { return Code != ErrorCode::Success; }
  bool isOk() const { return Code == ErrorCode::Success; }
};

enum class BackendKind { CPU, NVIDIA, OpenCL, LevelZero, HIP, TTSim };

/// What a device reports about itself; Core fills cudaDeviceProp from it.
struct DeviceProperties {
  std::string Name;   ///< "NVIDIA H200", "Host CPU (x86-64, 16 threads)"
  std::string Vendor; ///< "NVIDIA", "Intel", "AMD", "host", "hetGPU"
  BackendKind Kind = BackendKind::CPU;
  /// Targets.def name of the lowering target ("host", "nvptx", ...) and
  /// the processor passed to it ("sm_90", "x86-64", "gfx942").
  std::string Target;
  std::string Arch;
  std::string Features;
  uint64_t TotalMemory = 0;
  uint32_t MultiProcessorCount = 1;
  uint32_t MaxThreadsPerBlock = 1024;
  uint32_t MaxBlockDim[3] = {1024, 1024, 64};
  uint32_t MaxGridDim[3] = {2147483647u, 65535, 65535};
  uint64_t SharedMemPerBlock = 48 * 1024;
  uint64_t SharedMemPerBlockOptin = 48 * 1024;
  uint64_t SharedMemPerMultiprocessor = 64 * 1024;
  uint64_t TotalConstMem = 64 * 1024;
  uint32_t RegsPerBlock = 65536;
  uint32_t MaxThreadsPerMultiProcessor = 2048;
  uint32_t MaxBlocksPerMultiProcessor = 32;
  uint32_t ClockRateKHz = 1000000;
  uint32_t MemoryClockRateKHz = 1000000;
  uint32_t MemoryBusWidth = 64;
  uint32_t L2CacheSize = 0;
  int ComputeMajor = 8; ///< reported compute capability
  int ComputeMinor = 0;
  int PciBusId = 0;
  bool Integrated = false;      ///< device memory is host memory
  bool ConcurrentKernels = true;
  bool ManagedMemory = true;
};

enum class CopyKind { HostToDevice, DeviceToHost, DeviceToDevice, HostToHost };

/// A kernel of a loaded module.
class Kernel {
public:
  virtual ~Kernel();
  /// The container's description (parameters, shared memory, state).
  virtual const container::KernelInfo &info() const = 0;
};

/// One kernel launch. `Args[i]` points to parameter i's bytes, as in
/// cudaLaunchKernel; sizes are in Kernel::info().Params.
/// `Args` (and what it points to) are valid only during Queue::launch():
/// a backend that runs the launch later copies them first (Core/ArgPack.h).
struct LaunchParams {
  uint32_t Grid[3] = {1, 1, 1};
  uint32_t Block[3] = {1, 1, 1};
  uint64_t DynamicShared = 0;
  void **Args = nullptr;
  /// Live migration: the launch's state buffer and flags; null when the
  /// launch is not migratable (see docs/StateMetadata.md).
  void *State = nullptr;
  uint32_t StateFlags = 0;
  /// cudaLaunchCooperativeKernel: every block runs at the same time (the
  /// API checked the grid against cooperativeBlockLimit), so a grid-wide
  /// barrier in the kernel holds.
  bool Cooperative = false;
};

/// A translated module loaded on a device.
class Module {
public:
  virtual ~Module();
  /// The kernel named \p Name (mangled), or an InvalidValue status.
  virtual Status getKernel(const std::string &Name, Kernel *&Out) = 0;
  /// Device address and size of a `__device__`/`__constant__` variable.
  virtual Status getGlobal(const std::string &Name, void *&Addr,
                           size_t &Size) = 0;
};

class Event {
public:
  virtual ~Event();
  /// Blocks until the work before the record point is done.
  virtual Status synchronize() = 0;
  /// Success when complete, NotReady otherwise.
  virtual Status query() = 0;
  /// Milliseconds from \p Start to this event (both recorded and complete).
  virtual Status elapsedSince(Event &Start, float &Ms) = 0;
};

class Device;

/// An in-order stream of work. Every enqueue returns as soon as the work is
/// queued (it may also run it at once); errors of asynchronous work are
/// reported by the next synchronize()/query() of the queue.
class Queue {
public:
  virtual ~Queue();
  virtual Status memcpy(void *Dst, const void *Src, size_t Bytes,
                        CopyKind Kind) = 0;
  virtual Status memset(void *Dst, int Value, size_t Bytes) = 0;
  virtual Status launch(Kernel &K, const LaunchParams &P) = 0;
  /// Runs \p Fn on a host thread once the work before it is done.
  virtual Status hostFunc(std::function<void()> Fn) = 0;
  virtual Status record(Event &E) = 0;
  /// Work queued after this waits until \p E completes.
  virtual Status wait(Event &E) = 0;
  virtual Status synchronize() = 0;
  /// Success when idle, NotReady while work is pending.
  virtual Status query() = 0;
  /// Copies \p Bytes from \p Src (memory of \p SrcDev) to \p Dst (memory
  /// of \p DstDev), two devices of this queue's backend with memory of
  /// their own, one of them this queue's device: straight between the
  /// devices (NVIDIA: cuMemcpyPeerAsync), ordered like the queue's other
  /// work. The default says NotSupported; Core then stages the bytes
  /// through host memory.
  /// Large copies of a migration moving an allocation onto the device or
  /// off it, between device memory and pageable host memory (the arena
  /// file's second mapping, Arena::alias), finished on return. The defaults
  /// make one memcpy, copyOutBulk after faulting the destination's pages in
  /// (Arena::populate: in parallel; populating a source that exists made
  /// the copies slower on the H200); a backend may stage them through
  /// pinned buffers in parallel chunks.
  virtual Status copyInBulk(void *Dst, const void *Src, size_t Bytes);
  virtual Status copyOutBulk(void *Dst, const void *Src, size_t Bytes);
  virtual Status copyPeer(void *Dst, Device &DstDev, const void *Src,
                          Device &SrcDev, size_t Bytes);
};

/// A dependency graph of device work built once and submitted whole with
/// one call per launch (NVIDIA: the driver's graphs, cuGraph*). Nodes are
/// numbered in the order they are added; each depends on nodes added
/// before it. Pointers and argument bytes are read when a node is added
/// (kernel arguments as by Queue::launch, copied by the driver). After
/// instantiate() no node may be added; setKernel() changes a kernel node
/// of the instantiated graph for the launches that follow. Devices without
/// such graphs say NotSupported in Device::createGraph, and CUDA graphs
/// replay on them through Queue (API/GraphExec.cpp).
class DeviceGraph {
public:
  using NodeId = size_t;
  using Deps = std::vector<NodeId>;
  /// A copy of Height rows of Width bytes.
  struct Copy {
    void *Dst = nullptr;
    const void *Src = nullptr;
    size_t DstPitch = 0, SrcPitch = 0, Width = 0, Height = 1;
    CopyKind Kind = CopyKind::DeviceToDevice;
  };
  /// Height rows of Width elements of ElementSize (1, 2 or 4) bytes.
  struct Fill {
    void *Dst = nullptr;
    size_t Pitch = 0, Width = 0, Height = 1;
    uint32_t Value = 0;
    unsigned ElementSize = 1;
  };
  virtual ~DeviceGraph();
  virtual Status addKernel(Kernel &K, const LaunchParams &P, const Deps &D,
                           NodeId &Out) = 0;
  virtual Status addCopy(const Copy &C, const Deps &D, NodeId &Out) = 0;
  virtual Status addFill(const Fill &F, const Deps &D, NodeId &Out) = 0;
  /// \p Fn(\p User) on a host thread once the node's dependencies are done.
  virtual Status addHost(void (*Fn)(void *), void *User, const Deps &D,
                         NodeId &Out) = 0;
  /// Records / waits for \p E, an event of this graph's device.
  virtual Status addRecord(Event &E, const Deps &D, NodeId &Out) = 0;
  virtual Status addWait(Event &E, const Deps &D, NodeId &Out) = 0;
  virtual Status addEmpty(const Deps &D, NodeId &Out) = 0;
  virtual Status instantiate() = 0;
  /// Queues one run of the instantiated graph on \p Q, a queue of this
  /// graph's device.
  virtual Status launch(Queue &Q) = 0;
  /// New kernel, geometry or arguments for kernel node \p N.
  virtual Status setKernel(NodeId N, Kernel &K, const LaunchParams &P) = 0;
};

class Device {
public:
  virtual ~Device();
  virtual const DeviceProperties &properties() const = 0;

  /// Device memory. Pointers are device addresses (on integrated devices
  /// they are also host addresses).
  virtual Status allocate(size_t Bytes, void *&Ptr) = 0;
  virtual Status release(void *Ptr) = 0;
  /// Page-locked host memory (cudaMallocHost); may be plain host memory.
  virtual Status allocateHost(size_t Bytes, void *&Ptr) = 0;
  virtual Status releaseHost(void *Ptr) = 0;
  virtual Status memoryInfo(size_t &Free, size_t &Total) = 0;
  /// Memory usable from the host and the device (cudaMallocManaged),
  /// released with release(). The default says NotSupported; Core then uses
  /// allocate() on devices whose memory is host memory (Integrated).
  virtual Status allocateManaged(size_t Bytes, void *&Ptr);
  /// Device memory the runtime itself uses (state buffers and control
  /// blocks of watched launches), released with release(). On a device
  /// sharing the arena it comes from managed memory's chunks, which are
  /// never lent: a context moving to a device with memory of its own takes
  /// its allocations' chunks along, and must find nothing else in them.
  Status allocateRuntime(size_t Bytes, void *&Ptr);

  /// Loads a binary produced by the lowering target of properties().Target
  /// for the module described by \p Info.
  virtual Status loadModule(const std::vector<char> &Binary,
                            const container::ModuleInfo &Info,
                            std::unique_ptr<Module> &Out) = 0;
  /// Turns the lowering target's output into what loadModule() loads
  /// fastest, before the JIT cache stores it (NVIDIA: PTX -> cubin through
  /// the driver's linker, so a warm start runs no PTX JIT). May run on any
  /// thread without the context lock. The default keeps the binary.
  virtual Status finalizeBinary(std::vector<char> &Binary);
  /// What finalizeBinary() depends on besides the properties (the driver's
  /// version), part of the JIT-cache key. Empty by default.
  virtual std::string binaryCacheTag();

  virtual Status createQueue(std::unique_ptr<Queue> &Out) = 0;
  virtual Status createEvent(std::unique_ptr<Event> &Out) = 0;
  /// An empty DeviceGraph; the default says NotSupported (with the reason).
  virtual Status createGraph(std::unique_ptr<DeviceGraph> &Out);
  /// Waits for all work on all queues of this device.
  virtual Status synchronize() = 0;
  /// cudaDeviceReset: forget a fault of earlier work (the device is usable
  /// again). Core has synchronised and released everything first. The
  /// default does nothing.
  virtual Status reset();
  /// cudaDeviceReset of a context while another context also runs on this
  /// device (live migration moved one onto it): forget a fault of earlier
  /// work, keeping the memory and modules of every context here. The
  /// default is reset(), for devices whose reset keeps them; a device whose
  /// reset tears its state down says when the fault cannot be forgotten.
  virtual Status forgetFault();

  //===--- One address layout across devices (Core/UnifiedMemory.h) ------===//
  // Live migration moves a context's allocations between devices at
  // unchanged addresses. The defaults say the device takes no part.

  /// True when allocate() hands out host memory of the process-wide arena
  /// (CPU, tt-sim, OpenCL devices that passed the SVM probe): such
  /// allocations change device without a copy.
  virtual bool sharesArena();
  /// Devices with memory of their own that can place it at arena addresses
  /// (NVIDIA through the driver's virtual-memory API): makes the arena
  /// allocation [Ptr, Ptr + Bytes) memory of this device at the same
  /// addresses (contents undefined). release() frees it as usual.
  virtual Status attachArenaRange(void *Ptr, size_t Bytes);
  /// The reverse of attachArenaRange (also for this device's own
  /// allocations): the device memory goes away, the range stays an arena
  /// allocation backed by host memory again (contents undefined).
  virtual Status detachArenaRange(void *Ptr, size_t Bytes);
  /// Managed memory stays host memory of the arena on every device (the
  /// host reads it between kernels): makes [Ptr, Ptr + Bytes) usable by
  /// this device's kernels at the same address (NVIDIA: cuMemHostRegister),
  /// or undoes that. The defaults succeed on devices that share the arena.
  virtual Status attachHostRange(void *Ptr, size_t Bytes);
  virtual Status detachHostRange(void *Ptr);

  //===--- Peers: two devices with memory of their own -------------------===//
  // (Devices that share the arena reach each other's memory anyway: Core
  // handles those pairs without these calls.) The defaults say no.

  /// Whether kernels of this device can use \p Peer's memory once
  /// enablePeerAccess(Peer) succeeded (cudaDeviceCanAccessPeer).
  virtual bool canAccessPeer(Device &Peer);
  /// Lets kernels of this device read and write \p Peer's memory, present
  /// and future allocations (cudaDeviceEnablePeerAccess), or stops that.
  virtual Status enablePeerAccess(Device &Peer);
  virtual Status disablePeerAccess(Device &Peer);
  /// Live migration between two devices with memory of their own: the
  /// arena allocation [Ptr, Ptr + Bytes), attached to this device, becomes
  /// memory of \p To at the same addresses with its contents, copied
  /// straight between the devices (no host buffer). Afterwards it is
  /// attached to \p To as if by To.attachArenaRange. A null \p Ptr asks
  /// whether this pair can do it. NotSupported (the default): the caller
  /// stages through host memory (detach, attach, copy in).
  virtual Status transferArenaRange(Device &To, void *Ptr, size_t Bytes);
};

/// A backend finds the devices of one API (one vendor driver).
class Backend {
public:
  virtual ~Backend();
  /// "cpu", "nvidia", "opencl", "level-zero", "hip", "tt-sim".
  virtual const char *name() const = 0;
  /// Appends the devices found. Returns a non-ok status (e.g. "libcuda.so.1
  /// not found") when the backend is unavailable; `hetgpu-info` prints it.
  virtual Status discover(std::vector<std::unique_ptr<Device>> &Out) = 0;
  /// After discover(): the version of the driver or library it found, as
  /// the vendor numbers it ("CUDA driver 12.8 (libcuda.so.1)"); empty when
  /// the backend does not know it (`hetgpu-info --format=json`).
  virtual std::string version() const { return {}; }
};

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_CORE_DEVICE_H
