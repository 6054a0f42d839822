//===- DeviceProperties.cpp - CUDA device properties ----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaGetDeviceProperties (also under its pre-CUDA-12 symbol name) and
/// cudaDeviceGetAttribute, filled from Core's DeviceProperties; the texture
/// and surface extents are the CUDA array limits Arrays.cpp enforces (the
/// same on every device: textures are sampled in software). Attributes of
/// features hetGPU devices do not have (clusters, ...) are 0.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"
#include "Core/GridRounds.h"

#include <algorithm>
#include <cstring>
#include <string>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

namespace {

/// The largest textures and surfaces, as the array limits (array_limits).
void fillTextureLimits(cudaDeviceProp &P) {
  using namespace array_limits;
  P.maxTexture1D = P.maxTexture1DMipmap = P.maxSurface1D = Width1D;
  P.maxTexture1DLinear = 1 << 27;
  P.maxTexture2D[0] = P.maxTexture2DMipmap[0] = P.maxTexture2DGather[0] =
      P.maxTexture2DLinear[0] = P.maxSurface2D[0] = Width2D;
  P.maxTexture2D[1] = P.maxTexture2DMipmap[1] = P.maxTexture2DGather[1] =
      P.maxTexture2DLinear[1] = P.maxSurface2D[1] = Height2D;
  P.maxTexture2DLinear[2] = 1 << 21; // pitch in bytes
  for (int I = 0; I < 3; ++I)
    P.maxTexture3D[I] = P.maxSurface3D[I] = Extent3D;
  P.maxTexture1DLayered[0] = P.maxSurface1DLayered[0] = LayeredExtent;
  P.maxTexture1DLayered[1] = P.maxSurface1DLayered[1] = Layers;
  for (int I = 0; I < 2; ++I)
    P.maxTexture2DLayered[I] = P.maxSurface2DLayered[I] = LayeredExtent;
  P.maxTexture2DLayered[2] = P.maxSurface2DLayered[2] = Layers;
  P.maxTextureCubemap = P.maxSurfaceCubemap = CubemapWidth;
  P.maxTextureCubemapLayered[0] = P.maxSurfaceCubemapLayered[0] = CubemapWidth;
  P.maxTextureCubemapLayered[1] = P.maxSurfaceCubemapLayered[1] = CubemapLayers;
}

/// The texture and surface extent attributes (0 for the others, \p Found
/// false).
int textureAttribute(const cudaDeviceProp &P, cudaDeviceAttr A, bool &Found) {
  Found = true;
  switch (A) {
  case cudaDevAttrMaxTexture1DWidth:
    return P.maxTexture1D;
  case cudaDevAttrMaxTexture2DWidth:
    return P.maxTexture2D[0];
  case cudaDevAttrMaxTexture2DHeight:
    return P.maxTexture2D[1];
  case cudaDevAttrMaxTexture3DWidth:
    return P.maxTexture3D[0];
  case cudaDevAttrMaxTexture3DHeight:
    return P.maxTexture3D[1];
  case cudaDevAttrMaxTexture3DDepth:
    return P.maxTexture3D[2];
  case cudaDevAttrMaxTexture2DLayeredWidth:
    return P.maxTexture2DLayered[0];
  case cudaDevAttrMaxTexture2DLayeredHeight:
    return P.maxTexture2DLayered[1];
  case cudaDevAttrMaxTexture2DLayeredLayers:
    return P.maxTexture2DLayered[2];
  case cudaDevAttrMaxTexture1DLayeredWidth:
    return P.maxTexture1DLayered[0];
  case cudaDevAttrMaxTexture1DLayeredLayers:
    return P.maxTexture1DLayered[1];
  case cudaDevAttrMaxTexture2DGatherWidth:
    return P.maxTexture2DGather[0];
  case cudaDevAttrMaxTexture2DGatherHeight:
    return P.maxTexture2DGather[1];
  case cudaDevAttrMaxTextureCubemapWidth:
    return P.maxTextureCubemap;
  case cudaDevAttrMaxTextureCubemapLayeredWidth:
    return P.maxTextureCubemapLayered[0];
  case cudaDevAttrMaxTextureCubemapLayeredLayers:
    return P.maxTextureCubemapLayered[1];
  case cudaDevAttrMaxSurface1DWidth:
    return P.maxSurface1D;
  case cudaDevAttrMaxSurface2DWidth:
    return P.maxSurface2D[0];
  case cudaDevAttrMaxSurface2DHeight:
    return P.maxSurface2D[1];
  case cudaDevAttrMaxSurface3DWidth:
    return P.maxSurface3D[0];
  case cudaDevAttrMaxSurface3DHeight:
    return P.maxSurface3D[1];
  case cudaDevAttrMaxSurface3DDepth:
    return P.maxSurface3D[2];
  case cudaDevAttrMaxSurface1DLayeredWidth:
    return P.maxSurface1DLayered[0];
  case cudaDevAttrMaxSurface1DLayeredLayers:
    return P.maxSurface1DLayered[1];
  case cudaDevAttrMaxSurface2DLayeredWidth:
    return P.maxSurface2DLayered[0];
  case cudaDevAttrMaxSurface2DLayeredHeight:
    return P.maxSurface2DLayered[1];
  case cudaDevAttrMaxSurface2DLayeredLayers:
    return P.maxSurface2DLayered[2];
  case cudaDevAttrMaxSurfaceCubemapWidth:
    return P.maxSurfaceCubemap;
  case cudaDevAttrMaxSurfaceCubemapLayeredWidth:
    return P.maxSurfaceCubemapLayered[0];
  case cudaDevAttrMaxSurfaceCubemapLayeredLayers:
    return P.maxSurfaceCubemapLayered[1];
  case cudaDevAttrMaxTexture1DLinearWidth:
    return P.maxTexture1DLinear;
  case cudaDevAttrMaxTexture2DLinearWidth:
    return P.maxTexture2DLinear[0];
  case cudaDevAttrMaxTexture2DLinearHeight:
    return P.maxTexture2DLinear[1];
  case cudaDevAttrMaxTexture2DLinearPitch:
    return P.maxTexture2DLinear[2];
  case cudaDevAttrMaxTexture2DMipmappedWidth:
    return P.maxTexture2DMipmap[0];
  case cudaDevAttrMaxTexture2DMipmappedHeight:
    return P.maxTexture2DMipmap[1];
  case cudaDevAttrMaxTexture1DMipmappedWidth:
    return P.maxTexture1DMipmap;
  default:
    Found = false;
    return 0;
  }
}

void copyName(char *Dst, size_t N, const std::string &S) {
  size_t L = std::min(N - 1, S.size());
  memcpy(Dst, S.data(), L);
  Dst[L] = 0;
}

} // namespace

HETGPU_API cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *Prop,
                                                  int Device) {
  if (!Prop)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = RT().init())
    return ret(E);
  DeviceContext *Ctx = RT().context(Device);
  if (!Ctx)
    return ret(cudaErrorInvalidDevice);
  const DeviceProperties &P = Ctx->Dev->properties();
  memset(Prop, 0, sizeof(*Prop));
  copyName(Prop->name, sizeof(Prop->name), P.Name);
  uint64_t H = container::fnv1a64(P.Name.data(), P.Name.size(), Device + 1);
  memcpy(Prop->uuid.bytes, &H, 8);
  memcpy(Prop->uuid.bytes + 8, &H, 8);
  Prop->totalGlobalMem = P.TotalMemory;
  Prop->sharedMemPerBlock = P.SharedMemPerBlock;
  Prop->regsPerBlock = P.RegsPerBlock;
  Prop->warpSize = 32;
  Prop->memPitch = 2147483647;
  Prop->maxThreadsPerBlock = P.MaxThreadsPerBlock;
  for (int I = 0; I < 3; ++I) {
    Prop->maxThreadsDim[I] = P.MaxBlockDim[I];
    Prop->maxGridSize[I] = static_cast<int>(std::min<uint32_t>(P.MaxGridDim[I], 2147483647u));
  }
  Prop->clockRate = P.ClockRateKHz;
  Prop->totalConstMem = P.TotalConstMem;
  Prop->major = P.ComputeMajor;
  Prop->minor = P.ComputeMinor;
  Prop->textureAlignment = 512;
  Prop->texturePitchAlignment = 32;
  Prop->deviceOverlap = 1;
  Prop->multiProcessorCount = P.MultiProcessorCount;
  Prop->integrated = P.Integrated;
  Prop->canMapHostMemory = P.Integrated;
  Prop->computeMode = cudaComputeModeDefault;
  Prop->surfaceAlignment = 512;
  Prop->concurrentKernels = P.ConcurrentKernels;
  // Cooperative launches (API/Launch.cpp's limits) everywhere; OpenCL and
  // Level Zero promise no work-groups running at once (PoCL runs two groups
  // of a two-unit device one after the other), so there the launch runs in
  // rounds (Core/GridRounds.h), which memcheck's translation lacks.
  Prop->cooperativeLaunch =
      (P.Kind != BackendKind::OpenCL && P.Kind != BackendKind::LevelZero) ||
      runsGridSyncInRounds(P);
  Prop->pciBusID = P.PciBusId;
  Prop->asyncEngineCount = 1;
  Prop->unifiedAddressing = 1;
  Prop->memoryClockRate = P.MemoryClockRateKHz;
  Prop->memoryBusWidth = P.MemoryBusWidth;
  Prop->l2CacheSize = P.L2CacheSize;
  Prop->maxThreadsPerMultiProcessor = P.MaxThreadsPerMultiProcessor;
  Prop->streamPrioritiesSupported = 0;
  Prop->globalL1CacheSupported = 1;
  Prop->localL1CacheSupported = 1;
  Prop->sharedMemPerMultiprocessor = P.SharedMemPerMultiprocessor;
  Prop->regsPerMultiprocessor = P.RegsPerBlock;
  Prop->managedMemory = P.ManagedMemory;
  Prop->hostNativeAtomicSupported = P.Integrated;
  Prop->singleToDoublePrecisionPerfRatio = 2;
  Prop->pageableMemoryAccess = P.Integrated;
  Prop->concurrentManagedAccess = P.Integrated;
  Prop->sharedMemPerBlockOptin = P.SharedMemPerBlockOptin;
  Prop->directManagedMemAccessFromHost = P.Integrated;
  Prop->maxBlocksPerMultiProcessor = P.MaxBlocksPerMultiProcessor;
  fillTextureLimits(*Prop);
  return cudaSuccess;
}

extern "C" __attribute__((visibility("default"))) cudaError_t
hetgpuGetDevicePropertiesLegacy(struct cudaDeviceProp *Prop, int Device)
    __asm__("cudaGetDeviceProperties");
cudaError_t hetgpuGetDevicePropertiesLegacy(struct cudaDeviceProp *Prop,
                                            int Device) {
  return cudaGetDeviceProperties_v2(Prop, Device);
}

HETGPU_API cudaError_t cudaDeviceGetAttribute(int *Value,
                                              enum cudaDeviceAttr Attr,
                                              int Device) {
  if (!Value)
    return ret(cudaErrorInvalidValue);
  cudaDeviceProp P;
  if (cudaError_t E = cudaGetDeviceProperties_v2(&P, Device))
    return E;
  int V = 0;
  switch (Attr) {
  case cudaDevAttrMaxThreadsPerBlock: V = P.maxThreadsPerBlock; break;
  case cudaDevAttrMaxBlockDimX: V = P.maxThreadsDim[0]; break;
  case cudaDevAttrMaxBlockDimY: V = P.maxThreadsDim[1]; break;
  case cudaDevAttrMaxBlockDimZ: V = P.maxThreadsDim[2]; break;
  case cudaDevAttrMaxGridDimX: V = P.maxGridSize[0]; break;
  case cudaDevAttrMaxGridDimY: V = P.maxGridSize[1]; break;
  case cudaDevAttrMaxGridDimZ: V = P.maxGridSize[2]; break;
  case cudaDevAttrMaxSharedMemoryPerBlock: V = static_cast<int>(P.sharedMemPerBlock); break;
  case cudaDevAttrTotalConstantMemory: V = static_cast<int>(P.totalConstMem); break;
  case cudaDevAttrWarpSize: V = 32; break;
  case cudaDevAttrMaxPitch: V = static_cast<int>(P.memPitch); break;
  case cudaDevAttrMaxRegistersPerBlock: V = P.regsPerBlock; break;
  case cudaDevAttrClockRate: V = P.clockRate; break;
  case cudaDevAttrTextureAlignment: V = static_cast<int>(P.textureAlignment); break;
  case cudaDevAttrGpuOverlap: V = P.deviceOverlap; break;
  case cudaDevAttrMultiProcessorCount: V = P.multiProcessorCount; break;
  case cudaDevAttrIntegrated: V = P.integrated; break;
  case cudaDevAttrCanMapHostMemory: V = P.canMapHostMemory; break;
  case cudaDevAttrComputeMode: V = P.computeMode; break;
  case cudaDevAttrSurfaceAlignment: V = static_cast<int>(P.surfaceAlignment); break;
  case cudaDevAttrConcurrentKernels: V = P.concurrentKernels; break;
  case cudaDevAttrCooperativeLaunch: V = P.cooperativeLaunch; break;
  case cudaDevAttrPciBusId: V = P.pciBusID; break;
  case cudaDevAttrMemoryClockRate: V = P.memoryClockRate; break;
  case cudaDevAttrGlobalMemoryBusWidth: V = P.memoryBusWidth; break;
  case cudaDevAttrL2CacheSize: V = P.l2CacheSize; break;
  case cudaDevAttrMaxThreadsPerMultiProcessor: V = P.maxThreadsPerMultiProcessor; break;
  case cudaDevAttrAsyncEngineCount: V = P.asyncEngineCount; break;
  case cudaDevAttrUnifiedAddressing: V = P.unifiedAddressing; break;
  case cudaDevAttrTexturePitchAlignment: V = static_cast<int>(P.texturePitchAlignment); break;
  case cudaDevAttrComputeCapabilityMajor: V = P.major; break;
  case cudaDevAttrComputeCapabilityMinor: V = P.minor; break;
  case cudaDevAttrGlobalL1CacheSupported: V = 1; break;
  case cudaDevAttrLocalL1CacheSupported: V = 1; break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor: V = static_cast<int>(P.sharedMemPerMultiprocessor); break;
  case cudaDevAttrMaxRegistersPerMultiprocessor: V = P.regsPerMultiprocessor; break;
  case cudaDevAttrManagedMemory: V = P.managedMemory; break;
  case cudaDevAttrHostNativeAtomicSupported: V = P.hostNativeAtomicSupported; break;
  case cudaDevAttrSingleToDoublePrecisionPerfRatio: V = P.singleToDoublePrecisionPerfRatio; break;
  case cudaDevAttrPageableMemoryAccess: V = P.pageableMemoryAccess; break;
  case cudaDevAttrConcurrentManagedAccess: V = P.concurrentManagedAccess; break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin: V = static_cast<int>(P.sharedMemPerBlockOptin); break;
  case cudaDevAttrDirectManagedMemAccessFromHost: V = P.directManagedMemAccessFromHost; break;
  case cudaDevAttrMaxBlocksPerMultiprocessor: V = P.maxBlocksPerMultiProcessor; break;
  default: {
    bool Texture;
    V = textureAttribute(P, Attr, Texture);
    if (Texture)
      break;
    if (Attr <= 0 || Attr >= cudaDevAttrMax)
      return ret(cudaErrorInvalidValue);
    V = 0; // a feature hetGPU devices do not have (clusters, ...)
  }
  }
  *Value = V;
  return cudaSuccess;
}
