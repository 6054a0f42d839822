//===- OpenCLBackend.cpp - OpenCL devices through the ICD loader ---------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu::rt::createOpenCLBackend()`. Devices of every OpenCL platform
/// that offer shared virtual memory (SVM) and take either SPIR-V
/// (CL_DEVICE_IL_VERSION, clCreateProgramWithIL) or SPIR 1.2 (cl_khr_spir;
/// our SPIR-V goes through `llvm-spirv -r` first, see SPIRVToSPIR.h).
///
/// Memory: every allocation is SVM (fine-grain where offered, else coarse
/// grain), so a device pointer is the same value on host and device, kernel
/// pointer arguments are set with clSetKernelArgSVMPointer and pointers
/// stored in device memory stay valid. Devices without SVM are skipped.
///
/// Modules follow ABI/SPIRVKernel.h: after the build the
/// info kernel gives the globals table, the module's globals block is
/// allocated and the init kernel fills it. Streams are in-order command
/// queues with profiling (events are markers).
///
//===----------------------------------------------------------------------===//

#include "OpenCLApi.h"
#include "SPIRVToSPIR.h"

#include "Core/Device.h"
#include "Core/Log.h"
#include "Core/Printf.h"
#include "Core/UnifiedMemory.h"
#include "Backends/SPIRV/SPIRVModuleTable.h"

#include <pthread.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

namespace hetgpu {
namespace rt {

std::unique_ptr<Backend> createOpenCLBackend();

namespace {

using namespace cl;

ErrorCode mapError(cl_int E) {
  switch (E) {
  case CL_SUCCESS:
    return ErrorCode::Success;
  case CL_MEM_OBJECT_ALLOCATION_FAILURE:
  case CL_OUT_OF_HOST_MEMORY:
    return ErrorCode::OutOfMemory;
  case CL_OUT_OF_RESOURCES:
    return ErrorCode::LaunchOutOfResources;
  case CL_INVALID_WORK_GROUP_SIZE:
  case CL_INVALID_WORK_ITEM_SIZE:
  case CL_INVALID_GLOBAL_WORK_SIZE:
    return ErrorCode::InvalidConfiguration;
  case CL_INVALID_VALUE:
    return ErrorCode::InvalidValue;
  default:
    return ErrorCode::DriverFailure;
  }
}

Status clStatus(cl_int E, const std::string &What) {
  if (E == CL_SUCCESS)
    return Status::ok();
  return Status(mapError(E), "opencl: " + What + " failed: " + errorName(E) +
                                 " (" + std::to_string(E) + ")");
}

std::string deviceString(const API &A, cl_device_id D, cl_device_info I) {
  size_t N = 0;
  if (A.clGetDeviceInfo(D, I, 0, nullptr, &N) != CL_SUCCESS || N == 0)
    return "";
  std::string S(N, '\0');
  if (A.clGetDeviceInfo(D, I, N, S.data(), nullptr) != CL_SUCCESS)
    return "";
  while (!S.empty() && (S.back() == '\0' || S.back() == ' '))
    S.pop_back();
  return S;
}

template <typename T>
T deviceValue(const API &A, cl_device_id D, cl_device_info I, T Default) {
  T V{};
  if (A.clGetDeviceInfo(D, I, sizeof(T), &V, nullptr) != CL_SUCCESS)
    return Default;
  return V;
}

class CLDevice;

class CLKernel final : public Kernel {
public:
  CLKernel(const API &A, cl_kernel K, const container::KernelInfo &Info,
           void *Globals, bool WarpLoop, uint64_t StaticShared,
           uint64_t WarpBytes)
      : A(A), K(K), Info(Info), Globals(Globals), WarpLoop(WarpLoop),
        StaticShared(StaticShared), WarpBytes(WarpBytes) {}
  ~CLKernel() override { A.clReleaseKernel(K); }
  const container::KernelInfo &info() const override { return Info; }

  const API &A;
  cl_kernel K;
  container::KernelInfo Info;
  void *Globals;
  /// One work-item per warp (ABI/SPIRVKernel.h): block size arguments,
  /// warp states and static shared memory in the dynamic buffer.
  bool WarpLoop;
  uint64_t StaticShared, WarpBytes;
  /// clSetKernelArg + enqueue must not interleave between threads.
  std::mutex M;
};

class CLModule final : public Module {
public:
  CLModule(CLDevice &D, cl_program P) : Dev(D), Program(P) {}
  ~CLModule() override;
  Status getKernel(const std::string &Name, Kernel *&Out) override;
  Status getGlobal(const std::string &Name, void *&Addr,
                   size_t &Size) override;

  CLDevice &Dev;
  cl_program Program;
  container::ModuleInfo Info; ///< kernels and globals (IR dropped)
  void *Block = nullptr;      ///< globals block (SVM)
  spirv_abi::ModuleTable Table;
  std::map<std::string, std::unique_ptr<CLKernel>> Kernels;
  std::mutex M;

  /// Device printf (ABI/SPIRVKernel.h).
  void *PrintfBuffer = nullptr;
  uint64_t PrintfCapacity = 0;
  bool PrintfOverflowReported = false;
  void *Heap = nullptr; ///< device malloc() heap (SVM)
};

class CLEvent final : public Event {
public:
  explicit CLEvent(const API &A) : A(A) {}
  ~CLEvent() override {
    if (E)
      A.clReleaseEvent(E);
  }
  Status synchronize() override {
    std::lock_guard<std::mutex> L(M);
    if (!E)
      return Status::ok();
    return clStatus(A.clWaitForEvents(1, &E), "clWaitForEvents");
  }
  Status query() override {
    std::lock_guard<std::mutex> L(M);
    if (!E)
      return Status::ok();
    cl_int S = CL_COMPLETE;
    if (cl_int R = A.clGetEventInfo(E, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                    sizeof S, &S, nullptr))
      return clStatus(R, "clGetEventInfo");
    if (S < 0)
      return clStatus(S, "the work before the event");
    return S == CL_COMPLETE ? Status::ok()
                            : Status(ErrorCode::NotReady, "event not ready");
  }
  Status elapsedSince(Event &Start, float &Ms) override {
    auto &S = static_cast<CLEvent &>(Start);
    cl_ulong T0 = 0, T1 = 0;
    if (!E || !S.E)
      return Status(ErrorCode::InvalidValue,
                    "opencl: elapsed time of an event never recorded");
    if (Status St = S.query())
      return St;
    if (Status St = query())
      return St;
    if (cl_int R = A.clGetEventProfilingInfo(S.E, CL_PROFILING_COMMAND_END,
                                             sizeof T0, &T0, nullptr))
      return clStatus(R, "clGetEventProfilingInfo");
    if (cl_int R = A.clGetEventProfilingInfo(E, CL_PROFILING_COMMAND_END,
                                             sizeof T1, &T1, nullptr))
      return clStatus(R, "clGetEventProfilingInfo");
    Ms = float(double(int64_t(T1 - T0)) / 1e6);
    return Status::ok();
  }
  /// Replaces the recorded marker.
  void set(cl_event New) {
    std::lock_guard<std::mutex> L(M);
    if (E)
      A.clReleaseEvent(E);
    E = New;
  }
  cl_event get() {
    std::lock_guard<std::mutex> L(M);
    return E;
  }

private:
  const API &A;
  cl_event E = nullptr;
  std::mutex M;
};

class CLQueue;

class CLDevice final : public Device {
public:
  CLDevice(const API &A, cl_platform_id P, cl_device_id D, cl_context Ctx,
           bool FineGrain, bool UseIL)
      : A(A), Platform(P), Dev(D), Ctx(Ctx), FineGrain(FineGrain),
        UseIL(UseIL) {}
  ~CLDevice() override {
    if (Internal)
      A.clReleaseCommandQueue(Internal);
    A.clReleaseContext(Ctx);
  }

  const DeviceProperties &properties() const override { return Props; }

  Status allocate(size_t Bytes, void *&Ptr) override {
    if (useArena()) {
      // One address layout with the other devices (Core/UnifiedMemory.h).
      uint64_t Addr = 0;
      if (Status S = Arena::get().allocate(Bytes, 256, ArenaTag, Addr))
        return S;
      Ptr = reinterpret_cast<void *>(Addr);
      std::lock_guard<std::mutex> L(M);
      Allocations[Ptr] = Bytes;
      Used += Bytes;
      return Status::ok();
    }
    cl_svm_mem_flags F = CL_MEM_READ_WRITE;
    if (FineGrain)
      F |= CL_MEM_SVM_FINE_GRAIN_BUFFER;
    Ptr = A.clSVMAlloc(Ctx, F, std::max<size_t>(Bytes, 1), 0);
    if (!Ptr)
      return Status(ErrorCode::OutOfMemory,
                    "opencl: clSVMAlloc of " + std::to_string(Bytes) +
                        " bytes failed on " + Props.Name);
    std::lock_guard<std::mutex> L(M);
    Allocations[Ptr] = Bytes;
    Used += Bytes;
    return Status::ok();
  }
  Status release(void *Ptr) override {
    if (!Ptr)
      return Status::ok();
    {
      std::lock_guard<std::mutex> L(M);
      auto It = Allocations.find(Ptr);
      if (It == Allocations.end() && !Arena::get().contains(Ptr))
        return Status(ErrorCode::InvalidDevicePointer,
                      "opencl: pointer was not allocated on this device");
      if (It != Allocations.end()) {
        Used -= It->second;
        Allocations.erase(It);
      }
    }
    // Pending work may still use it.
    if (Status S = synchronize())
      log(LogLevel::Warn, S.Message);
    // Arena memory may also come from another device whose allocations
    // migrated here.
    if (Arena::get().contains(Ptr))
      return Arena::get().release(reinterpret_cast<uint64_t>(Ptr));
    A.clSVMFree(Ctx, Ptr);
    return Status::ok();
  }
  bool sharesArena() override { return useArena(); }
  /// Whether device memory comes from the arena: the process is migratable
  /// and the device reports fine-grain system SVM or passes probeArena().
  bool useArena();
  Status probeArena();
  Status allocateHost(size_t Bytes, void *&Ptr) override {
    Ptr = aligned_alloc(4096, (std::max<size_t>(Bytes, 1) + 4095) & ~size_t(4095));
    return Ptr ? Status::ok()
               : Status(ErrorCode::OutOfMemory, "opencl: host allocation");
  }
  Status releaseHost(void *Ptr) override {
    free(Ptr);
    return Status::ok();
  }
  Status allocateManaged(size_t Bytes, void *&Ptr) override {
    if (useArena()) {
      // Chunks of their own: managed memory stays host memory when the
      // context migrates to a GPU (Core/UnifiedMemory.h).
      uint64_t Addr = 0;
      if (Status S = Arena::get().allocate(Bytes, 4096,
                                           Arena::get().managedTag(), Addr))
        return S;
      Ptr = reinterpret_cast<void *>(Addr);
      std::lock_guard<std::mutex> L(M);
      Allocations[Ptr] = Bytes;
      Used += Bytes;
      return Status::ok();
    }
    if (!FineGrain)
      return Status(ErrorCode::NotSupported,
                    "opencl: managed memory needs fine-grain SVM");
    return allocate(Bytes, Ptr);
  }
  Status memoryInfo(size_t &Free, size_t &Total) override {
    std::lock_guard<std::mutex> L(M);
    Total = Props.TotalMemory;
    Free = Used < Total ? Total - Used : 0;
    return Status::ok();
  }

  Status loadModule(const std::vector<char> &Binary,
                    const container::ModuleInfo &Info,
                    std::unique_ptr<Module> &Out) override;
  Status createQueue(std::unique_ptr<Queue> &Out) override;
  Status createEvent(std::unique_ptr<Event> &Out) override {
    Out = std::make_unique<CLEvent>(A);
    return Status::ok();
  }
  Status synchronize() override;
  Status reset() override {
    std::lock_guard<std::mutex> L(M);
    uint32_t Zero = 0;
    for (CLModule *Mod : Modules)
      if (Mod->Block)
        if (Status S = copySVM(static_cast<char *>(Mod->Block) +
                                   spirv_abi::StatusOffset,
                               &Zero, sizeof Zero))
          return S;
    return Status::ok();
  }

  /// A device-side assert/trap recorded in any module's globals block.
  Status deviceFailure();
  /// Prints the device printf records of every module, then empties the
  /// buffers. Called once the device's work is done.
  void drainPrintf();
  void drainPrintf(CLModule &Mod);
  /// Host <-> SVM copies outside the user's queues.
  Status copySVM(void *Dst, const void *Src, size_t Bytes);

  Status init();
  Status internalQueue(cl_command_queue &Q);
  /// Runs \p K with one work-item on the internal queue and waits.
  Status runHelper(cl_kernel K, const std::string &What);

  const API &A;
  cl_platform_id Platform;
  cl_device_id Dev;
  cl_context Ctx;
  bool FineGrain;
  bool UseIL;
  DeviceProperties Props;
  std::mutex M;
  std::map<void *, size_t> Allocations;
  size_t Used = 0;
  std::set<CLQueue *> Queues;
  std::set<CLModule *> Modules;
  cl_command_queue Internal = nullptr;
  std::once_flag ArenaOnce;
  bool InArena = false;
  unsigned ArenaTag = 0;
};

class CLQueue final : public Queue {
public:
  CLQueue(CLDevice &D, cl_command_queue Q) : D(D), A(D.A), Q(Q) {}
  ~CLQueue() override {
    A.clFinish(Q);
    setLast(nullptr);
    {
      std::lock_guard<std::mutex> L(D.M);
      D.Queues.erase(this);
    }
    A.clReleaseCommandQueue(Q);
  }

  Status memcpy(void *Dst, const void *Src, size_t Bytes,
                CopyKind Kind) override {
    if (Bytes == 0)
      return Status::ok();
    // Host sources may change as soon as we return: copy them now.
    cl_bool Blocking = Kind == CopyKind::HostToDevice ||
                               Kind == CopyKind::HostToHost
                           ? CL_TRUE
                           : CL_FALSE;
    cl_event Ev = nullptr;
    Status S = clStatus(
        A.clEnqueueSVMMemcpy(Q, Blocking, Dst, Src, Bytes, 0, nullptr, &Ev),
        "clEnqueueSVMMemcpy");
    setLast(Ev);
    return S;
  }
  Status memset(void *Dst, int Value, size_t Bytes) override {
    if (Bytes == 0)
      return Status::ok();
    unsigned char Pattern = static_cast<unsigned char>(Value);
    cl_event Ev = nullptr;
    Status S = clStatus(A.clEnqueueSVMMemFill(Q, Dst, &Pattern, 1, Bytes, 0,
                                              nullptr, &Ev),
                        "clEnqueueSVMMemFill");
    setLast(Ev);
    return S;
  }
  Status launch(Kernel &Kn, const LaunchParams &P) override {
    auto &K = static_cast<CLKernel &>(Kn);
    const container::KernelInfo &I = K.Info;
    std::lock_guard<std::mutex> L(K.M);
    cl_uint N = 0;
    for (const container::ParamInfo &PI : I.Params) {
      cl_int R;
      if (PI.Kind == container::ParamKind::Pointer) {
        void *Ptr = nullptr;
        std::memcpy(&Ptr, P.Args[N], sizeof Ptr);
        R = A.clSetKernelArgSVMPointer(K.K, N, Ptr);
      } else {
        R = A.clSetKernelArg(K.K, N, PI.Size, P.Args[N]);
      }
      if (R)
        return clStatus(R, "clSetKernelArg(" + I.Name + ", " +
                               std::to_string(N) + ")");
      ++N;
    }
    if (K.WarpLoop)
      for (int D = 0; D < 3; ++D, ++N)
        if (cl_int R = A.clSetKernelArg(K.K, N, sizeof(cl_uint), &P.Block[D]))
          return clStatus(R, "clSetKernelArg(" + I.Name + ", block size)");
    uint64_t Warps =
        (uint64_t(P.Block[0]) * P.Block[1] * P.Block[2] + 31) / 32;
    uint64_t Dyn = P.DynamicShared +
                   (K.WarpLoop ? K.StaticShared + Warps * K.WarpBytes : 0);
    if (cl_int R = A.clSetKernelArg(K.K, N, std::max<uint64_t>(Dyn, 1), nullptr))
      return clStatus(R, "clSetKernelArg(" + I.Name +
                             ", dynamic shared memory of " +
                             std::to_string(Dyn) + " bytes)");
    if (cl_int R = A.clSetKernelArgSVMPointer(K.K, N + 1, K.Globals))
      return clStatus(R, "clSetKernelArgSVMPointer(" + I.Name + ", globals)");
    size_t Local[3], Global[3];
    for (int D = 0; D < 3; ++D) {
      if (P.Grid[D] == 0 || P.Block[D] == 0)
        return Status(ErrorCode::InvalidConfiguration,
                      "opencl: empty grid or block");
      Local[D] = P.Block[D];
      Global[D] = size_t(P.Grid[D]) * P.Block[D];
    }
    if (K.WarpLoop) {
      // One work-item per warp of 32 threads.
      Local[0] = (size_t(P.Block[0]) * P.Block[1] * P.Block[2] + 31) / 32;
      Local[1] = Local[2] = 1;
      for (int D = 0; D < 3; ++D)
        Global[D] = size_t(P.Grid[D]) * Local[D];
    }
    cl_event Ev = nullptr;
    Status S = clStatus(A.clEnqueueNDRangeKernel(Q, K.K, 3, nullptr, Global,
                                                 Local, 0, nullptr, &Ev),
                        "clEnqueueNDRangeKernel(" + I.Name + ")");
    setLast(Ev);
    return S;
  }
  Status hostFunc(std::function<void()> Fn) override {
    if (Status S = synchronize())
      return S;
    Fn();
    return Status::ok();
  }
  Status record(Event &E) override {
    cl_event Ev = nullptr;
    if (cl_int R = A.clEnqueueMarkerWithWaitList(Q, 0, nullptr, &Ev))
      return clStatus(R, "clEnqueueMarkerWithWaitList");
    A.clFlush(Q);
    A.clRetainEvent(Ev);
    setLast(Ev);
    static_cast<CLEvent &>(E).set(Ev);
    return Status::ok();
  }
  Status wait(Event &E) override {
    cl_event Ev = static_cast<CLEvent &>(E).get();
    if (!Ev)
      return Status::ok();
    cl_event B = nullptr;
    Status S = clStatus(A.clEnqueueBarrierWithWaitList(Q, 1, &Ev, &B),
                        "clEnqueueBarrierWithWaitList");
    setLast(B);
    return S;
  }
  Status synchronize() override {
    if (Status S = clStatus(A.clFinish(Q), "clFinish"))
      return S;
    D.drainPrintf();
    return D.deviceFailure();
  }
  Status query() override {
    cl_event Ev;
    {
      std::lock_guard<std::mutex> L(LastM);
      Ev = Last;
      if (Ev)
        A.clRetainEvent(Ev);
    }
    if (!Ev)
      return D.deviceFailure();
    A.clFlush(Q);
    cl_int S = CL_COMPLETE;
    cl_int R = A.clGetEventInfo(Ev, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                sizeof S, &S, nullptr);
    A.clReleaseEvent(Ev);
    if (R)
      return clStatus(R, "clGetEventInfo");
    if (S < 0)
      return clStatus(S, "queued work");
    if (S != CL_COMPLETE)
      return Status(ErrorCode::NotReady, "queue busy");
    return D.deviceFailure();
  }

  /// The last command enqueued (owned), for query().
  void setLast(cl_event Ev) {
    std::lock_guard<std::mutex> L(LastM);
    if (Last)
      A.clReleaseEvent(Last);
    Last = Ev;
  }

  CLDevice &D;
  const API &A;
  cl_command_queue Q;
  std::mutex LastM;
  cl_event Last = nullptr;
};

//===----------------------------------------------------------------------===//
// CLDevice
//===----------------------------------------------------------------------===//

Status CLDevice::init() {
  Props.Name = deviceString(A, Dev, CL_DEVICE_NAME);
  Props.Vendor = deviceString(A, Dev, CL_DEVICE_VENDOR);
  Props.Kind = BackendKind::OpenCL;
  Props.Target = "spirv";
  std::string IL = deviceString(A, Dev, CL_DEVICE_IL_VERSION);
  // Highest SPIR-V 1.x the device takes; SPIR consumers get 1.2 (what
  // llvm-spirv-15 reads back reliably).
  unsigned Minor = 2;
  if (UseIL) {
    Minor = 0;
    for (unsigned V = 0; V <= 6; ++V)
      if (IL.find("SPIR-V_1." + std::to_string(V)) != std::string::npos)
        Minor = V;
  }
  Props.Arch = "spirv1." + std::to_string(Minor);
  // PoCL's SPIR 1.2 library has no mem_fence: fences become atomics.
  Props.Features = "+defer-unsupported";
  if (!UseIL)
    Props.Features += ",+fence-as-atomic";
  // CPU devices have flat memory; PoCL's SPIR 1.2 library lacks generic
  // atomics (used by warp-loop kernels on shared memory).
  if (deviceValue<cl_ulong>(A, Dev, CL_DEVICE_TYPE, 0) & CL_DEVICE_TYPE_CPU)
    Props.Features += ",+flat-atomics";
  std::string Ext = deviceString(A, Dev, CL_DEVICE_EXTENSIONS);
  if (Ext.find("cl_intel_required_subgroup_size") != std::string::npos) {
    size_t Sizes[16] = {};
    size_t Got = 0;
    if (A.clGetDeviceInfo(Dev, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof Sizes,
                          Sizes, &Got) == CL_SUCCESS)
      for (size_t I = 0; I < Got / sizeof(size_t); ++I)
        if (Sizes[I] == 32 && UseIL && Minor >= 3)
          Props.Features += ",+subgroups32";
  }
  // Without 32-wide sub-groups, kernels that need exact warp semantics run
  // one warp per work-item (ABI/SPIRVKernel.h); HETGPU_OPENCL_WARP_LOOP=all
  // makes every kernel do so, =off none.
  if (Props.Features.find("+subgroups32") == std::string::npos) {
    const char *WL = getenv("HETGPU_OPENCL_WARP_LOOP");
    std::string Mode = WL ? WL : "auto";
    if (Mode == "all")
      Props.Features += ",+warp-loop-all";
    else if (Mode != "off")
      Props.Features += ",+warp-loop";
  }
  Props.TotalMemory = deviceValue<cl_ulong>(A, Dev, CL_DEVICE_GLOBAL_MEM_SIZE, 0);
  Props.MultiProcessorCount =
      deviceValue<cl_uint>(A, Dev, CL_DEVICE_MAX_COMPUTE_UNITS, 1);
  size_t WG = deviceValue<size_t>(A, Dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, 256);
  Props.MaxThreadsPerBlock = uint32_t(std::min<size_t>(WG, 1024));
  size_t Items[3] = {1, 1, 1};
  A.clGetDeviceInfo(Dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof Items, Items,
                    nullptr);
  for (int D = 0; D < 3; ++D)
    Props.MaxBlockDim[D] = uint32_t(
        std::min<size_t>(Items[D], D == 2 ? 64 : Props.MaxThreadsPerBlock));
  // Local memory minus what the warp emulation and barrier reductions use.
  uint64_t Local = deviceValue<cl_ulong>(A, Dev, CL_DEVICE_LOCAL_MEM_SIZE,
                                         48 * 1024);
  uint64_t Reserved = 4096 + 16;
  Local = Local > Reserved ? Local - Reserved : 0;
  Props.SharedMemPerBlock = std::min<uint64_t>(Local, 48 * 1024);
  Props.SharedMemPerBlockOptin = Local;
  Props.SharedMemPerMultiprocessor = Local;
  Props.TotalConstMem = std::min<uint64_t>(
      deviceValue<cl_ulong>(A, Dev, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE,
                            64 * 1024),
      64 * 1024);
  Props.ClockRateKHz =
      deviceValue<cl_uint>(A, Dev, CL_DEVICE_MAX_CLOCK_FREQUENCY, 1000) * 1000;
  Props.L2CacheSize = uint32_t(
      deviceValue<cl_ulong>(A, Dev, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, 0));
  Props.Integrated =
      deviceValue<cl_bool>(A, Dev, CL_DEVICE_HOST_UNIFIED_MEMORY, CL_FALSE) ==
          CL_TRUE ||
      (deviceValue<cl_ulong>(A, Dev, CL_DEVICE_TYPE, 0) & CL_DEVICE_TYPE_CPU);
  Props.ManagedMemory = FineGrain;
  return Status::ok();
}

Status CLDevice::internalQueue(cl_command_queue &Q) {
  std::lock_guard<std::mutex> L(M);
  if (!Internal) {
    cl_int E = CL_SUCCESS;
    Internal = A.clCreateCommandQueueWithProperties(Ctx, Dev, nullptr, &E);
    if (!Internal)
      return clStatus(E, "clCreateCommandQueueWithProperties");
  }
  Q = Internal;
  return Status::ok();
}

Status CLDevice::runHelper(cl_kernel K, const std::string &What) {
  cl_command_queue Q;
  if (Status S = internalQueue(Q))
    return S;
  size_t One = 1;
  if (cl_int R = A.clEnqueueNDRangeKernel(Q, K, 1, nullptr, &One, &One, 0,
                                          nullptr, nullptr))
    return clStatus(R, "running " + What);
  return clStatus(A.clFinish(Q), "running " + What);
}

bool CLDevice::useArena() {
  std::call_once(ArenaOnce, [this] {
    if (!arenaWanted())
      return;
    Status S = Arena::get().ensureMapped();
    if (S.isOk())
      S = probeArena();
    if (S) {
      log(LogLevel::Info,
          "opencl: " + Props.Name + ": device memory stays clSVMAlloc'ed (" +
              S.Message + "); this device cannot take part in live "
                          "migration of memory with stored pointers");
      return;
    }
    InArena = true;
  });
  return InArena;
}

/// Whether kernels of this device read and write host memory of the arena
/// through plain pointers: CL_DEVICE_SVM_FINE_GRAIN_SYSTEM, or (PoCL reports
/// only buffer SVM) a tiny kernel storing through an arena pointer passed
/// with clSetKernelArgSVMPointer and through one loaded from arena memory.
Status CLDevice::probeArena() {
  auto Caps = deviceValue<cl_device_svm_capabilities>(
      A, Dev, CL_DEVICE_SVM_CAPABILITIES, 0);
  const cl_device_svm_capabilities FineGrainSystem = 1 << 2;
  if (Caps & FineGrainSystem) {
    ArenaTag = Arena::get().newTag();
    return Status::ok();
  }
  using FromSource = cl_program (*)(cl_context, cl_uint, const char **,
                                    const size_t *, cl_int *);
  const char *Lib = getenv("HETGPU_OPENCL_LIBRARY");
  void *H = dlopen(Lib && *Lib ? Lib : "libOpenCL.so.1", RTLD_NOW | RTLD_NOLOAD);
  auto Create = H ? reinterpret_cast<FromSource>(
                        dlsym(H, "clCreateProgramWithSource"))
                  : nullptr;
  if (!Create)
    return Status(ErrorCode::NotSupported,
                  "no fine-grain system SVM and no clCreateProgramWithSource "
                  "for the arena probe");
  const char *Src =
      "__kernel void hetgpu_arena_probe(__global uint *p,\n"
      "                                 __global uint * __global *q) {\n"
      "  p[0] = 0x600dcafeu; (*q)[1] = 0x5eed5eedu;\n"
      "}\n";
  cl_int E = CL_SUCCESS;
  cl_program P = Create(Ctx, 1, &Src, nullptr, &E);
  if (!P)
    return clStatus(E, "arena probe: clCreateProgramWithSource");
  Status S = clStatus(A.clBuildProgram(P, 1, &Dev, "", nullptr, nullptr),
                      "arena probe: clBuildProgram");
  cl_kernel K = S.isOk() ? A.clCreateKernel(P, "hetgpu_arena_probe", &E)
                         : nullptr;
  if (S.isOk() && !K)
    S = clStatus(E, "arena probe: clCreateKernel");
  unsigned Tag = Arena::get().newTag();
  uint64_t Addr = 0;
  if (S.isOk())
    S = Arena::get().allocate(64, 256, Tag, Addr);
  if (S.isOk()) {
    auto *Words = reinterpret_cast<uint32_t *>(Addr);
    auto *Slot = reinterpret_cast<uint32_t **>(Addr + 32);
    Words[0] = Words[1] = 0;
    *Slot = Words;
    S = clStatus(A.clSetKernelArgSVMPointer(K, 0, Words),
                 "arena probe: clSetKernelArgSVMPointer");
    if (S.isOk())
      S = clStatus(A.clSetKernelArgSVMPointer(K, 1, Slot),
                   "arena probe: clSetKernelArgSVMPointer");
    if (S.isOk())
      S = runHelper(K, "the arena probe");
    if (S.isOk() && (Words[0] != 0x600dcafeu || Words[1] != 0x5eed5eedu))
      S = Status(ErrorCode::NotSupported,
                 "the arena probe kernel's stores through host pointers did "
                 "not arrive");
    Arena::get().release(Addr);
  }
  if (K)
    A.clReleaseKernel(K);
  A.clReleaseProgram(P);
  if (S.isOk())
    ArenaTag = Tag;
  return S;
}

Status CLDevice::createQueue(std::unique_ptr<Queue> &Out) {
  cl_queue_properties QP[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE,
                              0};
  cl_int E = CL_SUCCESS;
  cl_command_queue Q = A.clCreateCommandQueueWithProperties(Ctx, Dev, QP, &E);
  if (!Q)
    return clStatus(E, "clCreateCommandQueueWithProperties");
  auto CQ = std::make_unique<CLQueue>(*this, Q);
  {
    std::lock_guard<std::mutex> L(M);
    Queues.insert(CQ.get());
  }
  Out = std::move(CQ);
  return Status::ok();
}

Status CLDevice::synchronize() {
  std::vector<cl_command_queue> Qs;
  {
    std::lock_guard<std::mutex> L(M);
    for (CLQueue *Q : Queues)
      Qs.push_back(Q->Q);
    if (Internal)
      Qs.push_back(Internal);
  }
  for (cl_command_queue Q : Qs)
    if (Status S = clStatus(A.clFinish(Q), "clFinish"))
      return S;
  drainPrintf();
  return deviceFailure();
}

Status CLDevice::copySVM(void *Dst, const void *Src, size_t Bytes) {
  if (FineGrain) {
    std::memcpy(Dst, Src, Bytes);
    return Status::ok();
  }
  cl_command_queue Q;
  if (Status S = internalQueue(Q))
    return S;
  return clStatus(A.clEnqueueSVMMemcpy(Q, CL_TRUE, Dst, Src, Bytes, 0, nullptr,
                                       nullptr),
                  "clEnqueueSVMMemcpy");
}

void CLDevice::drainPrintf() {
  std::vector<CLModule *> Mods;
  {
    std::lock_guard<std::mutex> L(M);
    Mods.assign(Modules.begin(), Modules.end());
  }
  for (CLModule *Mod : Mods)
    drainPrintf(*Mod);
}

void CLDevice::drainPrintf(CLModule &Mod) {
  std::lock_guard<std::mutex> L(Mod.M);
  if (!Mod.PrintfBuffer)
    return;
  char *Buf = static_cast<char *>(Mod.PrintfBuffer);
  uint64_t Written = 0;
  if (copySVM(&Written, Buf, sizeof Written))
    return;
  if (Written == 0)
    return;
  uint64_t Used = std::min(Written, Mod.PrintfCapacity);
  std::vector<char> Recs(Used);
  if (copySVM(Recs.data(), Buf + spirv_abi::PrintfHeaderSize, Used))
    return;
  uint64_t Zero = 0;
  copySVM(Buf, &Zero, sizeof Zero);
  spirv_abi::forEachPrintfRecord(
      Recs.data(), Used, Mod.Table.Formats,
      emitDevicePrintf);
  if (Written > Mod.PrintfCapacity && !Mod.PrintfOverflowReported) {
    Mod.PrintfOverflowReported = true;
    log(LogLevel::Warn, "opencl: the device printf buffer (" +
                            std::to_string(Mod.PrintfCapacity) +
                            " bytes, HETGPU_PRINTF_BUFFER_SIZE) overflowed; "
                            "output was lost");
  }
}

Status CLDevice::deviceFailure() {
  std::lock_guard<std::mutex> L(M);
  for (CLModule *Mod : Modules) {
    if (!Mod->Block)
      continue;
    uint32_t Word = 0;
    if (FineGrain) {
      std::memcpy(&Word,
                  static_cast<char *>(Mod->Block) + spirv_abi::StatusOffset,
                  sizeof Word);
    } else if (Internal) {
      A.clEnqueueSVMMemcpy(Internal, CL_TRUE, &Word,
                           static_cast<char *>(Mod->Block) +
                               spirv_abi::StatusOffset,
                           sizeof Word, 0, nullptr, nullptr);
    }
    if (Word == spirv_abi::StatusAssert)
      return Status(ErrorCode::Assert,
                    "opencl: a device-side assertion failed");
    if (Word == spirv_abi::StatusTrap)
      return Status(ErrorCode::LaunchFailure,
                    "opencl: a kernel executed __trap()");
  }
  return Status::ok();
}

Status CLDevice::loadModule(const std::vector<char> &Binary,
                            const container::ModuleInfo &Info,
                            std::unique_ptr<Module> &Out) {
  cl_int E = CL_SUCCESS;
  cl_program P = nullptr;
  const char *Options = "";
  std::string Path;
  if (UseIL) {
    Path = "SPIR-V (clCreateProgramWithIL)";
    P = A.clCreateProgramWithIL(Ctx, Binary.data(), Binary.size(), &E);
    if (!P)
      return Status(ErrorCode::NoBinaryForGpu,
                    "opencl: clCreateProgramWithIL failed on " + Props.Name +
                        ": " + errorName(E));
  } else {
    Path = "SPIR 1.2 (llvm-spirv -r, clCreateProgramWithBinary)";
    std::vector<char> BC;
    std::string Err;
    if (!translateSPIRVToSPIR(Binary, BC, Err))
      return Status(ErrorCode::NoBinaryForGpu,
                    "opencl: cannot convert SPIR-V to SPIR for " + Props.Name +
                        ": " + Err);
    size_t Size = BC.size();
    const unsigned char *Ptr =
        reinterpret_cast<const unsigned char *>(BC.data());
    cl_int BinStatus = CL_SUCCESS;
    P = A.clCreateProgramWithBinary(Ctx, 1, &Dev, &Size, &Ptr, &BinStatus, &E);
    if (!P)
      return Status(ErrorCode::NoBinaryForGpu,
                    "opencl: clCreateProgramWithBinary (SPIR) failed on " +
                        Props.Name + ": " + errorName(E));
    Options = "-x spir -spir-std=1.2";
  }
  if (cl_int R = A.clBuildProgram(P, 1, &Dev, Options, nullptr, nullptr)) {
    size_t N = 0;
    std::string Log;
    if (A.clGetProgramBuildInfo(P, Dev, CL_PROGRAM_BUILD_LOG, 0, nullptr,
                                &N) == CL_SUCCESS &&
        N > 1) {
      Log.resize(N);
      A.clGetProgramBuildInfo(P, Dev, CL_PROGRAM_BUILD_LOG, N, Log.data(),
                              nullptr);
      while (!Log.empty() && Log.back() == '\0')
        Log.pop_back();
    }
    A.clReleaseProgram(P);
    return Status(ErrorCode::NoBinaryForGpu,
                  "opencl: building the module as " + Path + " on " +
                      Props.Name + " failed: " + errorName(R) +
                      (Log.empty() ? "" : "; build log:\n" + Log));
  }
  auto Mod = std::make_unique<CLModule>(*this, P);
  Mod->Info.Kind = Info.Kind;
  Mod->Info.Kernels = Info.Kernels;
  Mod->Info.Globals = Info.Globals;

  // The module table (ABI/SPIRVKernel.h).
  cl_kernel InfoK = A.clCreateKernel(P, spirv_abi::InfoKernel, &E);
  if (!InfoK)
    return Status(ErrorCode::NoBinaryForGpu,
                  std::string("opencl: the module has no ") +
                      spirv_abi::InfoKernel +
                      " kernel (not produced by hetgpu's SPIR-V target?): " +
                      errorName(E));
  std::string Table;
  for (uint64_t Cap = 16384;;) {
    void *Buf = nullptr;
    if (Status S = allocate(Cap, Buf)) {
      A.clReleaseKernel(InfoK);
      return S;
    }
    cl_ulong CapArg = Cap;
    A.clSetKernelArgSVMPointer(InfoK, 0, Buf);
    A.clSetKernelArg(InfoK, 1, sizeof CapArg, &CapArg);
    Status S = runHelper(InfoK, spirv_abi::InfoKernel);
    uint64_t Len = 0;
    std::vector<char> Host(Cap);
    if (S.isOk()) {
      cl_command_queue Q;
      internalQueue(Q);
      S = clStatus(A.clEnqueueSVMMemcpy(Q, CL_TRUE, Host.data(), Buf, Cap, 0,
                                        nullptr, nullptr),
                   "reading the module table");
      std::memcpy(&Len, Host.data(), sizeof Len);
    }
    release(Buf);
    if (S) {
      A.clReleaseKernel(InfoK);
      return S;
    }
    if (Len + 8 <= Cap) {
      Table.assign(Host.data() + 8, Len);
      break;
    }
    Cap = Len + 8;
  }
  A.clReleaseKernel(InfoK);

  std::string Err;
  if (!spirv_abi::parseModuleTable(Table, Mod->Table, Err))
    return Status(ErrorCode::NoBinaryForGpu, "opencl: " + Err);
  if (Status S = allocate(Mod->Table.BlockBytes, Mod->Block))
    return S;
  {
    cl_command_queue Q;
    if (Status S = internalQueue(Q))
      return S;
    unsigned char Zero = 0;
    if (Status S = clStatus(A.clEnqueueSVMMemFill(Q, Mod->Block, &Zero, 1,
                                                  Mod->Table.BlockBytes, 0, nullptr,
                                                  nullptr),
                            "clearing the globals block"))
      return S;
  }
  if (!Mod->Table.Formats.empty()) {
    uint64_t Cap = 1 << 20;
    if (const char *Env = getenv("HETGPU_PRINTF_BUFFER_SIZE"))
      Cap = std::max<uint64_t>(strtoull(Env, nullptr, 0), 4096);
    if (Status S = allocate(Cap + spirv_abi::PrintfHeaderSize,
                            Mod->PrintfBuffer))
      return S;
    Mod->PrintfCapacity = Cap;
    uint64_t Header[2] = {0, Cap};
    if (Status S = copySVM(Mod->PrintfBuffer, Header, sizeof Header))
      return S;
    uint64_t Addr = reinterpret_cast<uintptr_t>(Mod->PrintfBuffer);
    cl_command_queue Q;
    if (Status S = internalQueue(Q))
      return S;
    if (Status S = clStatus(
            A.clEnqueueSVMMemcpy(Q, CL_TRUE,
                                 static_cast<char *>(Mod->Block) +
                                     spirv_abi::PrintfBufferOffset,
                                 &Addr, sizeof Addr, 0, nullptr, nullptr),
            "setting the printf buffer"))
      return S;
  }
  if (Mod->Table.UsesHeap) {
    uint64_t Size = 8 << 20;
    if (const char *Env = getenv("HETGPU_MALLOC_HEAP_SIZE"))
      Size = std::max<uint64_t>(strtoull(Env, nullptr, 0), 4096);
    if (Status S = allocate(Size, Mod->Heap))
      return S;
    uint64_t Words[2] = {reinterpret_cast<uintptr_t>(Mod->Heap), Size};
    cl_command_queue Q;
    if (Status S = internalQueue(Q))
      return S;
    if (Status S = clStatus(
            A.clEnqueueSVMMemcpy(Q, CL_TRUE,
                                 static_cast<char *>(Mod->Block) +
                                     spirv_abi::HeapBaseOffset,
                                 Words, sizeof Words, 0, nullptr, nullptr),
            "setting the device heap"))
      return S;
  }
  cl_kernel InitK = A.clCreateKernel(P, spirv_abi::InitKernel, &E);
  if (!InitK)
    return clStatus(E, std::string("clCreateKernel(") + spirv_abi::InitKernel +
                           ")");
  A.clSetKernelArgSVMPointer(InitK, 0, Mod->Block);
  Status S = runHelper(InitK, spirv_abi::InitKernel);
  A.clReleaseKernel(InitK);
  if (S)
    return S;
  {
    std::lock_guard<std::mutex> L(M);
    Modules.insert(Mod.get());
  }
  Out = std::move(Mod);
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// CLModule
//===----------------------------------------------------------------------===//

CLModule::~CLModule() {
  Dev.synchronize();
  {
    std::lock_guard<std::mutex> L(Dev.M);
    Dev.Modules.erase(this);
  }
  Kernels.clear();
  if (Block)
    Dev.release(Block);
  if (PrintfBuffer)
    Dev.release(PrintfBuffer);
  if (Heap)
    Dev.release(Heap);
  Dev.A.clReleaseProgram(Program);
}

Status CLModule::getKernel(const std::string &Name, Kernel *&Out) {
  std::lock_guard<std::mutex> L(M);
  auto It = Kernels.find(Name);
  if (It != Kernels.end()) {
    Out = It->second.get();
    return Status::ok();
  }
  auto U = Table.Unsupported.find(Name);
  if (U != Table.Unsupported.end())
    return Status(ErrorCode::NoBinaryForGpu, "opencl: kernel " + Name +
                                                 " cannot run on " +
                                                 Dev.Props.Name + ": " +
                                                 U->second);
  const container::KernelInfo *KI = Info.findKernel(Name);
  if (!KI)
    return Status(ErrorCode::InvalidValue,
                  "opencl: no kernel " + Name + " in the module");
  cl_int E = CL_SUCCESS;
  cl_kernel K = Dev.A.clCreateKernel(Program, Name.c_str(), &E);
  if (!K)
    return clStatus(E, "clCreateKernel(" + Name + ")");
  cl_uint NArgs = 0;
  Dev.A.clGetKernelInfo(K, CL_KERNEL_NUM_ARGS, sizeof NArgs, &NArgs, nullptr);
  auto WL = Table.WarpLoop.find(Name);
  bool WarpLoop = WL != Table.WarpLoop.end();
  unsigned Extra = spirv_abi::NumHiddenParams +
                   (WarpLoop ? spirv_abi::NumWarpLoopParams : 0);
  if (NArgs != KI->Params.size() + Extra) {
    Dev.A.clReleaseKernel(K);
    return Status(ErrorCode::NoBinaryForGpu,
                  "opencl: kernel " + Name + " takes " + std::to_string(NArgs) +
                      " arguments, the container lists " +
                      std::to_string(KI->Params.size()) + " (+" +
                      std::to_string(Extra) + " hidden)");
  }
  auto CK = std::make_unique<CLKernel>(Dev.A, K, *KI, Block, WarpLoop,
                                       WarpLoop ? WL->second.first : 0,
                                       WarpLoop ? WL->second.second : 0);
  Out = CK.get();
  Kernels[Name] = std::move(CK);
  return Status::ok();
}

Status CLModule::getGlobal(const std::string &Name, void *&Addr,
                           size_t &Size) {
  auto It = Table.Globals.find(Name);
  if (It == Table.Globals.end())
    return Status(ErrorCode::InvalidSymbol,
                  "opencl: no device variable " + Name + " in the module");
  Addr = static_cast<char *>(Block) + It->second.first;
  Size = It->second.second;
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Backend
//===----------------------------------------------------------------------===//

/// CPU OpenCL drivers that run a work-group's work-items in loops (PoCL)
/// keep one copy per work-item of every private variable live across a
/// barrier on the worker thread's stack: CUDA kernels with large private
/// arrays (a 32 KiB table per thread, 256 threads) overflow the default
/// 8 MiB. Threads created from now on (the driver's workers are created
/// after discovery starts) get HETGPU_OPENCL_THREAD_STACK_MB (default 256)
/// MiB of stack: address space, committed only when touched.
void enlargeThreadStacks() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    size_t MB = 256;
    if (const char *E = getenv("HETGPU_OPENCL_THREAD_STACK_MB"); E && *E)
      MB = strtoull(E, nullptr, 10);
    if (MB == 0)
      return;
    pthread_attr_t Attr;
    if (pthread_getattr_default_np(&Attr))
      return;
    size_t Cur = 0;
    pthread_attr_getstacksize(&Attr, &Cur);
    if (Cur < MB << 20 && !pthread_attr_setstacksize(&Attr, MB << 20))
      pthread_setattr_default_np(&Attr);
    pthread_attr_destroy(&Attr);
  });
}

class OpenCLBackend final : public Backend {
public:
  const char *name() const override { return "opencl"; }
  Status discover(std::vector<std::unique_ptr<Device>> &Out) override {
    std::string Err;
    enlargeThreadStacks();
    const API *A = loadAPI(Err);
    if (!A)
      return Status(ErrorCode::NotSupported, Err);
    cl_uint NP = 0;
    cl_int R = A->clGetPlatformIDs(0, nullptr, &NP);
    if (R == CL_PLATFORM_NOT_FOUND_KHR || (R == CL_SUCCESS && NP == 0))
      return Status(ErrorCode::NotSupported,
                    "no OpenCL platform is installed (ICD loader "
                    "found no vendor in /etc/OpenCL/vendors)");
    if (R)
      return clStatus(R, "clGetPlatformIDs");
    std::vector<cl_platform_id> Ps(NP);
    A->clGetPlatformIDs(NP, Ps.data(), nullptr);
    std::string Skipped;
    size_t Before = Out.size();
    for (cl_platform_id P : Ps) {
      cl_uint ND = 0;
      if (A->clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 0, nullptr, &ND) ||
          ND == 0)
        continue;
      std::vector<cl_device_id> Ds(ND);
      A->clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, ND, Ds.data(), nullptr);
      for (cl_device_id D : Ds) {
        std::string Name = deviceString(*A, D, CL_DEVICE_NAME);
        auto SVM = deviceValue<cl_device_svm_capabilities>(
            *A, D, CL_DEVICE_SVM_CAPABILITIES, 0);
        if (!(SVM & (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER |
                     CL_DEVICE_SVM_FINE_GRAIN_BUFFER))) {
          Skipped += " " + Name + ": no shared virtual memory;";
          continue;
        }
        std::string IL = deviceString(*A, D, CL_DEVICE_IL_VERSION);
        std::string Ext = deviceString(*A, D, CL_DEVICE_EXTENSIONS);
        bool HasIL = IL.find("SPIR-V") != std::string::npos &&
                     A->clCreateProgramWithIL;
        bool HasSPIR = Ext.find("cl_khr_spir") != std::string::npos;
        // HETGPU_OPENCL_PATH=spir|il forces one ingestion path.
        if (const char *F = getenv("HETGPU_OPENCL_PATH")) {
          if (std::string(F) == "spir")
            HasIL = false;
          else if (std::string(F) == "il")
            HasSPIR = false;
        }
        if (!HasIL && !HasSPIR) {
          Skipped += " " + Name + ": takes neither SPIR-V nor SPIR;";
          continue;
        }
        // A SPIR-only device cannot load a module without the Khronos
        // translator: not offered (a program that uses every device would
        // fail on it; seen with PoCL 5.0 on a machine without llvm-spirv).
        std::string NoTool;
        if (!HasIL && findSPIRVTranslator(NoTool).empty()) {
          Skipped += " " + Name + ": takes SPIR 1.2 only, and " + NoTool + ";";
          continue;
        }
        cl_context_properties CP[] = {
            0x1084 /*CL_CONTEXT_PLATFORM*/,
            reinterpret_cast<cl_context_properties>(P), 0};
        cl_int E = CL_SUCCESS;
        cl_context Ctx = A->clCreateContext(CP, 1, &D, nullptr, nullptr, &E);
        if (!Ctx) {
          Skipped += " " + Name + ": clCreateContext: " + errorName(E) + ";";
          continue;
        }
        auto Dev = std::make_unique<CLDevice>(
            *A, P, D, Ctx, (SVM & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0, HasIL);
        if (Status S = Dev->init()) {
          Skipped += " " + Name + ": " + S.Message + ";";
          continue;
        }
        Out.push_back(std::move(Dev));
      }
    }
    if (!Skipped.empty())
      log(LogLevel::Info, "opencl: devices skipped:" + Skipped);
    if (Out.size() == Before)
      return Status(ErrorCode::NotSupported,
                    "no usable OpenCL device" +
                        (Skipped.empty() ? std::string()
                                         : " (skipped:" + Skipped + ")"));
    return Status::ok();
  }
};

} // namespace

std::unique_ptr<Backend> createOpenCLBackend() {
  return std::make_unique<OpenCLBackend>();
}

} // namespace rt
} // namespace hetgpu
