//===- Textures.cpp - CUDA texture objects over linear memory -------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaCreateTextureObject and its companions for the resources hetGPU
/// implements: linear device memory (cudaResourceTypeLinear, read with
/// tex1Dfetch), pitched 2D memory (cudaResourceTypePitch2D) and CUDA arrays
/// (cudaResourceTypeArray, Arrays.cpp; 1D, 2D, 3D, 1D/2D layered, cubemap
/// and layered cubemap) and mipmapped arrays (cudaResourceTypeMipmappedArray,
/// MipmappedArrays.cpp: a level table in the descriptor), sampled in
/// software by hetgpu/cuda/texture_sample.h. Half-float texels are read as
/// floats. The object is the device
/// address of a hetgpu_texture_object descriptor that the runtime allocates
/// and writes in device memory (hetgpu/cuda/texture_object.h), so device
/// code reads it like any other data and it migrates with device memory.
/// Surface objects (cudaCreateSurfaceObject over arrays made with
/// cudaArraySurfaceLoadStore) are the same descriptor, read and written by
/// hetgpu/cuda/surface_functions.h.
/// Resource views are refused (cudaErrorInvalidValue) with a HETGPU_LOG=info
/// message naming them.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"
#include "Core/Log.h"
#include "hetgpu/cuda/texture_object.h"

#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

namespace {

struct TextureRecord {
  cudaResourceDesc Res;
  cudaTextureDesc Tex;
};

std::mutex TexMutex;
/// Live texture objects (descriptor address -> what they were made from).
std::map<cudaTextureObject_t, TextureRecord> &textures() {
  static std::map<cudaTextureObject_t, TextureRecord> M;
  return M;
}
/// Live surface objects (descriptor address -> resource).
std::map<cudaSurfaceObject_t, cudaResourceDesc> &surfaces() {
  static std::map<cudaSurfaceObject_t, cudaResourceDesc> M;
  return M;
}

/// Writes \p D into new device memory; its address in \p Out.
cudaError_t publish(const hetgpu_texture_object &D, void *&Out) {
  if (cudaError_t E = cudaMalloc(&Out, sizeof(D)))
    return E;
  if (cudaError_t E = cudaMemcpy(Out, &D, sizeof(D), cudaMemcpyHostToDevice)) {
    cudaFree(Out);
    return E;
  }
  return cudaSuccess;
}

const char *resourceName(cudaResourceType T) {
  switch (T) {
  case cudaResourceTypeArray: return "cudaResourceTypeArray";
  case cudaResourceTypeMipmappedArray: return "cudaResourceTypeMipmappedArray";
  case cudaResourceTypeLinear: return "cudaResourceTypeLinear";
  case cudaResourceTypePitch2D: return "cudaResourceTypePitch2D";
  }
  return "unknown resource type";
}

/// Checks a resource's channel format; bytes per element in \p Bytes.
cudaError_t checkFormat(const cudaChannelFormatDesc &F,
                        const cudaTextureDesc &T, unsigned &Bytes) {
  Bytes = formatBytes(F);
  if (!Bytes)
    return cudaErrorInvalidChannelDescriptor;
  if (F.f == cudaChannelFormatKindFloat && T.readMode == cudaReadModeNormalizedFloat)
    return cudaErrorInvalidValue; // normalised reads are for integer formats
  return cudaSuccess;
}

/// The checks CUDA makes of what filtered, addressed resources (arrays,
/// pitched 2D memory) are sampled with.
cudaError_t checkSampling(const cudaChannelFormatDesc &F,
                          const cudaTextureDesc &T) {
  bool Norm = T.readMode == cudaReadModeNormalizedFloat;
  if (Norm && (F.x == 32 || F.y == 32 || F.z == 32 || F.w == 32)) {
    log(LogLevel::Info, "cudaCreateTextureObject: cudaReadModeNormalizedFloat "
                        "needs 8- or 16-bit integer channels");
    return cudaErrorInvalidValue;
  }
  if (T.filterMode == cudaFilterModeLinear && !Norm &&
      F.f != cudaChannelFormatKindFloat) {
    log(LogLevel::Info, "cudaCreateTextureObject: cudaFilterModeLinear needs "
                        "float texels or cudaReadModeNormalizedFloat");
    return cudaErrorInvalidValue;
  }
  if (F.f == cudaChannelFormatKindFloat &&
      ((F.x != 32 && F.x != 16) || (F.y && F.y != F.x) || (F.z && F.z != F.x) ||
       (F.w && F.w != F.x))) {
    log(LogLevel::Info, "cudaCreateTextureObject: float texels have channels "
                        "of 32 bits (float) or 16 bits (half), all alike");
    return cudaErrorInvalidChannelDescriptor;
  }
  for (cudaTextureAddressMode M : T.addressMode)
    if (M < cudaAddressModeWrap || M > cudaAddressModeBorder)
      return cudaErrorInvalidValue;
  return cudaSuccess;
}

void setFormat(hetgpu_texture_object &D, const cudaChannelFormatDesc &F,
               unsigned Bytes) {
  D.bits[0] = F.x;
  D.bits[1] = F.y;
  D.bits[2] = F.z;
  D.bits[3] = F.w;
  D.kind = static_cast<uint32_t>(F.f);
  D.element = Bytes;
}

cudaError_t fillLinear(hetgpu_texture_object &D, const cudaResourceDesc &R,
                       const cudaTextureDesc &T) {
  if (!R.res.linear.devPtr || R.res.linear.sizeInBytes == 0)
    return cudaErrorInvalidValue;
  unsigned Bytes = 0;
  if (cudaError_t E = checkFormat(R.res.linear.desc, T, Bytes))
    return E;
  setFormat(D, R.res.linear.desc, Bytes);
  D.base = reinterpret_cast<uint64_t>(R.res.linear.devPtr);
  D.size = R.res.linear.sizeInBytes;
  D.width = static_cast<uint32_t>(D.size / Bytes);
  D.height = D.depth = 1;
  D.pitch = D.slice_pitch = D.layer_pitch = D.size;
  return cudaSuccess;
}

cudaError_t fillPitch2D(hetgpu_texture_object &D, const cudaResourceDesc &R,
                        const cudaTextureDesc &T) {
  const auto &P = R.res.pitch2D;
  unsigned Bytes = 0;
  if (cudaError_t E = checkFormat(P.desc, T, Bytes))
    return E;
  if (cudaError_t E = checkSampling(P.desc, T))
    return E;
  if (!P.devPtr || P.width == 0 || P.height == 0 ||
      P.pitchInBytes < P.width * Bytes || P.width > 131072 ||
      P.height > 65536) {
    log(LogLevel::Info, "cudaCreateTextureObject: cudaResourceTypePitch2D "
                        "needs a pointer, a width and height of at least 1 "
                        "and a pitch of at least width * element bytes");
    return cudaErrorInvalidValue;
  }
  setFormat(D, P.desc, Bytes);
  D.base = reinterpret_cast<uint64_t>(P.devPtr);
  D.size = P.pitchInBytes * P.height;
  D.width = static_cast<uint32_t>(P.width);
  D.height = static_cast<uint32_t>(P.height);
  D.depth = 1;
  D.pitch = P.pitchInBytes;
  D.slice_pitch = D.layer_pitch = D.size;
  return cudaSuccess;
}

/// Level \p A's geometry in \p G (layers of a layered or cubemap array).
void levelGeometry(const ArrayInfo &A, hetgpu_texture_level &G) {
  bool Layered = A.Flags & (cudaArrayLayered | cudaArrayCubemap);
  size_t Size = A.Slice * (A.Depth ? A.Depth : 1);
  G.base = reinterpret_cast<uint64_t>(A.Base);
  G.width = static_cast<uint32_t>(A.Width);
  G.height = static_cast<uint32_t>(A.Height ? A.Height : 1);
  G.depth = Layered ? 1 : static_cast<uint32_t>(A.Depth ? A.Depth : 1);
  G.pitch = A.Pitch;
  G.slice_pitch = A.Slice;
  G.layer_pitch = Layered ? A.Slice : Size;
}

/// Fills \p D from array \p A (level 0 of a mipmapped array).
cudaError_t fillFromArray(hetgpu_texture_object &D, const ArrayInfo &A,
                          const cudaTextureDesc &T) {
  unsigned Bytes = 0;
  if (cudaError_t E = checkFormat(A.Desc, T, Bytes))
    return E;
  if (cudaError_t E = checkSampling(A.Desc, T))
    return E;
  setFormat(D, A.Desc, Bytes);
  bool Layered = A.Flags & (cudaArrayLayered | cudaArrayCubemap);
  hetgpu_texture_level G;
  levelGeometry(A, G);
  D.base = G.base;
  D.size = A.Slice * (A.Depth ? A.Depth : 1);
  D.width = G.width;
  D.height = G.height;
  D.depth = G.depth;
  D.layers = Layered ? static_cast<uint32_t>(A.Depth) : 0;
  D.cubemap = (A.Flags & cudaArrayCubemap) ? 1 : 0;
  D.pitch = G.pitch;
  D.slice_pitch = G.slice_pitch;
  D.layer_pitch = G.layer_pitch;
  return cudaSuccess;
}

cudaError_t fillArray(hetgpu_texture_object &D, const cudaResourceDesc &R,
                      const cudaTextureDesc &T) {
  ArrayInfo A;
  if (!findArray(R.res.array.array, A)) {
    log(LogLevel::Info, "cudaCreateTextureObject: res.array.array is not a "
                        "live CUDA array");
    return cudaErrorInvalidResourceHandle;
  }
  return fillFromArray(D, A, T);
}

cudaError_t fillMipmap(hetgpu_texture_object &D, const cudaResourceDesc &R,
                       const cudaTextureDesc &T) {
  std::vector<ArrayInfo> Levels;
  if (!findMipmappedArray(R.res.mipmap.mipmap, Levels) || Levels.empty()) {
    log(LogLevel::Info, "cudaCreateTextureObject: res.mipmap.mipmap is not "
                        "a live mipmapped array");
    return cudaErrorInvalidResourceHandle;
  }
  if (T.mipmapFilterMode != cudaFilterModePoint &&
      T.mipmapFilterMode != cudaFilterModeLinear)
    return cudaErrorInvalidValue;
  if (cudaError_t E = fillFromArray(D, Levels[0], T))
    return E;
  D.levels = static_cast<uint32_t>(Levels.size());
  for (size_t I = 0; I < Levels.size(); ++I)
    levelGeometry(Levels[I], D.level[I]);
  return cudaSuccess;
}

} // namespace

unsigned api::formatBytes(const cudaChannelFormatDesc &F) {
  const int Bits[4] = {F.x, F.y, F.z, F.w};
  unsigned Total = 0;
  bool Ended = false;
  for (int B : Bits) {
    if (B == 0) {
      Ended = true;
      continue;
    }
    // Channels are 8, 16 or 32 bits and come first (CUDA's rule).
    if (Ended || (B != 8 && B != 16 && B != 32))
      return 0;
    Total += B;
  }
  if (Total == 0 || F.f < cudaChannelFormatKindSigned ||
      F.f > cudaChannelFormatKindFloat)
    return 0;
  return Total / 8;
}

HETGPU_API cudaChannelFormatDesc cudaCreateChannelDesc(int X, int Y, int Z,
                                                       int W,
                                                       cudaChannelFormatKind F) {
  cudaChannelFormatDesc D;
  D.x = X;
  D.y = Y;
  D.z = Z;
  D.w = W;
  D.f = F;
  return D;
}

HETGPU_API cudaError_t cudaCreateTextureObject(
    cudaTextureObject_t *Out, const cudaResourceDesc *Res,
    const cudaTextureDesc *Tex, const cudaResourceViewDesc *View) {
  if (!Out || !Res || !Tex)
    return ret(cudaErrorInvalidValue);
  if (View) {
    log(LogLevel::Info, "cudaCreateTextureObject: resource views are not "
                        "implemented");
    return ret(cudaErrorInvalidValue);
  }
  hetgpu_texture_object D;
  std::memset(&D, 0, sizeof(D));
  cudaError_t E = cudaSuccess;
  switch (Res->resType) {
  case cudaResourceTypeLinear:
    E = fillLinear(D, *Res, *Tex);
    break;
  case cudaResourceTypePitch2D:
    E = fillPitch2D(D, *Res, *Tex);
    break;
  case cudaResourceTypeArray:
    E = fillArray(D, *Res, *Tex);
    break;
  case cudaResourceTypeMipmappedArray:
    E = fillMipmap(D, *Res, *Tex);
    break;
  default:
    log(LogLevel::Info, "cudaCreateTextureObject: resType " +
                            std::to_string(static_cast<int>(Res->resType)) +
                            " is not a cudaResourceType");
    return ret(cudaErrorInvalidValue);
  }
  if (E)
    return ret(E);
  D.magic = HETGPU_TEXTURE_MAGIC;
  D.read_mode = static_cast<uint32_t>(Tex->readMode);
  for (int I = 0; I < 3; ++I)
    D.address[I] = static_cast<uint32_t>(Tex->addressMode[I]);
  D.filter = static_cast<uint32_t>(Tex->filterMode);
  D.normalized = Tex->normalizedCoords ? 1 : 0;
  for (int I = 0; I < 4; ++I)
    D.border[I] = Tex->borderColor[I];
  D.mipmap_filter = static_cast<uint32_t>(Tex->mipmapFilterMode);
  D.lod_bias = Tex->mipmapLevelBias;
  D.min_lod = Tex->minMipmapLevelClamp;
  D.max_lod = Tex->maxMipmapLevelClamp;
  void *Dev = nullptr;
  if (cudaError_t E = publish(D, Dev))
    return ret(E);
  cudaTextureObject_t H = reinterpret_cast<cudaTextureObject_t>(Dev);
  {
    std::lock_guard<std::mutex> L(TexMutex);
    textures()[H] = TextureRecord{*Res, *Tex};
  }
  *Out = H;
  return ret(cudaSuccess);
}

namespace {
/// Forgets object \p Obj of \p Objects and frees its descriptor; 0 is a
/// no-op, an unknown object cudaErrorInvalidValue.
template <typename Map>
cudaError_t destroyObject(Map &Objects, unsigned long long Obj) {
  {
    std::lock_guard<std::mutex> L(TexMutex);
    if (!Objects.erase(Obj))
      return Obj ? cudaErrorInvalidValue : cudaSuccess;
  }
  return cudaFree(reinterpret_cast<void *>(Obj));
}
} // namespace

HETGPU_API cudaError_t cudaDestroyTextureObject(cudaTextureObject_t Obj) {
  return ret(destroyObject(textures(), Obj));
}

HETGPU_API cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc *Out,
                                                        cudaTextureObject_t Obj) {
  std::lock_guard<std::mutex> L(TexMutex);
  auto It = textures().find(Obj);
  if (!Out || It == textures().end())
    return ret(cudaErrorInvalidValue);
  *Out = It->second.Res;
  return ret(cudaSuccess);
}

HETGPU_API cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc *Out,
                                                       cudaTextureObject_t Obj) {
  std::lock_guard<std::mutex> L(TexMutex);
  auto It = textures().find(Obj);
  if (!Out || It == textures().end())
    return ret(cudaErrorInvalidValue);
  *Out = It->second.Tex;
  return ret(cudaSuccess);
}

HETGPU_API cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *Out,
                                               const cudaResourceDesc *Res) {
  if (!Out || !Res)
    return ret(cudaErrorInvalidValue);
  if (Res->resType != cudaResourceTypeArray) {
    log(LogLevel::Info, std::string("cudaCreateSurfaceObject: ") +
                            resourceName(Res->resType) +
                            " surfaces are not supported (CUDA arrays only)");
    return ret(cudaErrorInvalidValue);
  }
  hetgpu_texture_object D;
  std::memset(&D, 0, sizeof(D));
  cudaTextureDesc T;
  std::memset(&T, 0, sizeof(T));
  if (cudaError_t E = fillArray(D, *Res, T))
    return ret(E);
  ArrayInfo A;
  findArray(Res->res.array.array, A);
  if (!(A.Flags & cudaArraySurfaceLoadStore)) {
    log(LogLevel::Info, "cudaCreateSurfaceObject: the array was not made with "
                        "cudaArraySurfaceLoadStore");
    return ret(cudaErrorInvalidValue);
  }
  D.magic = HETGPU_SURFACE_MAGIC;
  void *Dev = nullptr;
  if (cudaError_t E = publish(D, Dev))
    return ret(E);
  cudaSurfaceObject_t H = reinterpret_cast<cudaSurfaceObject_t>(Dev);
  {
    std::lock_guard<std::mutex> L(TexMutex);
    surfaces()[H] = *Res;
  }
  *Out = H;
  return ret(cudaSuccess);
}

HETGPU_API cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t Obj) {
  return ret(destroyObject(surfaces(), Obj));
}

HETGPU_API cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc *Out,
                                                        cudaSurfaceObject_t Obj) {
  std::lock_guard<std::mutex> L(TexMutex);
  auto It = surfaces().find(Obj);
  if (!Out || It == surfaces().end())
    return ret(cudaErrorInvalidValue);
  *Out = It->second;
  return ret(cudaSuccess);
}
