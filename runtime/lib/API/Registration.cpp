//===- Registration.cpp - Entry points of clang's host-side CUDA code -----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// __cudaRegisterFatBinary and friends. Every translation unit with device
/// code registers its container (`.nv_fatbin`, a hetGPU container) from a
/// global constructor, then its kernels (host stub -> mangled name) and
/// variables (host shadow -> device name). A malformed container is reported
/// once on stderr; launches of its kernels fail with
/// cudaErrorInvalidKernelImage instead of crashing.
///
//===----------------------------------------------------------------------===//

#include "Core/Log.h"
#include "Core/Prefetch.h"
#include "Core/Runtime.h"
#include "cuda_runtime_api.h"

#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;

#define HETGPU_API extern "C" __attribute__((visibility("default")))

namespace {
/// The wrapper clang emits in `.nvFatBinSegment`.
struct FatbinWrapper {
  int Magic;
  int Version;
  const void *Data;
  void *Reserved;
};
constexpr int FatbinWrapperMagic = 0x466243b1;

/// Per-thread launch configurations pushed by `<<<...>>>`.
struct CallConfig {
  dim3 Grid, Block;
  size_t Shared;
  void *Stream;
};
thread_local std::vector<CallConfig> ConfigStack;

BinaryRecord *asBinary(void **Handle) {
  auto *B = reinterpret_cast<BinaryRecord *>(Handle);
  if (!B || B->Magic != BinaryRecord::MagicValue)
    return nullptr;
  return B;
}

/// Relocatable hetIR reaches the runtime only through the device link
/// (docs/SeparateCompilation.md); a container that still holds it is refused.
bool hasRelocatableModule(const container::Container &C) {
  for (const container::ModuleInfo &M : C.Modules)
    if (M.Kind == container::ModuleKind::RelocatableHetIR)
      return true;
  return false;
}

/// Finds the module of \p B holding kernel/global \p Name.
int findModule(const BinaryRecord &B, const std::string &Name, bool Kernel) {
  for (size_t I = 0; I < B.C.Modules.size(); ++I) {
    const container::ModuleInfo &M = B.C.Modules[I];
    if (Kernel && M.findKernel(Name))
      return static_cast<int>(I);
    if (!Kernel)
      for (const container::GlobalInfo &G : M.Globals)
        if (G.Name == Name)
          return static_cast<int>(I);
  }
  return -1;
}
} // namespace

HETGPU_API void **__cudaRegisterFatBinary(void *FatCubin) {
  Runtime &R = Runtime::get();
  auto Rec = std::make_unique<BinaryRecord>();
  const auto *W = static_cast<const FatbinWrapper *>(FatCubin);
  if (!W) {
    Rec->Error = "null fat binary wrapper";
  } else if (W->Magic != FatbinWrapperMagic) {
    char Buf[64];
    snprintf(Buf, sizeof(Buf), "bad fat binary wrapper magic 0x%08x",
             static_cast<unsigned>(W->Magic));
    Rec->Error = Buf;
  } else if (!W->Data) {
    Rec->Error = "fat binary wrapper has no data";
  } else {
    uint64_t Size = container::peekTotalSize(W->Data);
    if (!Size) {
      Rec->Error = "the device code is not a hetGPU container (bad magic; "
                   "was this object compiled with hetgpu-cc?)";
    } else {
      std::string Err;
      if (!container::read(W->Data, Size, Rec->C, Err))
        Rec->Error = Err;
      else if (hasRelocatableModule(Rec->C))
        Rec->Error = "the container holds relocatable hetIR (compiled with "
                     "-dc / -rdc=true) that was never device-linked; link "
                     "the objects with hetgpu-cc or run hetgpu-cc -dlink";
      else
        Rec->Valid = true;
    }
  }
  if (!Rec->Valid)
    log(LogLevel::Error, "rejected device code container: " + Rec->Error);
  std::lock_guard<std::mutex> Lock(R.RegM);
  R.Binaries.push_back(std::move(Rec));
  return reinterpret_cast<void **>(R.Binaries.back().get());
}

/// A container registered after device discovery (a shared library the
/// program opened) is translated ahead of its launches too.
HETGPU_API void __cudaRegisterFatBinaryEnd(void **Handle) {
  if (BinaryRecord *B = asBinary(Handle))
    prefetchBinary(*B);
}

HETGPU_API void __cudaUnregisterFatBinary(void **Handle) {
  // Modules stay loaded: other atexit handlers and backend threads may
  // still use them; the process is going away.
  if (BinaryRecord *B = asBinary(Handle))
    B->Unregistered = true;
}

HETGPU_API int __cudaRegisterFunction(void **Handle, const char *HostFun,
                                      char *DeviceFun, const char *DeviceName,
                                      int, void *, void *, void *, void *,
                                      int *) {
  Runtime &R = Runtime::get();
  BinaryRecord *B = asBinary(Handle);
  KernelRecord K;
  K.Bin = B;
  K.Name = DeviceName ? DeviceName : (DeviceFun ? DeviceFun : "");
  if (B && B->Valid) {
    K.ModuleIndex = findModule(*B, K.Name, /*Kernel=*/true);
    if (K.ModuleIndex >= 0)
      K.Info = B->C.Modules[K.ModuleIndex].findKernel(K.Name);
    else
      log(LogLevel::Warn, "kernel " + K.Name +
                              " is registered but not in its container");
  }
  std::lock_guard<std::mutex> Lock(R.RegM);
  R.Kernels[HostFun] = std::move(K);
  return 0;
}

static void registerVar(void **Handle, const void *HostVar,
                        const char *DeviceName, size_t Size, bool Constant,
                        void **ManagedPtr) {
  Runtime &R = Runtime::get();
  BinaryRecord *B = asBinary(Handle);
  VarRecord V;
  V.Bin = B;
  V.Name = DeviceName ? DeviceName : "";
  V.Size = Size;
  V.Constant = Constant;
  V.ManagedPtr = ManagedPtr;
  if (B && B->Valid)
    V.ModuleIndex = findModule(*B, V.Name, /*Kernel=*/false);
  std::lock_guard<std::mutex> Lock(R.RegM);
  R.Vars[HostVar] = std::move(V);
}

HETGPU_API void __cudaRegisterVar(void **Handle, char *HostVar, char *,
                                  const char *DeviceName, int, size_t Size,
                                  int Constant, int) {
  registerVar(Handle, HostVar, DeviceName, Size, Constant != 0, nullptr);
}

HETGPU_API void __cudaRegisterManagedVar(void **Handle,
                                         void **HostVarPtrAddress, char *,
                                         const char *DeviceName, size_t Size,
                                         unsigned) {
  registerVar(Handle, HostVarPtrAddress, DeviceName, Size, false,
              HostVarPtrAddress);
}

HETGPU_API void __cudaRegisterSurface(void **, const void *, const void **,
                                      const char *DeviceName, int, int) {
  log(LogLevel::Warn, std::string("surface references are not supported (") +
                          (DeviceName ? DeviceName : "?") + ")");
}

HETGPU_API void __cudaRegisterTexture(void **, const void *, const void **,
                                      const char *DeviceName, int, int, int) {
  log(LogLevel::Warn, std::string("texture references are not supported (") +
                          (DeviceName ? DeviceName : "?") + ")");
}

HETGPU_API unsigned __cudaPushCallConfiguration(dim3 Grid, dim3 Block,
                                                size_t Shared,
                                                struct CUstream_st *Stream) {
  ConfigStack.push_back({Grid, Block, Shared, Stream});
  return 0;
}

HETGPU_API cudaError_t __cudaPopCallConfiguration(dim3 *Grid, dim3 *Block,
                                                  size_t *Shared,
                                                  void *Stream) {
  if (ConfigStack.empty())
    return setLastError(cudaErrorMissingConfiguration);
  CallConfig C = ConfigStack.back();
  ConfigStack.pop_back();
  if (Grid)
    *Grid = C.Grid;
  if (Block)
    *Block = C.Block;
  if (Shared)
    *Shared = C.Shared;
  if (Stream)
    *static_cast<void **>(Stream) = C.Stream;
  return cudaSuccess;
}
