//===- MipmappedArrays.cpp - CUDA mipmapped arrays ------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaMallocMipmappedArray, cudaGetMipmappedArrayLevel and
/// cudaFreeMipmappedArray. A mipmapped array is one CUDA array per level
/// (Arrays.cpp, owned by the mipmapped array so that cudaFreeArray refuses
/// them): level i has width max(1, width >> i), and so height and depth
/// where present; the layers of a layered array and the 6 faces of a
/// cubemap stay. Texture objects over them (Textures.cpp) read every level.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"
#include "Core/Log.h"
#include "hetgpu/cuda/texture_object.h"

#include <map>
#include <mutex>
#include <string>

using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

struct cudaMipmappedArray {
  std::vector<cudaArray_t> Levels;
};

namespace {

std::mutex MipmapMutex;
/// Live mipmapped arrays (the handle is the record's address).
std::map<const cudaMipmappedArray *, cudaMipmappedArray *> &mipmaps() {
  static std::map<const cudaMipmappedArray *, cudaMipmappedArray *> M;
  return M;
}

size_t halved(size_t N, unsigned Level) {
  if (N == 0)
    return 0;
  return (N >> Level) ? N >> Level : 1;
}

/// The most levels an extent has: 1 + floor(log2) of its largest mipmapped
/// dimension (not the layers, nor a cubemap's faces).
unsigned maxLevels(cudaExtent E, unsigned Flags) {
  size_t Big = E.width > E.height ? E.width : E.height;
  if (!(Flags & (cudaArrayLayered | cudaArrayCubemap)) && E.depth > Big)
    Big = E.depth;
  unsigned N = 1;
  while (Big >> N)
    ++N;
  return N;
}

void freeLevels(cudaMipmappedArray *M) {
  for (cudaArray_t A : M->Levels)
    releaseArray(A);
  delete M;
}

} // namespace

bool api::findMipmappedArray(cudaMipmappedArray_const_t M,
                             std::vector<ArrayInfo> &Out) {
  std::vector<cudaArray_t> Levels;
  {
    std::lock_guard<std::mutex> L(MipmapMutex);
    auto It = mipmaps().find(M);
    if (It == mipmaps().end())
      return false;
    Levels = It->second->Levels;
  }
  Out.assign(Levels.size(), ArrayInfo());
  for (size_t I = 0; I < Levels.size(); ++I)
    if (!findArray(Levels[I], Out[I]))
      return false;
  return true;
}

HETGPU_API cudaError_t cudaMallocMipmappedArray(
    cudaMipmappedArray_t *Out, const cudaChannelFormatDesc *Desc,
    cudaExtent Ext, unsigned NumLevels, unsigned Flags) {
  if (!Out || !Desc)
    return ret(cudaErrorInvalidValue);
  // CUDA clamps the count to [1, what the extent has].
  unsigned Levels = maxLevels(Ext, Flags);
  if (NumLevels >= 1 && NumLevels < Levels)
    Levels = NumLevels;
  if (Levels > HETGPU_TEXTURE_MAX_LEVELS)
    Levels = HETGPU_TEXTURE_MAX_LEVELS;
  bool KeepDepth = Flags & (cudaArrayLayered | cudaArrayCubemap);
  auto *M = new cudaMipmappedArray;
  for (unsigned I = 0; I < Levels; ++I) {
    cudaArray_t A = nullptr;
    cudaError_t E =
        allocArray(&A, Desc, halved(Ext.width, I), halved(Ext.height, I),
                   KeepDepth ? Ext.depth : halved(Ext.depth, I), Flags,
                   "cudaMallocMipmappedArray", M);
    if (E) {
      freeLevels(M);
      return ret(E);
    }
    M->Levels.push_back(A);
  }
  {
    std::lock_guard<std::mutex> L(MipmapMutex);
    mipmaps()[M] = M;
  }
  *Out = M;
  return ret(cudaSuccess);
}

HETGPU_API cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *Out,
                                                  cudaMipmappedArray_const_t M,
                                                  unsigned Level) {
  if (!Out)
    return ret(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> L(MipmapMutex);
  auto It = mipmaps().find(M);
  if (It == mipmaps().end()) {
    log(LogLevel::Info, "cudaGetMipmappedArrayLevel: not a live mipmapped "
                        "array");
    return ret(cudaErrorInvalidResourceHandle);
  }
  if (Level >= It->second->Levels.size()) {
    log(LogLevel::Info, "cudaGetMipmappedArrayLevel: level " +
                            std::to_string(Level) + " of an array of " +
                            std::to_string(It->second->Levels.size()) +
                            " levels");
    return ret(cudaErrorInvalidValue);
  }
  *Out = It->second->Levels[Level];
  return ret(cudaSuccess);
}

HETGPU_API cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t M) {
  if (!M)
    return ret(cudaSuccess);
  cudaMipmappedArray *Rec;
  {
    std::lock_guard<std::mutex> L(MipmapMutex);
    auto It = mipmaps().find(M);
    if (It == mipmaps().end()) {
      log(LogLevel::Info, "cudaFreeMipmappedArray: not a live mipmapped "
                          "array (freed twice or never allocated)");
      return ret(cudaErrorInvalidValue);
    }
    Rec = It->second;
    mipmaps().erase(It);
  }
  freeLevels(Rec);
  return ret(cudaSuccess);
}
