//===- MemCheckTest.cpp - Copies and memsets checked against the table ----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The checks of API/MemCheck.cpp and the freed-memory quarantine of
/// Core/AllocTable.cpp on the CPU device (part of HetGPURuntimeAPITests,
/// whose main() selects the device). test/Runtime/bad-api-table.cu holds
/// the whole table of CUDA 13's codes.
///
//===----------------------------------------------------------------------===//

#include "cuda_runtime_api.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

char *devAlloc(size_t Bytes) {
  void *P = nullptr;
  EXPECT_EQ(cudaMalloc(&P, Bytes), cudaSuccess);
  return static_cast<char *>(P);
}

TEST(MemCheck, RangesOfEveryOperation) {
  std::vector<char> H(4096, 1);
  char *D = devAlloc(256);
  EXPECT_EQ(cudaMemcpy(D, H.data(), 256, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(D, H.data(), 257, cudaMemcpyHostToDevice),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(D + 128, H.data(), 129, cudaMemcpyHostToDevice),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(H.data(), D + 255, 2, cudaMemcpyDeviceToHost),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(H.data(), D, size_t(1) << 62, cudaMemcpyDeviceToHost),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemset(D + 1, 0, 256), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemset(D + 1, 0, 255), cudaSuccess);
  // 2D: the whole region, before any row is copied.
  EXPECT_EQ(cudaMemset(D, 7, 256), cudaSuccess);
  EXPECT_EQ(cudaMemcpy2D(D, 64, H.data(), 64, 64, 5, cudaMemcpyHostToDevice),
            cudaErrorInvalidValue);
  char Back[256];
  EXPECT_EQ(cudaMemcpy(Back, D, 256, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(Back[0], 7) << "a refused 2D copy copied its first rows";
  EXPECT_EQ(cudaMemcpy2D(D, 64, H.data(), 64, 64, 4, cudaMemcpyHostToDevice),
            cudaSuccess);
  // cudaMemcpyDefault: the table says which side is which.
  EXPECT_EQ(cudaMemcpy(D, H.data(), 300, cudaMemcpyDefault),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(H.data(), D, 256, cudaMemcpyDefault), cudaSuccess);
  EXPECT_EQ(H[0], 1);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFree(D), cudaSuccess);
}

TEST(MemCheck, FreedMemoryIsKnownWhileQuarantined) {
  char *Live = devAlloc(64);
  char *A = devAlloc(1024);
  ASSERT_EQ(cudaFree(A), cudaSuccess);
  char H[64] = {};
  // Freed: refused, except in a device-to-device copy (CUDA 13 returns
  // success and copies nothing).
  EXPECT_EQ(cudaMemcpy(A, H, 64, cudaMemcpyHostToDevice),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemset(A, 0, 64), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(Live, A, 64, cudaMemcpyDeviceToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(A, H, 64, cudaMemcpyDefault), cudaErrorInvalidValue)
      << "a quarantined block is still device memory for UVA";
  // The quarantine holds 64 MiB: 80 frees of 1 MiB push A out, back to
  // the heap; A is then unknown memory (a bogus device pointer).
  for (int I = 0; I < 80; ++I)
    ASSERT_EQ(cudaFree(devAlloc(1 << 20)), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(Live, A, 64, cudaMemcpyDeviceToDevice),
            cudaErrorInvalidValue);
  // A large block goes back at once and is not remembered.
  char *Big = devAlloc(16 << 20);
  ASSERT_EQ(cudaFree(Big), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(Live, Big, 64, cudaMemcpyDeviceToDevice),
            cudaErrorInvalidValue);
  // A reset releases the quarantine.
  char *C = devAlloc(64);
  ASSERT_EQ(cudaFree(C), cudaSuccess);
  ASSERT_EQ(cudaDeviceReset(), cudaSuccess);
  Live = devAlloc(64);
  if (Live != C) // the heap may hand C out again: then it is live memory
    EXPECT_EQ(cudaMemcpy(Live, C, 64, cudaMemcpyDeviceToDevice),
              cudaErrorInvalidValue);
  cudaFree(Live);
  cudaGetLastError();
}

TEST(MemCheck, PageLockedMemoryIsEitherSide) {
  void *P = nullptr;
  ASSERT_EQ(cudaMallocHost(&P, 256), cudaSuccess);
  char *D = devAlloc(256);
  EXPECT_EQ(cudaMemset(P, 3, 256), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(D, P, 256, cudaMemcpyDeviceToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(P, D, 257, cudaMemcpyDeviceToHost),
            cudaErrorInvalidValue);
  char H = 0;
  EXPECT_EQ(cudaMemcpy(&H, D + 255, 1, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(H, 3);
  cudaFree(D);
  cudaFreeHost(P);
  cudaGetLastError();
}

} // namespace
