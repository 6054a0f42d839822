//===- MemCheck.cpp - Checks of the memory each copy and memset touches ---===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Every copy, memset, symbol copy, array copy and peer copy of the API
/// layer checks the bytes it touches against the allocation table
/// (Runtime::lookupRange) before anything is queued, and returns the code
/// CUDA 13 returns (measured with nvcc 13.0 on an H200;
/// test/Runtime/bad-api-table.cu):
///
///   - a device side (the kind says device memory, or cudaMemcpyDefault
///     finds device memory) lies inside one live allocation: device,
///     managed or page-locked host memory. Past the end, freed, bogus or
///     pageable: cudaErrorInvalidValue;
///   - a host side is pageable memory (in no allocation: not checkable) or
///     lies inside a live allocation; past its end, or freed device
///     memory of an integrated device: cudaErrorInvalidValue (freed memory
///     of a device with memory of its own that is mapped host memory by
///     now counts as pageable). Device memory is host memory only on
///     integrated devices;
///   - a plain device-to-device cudaMemcpy (and symbol and peer copies)
///     that touches freed device memory returns cudaSuccess and copies
///     nothing, as CUDA 13 does (its driver checks no freed range there);
///     2D, 3D and array copies refuse it.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"
#include "Core/Log.h"

#include <cstdio>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

namespace {

std::string hex(const void *P) {
  char B[32];
  snprintf(B, sizeof(B), "%p", P);
  return B;
}

std::string where(const Allocation &A) {
  return "allocation of " + std::to_string(A.Size) + " bytes at " +
         hex(reinterpret_cast<void *>(A.Base));
}

/// Whether the page of \p P is mapped in this process (mincore fails with
/// ENOMEM on an unmapped one).
bool hostMapped(const void *P) {
  long Page = sysconf(_SC_PAGESIZE);
  uintptr_t U = reinterpret_cast<uintptr_t>(P) & ~uintptr_t(Page - 1);
  unsigned char V;
  return mincore(reinterpret_cast<void *>(U), size_t(Page), &V) == 0;
}

cudaError_t refuse(const char *Who, const std::string &Why) {
  log(LogLevel::Info, std::string(Who) + ": " + Why);
  return cudaErrorInvalidValue;
}

} // namespace

bool api::regionBytes(size_t Pitch, size_t Width, size_t Height,
                      size_t &Out) {
  if (Height == 0 || Width == 0) {
    Out = 0;
    return true;
  }
  size_t Rows;
  if (__builtin_mul_overflow(Height - 1, Pitch, &Rows) ||
      __builtin_add_overflow(Rows, Width, &Out))
    return false;
  return true;
}

cudaError_t api::checkRange(const void *P, size_t N, MemSide Side,
                            const char *Who, CheckedRange &Out) {
  Out = CheckedRange();
  if (N == 0)
    return cudaSuccess;
  if (!P)
    return refuse(Who, "null pointer");
  Runtime &R = RT();
  Out.State = R.lookupRange(P, N, Out.A);
  const char *SideName = Side == MemSide::Device ? "device" : "host";
  switch (Out.State) {
  case Runtime::RangeState::Inside:
  {
    Out.Owner = R.context(Out.A.Device);
    const DeviceProperties *Props =
        Out.Owner ? &Out.Owner->Dev->properties() : nullptr;
    bool Integrated = Props && Props->Integrated;
    // Page-locked host memory is device memory too where the driver maps
    // it for the device (unified addressing); tt-sim's DRAM and discrete
    // OpenCL devices do not hold it.
    bool ReachesHost = Integrated ||
                       (Props && (Props->Kind == BackendKind::NVIDIA ||
                                  Props->Kind == BackendKind::HIP ||
                                  Props->Kind == BackendKind::LevelZero));
    bool HostMem = Out.A.Kind == AllocKind::Host ||
                   Out.A.Kind == AllocKind::Registered;
    if (Side == MemSide::Host && Out.A.Kind == AllocKind::Device &&
        !Integrated)
      return refuse(Who, hex(P) + " is device memory, used as host memory");
    // CUDA accepts page-locked memory as either side: where the device
    // cannot reach it, the runtime works on it from the host.
    Out.AsHost = Side == MemSide::Device && HostMem && !ReachesHost;
    return cudaSuccess;
  }
  case Runtime::RangeState::PastEnd:
    return refuse(Who, std::to_string(N) + " bytes at " + hex(P) +
                           " run past the end of the " + where(Out.A));
  case Runtime::RangeState::Freed: {
    // Memory a device of its own gave back: its addresses may hold host
    // memory now (glibc maps large buffers where a freed GPU range was), so
    // as a host side it is pageable memory. Only an integrated device's
    // quarantine keeps freed blocks from the host program.
    DeviceContext *Owner = R.context(Out.A.Device);
    bool Integrated = Owner && Owner->Dev->properties().Integrated;
    if (Side == MemSide::Host && !Integrated && hostMapped(P)) {
      Out.State = Runtime::RangeState::Unknown;
      return cudaSuccess;
    }
    return refuse(Who, hex(P) + " is in freed device memory (the " +
                           where(Out.A) + ", freed by cudaFree)");
  }
  case Runtime::RangeState::Unknown:
    if (Side == MemSide::Host)
      return cudaSuccess; // pageable memory
    return refuse(Who, std::string(SideName) + " pointer " + hex(P) +
                           " is in no allocation of this process");
  }
  return cudaSuccess;
}

cudaError_t api::copyKind(const void *Dst, const void *Src,
                          cudaMemcpyKind Kind, CopyKind &Out) {
  switch (Kind) {
  case cudaMemcpyHostToHost:
    Out = CopyKind::HostToHost;
    return cudaSuccess;
  case cudaMemcpyHostToDevice:
    Out = CopyKind::HostToDevice;
    return cudaSuccess;
  case cudaMemcpyDeviceToHost:
    Out = CopyKind::DeviceToHost;
    return cudaSuccess;
  case cudaMemcpyDeviceToDevice:
    Out = CopyKind::DeviceToDevice;
    return cudaSuccess;
  case cudaMemcpyDefault: {
    // Unified addressing: the table says where each pointer is; freed
    // device memory is still device memory (and refused below).
    auto OnDevice = [](const void *P) {
      Allocation A;
      switch (RT().lookupRange(P, 1, A)) {
      case Runtime::RangeState::Inside:
      case Runtime::RangeState::PastEnd:
        return A.Kind == AllocKind::Device || A.Kind == AllocKind::Managed;
      case Runtime::RangeState::Freed:
        return true;
      case Runtime::RangeState::Unknown:
        return false;
      }
      return false;
    };
    bool D = OnDevice(Dst), S = OnDevice(Src);
    Out = D ? (S ? CopyKind::DeviceToDevice : CopyKind::HostToDevice)
            : (S ? CopyKind::DeviceToHost : CopyKind::HostToHost);
    return cudaSuccess;
  }
  }
  return cudaErrorInvalidMemcpyDirection;
}

cudaError_t api::checkCopy(void *Dst, size_t DstBytes, const void *Src,
                           size_t SrcBytes, CopyKind K, const char *Who,
                           bool FreedIsNoop, CheckedCopy &Out) {
  Out = CheckedCopy();
  bool DstDev = K == CopyKind::HostToDevice || K == CopyKind::DeviceToDevice;
  bool SrcDev = K == CopyKind::DeviceToHost || K == CopyKind::DeviceToDevice;
  cudaError_t ED = checkRange(Dst, DstBytes, DstDev ? MemSide::Device
                                                    : MemSide::Host,
                              Who, Out.Dst);
  cudaError_t ES = checkRange(Src, SrcBytes, SrcDev ? MemSide::Device
                                                    : MemSide::Host,
                              Who, Out.Src);
  if (FreedIsNoop && K == CopyKind::DeviceToDevice &&
      (Out.Dst.State == Runtime::RangeState::Freed ||
       Out.Src.State == Runtime::RangeState::Freed) &&
      Out.Dst.State != Runtime::RangeState::PastEnd &&
      Out.Src.State != Runtime::RangeState::PastEnd &&
      Out.Dst.State != Runtime::RangeState::Unknown &&
      Out.Src.State != Runtime::RangeState::Unknown) {
    log(LogLevel::Warn, std::string(Who) +
                            ": device-to-device copy touches freed device "
                            "memory; nothing copied (CUDA 13 returns "
                            "cudaSuccess here)");
    Out.Skip = true;
    return cudaSuccess;
  }
  return ED ? ED : ES;
}
