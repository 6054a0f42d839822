//===- Occupancy.cpp - CUDA occupancy calculator --------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaOccupancyMaxActiveBlocksPerMultiprocessor[WithFlags] and the
/// runtime side of cudaOccupancyMaxPotentialBlockSize (the header's template
/// calls __hetgpuOccupancyMaxPotentialBlockSize), from the device's limits
/// and the kernel's static shared memory and maximum block size.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"

#include <algorithm>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

int api::occupancy(const DeviceProperties &P, const container::KernelInfo *K,
                   int BlockSize, size_t DynShared) {
  if (BlockSize <= 0 || static_cast<uint32_t>(BlockSize) > P.MaxThreadsPerBlock)
    return 0;
  if (K && K->MaxThreads && static_cast<uint32_t>(BlockSize) > K->MaxThreads)
    return 0;
  uint32_t Warps = (BlockSize + 31) / 32;
  uint32_t N = std::max<uint32_t>(P.MaxThreadsPerMultiProcessor / (Warps * 32),
                                  0);
  N = std::min(N, P.MaxBlocksPerMultiProcessor);
  uint64_t Shared = (K ? K->StaticShared : 0) + DynShared;
  if (Shared) {
    if (Shared > P.SharedMemPerBlockOptin)
      return 0;
    N = std::min<uint64_t>(N, P.SharedMemPerMultiprocessor / Shared);
  }
  return static_cast<int>(N);
}

HETGPU_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *NumBlocks, const void *Func, int BlockSize, size_t DynShared,
    unsigned int) {
  if (!NumBlocks)
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  KernelRecord *K = RT().findKernel(Func);
  if (!K)
    return ret(cudaErrorInvalidDeviceFunction);
  *NumBlocks = occupancy(Ctx->Dev->properties(), K->Info, BlockSize, DynShared);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *NumBlocks, const void *Func, int BlockSize, size_t DynShared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      NumBlocks, Func, BlockSize, DynShared, 0);
}

HETGPU_API cudaError_t __hetgpuOccupancyMaxPotentialBlockSize(
    int *MinGridSize, int *BlockSize, const void *Func, size_t DynShared,
    int BlockSizeLimit) {
  if (!MinGridSize || !BlockSize)
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  KernelRecord *K = RT().findKernel(Func);
  if (!K)
    return ret(cudaErrorInvalidDeviceFunction);
  const DeviceProperties &P = Ctx->Dev->properties();
  int Max = static_cast<int>(P.MaxThreadsPerBlock);
  if (K->Info && K->Info->MaxThreads)
    Max = std::min<int>(Max, K->Info->MaxThreads);
  if (BlockSizeLimit > 0)
    Max = std::min(Max, BlockSizeLimit);
  int BestSize = 0, BestThreads = -1, BestBlocks = 0;
  for (int B = Max; B > 0; B -= (B % 32 ? B % 32 : 32)) {
    int N = occupancy(P, K->Info, B, DynShared);
    if (N * B > BestThreads) {
      BestThreads = N * B;
      BestSize = B;
      BestBlocks = N;
    }
  }
  *BlockSize = BestSize;
  *MinGridSize = BestBlocks * static_cast<int>(P.MultiProcessorCount);
  return cudaSuccess;
}
