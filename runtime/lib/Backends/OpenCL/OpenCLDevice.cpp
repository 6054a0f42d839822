//===- OpenCLDevice.cpp - OpenCL device properties and memory -------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A CLDevice: its properties, its memory (every allocation is SVM, or
/// memory of the process-wide arena when the process is migratable and the
/// device passes the probe), the internal queue that runs helper kernels and
/// copies, synchronisation and the device-side failure status.
///
//===----------------------------------------------------------------------===//

#include "Backends/OpenCL/OpenCLDevice.h"
#include "Core/Log.h"
#include "Core/UnifiedMemory.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::cl;

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
  Props.TotalMemory =
      deviceValue<cl_ulong>(A, Dev, CL_DEVICE_GLOBAL_MEM_SIZE, 0);
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
  uint64_t Local =
      deviceValue<cl_ulong>(A, Dev, CL_DEVICE_LOCAL_MEM_SIZE, 48 * 1024);
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
  std::lock_guard<std::mutex> L(InternalM);
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
      log(LogLevel::Info, "opencl: " + Props.Name +
                              ": device memory stays clSVMAlloc'ed (" +
                              S.Message +
                              "); this device cannot take part in live "
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
  void *H =
      dlopen(Lib && *Lib ? Lib : "libOpenCL.so.1", RTLD_NOW | RTLD_NOLOAD);
  auto Create =
      H ? reinterpret_cast<FromSource>(dlsym(H, "clCreateProgramWithSource"))
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
  cl_kernel K =
      S.isOk() ? A.clCreateKernel(P, "hetgpu_arena_probe", &E) : nullptr;
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
  }
  {
    std::lock_guard<std::mutex> L(InternalM);
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
  return clStatus(
      A.clEnqueueSVMMemcpy(Q, CL_TRUE, Dst, Src, Bytes, 0, nullptr, nullptr),
      "clEnqueueSVMMemcpy");
}

void CLDevice::drainPrintf() {
  std::vector<CLModule *> Mods;
  {
    std::lock_guard<std::mutex> L(M);
    Mods.assign(Modules.begin(), Modules.end());
  }
  for (CLModule *Mod : Mods)
    Mod->drainPrintf();
}

Status CLDevice::deviceFailure() {
  std::lock_guard<std::mutex> L(M);
  for (CLModule *Mod : Modules)
    if (Status S = Mod->failure())
      return S;
  return Status::ok();
}

Status CLDevice::allocate(size_t Bytes, void *&Ptr) {
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
    return Status(ErrorCode::OutOfMemory, "opencl: clSVMAlloc of " +
                                              std::to_string(Bytes) +
                                              " bytes failed on " + Props.Name);
  std::lock_guard<std::mutex> L(M);
  Allocations[Ptr] = Bytes;
  Used += Bytes;
  return Status::ok();
}

Status CLDevice::release(void *Ptr) {
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

Status CLDevice::allocateHost(size_t Bytes, void *&Ptr) {
  Ptr =
      aligned_alloc(4096, (std::max<size_t>(Bytes, 1) + 4095) & ~size_t(4095));
  return Ptr ? Status::ok()
             : Status(ErrorCode::OutOfMemory, "opencl: host allocation");
}

Status CLDevice::allocateManaged(size_t Bytes, void *&Ptr) {
  if (useArena()) {
    // Chunks of their own: managed memory stays host memory when the
    // context migrates to a GPU (Core/UnifiedMemory.h).
    uint64_t Addr = 0;
    if (Status S =
            Arena::get().allocate(Bytes, 4096, Arena::get().managedTag(), Addr))
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

Status CLDevice::reset() {
  std::lock_guard<std::mutex> L(M);
  for (CLModule *Mod : Modules)
    if (Status S = Mod->clearFailure())
      return S;
  return Status::ok();
}
