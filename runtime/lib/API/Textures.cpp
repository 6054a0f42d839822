//===- Textures.cpp - CUDA texture objects over linear memory -------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaCreateTextureObject and its companions for the resources hetGPU
/// implements: linear device memory (cudaResourceTypeLinear) read with
/// tex1Dfetch, in the element type or as normalised floats. The object is the
/// device address of a hetgpu_texture_object descriptor that the runtime
/// allocates and writes in device memory (hetgpu/cuda/texture_object.h), so
/// device code reads it like any other data and it migrates with device
/// memory. Arrays, mipmaps and pitched 2D resources (which need filtering and
/// coordinate normalisation in every target) are refused with
/// cudaErrorNotSupported and a HETGPU_LOG=info message naming the resource
/// type.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"
#include "Core/Log.h"
#include "hetgpu/cuda/texture_object.h"

#include <cstring>
#include <map>
#include <mutex>

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

const char *resourceName(cudaResourceType T) {
  switch (T) {
  case cudaResourceTypeArray: return "cudaResourceTypeArray";
  case cudaResourceTypeMipmappedArray: return "cudaResourceTypeMipmappedArray";
  case cudaResourceTypeLinear: return "cudaResourceTypeLinear";
  case cudaResourceTypePitch2D: return "cudaResourceTypePitch2D";
  }
  return "unknown resource type";
}

/// Checks a linear resource's channel format; bytes per element in \p Bytes.
cudaError_t checkFormat(const cudaChannelFormatDesc &F,
                        const cudaTextureDesc &T, unsigned &Bytes) {
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
      return cudaErrorInvalidChannelDescriptor;
    Total += B;
  }
  if (Total == 0 || F.f > cudaChannelFormatKindFloat)
    return cudaErrorInvalidChannelDescriptor;
  if (F.f == cudaChannelFormatKindFloat && T.readMode == cudaReadModeNormalizedFloat)
    return cudaErrorInvalidValue; // normalised reads are for integer formats
  Bytes = Total / 8;
  return cudaSuccess;
}

} // namespace

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
  if (Res->resType != cudaResourceTypeLinear) {
    log(LogLevel::Info, std::string("cudaCreateTextureObject: ") +
                            resourceName(Res->resType) +
                            " textures are not implemented (hetGPU supports "
                            "linear memory read with tex1Dfetch)");
    return ret(cudaErrorNotSupported);
  }
  if (View)
    return ret(cudaErrorInvalidValue); // CUDA: no views of linear memory
  if (!Res->res.linear.devPtr || Res->res.linear.sizeInBytes == 0)
    return ret(cudaErrorInvalidValue);
  unsigned Bytes = 0;
  if (cudaError_t E = checkFormat(Res->res.linear.desc, *Tex, Bytes))
    return ret(E);
  hetgpu_texture_object D;
  std::memset(&D, 0, sizeof(D));
  D.magic = HETGPU_TEXTURE_MAGIC;
  D.read_mode = static_cast<uint32_t>(Tex->readMode);
  D.base = reinterpret_cast<uint64_t>(Res->res.linear.devPtr);
  D.size = Res->res.linear.sizeInBytes;
  D.bits[0] = Res->res.linear.desc.x;
  D.bits[1] = Res->res.linear.desc.y;
  D.bits[2] = Res->res.linear.desc.z;
  D.bits[3] = Res->res.linear.desc.w;
  D.kind = static_cast<uint32_t>(Res->res.linear.desc.f);
  D.element = Bytes;
  void *Dev = nullptr;
  if (cudaError_t E = cudaMalloc(&Dev, sizeof(D)))
    return ret(E);
  if (cudaError_t E = cudaMemcpy(Dev, &D, sizeof(D), cudaMemcpyHostToDevice)) {
    cudaFree(Dev);
    return ret(E);
  }
  cudaTextureObject_t H = reinterpret_cast<cudaTextureObject_t>(Dev);
  {
    std::lock_guard<std::mutex> L(TexMutex);
    textures()[H] = TextureRecord{*Res, *Tex};
  }
  *Out = H;
  return ret(cudaSuccess);
}

HETGPU_API cudaError_t cudaDestroyTextureObject(cudaTextureObject_t Obj) {
  {
    std::lock_guard<std::mutex> L(TexMutex);
    if (!textures().erase(Obj))
      return ret(Obj ? cudaErrorInvalidValue : cudaSuccess);
  }
  return ret(cudaFree(reinterpret_cast<void *>(Obj)));
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
