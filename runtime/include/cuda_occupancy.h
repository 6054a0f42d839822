//===- cuda_occupancy.h - CUDA's header-only occupancy calculator -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The occupancy calculator of CUDA's cuda_occupancy.h, for code that
/// includes it (Thrust's CUDA backend does): how many blocks of a kernel fit
/// on one multiprocessor, limited by warps, blocks, registers and shared
/// memory. Host code only; the numbers come from the caller's
/// cudaOccDeviceProp (fill it from cudaGetDeviceProperties). The runtime's
/// own cudaOccupancyMaxActiveBlocksPerMultiprocessor answers for the device
/// that runs the kernel (docs/Libraries.md).
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_CUDA_OCCUPANCY_H
#define HETGPU_CUDA_OCCUPANCY_H

#include <stddef.h>

typedef enum cudaOccError_enum {
  CUDA_OCC_SUCCESS = 0,
  CUDA_OCC_ERROR_INVALID_INPUT = 1,
  CUDA_OCC_ERROR_UNKNOWN_DEVICE = 2,
} cudaOccError;

typedef enum cudaOccLimitingFactor_enum {
  OCC_LIMIT_WARPS = 0x01,
  OCC_LIMIT_REGISTERS = 0x02,
  OCC_LIMIT_SHARED_MEMORY = 0x04,
  OCC_LIMIT_BLOCKS = 0x08,
} cudaOccLimitingFactor;

typedef enum cudaOccCacheConfig_enum {
  CACHE_PREFER_NONE = 0x00,
  CACHE_PREFER_SHARED = 0x01,
  CACHE_PREFER_L1 = 0x02,
  CACHE_PREFER_EQUAL = 0x03,
} cudaOccCacheConfig;

/// What the calculator needs of a device.
struct cudaOccDeviceProp {
  int computeMajor = 8;
  int computeMinor = 0;
  int maxThreadsPerBlock = 1024;
  int maxThreadsPerMultiprocessor = 2048;
  int regsPerBlock = 65536;
  int regsPerMultiprocessor = 65536;
  int warpSize = 32;
  size_t sharedMemPerBlock = 49152;
  size_t sharedMemPerMultiprocessor = 167936;
  int numSms = 1;
  size_t sharedMemPerBlockOptin = 166912;
  size_t reservedSharedMemPerBlock = 1024;
  int maxBlocksPerMultiprocessor = 32;

  cudaOccDeviceProp() = default;
  /// From cudaDeviceProp (or anything with its field names).
  template <typename DeviceProp>
  cudaOccDeviceProp(const DeviceProp &P)
      : computeMajor(P.major), computeMinor(P.minor),
        maxThreadsPerBlock(P.maxThreadsPerBlock),
        maxThreadsPerMultiprocessor(P.maxThreadsPerMultiProcessor),
        regsPerBlock(P.regsPerBlock),
        regsPerMultiprocessor(P.regsPerMultiprocessor),
        warpSize(P.warpSize), sharedMemPerBlock(P.sharedMemPerBlock),
        sharedMemPerMultiprocessor(P.sharedMemPerMultiprocessor),
        numSms(P.multiProcessorCount),
        sharedMemPerBlockOptin(P.sharedMemPerBlockOptin),
        reservedSharedMemPerBlock(P.reservedSharedMemPerBlock),
        maxBlocksPerMultiprocessor(P.maxBlocksPerMultiProcessor) {}
};

/// What the calculator needs of a kernel.
struct cudaOccFuncAttributes {
  int maxThreadsPerBlock = 1024;
  int numRegs = 32;
  size_t sharedSizeBytes = 0;

  cudaOccFuncAttributes() = default;
  template <typename FuncAttributes>
  cudaOccFuncAttributes(const FuncAttributes &A)
      : maxThreadsPerBlock(A.maxThreadsPerBlock), numRegs(A.numRegs),
        sharedSizeBytes(A.sharedSizeBytes) {}
};

struct cudaOccDeviceState {
  cudaOccCacheConfig cacheConfig = CACHE_PREFER_NONE;
};

struct cudaOccResult {
  int activeBlocksPerMultiprocessor = 0;
  unsigned int limitingFactors = 0;
  int blockLimitRegs = 0;
  int blockLimitSharedMem = 0;
  int blockLimitWarps = 0;
  int blockLimitBlocksPerMultiprocessor = 0;
  int allocatedRegistersPerBlock = 0;
  size_t allocatedSharedMemPerBlock = 0;
};

/// Blocks of \p BlockSize threads with \p DynamicSMem bytes of dynamic
/// shared memory that fit on one multiprocessor at once.
static inline cudaOccError
cudaOccMaxActiveBlocksPerMultiprocessor(cudaOccResult *Result,
                                        const cudaOccDeviceProp *Prop,
                                        const cudaOccFuncAttributes *Attr,
                                        const cudaOccDeviceState *,
                                        int BlockSize, size_t DynamicSMem) {
  if (!Result || !Prop || !Attr || BlockSize <= 0 || Prop->warpSize <= 0 ||
      BlockSize > Prop->maxThreadsPerBlock ||
      BlockSize > Attr->maxThreadsPerBlock)
    return CUDA_OCC_ERROR_INVALID_INPUT;
  *Result = cudaOccResult();
  int Warps = (BlockSize + Prop->warpSize - 1) / Prop->warpSize;
  int MaxWarps = Prop->maxThreadsPerMultiprocessor / Prop->warpSize;
  Result->blockLimitWarps = MaxWarps / Warps;
  Result->blockLimitBlocksPerMultiprocessor = Prop->maxBlocksPerMultiprocessor;
  // Registers are allocated per warp in units of 256.
  int RegsPerWarp = ((Attr->numRegs * Prop->warpSize + 255) / 256) * 256;
  Result->allocatedRegistersPerBlock = RegsPerWarp * Warps;
  Result->blockLimitRegs =
      Result->allocatedRegistersPerBlock > Prop->regsPerBlock
          ? 0
          : (RegsPerWarp ? Prop->regsPerMultiprocessor / RegsPerWarp / Warps
                         : Result->blockLimitBlocksPerMultiprocessor);
  // Shared memory is allocated in 128-byte units plus the reserved part.
  size_t Shared = Attr->sharedSizeBytes + DynamicSMem;
  size_t PerBlock = ((Shared + 127) / 128) * 128 + Prop->reservedSharedMemPerBlock;
  Result->allocatedSharedMemPerBlock = PerBlock;
  Result->blockLimitSharedMem =
      Shared > Prop->sharedMemPerBlockOptin
          ? 0
          : static_cast<int>(Prop->sharedMemPerMultiprocessor / PerBlock);
  int Limits[4] = {Result->blockLimitWarps, Result->blockLimitRegs,
                   Result->blockLimitSharedMem,
                   Result->blockLimitBlocksPerMultiprocessor};
  const unsigned Factors[4] = {OCC_LIMIT_WARPS, OCC_LIMIT_REGISTERS,
                               OCC_LIMIT_SHARED_MEMORY, OCC_LIMIT_BLOCKS};
  int Active = Limits[0];
  for (int I = 1; I < 4; ++I)
    Active = Limits[I] < Active ? Limits[I] : Active;
  for (int I = 0; I < 4; ++I)
    if (Limits[I] == Active)
      Result->limitingFactors |= Factors[I];
  Result->activeBlocksPerMultiprocessor = Active;
  return CUDA_OCC_SUCCESS;
}

#endif // HETGPU_CUDA_OCCUPANCY_H
