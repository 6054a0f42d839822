//===- FakeCuda.cpp - A stand-in libcuda for testing without a GPU --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// libhetgpu-fake-cuda.so exports the driver entry points the NVIDIA
/// backend resolves (CudaDriver.h) and pretends to be sm_90 GPUs behind a
/// CUDA 12.8 driver, so the backend's discovery, memory, module loading
/// and launch paths run on machines without a GPU (HETGPU_LIBCUDA=<this>).
/// Memory is host memory; kernels do not run. What the backend hands the
/// driver is logged to $FAKE_CUDA_LOG: each loaded PTX module in full, one
/// line per launch, copy, cuMemMap, peer-access change and cross-GPU
/// cuMemSetAccess, graph node and launch (cuGraph*, at the end). A module whose
/// PTX contains "FAKE_JIT_ERROR" fails to load with CUDA_ERROR_INVALID_PTX and
/// a JIT error log, as ptxas would.
///
/// $FAKE_CUDA_DEVICES=N (1..8, default 1) GPUs, "Fake NVIDIA GPU" then
/// "Fake NVIDIA GPU 1", ...; every pair can access each other's memory
/// unless $FAKE_CUDA_NO_P2P is set (cuDeviceCanAccessPeer says 0 and
/// cuCtxEnablePeerAccess fails with CUDA_ERROR_PEER_ACCESS_UNSUPPORTED).
/// Device D's UUID is GPU-d<D>010203-0405-0607-0809-0a0b0c0d0e0f.
/// $FAKE_CUDA_RESERVE_ELSEWHERE: cuMemAddressReserve never grants the
/// address asked for. Without it, it grants none once a module that calls
/// the device runtime (vprintf, malloc, free, __assertfail) is loaded, as
/// the H200's driver (580, CUDA 13) does for 32 MiB reservations;
/// $FAKE_CUDA_RESERVE_MAX_MB=N: none for more than N MiB.
/// CUDA_VISIBLE_DEVICES is not read here: hetGPU applies it itself and
/// hides it from the driver's cuInit.
///
//===----------------------------------------------------------------------===//

#include "Backends/NVIDIA/CudaDriver.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

using namespace hetgpu::rt::cu;

namespace {
void logLine(const std::string &Line) {
  const char *Path = std::getenv("FAKE_CUDA_LOG");
  if (!Path)
    return;
  if (FILE *F = std::fopen(Path, "a")) {
    std::fputs(Line.c_str(), F);
    std::fclose(F);
  }
}
int Dummy[8];
/// A module that calls the device runtime was loaded (cuMemAddressReserve).
bool DeviceRuntimeLoaded = false;

constexpr int MaxDevices = 8;
int numDevices() {
  const char *E = std::getenv("FAKE_CUDA_DEVICES");
  int N = E ? std::atoi(E) : 1;
  return N < 1 ? 1 : N > MaxDevices ? MaxDevices : N;
}
bool noP2P() { return std::getenv("FAKE_CUDA_NO_P2P") != nullptr; }
// One primary context per GPU; the thread's current one.
int Contexts[MaxDevices];
thread_local int Current = 0;
int ctxIndex(CUcontext C) {
  for (int I = 0; I < MaxDevices; ++I)
    if (reinterpret_cast<CUcontext>(&Contexts[I]) == C)
      return I;
  return -1;
}
std::mutex M;
bool PeerEnabled[MaxDevices][MaxDevices]; // [from][to]
std::map<int, int> HandleDevice;          // cuMemCreate handle -> GPU
std::map<int, size_t> HandleBytes;        // cuMemCreate handle -> size
std::map<uintptr_t, std::pair<size_t, int>> Mapped; // VA -> (bytes, GPU)
/// The GPU whose physical memory is mapped at \p P, or -1.
int ownerOf(uintptr_t P) {
  std::lock_guard<std::mutex> L(M);
  auto It = Mapped.upper_bound(P);
  if (It == Mapped.begin())
    return -1;
  --It;
  return P < It->first + It->second.first ? It->second.second : -1;
}
} // namespace

#define API extern "C" __attribute__((visibility("default"))) CUresult

API cuInit(unsigned) { return CUDA_SUCCESS; }
API cuDriverGetVersion(int *V) { *V = 12080; return CUDA_SUCCESS; }
API cuGetErrorName(CUresult E, const char **S) {
  *S = E == CUDA_ERROR_INVALID_PTX     ? "CUDA_ERROR_INVALID_PTX"
       : E == CUDA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE"
       : E == CUDA_ERROR_NOT_SUPPORTED ? "CUDA_ERROR_NOT_SUPPORTED"
                                       : "CUDA_ERROR_FAKE";
  return CUDA_SUCCESS;
}
API cuGetErrorString(CUresult, const char **S) { *S = "fake driver error"; return CUDA_SUCCESS; }
API cuDeviceGetCount(int *C) { *C = numDevices(); return CUDA_SUCCESS; }
API cuDeviceGet(CUdevice *D, int Ordinal) {
  if (Ordinal < 0 || Ordinal >= numDevices())
    return CUDA_ERROR_INVALID_DEVICE;
  *D = Ordinal;
  return CUDA_SUCCESS;
}
/// Device D's UUID: bytes 0xd0+D, 0x01, ..., 0x0f (GPU-d<D>010203-...).
API cuDeviceGetUuid(CUuuid *U, CUdevice D) {
  if (D < 0 || D >= numDevices())
    return CUDA_ERROR_INVALID_DEVICE;
  for (int I = 0; I < 16; ++I)
    U->Bytes[I] = static_cast<unsigned char>(I);
  U->Bytes[0] = static_cast<unsigned char>(0xd0 + D);
  return CUDA_SUCCESS;
}
API cuDeviceGetName(char *N, int L, CUdevice D) {
  if (D == 0)
    std::snprintf(N, L, "Fake NVIDIA GPU");
  else
    std::snprintf(N, L, "Fake NVIDIA GPU %d", D);
  return CUDA_SUCCESS;
}
API cuDeviceGetAttribute(int *V, CUdevice_attribute A, CUdevice) {
  switch (A) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *V = 9; break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *V = 0; break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *V = 132; break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *V = 232448; break;
  case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: *V = 1; break;
  default: return CUDA_ERROR_INVALID_VALUE; // the backend keeps its default
  }
  return CUDA_SUCCESS;
}
API cuDeviceTotalMem_v2(size_t *B, CUdevice) { *B = size_t(80) << 30; return CUDA_SUCCESS; }
API cuDevicePrimaryCtxRetain(CUcontext *C, CUdevice D) {
  if (D < 0 || D >= numDevices())
    return CUDA_ERROR_INVALID_DEVICE;
  *C = reinterpret_cast<CUcontext>(&Contexts[D]);
  return CUDA_SUCCESS;
}
API cuDevicePrimaryCtxRelease_v2(CUdevice) { return CUDA_SUCCESS; }
API cuDevicePrimaryCtxReset_v2(CUdevice D) {
  logLine("reset gpu " + std::to_string(D) + "\n");
  return CUDA_SUCCESS;
}
API cuCtxSetCurrent(CUcontext C) {
  int I = ctxIndex(C);
  if (I < 0)
    return CUDA_ERROR_INVALID_HANDLE;
  Current = I;
  return CUDA_SUCCESS;
}
API cuCtxSynchronize() { return CUDA_SUCCESS; }
API cuMemAlloc_v2(CUdeviceptr *P, size_t B) {
  *P = reinterpret_cast<uintptr_t>(std::calloc(1, B));
  return *P ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
API cuMemFree_v2(CUdeviceptr P) { std::free(reinterpret_cast<void *>(P)); return CUDA_SUCCESS; }
API cuMemAllocManaged(CUdeviceptr *P, size_t B, unsigned) { return cuMemAlloc_v2(P, B); }
API cuMemHostAlloc(void **P, size_t B, unsigned) {
  *P = std::calloc(1, B);
  return CUDA_SUCCESS;
}
API cuMemFreeHost(void *P) { std::free(P); return CUDA_SUCCESS; }
API cuMemGetInfo_v2(size_t *F, size_t *T) {
  *T = size_t(80) << 30;
  *F = *T / 2;
  return CUDA_SUCCESS;
}
API cuMemcpyHtoDAsync_v2(CUdeviceptr D, const void *S, size_t B, CUstream) {
  std::memcpy(reinterpret_cast<void *>(D), S, B);
  logLine("memcpy-htod gpu " + std::to_string(Current) + " " +
          std::to_string(B) + " bytes\n");
  return CUDA_SUCCESS;
}
API cuMemcpyDtoHAsync_v2(void *D, CUdeviceptr S, size_t B, CUstream) {
  std::memcpy(D, reinterpret_cast<void *>(S), B);
  logLine("memcpy-dtoh gpu " + std::to_string(Current) + " " +
          std::to_string(B) + " bytes\n");
  return CUDA_SUCCESS;
}
API cuMemcpyDtoDAsync_v2(CUdeviceptr D, CUdeviceptr S, size_t B, CUstream) {
  // GPU memory mapped with cuMemMap names its GPU (VMM); other memory is
  // "?" (cuMemAlloc: the fake does not track it).
  auto Name = [](int G) { return G < 0 ? std::string("?") : std::to_string(G); };
  int From = ownerOf(S), To = ownerOf(D);
  std::memmove(reinterpret_cast<void *>(D), reinterpret_cast<void *>(S), B);
  logLine("memcpy-dtod on gpu " + std::to_string(Current) + " " +
          std::to_string(B) + " bytes, memory of gpu " + Name(From) +
          " -> gpu " + Name(To) + "\n");
  return CUDA_SUCCESS;
}
API cuMemsetD8Async(CUdeviceptr D, unsigned char V, size_t N, CUstream) {
  std::memset(reinterpret_cast<void *>(D), V, N);
  return CUDA_SUCCESS;
}
/// Whether \p PTX declares a function of the CUDA device runtime.
static bool callsDeviceRuntime(const char *PTX) {
  for (const char *L = std::strstr(PTX, ".extern .func"); L;
       L = std::strstr(L + 1, ".extern .func")) {
    const char *E = std::strchr(L, '\n');
    std::string Line(L, E ? E - L : std::strlen(L));
    for (const char *F : {"vprintf", "malloc", "free", "__assertfail"}) {
      size_t At = Line.find(F), N = std::strlen(F);
      if (At != std::string::npos && Line[At - 1] == ' ' &&
          (At + N == Line.size() || Line[At + N] == '(' || Line[At + N] == ' '))
        return true;
    }
  }
  return false;
}

API cuModuleLoadDataEx(CUmodule *M, const void *Image, unsigned N,
                       CUjit_option *Opts, void **Vals) {
  const char *PTX = static_cast<const char *>(Image);
  logLine(std::string("module-load ") + PTX + "\n");
  if (callsDeviceRuntime(PTX))
    DeviceRuntimeLoaded = true;
  if (std::strstr(PTX, "FAKE_JIT_ERROR")) {
    for (unsigned I = 0; I < N; ++I)
      if (Opts[I] == CU_JIT_ERROR_LOG_BUFFER)
        std::snprintf(static_cast<char *>(Vals[I]), 64,
                      "ptxas fatal: fake error at FAKE_JIT_ERROR");
    return CUDA_ERROR_INVALID_PTX;
  }
  for (unsigned I = 0; I < N; ++I)
    if (Opts[I] == CU_JIT_WALL_TIME) {
      float Ms = 1.5f;
      std::memcpy(&Vals[I], &Ms, sizeof(float));
    }
  *M = reinterpret_cast<CUmodule>(new std::string(PTX));
  return CUDA_SUCCESS;
}
API cuModuleUnload(CUmodule M) {
  delete reinterpret_cast<std::string *>(M);
  return CUDA_SUCCESS;
}
API cuModuleGetFunction(CUfunction *F, CUmodule M, const char *Name) {
  const std::string &PTX = *reinterpret_cast<std::string *>(M);
  if (PTX.find(std::string(".entry ") + Name + "(") == std::string::npos)
    return CUDA_ERROR_NOT_FOUND;
  *F = reinterpret_cast<CUfunction>(strdup(Name));
  return CUDA_SUCCESS;
}
API cuModuleGetGlobal_v2(CUdeviceptr *P, size_t *B, CUmodule, const char *) {
  static char Storage[4096];
  *P = reinterpret_cast<uintptr_t>(Storage);
  *B = sizeof(Storage);
  return CUDA_SUCCESS;
}
API cuFuncSetAttribute(CUfunction, CUfunction_attribute, int) { return CUDA_SUCCESS; }
API cuFuncGetAttribute(int *V, CUfunction_attribute, CUfunction) { *V = 0; return CUDA_SUCCESS; }
API cuLaunchKernel(CUfunction F, unsigned GX, unsigned GY, unsigned GZ, unsigned BX,
                   unsigned BY, unsigned BZ, unsigned Shared, CUstream, void **Params,
                   void **) {
  char Buf[256];
  std::snprintf(Buf, sizeof(Buf), "launch %s grid %u %u %u block %u %u %u shared %u\n",
                reinterpret_cast<const char *>(F), GX, GY, GZ, BX, BY, BZ, Shared);
  logLine(Buf);
  (void)Params;
  return CUDA_SUCCESS;
}
API cuLaunchHostFunc(CUstream, CUhostFn Fn, void *U) { Fn(U); return CUDA_SUCCESS; }
API cuStreamCreate(CUstream *S, unsigned) {
  *S = reinterpret_cast<CUstream>(&Dummy[1]);
  return CUDA_SUCCESS;
}
API cuStreamDestroy_v2(CUstream) { return CUDA_SUCCESS; }
API cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }
API cuStreamQuery(CUstream) { return CUDA_SUCCESS; }
API cuStreamWaitEvent(CUstream, CUevent, unsigned) { return CUDA_SUCCESS; }
API cuEventCreate(CUevent *E, unsigned) {
  *E = reinterpret_cast<CUevent>(&Dummy[2]);
  return CUDA_SUCCESS;
}
API cuEventDestroy_v2(CUevent) { return CUDA_SUCCESS; }
API cuEventRecord(CUevent, CUstream) { return CUDA_SUCCESS; }
API cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }
API cuEventQuery(CUevent) { return CUDA_SUCCESS; }
API cuEventElapsedTime(float *Ms, CUevent, CUevent) { *Ms = 0.25f; return CUDA_SUCCESS; }

// The virtual-memory API (the NVIDIA backend's unified addresses, live
// migration). Like driver 580 on an H200 (bench/migration/vmm-probe.cpp),
// a fixed address is honoured only for reservations of 32 MiB and more.
// Physical memory is a memfd per handle, mapped where cuMemMap says, so
// the host can read what the backend copied.
#include <sys/mman.h>
#include <unistd.h>
struct FakeLocation {
  int Type, Id;
};
struct FakeAccess { // CUmemAccessDesc
  FakeLocation Location;
  int Flags;
};
struct FakeProp { // CUmemAllocationProp (the leading fields)
  int Type, HandleTypes;
  FakeLocation Location;
};
API cuMemGetAllocationGranularity(size_t *G, const void *, int) {
  *G = size_t(2) << 20;
  return CUDA_SUCCESS;
}
API cuMemAddressReserve(CUdeviceptr *P, size_t Size, size_t, CUdeviceptr Addr,
                        unsigned long long) {
  // $FAKE_CUDA_RESERVE_ELSEWHERE: the fixed address is never granted;
  // nor is it after a module that calls the device runtime was loaded.
  // $FAKE_CUDA_RESERVE_MAX_MB: nor is it for a larger reservation.
  const char *Max = std::getenv("FAKE_CUDA_RESERVE_MAX_MB");
  bool TooLarge = Max && *Max && (Size >> 20) > std::strtoull(Max, nullptr, 0);
  void *Want = Size >= (size_t(32) << 20) && !DeviceRuntimeLoaded &&
                       !TooLarge && !std::getenv("FAKE_CUDA_RESERVE_ELSEWHERE")
                   ? reinterpret_cast<void *>(Addr)
                   : nullptr;
  void *R = mmap(Want, Size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
                                            (Want ? MAP_FIXED_NOREPLACE : 0),
                 -1, 0);
  if (R == MAP_FAILED && Want)
    R = mmap(nullptr, Size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (R == MAP_FAILED)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *P = reinterpret_cast<uintptr_t>(R);
  logLine("vmm-reserve " + std::to_string(Size >> 20) + " MiB " +
          (R == Want ? "at the asked address\n" : "elsewhere\n"));
  return CUDA_SUCCESS;
}
API cuMemAddressFree(CUdeviceptr P, size_t Size) {
  munmap(reinterpret_cast<void *>(P), Size);
  return CUDA_SUCCESS;
}
API cuMemCreate(unsigned long long *H, size_t Size, const void *Prop,
                unsigned long long) {
  int Dev = static_cast<const FakeProp *>(Prop)->Location.Id;
  if (Dev < 0 || Dev >= numDevices())
    return CUDA_ERROR_INVALID_DEVICE;
  int Fd = memfd_create("fake-cuda-vmm", MFD_CLOEXEC);
  if (Fd < 0 || ftruncate(Fd, off_t(Size)) != 0)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *H = static_cast<unsigned long long>(Fd);
  std::lock_guard<std::mutex> L(M);
  HandleDevice[Fd] = Dev;
  HandleBytes[Fd] = Size;
  return CUDA_SUCCESS;
}
API cuMemRelease(unsigned long long H) {
  close(int(H));
  std::lock_guard<std::mutex> L(M);
  HandleDevice.erase(int(H));
  HandleBytes.erase(int(H));
  return CUDA_SUCCESS;
}
/// Whether mappings cover [P, P + Size) without a gap, the first starting
/// at P and the last ending at P + Size (what cuMemUnmap and cuMemSetAccess
/// take). Call with M held.
static bool wholeMappings(uintptr_t P, size_t Size) {
  uintptr_t At = P;
  for (auto It = Mapped.find(P); It != Mapped.end() && At < P + Size; ++It) {
    if (It->first != At)
      return false;
    At += It->second.first;
  }
  return At == P + Size;
}
API cuMemMap(CUdeviceptr P, size_t Size, size_t Off, unsigned long long H,
             unsigned long long) {
  int Dev;
  {
    // A mapped range must be unmapped first, as in the real driver; the
    // H200's driver (580) maps a handle only from its start
    // (bench/multigpu/vmm-cost.cpp: CUDA_ERROR_NOT_SUPPORTED).
    std::lock_guard<std::mutex> L(M);
    auto It = Mapped.lower_bound(P);
    if (It != Mapped.end() && It->first < P + Size)
      return CUDA_ERROR_INVALID_VALUE;
    if (Off)
      return CUDA_ERROR_NOT_SUPPORTED;
    auto B = HandleBytes.find(int(H));
    if (B == HandleBytes.end() || Size > B->second)
      return CUDA_ERROR_INVALID_VALUE;
    Dev = HandleDevice[int(H)];
  }
  void *R = mmap(reinterpret_cast<void *>(P), Size, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_FIXED, int(H), off_t(Off));
  if (R == MAP_FAILED)
    return CUDA_ERROR_INVALID_VALUE;
  logLine("vmm-map " + std::to_string(Size >> 20) + " MiB of gpu " +
          std::to_string(Dev) + "\n");
  std::lock_guard<std::mutex> L(M);
  Mapped[P] = {Size, Dev};
  return CUDA_SUCCESS;
}
API cuMemUnmap(CUdeviceptr P, size_t Size) {
  std::lock_guard<std::mutex> L(M);
  if (!wholeMappings(P, Size))
    return CUDA_ERROR_INVALID_VALUE;
  void *R = mmap(reinterpret_cast<void *>(P), Size, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
  Mapped.erase(Mapped.find(P), Mapped.lower_bound(P + Size));
  return R == MAP_FAILED ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

// Peers.
API cuDeviceCanAccessPeer(int *Can, CUdevice D, CUdevice Peer) {
  if (D < 0 || D >= numDevices() || Peer < 0 || Peer >= numDevices())
    return CUDA_ERROR_INVALID_DEVICE;
  *Can = D != Peer && !noP2P();
  return CUDA_SUCCESS;
}
API cuCtxEnablePeerAccess(CUcontext PeerCtx, unsigned Flags) {
  int Peer = ctxIndex(PeerCtx);
  if (Flags || Peer < 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (Peer == Current)
    return CUDA_ERROR_INVALID_DEVICE;
  if (noP2P())
    return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
  std::lock_guard<std::mutex> L(M);
  if (PeerEnabled[Current][Peer])
    return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
  PeerEnabled[Current][Peer] = true;
  logLine("peer-enable gpu " + std::to_string(Current) + " -> gpu " +
          std::to_string(Peer) + "\n");
  return CUDA_SUCCESS;
}
API cuCtxDisablePeerAccess(CUcontext PeerCtx) {
  int Peer = ctxIndex(PeerCtx);
  if (Peer < 0)
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> L(M);
  if (!PeerEnabled[Current][Peer])
    return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
  PeerEnabled[Current][Peer] = false;
  logLine("peer-disable gpu " + std::to_string(Current) + " -> gpu " +
          std::to_string(Peer) + "\n");
  return CUDA_SUCCESS;
}
API cuMemcpyPeerAsync(CUdeviceptr D, CUcontext DCtx, CUdeviceptr S,
                      CUcontext SCtx, size_t B, CUstream) {
  int To = ctxIndex(DCtx), From = ctxIndex(SCtx);
  if (To < 0 || From < 0)
    return CUDA_ERROR_INVALID_VALUE;
  std::memmove(reinterpret_cast<void *>(D), reinterpret_cast<void *>(S), B);
  logLine("memcpy-peer on gpu " + std::to_string(Current) + " gpu " +
          std::to_string(From) + " -> gpu " + std::to_string(To) + " " +
          std::to_string(B) + " bytes\n");
  return CUDA_SUCCESS;
}
API cuMemSetAccess(CUdeviceptr P, size_t Size, const void *Desc, size_t Count) {
  {
    std::lock_guard<std::mutex> L(M);
    if (!wholeMappings(P, Size))
      return CUDA_ERROR_INVALID_VALUE;
  }
  int Owner = ownerOf(P);
  const auto *A = static_cast<const FakeAccess *>(Desc);
  for (size_t I = 0; I < Count; ++I) {
    if (A[I].Location.Type != 1 || A[I].Location.Id < 0 ||
        A[I].Location.Id >= numDevices() || (A[I].Flags != 0 && A[I].Flags != 3))
      return CUDA_ERROR_INVALID_VALUE;
    if (A[I].Location.Id != Owner && Owner >= 0 && noP2P())
      return CUDA_ERROR_INVALID_DEVICE;
    // Access of a GPU to another GPU's memory (peer access, moves).
    if (A[I].Location.Id != Owner)
      logLine("vmm-access gpu " + std::to_string(A[I].Location.Id) +
              (A[I].Flags ? " rw" : " none") + " on memory of gpu " +
              std::to_string(Owner) + ", " + std::to_string(Size >> 20) +
              " MiB\n");
  }
  return CUDA_SUCCESS;
}
API cuMemHostRegister_v2(void *, size_t, unsigned) { return CUDA_SUCCESS; }
API cuMemHostUnregister(void *) { return CUDA_SUCCESS; }
API cuMemHostGetDevicePointer_v2(CUdeviceptr *D, void *P, unsigned) {
  *D = reinterpret_cast<uintptr_t>(P);
  return CUDA_SUCCESS;
}

#ifndef FAKE_CUDA_WITHOUT_GRAPHS
// Graphs (cuGraph*). A graph is a list of nodes, each naming the nodes it
// depends on; cuGraphInstantiateWithFlags copies it, and cuGraphLaunch runs
// the copy's nodes in dependency order (Kahn's algorithm, ties in creation
// order) at once: copies and fills are done, host functions called, kernel
// nodes only logged (kernels do not run here). $FAKE_CUDA_NO_GRAPHS makes
// cuGraphCreate fail with CUDA_ERROR_NOT_SUPPORTED (a driver that cannot);
// built with FAKE_CUDA_WITHOUT_GRAPHS (libhetgpu-fake-cuda-nographs.so) the
// library has no cuGraph* at all, as a driver older than CUDA 11.4.
#include <memory>
#include <vector>
namespace {
enum class FakeKind { Kernel, Copy, Fill, Host, Record, Wait, Empty };
struct FakeNode {
  FakeKind Kind;
  std::vector<size_t> Deps; // indices in the graph
  CuKernelNodeParams K;
  CuMemcpy3D C;
  CuMemsetNodeParams S;
  CuHostNodeParams H;
};
struct FakeGraph {
  std::vector<FakeNode> Nodes;
};
/// A node handle: its graph and index (never freed: handles are few).
struct FakeNodeRef {
  FakeGraph *G;
  size_t I;
};
struct FakeExec {
  FakeGraph Copy;
  const FakeGraph *From;
};
std::string kernelLine(const char *What, const CuKernelNodeParams &K) {
  char Buf[256];
  std::snprintf(Buf, sizeof(Buf),
                "%s %s grid %u %u %u block %u %u %u shared %u\n", What,
                reinterpret_cast<const char *>(K.Func), K.GridX, K.GridY,
                K.GridZ, K.BlockX, K.BlockY, K.BlockZ, K.Shared);
  return Buf;
}
CUresult addNode(CUgraphNode *Out, CUgraph G, const CUgraphNode *Deps, size_t N,
                 FakeNode Node) {
  auto *Gr = reinterpret_cast<FakeGraph *>(G);
  if (!Out || !Gr || (N && !Deps))
    return CUDA_ERROR_INVALID_VALUE;
  for (size_t I = 0; I < N; ++I) {
    auto *R = reinterpret_cast<FakeNodeRef *>(Deps[I]);
    if (!R || R->G != Gr)
      return CUDA_ERROR_INVALID_VALUE;
    for (size_t J = 0; J < I; ++J)
      if (Deps[J] == Deps[I])
        return CUDA_ERROR_INVALID_VALUE; // as the driver: no duplicates
    Node.Deps.push_back(R->I);
  }
  Gr->Nodes.push_back(std::move(Node));
  *Out =
      reinterpret_cast<CUgraphNode>(new FakeNodeRef{Gr, Gr->Nodes.size() - 1});
  return CUDA_SUCCESS;
}
void runNode(const FakeNode &N) {
  switch (N.Kind) {
  case FakeKind::Kernel:
    logLine(kernelLine("graph-kernel", N.K));
    break;
  case FakeKind::Copy: {
    const CuMemcpy3D &C = N.C;
    for (size_t R = 0; R < C.Height; ++R) {
      const char *Src = C.SrcMemoryType == CU_MEMORYTYPE_HOST
                            ? static_cast<const char *>(C.SrcHost)
                            : reinterpret_cast<const char *>(C.SrcDevice);
      char *Dst = C.DstMemoryType == CU_MEMORYTYPE_HOST
                      ? static_cast<char *>(C.DstHost)
                      : reinterpret_cast<char *>(C.DstDevice);
      std::memmove(Dst + R * C.DstPitch, Src + R * C.SrcPitch, C.WidthInBytes);
    }
    logLine(std::string("graph-memcpy ") +
            (C.SrcMemoryType == CU_MEMORYTYPE_HOST ? "host" : "device") +
            " -> " +
            (C.DstMemoryType == CU_MEMORYTYPE_HOST ? "host" : "device") + " " +
            std::to_string(C.WidthInBytes) + " x " + std::to_string(C.Height) +
            " bytes\n");
    break;
  }
  case FakeKind::Fill: {
    const CuMemsetNodeParams &S = N.S;
    for (size_t R = 0; R < S.Height; ++R)
      for (size_t I = 0; I < S.Width; ++I)
        std::memcpy(reinterpret_cast<char *>(S.Dst) + R * S.Pitch +
                        I * S.ElementSize,
                    &S.Value, S.ElementSize);
    logLine("graph-memset " + std::to_string(S.Width) + " x " +
            std::to_string(S.Height) + " elements of " +
            std::to_string(S.ElementSize) + " bytes\n");
    break;
  }
  case FakeKind::Host:
    logLine("graph-host\n");
    N.H.Fn(N.H.UserData);
    break;
  case FakeKind::Record:
    logLine("graph-event-record\n");
    break;
  case FakeKind::Wait:
    logLine("graph-event-wait\n");
    break;
  case FakeKind::Empty:
    break;
  }
}
} // namespace

API cuGraphCreate(CUgraph *G, unsigned) {
  if (std::getenv("FAKE_CUDA_NO_GRAPHS"))
    return CUDA_ERROR_NOT_SUPPORTED;
  *G = reinterpret_cast<CUgraph>(new FakeGraph());
  return CUDA_SUCCESS;
}
API cuGraphDestroy(CUgraph G) {
  delete reinterpret_cast<FakeGraph *>(G);
  return CUDA_SUCCESS;
}
API cuGraphAddKernelNode_v2(CUgraphNode *Out, CUgraph G, const CUgraphNode *D,
                            size_t N, const CuKernelNodeParams *P) {
  if (!P || !P->Func || !P->GridX || !P->BlockX)
    return CUDA_ERROR_INVALID_VALUE;
  FakeNode Node{FakeKind::Kernel, {}, *P, {}, {}, {}};
  logLine(kernelLine("graph-add-kernel", *P));
  return addNode(Out, G, D, N, Node);
}
API cuGraphAddMemcpyNode(CUgraphNode *Out, CUgraph G, const CUgraphNode *D,
                         size_t N, const CuMemcpy3D *P, CUcontext) {
  if (!P || P->Depth != 1)
    return CUDA_ERROR_INVALID_VALUE;
  return addNode(Out, G, D, N, FakeNode{FakeKind::Copy, {}, {}, *P, {}, {}});
}
API cuGraphAddMemsetNode(CUgraphNode *Out, CUgraph G, const CUgraphNode *D,
                         size_t N, const CuMemsetNodeParams *P, CUcontext) {
  if (!P || (P->ElementSize != 1 && P->ElementSize != 2 && P->ElementSize != 4))
    return CUDA_ERROR_INVALID_VALUE;
  return addNode(Out, G, D, N, FakeNode{FakeKind::Fill, {}, {}, {}, *P, {}});
}
API cuGraphAddHostNode(CUgraphNode *Out, CUgraph G, const CUgraphNode *D,
                       size_t N, const CuHostNodeParams *P) {
  if (!P || !P->Fn)
    return CUDA_ERROR_INVALID_VALUE;
  return addNode(Out, G, D, N, FakeNode{FakeKind::Host, {}, {}, {}, {}, *P});
}
API cuGraphAddEmptyNode(CUgraphNode *Out, CUgraph G, const CUgraphNode *D,
                        size_t N) {
  return addNode(Out, G, D, N, FakeNode{FakeKind::Empty, {}, {}, {}, {}, {}});
}
API cuGraphAddEventRecordNode(CUgraphNode *Out, CUgraph G, const CUgraphNode *D,
                              size_t N, CUevent) {
  return addNode(Out, G, D, N, FakeNode{FakeKind::Record, {}, {}, {}, {}, {}});
}
API cuGraphAddEventWaitNode(CUgraphNode *Out, CUgraph G, const CUgraphNode *D,
                            size_t N, CUevent) {
  return addNode(Out, G, D, N, FakeNode{FakeKind::Wait, {}, {}, {}, {}, {}});
}
API cuGraphInstantiateWithFlags(CUgraphExec *E, CUgraph G, unsigned long long) {
  auto *Gr = reinterpret_cast<FakeGraph *>(G);
  if (!E || !Gr)
    return CUDA_ERROR_INVALID_VALUE;
  *E = reinterpret_cast<CUgraphExec>(new FakeExec{*Gr, Gr});
  logLine("graph-instantiate " + std::to_string(Gr->Nodes.size()) + " nodes\n");
  return CUDA_SUCCESS;
}
API cuGraphExecDestroy(CUgraphExec E) {
  delete reinterpret_cast<FakeExec *>(E);
  return CUDA_SUCCESS;
}
API cuGraphLaunch(CUgraphExec E, CUstream) {
  auto *X = reinterpret_cast<FakeExec *>(E);
  if (!X)
    return CUDA_ERROR_INVALID_VALUE;
  const std::vector<FakeNode> &Ns = X->Copy.Nodes;
  logLine("graph-launch " + std::to_string(Ns.size()) + " nodes\n");
  std::vector<size_t> Waiting(Ns.size());
  std::vector<std::vector<size_t>> Next(Ns.size());
  for (size_t I = 0; I < Ns.size(); ++I) {
    Waiting[I] = Ns[I].Deps.size();
    for (size_t D : Ns[I].Deps)
      Next[D].push_back(I);
  }
  std::vector<bool> Done(Ns.size());
  for (size_t Ran = 0; Ran < Ns.size(); ++Ran) {
    size_t I = 0;
    while (I < Ns.size() && (Done[I] || Waiting[I]))
      ++I;
    if (I == Ns.size())
      return CUDA_ERROR_INVALID_VALUE; // a cycle (cannot be built here)
    runNode(Ns[I]);
    Done[I] = true;
    for (size_t J : Next[I])
      --Waiting[J];
  }
  return CUDA_SUCCESS;
}
API cuGraphExecKernelNodeSetParams_v2(CUgraphExec E, CUgraphNode N,
                                      const CuKernelNodeParams *P) {
  auto *X = reinterpret_cast<FakeExec *>(E);
  auto *R = reinterpret_cast<FakeNodeRef *>(N);
  if (!X || !R || !P || R->G != X->From || R->I >= X->Copy.Nodes.size() ||
      X->Copy.Nodes[R->I].Kind != FakeKind::Kernel)
    return CUDA_ERROR_INVALID_VALUE;
  X->Copy.Nodes[R->I].K = *P;
  logLine(kernelLine("graph-exec-set-kernel", *P));
  return CUDA_SUCCESS;
}
#endif // FAKE_CUDA_WITHOUT_GRAPHS
