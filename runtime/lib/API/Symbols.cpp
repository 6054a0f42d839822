//===- Symbols.cpp - CUDA copies to and from variables --------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaMemcpyToSymbol / FromSymbol (and the Async forms), cudaGetSymbolAddress
/// and cudaGetSymbolSize: `__device__` and `__constant__` variables registered
/// by their host shadows (Registration.cpp), resolved in the module loaded on
/// the current device (Runtime::getSymbol).
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

namespace {

cudaError_t symbolCopy(void *Dst, const void *Src, const void *Symbol,
                       size_t Count, size_t Offset, cudaMemcpyKind Kind,
                       cudaStream_t Stream, bool Sync, bool ToSymbol) {
  if (Sync)
    if (cudaError_t E = captureUnsafe(ToSymbol ? "cudaMemcpyToSymbol"
                                               : "cudaMemcpyFromSymbol"))
      return E;
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return E;
  void *Addr;
  size_t Size;
  if (cudaError_t E = RT().getSymbol(*S->Ctx, Symbol, Addr, Size))
    return E;
  if (Offset > Size || Count > Size - Offset)
    return cudaErrorInvalidValue;
  CopyKind K;
  char *SymAddr = static_cast<char *>(Addr) + Offset;
  if (ToSymbol) {
    if (Kind == cudaMemcpyHostToDevice)
      K = CopyKind::HostToDevice;
    else if (Kind == cudaMemcpyDeviceToDevice)
      K = CopyKind::DeviceToDevice;
    else if (Kind == cudaMemcpyDefault)
      K = isDevicePtr(Src) ? CopyKind::DeviceToDevice : CopyKind::HostToDevice;
    else
      return cudaErrorInvalidMemcpyDirection;
    Dst = SymAddr;
  } else {
    if (Kind == cudaMemcpyDeviceToHost)
      K = CopyKind::DeviceToHost;
    else if (Kind == cudaMemcpyDeviceToDevice)
      K = CopyKind::DeviceToDevice;
    else if (Kind == cudaMemcpyDefault)
      K = isDevicePtr(Dst) ? CopyKind::DeviceToDevice : CopyKind::DeviceToHost;
    else
      return cudaErrorInvalidMemcpyDirection;
    Src = SymAddr;
  }
  if (Count == 0)
    return cudaSuccess;
  // The variable's side is checked above; the other side against the
  // allocation table (MemCheck.cpp).
  const void *Other = ToSymbol ? Src : Dst;
  MemSide Side = K == CopyKind::DeviceToDevice ? MemSide::Device
                                               : MemSide::Host;
  CheckedRange C;
  const char *Who = ToSymbol ? "cudaMemcpyToSymbol" : "cudaMemcpyFromSymbol";
  if (cudaError_t E = checkRange(Other, Count, Side, Who, C)) {
    // CUDA 13 copies nothing and returns success for freed device memory
    // in a device-to-device copy.
    if (C.State == Runtime::RangeState::Freed && Side == MemSide::Device)
      return cudaSuccess;
    return E;
  }
  bool Captured; // stream capture: a memcpy node (Capture.cpp)
  cudaMemcpyKind CK = K == CopyKind::HostToDevice   ? cudaMemcpyHostToDevice
                      : K == CopyKind::DeviceToHost ? cudaMemcpyDeviceToHost
                                                    : cudaMemcpyDeviceToDevice;
  if (cudaError_t E = captureCopy(*S, Who, Dst, Src, Count, CK, Captured))
    return E;
  if (Captured)
    return cudaSuccess;
  if (cudaError_t E = enqueueCopy(*S, Dst, Src, Count, K))
    return E;
  return Sync || copyNeedsSync(Dst, Src, K) ? syncStream(*S) : cudaSuccess;
}

} // namespace

HETGPU_API cudaError_t cudaMemcpyToSymbol(const void *Symbol, const void *Src,
                                          size_t Count, size_t Offset,
                                          enum cudaMemcpyKind Kind) {
  return ret(symbolCopy(nullptr, Src, Symbol, Count, Offset, Kind, nullptr,
                        true, true));
}

HETGPU_API cudaError_t cudaMemcpyFromSymbol(void *Dst, const void *Symbol,
                                            size_t Count, size_t Offset,
                                            enum cudaMemcpyKind Kind) {
  return ret(symbolCopy(Dst, nullptr, Symbol, Count, Offset, Kind, nullptr,
                        true, false));
}

HETGPU_API cudaError_t cudaMemcpyToSymbolAsync(const void *Symbol,
                                               const void *Src, size_t Count,
                                               size_t Offset,
                                               enum cudaMemcpyKind Kind,
                                               cudaStream_t S) {
  return ret(symbolCopy(nullptr, Src, Symbol, Count, Offset, Kind, S, false,
                        true));
}

HETGPU_API cudaError_t cudaMemcpyFromSymbolAsync(void *Dst, const void *Symbol,
                                                 size_t Count, size_t Offset,
                                                 enum cudaMemcpyKind Kind,
                                                 cudaStream_t S) {
  return ret(symbolCopy(Dst, nullptr, Symbol, Count, Offset, Kind, S, false,
                        false));
}

HETGPU_API cudaError_t cudaGetSymbolAddress(void **DevPtr, const void *Symbol) {
  if (!DevPtr)
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  size_t Size;
  cudaError_t E = RT().getSymbol(*Ctx, Symbol, *DevPtr, Size);
  if (E == cudaSuccess)
    if (VarRecord *V = RT().findVar(Symbol)) {
      std::lock_guard<std::recursive_mutex> L(Ctx->M);
      Ctx->SymbolAddressesTaken.insert(V->Name);
    }
  return ret(E);
}

HETGPU_API cudaError_t cudaGetSymbolSize(size_t *Size, const void *Symbol) {
  if (!Size)
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  void *Addr;
  return ret(RT().getSymbol(*Ctx, Symbol, Addr, *Size));
}
