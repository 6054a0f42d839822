//===- Arrays.cpp - CUDA arrays and the copies to and from them -----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaMallocArray, cudaMalloc3DArray (layered and cubemap arrays too),
/// cudaFreeArray, cudaArrayGetInfo, the 2D and (deprecated) linear copies to
/// and from arrays, cudaMalloc3D and cudaMemcpy3D. A cubemap keeps its faces
/// as the layers of a layered array (face f of cube c is layer 6 * c + f),
/// so copies reach a face at z = 6 * c + f as CUDA's do. An array is device
/// memory from cudaMalloc (so it migrates like any other allocation) in plain
/// row-major order, element (x, y, z) at Base + z * Slice + y * Pitch + x *
/// Element with Pitch = Width * Element, plus a host-side record; the
/// cudaArray_t is that record. Texture objects over arrays (Textures.cpp) read
/// the same layout on the device.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"
#include "Core/Log.h"

#include <map>
#include <mutex>
#include <string>

using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

struct cudaArray {
  ArrayInfo Info;
};

namespace {

std::mutex ArrayMutex;
/// Live arrays (the handle is the record's address).
std::map<const cudaArray *, cudaArray *> &arrays() {
  static std::map<const cudaArray *, cudaArray *> M;
  return M;
}

/// Whether an extent fits CUDA's largest (array_limits, CudaAPI.h).
bool extentFits(size_t W, size_t H, size_t D, bool Layered, bool Cubemap) {
  using namespace array_limits;
  if (Cubemap) // W x W faces, 6 a cube
    return W == H && W <= CubemapWidth &&
           (Layered ? D % 6 == 0 && D <= CubemapLayers : D == 6);
  if (Layered) // 1D layered: W x layers; 2D layered: W x H x layers
    return W <= LayeredExtent && H <= LayeredExtent && D <= Layers;
  if (H == 0)
    return D == 0 && W <= Width1D;
  if (D == 0)
    return W <= Width2D && H <= Height2D;
  return W <= Extent3D && H <= Extent3D && D <= Extent3D;
}

} // namespace

cudaError_t api::allocArray(cudaArray_t *Out, const cudaChannelFormatDesc *Desc,
                            size_t W, size_t H, size_t D, unsigned Flags,
                            const char *Who, const void *Owner) {
  if (!Out || !Desc)
    return cudaErrorInvalidValue;
  unsigned Bytes = formatBytes(*Desc);
  if (!Bytes) {
    log(LogLevel::Info, std::string(Who) +
                            ": invalid channel format (channels of 8, 16 or "
                            "32 bits, used channels first)");
    return cudaErrorInvalidChannelDescriptor;
  }
  bool Layered = Flags & cudaArrayLayered, Cubemap = Flags & cudaArrayCubemap;
  if (Flags & ~unsigned(cudaArrayLayered | cudaArraySurfaceLoadStore |
                        cudaArrayTextureGather | cudaArrayCubemap)) {
    log(LogLevel::Info,
        std::string(Who) + ": unsupported flags " + std::to_string(Flags));
    return cudaErrorInvalidValue;
  }
  if (W == 0 || (D != 0 && H == 0 && !Layered) || (Layered && D == 0) ||
      !extentFits(W, H, D, Layered, Cubemap)) {
    log(LogLevel::Info,
        std::string(Who) + ": invalid extent " + std::to_string(W) + " x " +
            std::to_string(H) + " x " + std::to_string(D) +
            (Cubemap ? " (a cubemap has width == height and depth 6, or a "
                       "multiple of 6 when layered)"
                     : ""));
    return cudaErrorInvalidValue;
  }
  ArrayInfo I;
  I.Desc = *Desc;
  I.Width = W;
  I.Height = H;
  I.Depth = D;
  I.Flags = Flags;
  I.Element = Bytes;
  I.Pitch = W * Bytes;
  I.Slice = I.Pitch * (H ? H : 1);
  I.Owner = Owner;
  void *Dev = nullptr;
  if (cudaError_t E = cudaMalloc(&Dev, I.Slice * (D ? D : 1)))
    return E;
  I.Base = static_cast<char *>(Dev);
  cudaArray *A = new cudaArray{I};
  {
    std::lock_guard<std::mutex> L(ArrayMutex);
    arrays()[A] = A;
  }
  *Out = A;
  return cudaSuccess;
}

cudaError_t api::releaseArray(cudaArray_t A) {
  cudaArray *Rec;
  {
    std::lock_guard<std::mutex> L(ArrayMutex);
    auto It = arrays().find(A);
    if (It == arrays().end())
      return cudaErrorInvalidValue;
    Rec = It->second;
    arrays().erase(It);
  }
  cudaError_t E = cudaFree(Rec->Info.Base);
  delete Rec;
  return E;
}

namespace {

/// Rows of the array at which a 2D copy of \p Width bytes x \p Height rows
/// from byte \p WOff of row \p HOff lands; checks that it fits.
cudaError_t arrayRegion(cudaArray_const_t A, size_t WOff, size_t HOff,
                        size_t Width, size_t Height, ArrayInfo &I,
                        char *&At) {
  if (!findArray(A, I)) {
    log(LogLevel::Info, "copy to/from a CUDA array: not a live array");
    return cudaErrorInvalidResourceHandle;
  }
  size_t Rows = (I.Height ? I.Height : 1) * (I.Depth ? I.Depth : 1);
  if (WOff + Width > I.Pitch || HOff + Height > Rows) {
    log(LogLevel::Info, "copy to/from a CUDA array: region outside the array "
                        "(offsets and width in bytes, height in rows)");
    return cudaErrorInvalidValue;
  }
  At = I.Base + HOff * I.Pitch + WOff;
  return cudaSuccess;
}

/// Checks the linear side \p P of a copy to (\p IsDst false) or from an
/// array: the whole region, freed memory refused (MemCheck.cpp).
cudaError_t checkLinear(const void *P, size_t Pitch, size_t Width,
                        size_t Height, cudaMemcpyKind Kind, bool IsDst) {
  size_t Bytes;
  if (!regionBytes(Pitch, Width, Height, Bytes))
    return cudaErrorInvalidValue;
  // The array side is device memory: the kind (or, for cudaMemcpyDefault,
  // the table) says which side the linear one is.
  CopyKind K;
  if (cudaError_t E = copyKind(P, P, Kind, K))
    return E;
  bool OnDevice = IsDst ? (K == CopyKind::HostToDevice ||
                           K == CopyKind::DeviceToDevice)
                        : (K == CopyKind::DeviceToHost ||
                           K == CopyKind::DeviceToDevice);
  CheckedRange C;
  return checkRange(P, Bytes, OnDevice ? MemSide::Device : MemSide::Host,
                    IsDst ? "cudaMemcpy2DFromArray" : "cudaMemcpy2DToArray",
                    C);
}

cudaError_t copy2D(void *Dst, size_t DPitch, const void *Src, size_t SPitch,
                   size_t Width, size_t Height, cudaMemcpyKind Kind,
                   cudaStream_t S, bool Async) {
  return Async ? cudaMemcpy2DAsync(Dst, DPitch, Src, SPitch, Width, Height,
                                   Kind, S)
               : cudaMemcpy2D(Dst, DPitch, Src, SPitch, Width, Height, Kind);
}

cudaError_t toArray(cudaArray_t Dst, size_t WOff, size_t HOff, const void *Src,
                    size_t SPitch, size_t Width, size_t Height,
                    cudaMemcpyKind Kind, cudaStream_t S, bool Async) {
  ArrayInfo I;
  char *At;
  if (cudaError_t E = arrayRegion(Dst, WOff, HOff, Width, Height, I, At))
    return E;
  // CUDA 13: a pitch below the width is an invalid value here (not
  // cudaErrorInvalidPitchValue as for cudaMemcpy2D).
  if (!Src || Width > SPitch)
    return cudaErrorInvalidValue;
  if (cudaError_t E = checkLinear(Src, SPitch, Width, Height, Kind, false))
    return E;
  return copy2D(At, I.Pitch, Src, SPitch, Width, Height, Kind, S, Async);
}

cudaError_t fromArray(void *Dst, size_t DPitch, cudaArray_const_t Src,
                      size_t WOff, size_t HOff, size_t Width, size_t Height,
                      cudaMemcpyKind Kind, cudaStream_t S, bool Async) {
  ArrayInfo I;
  char *At;
  if (cudaError_t E = arrayRegion(Src, WOff, HOff, Width, Height, I, At))
    return E;
  if (!Dst || Width > DPitch)
    return cudaErrorInvalidValue;
  if (cudaError_t E = checkLinear(Dst, DPitch, Width, Height, Kind, true))
    return E;
  return copy2D(Dst, DPitch, At, I.Pitch, Width, Height, Kind, S, Async);
}

/// One side of a 3D copy: the address of its first byte, bytes a row, rows a
/// slice, and (for an array) its element size and extent checks.
struct Side {
  char *At = nullptr;
  size_t Pitch = 0, Rows = 0, Element = 1;
};

cudaError_t side3D(cudaArray_const_t A, cudaPos Pos, cudaPitchedPtr P,
                   cudaExtent Ext, Side &Out) {
  if (A) {
    ArrayInfo I;
    if (!findArray(A, I)) {
      log(LogLevel::Info, "cudaMemcpy3D: not a live CUDA array");
      return cudaErrorInvalidResourceHandle;
    }
    size_t H = I.Height ? I.Height : 1, D = I.Depth ? I.Depth : 1;
    if (Pos.x + Ext.width > I.Width || Pos.y + Ext.height > H ||
        Pos.z + Ext.depth > D) {
      log(LogLevel::Info, "cudaMemcpy3D: region outside the array");
      return cudaErrorInvalidValue;
    }
    Out.Element = I.Element;
    Out.Pitch = I.Pitch;
    Out.Rows = H;
    Out.At = I.Base + Pos.z * I.Slice + Pos.y * I.Pitch + Pos.x * I.Element;
    return cudaSuccess;
  }
  if (!P.ptr || P.pitch == 0)
    return cudaErrorInvalidValue;
  Out.Pitch = P.pitch;
  Out.Rows = P.ysize ? P.ysize : Ext.height;
  Out.At = static_cast<char *>(P.ptr) + (Pos.z * Out.Rows + Pos.y) * P.pitch +
           Pos.x;
  return cudaSuccess;
}

cudaError_t memcpy3D(const cudaMemcpy3DParms *P, cudaStream_t S, bool Async) {
  if (!P || (P->srcArray && P->srcPtr.ptr) || (P->dstArray && P->dstPtr.ptr))
    return cudaErrorInvalidValue;
  Side Src, Dst;
  if (cudaError_t E = side3D(P->srcArray, P->srcPos, P->srcPtr, P->extent, Src))
    return E;
  if (cudaError_t E = side3D(P->dstArray, P->dstPos, P->dstPtr, P->extent, Dst))
    return E;
  // Widths are in elements of the array(s), in bytes when none takes part.
  if (P->srcArray && P->dstArray && Src.Element != Dst.Element)
    return cudaErrorInvalidValue;
  size_t Width = P->extent.width * (P->srcArray ? Src.Element : Dst.Element);
  if (P->extent.width == 0 || P->extent.height == 0 || P->extent.depth == 0)
    return cudaSuccess;
  if (Width > Src.Pitch || Width > Dst.Pitch)
    return cudaErrorInvalidPitchValue;
  // The whole region of each linear side first (MemCheck.cpp), so that a
  // refused copy copies nothing; array sides are checked by side3D.
  CopyKind K;
  if (cudaError_t E = copyKind(Dst.At, Src.At, P->kind, K))
    return E;
  auto Bytes = [&](const Side &X, size_t &Out) {
    size_t Slice;
    return regionBytes(X.Pitch, Width, P->extent.height, Slice) &&
           regionBytes(X.Pitch * X.Rows, Slice, P->extent.depth, Out);
  };
  size_t SB = 0, DB = 0;
  if (!Bytes(Src, SB) || !Bytes(Dst, DB))
    return cudaErrorInvalidValue;
  CheckedCopy C;
  if (cudaError_t E = checkCopy(Dst.At, P->dstArray ? 0 : DB, Src.At,
                                P->srcArray ? 0 : SB, K, "cudaMemcpy3D",
                                /*FreedIsNoop=*/false, C))
    return E;
  for (size_t Z = 0; Z < P->extent.depth; ++Z)
    if (cudaError_t E = copy2D(Dst.At + Z * Dst.Rows * Dst.Pitch, Dst.Pitch,
                               Src.At + Z * Src.Rows * Src.Pitch, Src.Pitch,
                               Width, P->extent.height, P->kind, S, true))
      return E;
  if (Async)
    return cudaSuccess;
  return cudaStreamSynchronize(S);
}

} // namespace

bool api::findArray(cudaArray_const_t A, ArrayInfo &Out) {
  std::lock_guard<std::mutex> L(ArrayMutex);
  auto It = arrays().find(A);
  if (It == arrays().end())
    return false;
  Out = It->second->Info;
  return true;
}

HETGPU_API cudaError_t cudaMallocArray(cudaArray_t *Out,
                                       const cudaChannelFormatDesc *Desc,
                                       size_t Width, size_t Height,
                                       unsigned Flags) {
  if (Flags & cudaArrayLayered)
    return ret(cudaErrorInvalidValue); // layered arrays: cudaMalloc3DArray
  if (Flags & cudaArrayCubemap)
    return ret(cudaErrorInvalidValue); // cubemaps: cudaMalloc3DArray
  return ret(allocArray(Out, Desc, Width, Height, 0, Flags, "cudaMallocArray"));
}

HETGPU_API cudaError_t cudaMalloc3DArray(cudaArray_t *Out,
                                         const cudaChannelFormatDesc *Desc,
                                         cudaExtent Ext, unsigned Flags) {
  return ret(allocArray(Out, Desc, Ext.width, Ext.height, Ext.depth, Flags,
                        "cudaMalloc3DArray"));
}

HETGPU_API cudaError_t cudaMalloc3D(cudaPitchedPtr *Out, cudaExtent Ext) {
  if (!Out)
    return ret(cudaErrorInvalidValue);
  size_t Pitch = 0;
  void *P = nullptr;
  size_t Rows = (Ext.height ? Ext.height : 1) * (Ext.depth ? Ext.depth : 1);
  if (cudaError_t E = cudaMallocPitch(&P, &Pitch, Ext.width, Rows))
    return ret(E);
  *Out = make_cudaPitchedPtr(P, Pitch, Ext.width, Ext.height);
  return ret(cudaSuccess);
}

HETGPU_API cudaError_t cudaFreeArray(cudaArray_t A) {
  if (!A)
    return ret(cudaSuccess);
  ArrayInfo I;
  if (!findArray(A, I)) {
    log(LogLevel::Info, "cudaFreeArray: not a live CUDA array (freed "
                        "twice or never allocated)");
    return ret(cudaErrorInvalidValue); // as documented (CUDA 13 crashes)
  }
  if (I.Owner) {
    log(LogLevel::Info, "cudaFreeArray: the array is a level of a mipmapped "
                        "array (cudaFreeMipmappedArray frees it)");
    return ret(cudaErrorInvalidValue);
  }
  return ret(releaseArray(A));
}

HETGPU_API cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc *Desc,
                                        cudaExtent *Ext, unsigned *Flags,
                                        cudaArray_t A) {
  ArrayInfo I;
  if (!findArray(A, I))
    return ret(cudaErrorInvalidResourceHandle);
  if (Desc)
    *Desc = I.Desc;
  if (Ext)
    *Ext = make_cudaExtent(I.Width, I.Height, I.Depth);
  if (Flags)
    *Flags = I.Flags;
  return ret(cudaSuccess);
}

HETGPU_API cudaError_t cudaMemcpy2DToArray(cudaArray_t Dst, size_t WOff,
                                           size_t HOff, const void *Src,
                                           size_t SPitch, size_t Width,
                                           size_t Height, cudaMemcpyKind K) {
  return ret(toArray(Dst, WOff, HOff, Src, SPitch, Width, Height, K, nullptr,
                     false));
}

HETGPU_API cudaError_t cudaMemcpy2DToArrayAsync(
    cudaArray_t Dst, size_t WOff, size_t HOff, const void *Src, size_t SPitch,
    size_t Width, size_t Height, cudaMemcpyKind K, cudaStream_t S) {
  return ret(toArray(Dst, WOff, HOff, Src, SPitch, Width, Height, K, S, true));
}

HETGPU_API cudaError_t cudaMemcpy2DFromArray(void *Dst, size_t DPitch,
                                             cudaArray_const_t Src,
                                             size_t WOff, size_t HOff,
                                             size_t Width, size_t Height,
                                             cudaMemcpyKind K) {
  return ret(fromArray(Dst, DPitch, Src, WOff, HOff, Width, Height, K, nullptr,
                       false));
}

HETGPU_API cudaError_t cudaMemcpy2DFromArrayAsync(
    void *Dst, size_t DPitch, cudaArray_const_t Src, size_t WOff, size_t HOff,
    size_t Width, size_t Height, cudaMemcpyKind K, cudaStream_t S) {
  return ret(fromArray(Dst, DPitch, Src, WOff, HOff, Width, Height, K, S,
                       true));
}

HETGPU_API cudaError_t cudaMemcpyToArray(cudaArray_t Dst, size_t WOff,
                                         size_t HOff, const void *Src,
                                         size_t Count, cudaMemcpyKind K) {
  // Row-major and unpadded: \p Count bytes from (WOff, HOff) are contiguous.
  ArrayInfo I;
  char *At;
  if (cudaError_t E = arrayRegion(Dst, WOff, HOff, 0, 1, I, At))
    return ret(E);
  size_t Total = I.Slice * (I.Depth ? I.Depth : 1);
  if (size_t(At - I.Base) + Count > Total)
    return ret(cudaErrorInvalidValue);
  return ret(cudaMemcpy(At, Src, Count, K));
}

HETGPU_API cudaError_t cudaMemcpyFromArray(void *Dst, cudaArray_const_t Src,
                                           size_t WOff, size_t HOff,
                                           size_t Count, cudaMemcpyKind K) {
  ArrayInfo I;
  char *At;
  if (cudaError_t E = arrayRegion(Src, WOff, HOff, 0, 1, I, At))
    return ret(E);
  size_t Total = I.Slice * (I.Depth ? I.Depth : 1);
  if (size_t(At - I.Base) + Count > Total)
    return ret(cudaErrorInvalidValue);
  return ret(cudaMemcpy(Dst, At, Count, K));
}

HETGPU_API cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *P) {
  if (cudaError_t E = captureUnsafe("cudaMemcpy3D"))
    return ret(E);
  return ret(memcpy3D(P, nullptr, false));
}

HETGPU_API cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms *P,
                                         cudaStream_t S) {
  return ret(memcpy3D(P, S, true));
}
