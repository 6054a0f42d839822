//===- CudaErrorsTest.cpp - Tests of the cudaError_t tables ---------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Names, strings and numeric values as CUDA 12 has them, and the mapping
/// of backend errors.
///
//===----------------------------------------------------------------------===//

#include "Core/CudaErrors.h"

#include "gtest/gtest.h"

#include <set>
#include <string>

using namespace hetgpu::rt;

namespace {

TEST(CudaErrors, ValuesNamesAndStrings) {
  EXPECT_EQ(cudaErrorInvalidValue, 1);
  EXPECT_EQ(cudaErrorMemoryAllocation, 2);
  EXPECT_EQ(cudaErrorInvalidConfiguration, 9);
  EXPECT_EQ(cudaErrorInvalidSymbol, 13);
  EXPECT_EQ(cudaErrorInvalidDevicePointer, 17);
  EXPECT_EQ(cudaErrorInvalidMemcpyDirection, 21);
  EXPECT_EQ(cudaErrorInvalidDeviceFunction, 98);
  EXPECT_EQ(cudaErrorNoDevice, 100);
  EXPECT_EQ(cudaErrorInvalidDevice, 101);
  EXPECT_EQ(cudaErrorInvalidKernelImage, 200);
  EXPECT_EQ(cudaErrorNoKernelImageForDevice, 209);
  EXPECT_EQ(cudaErrorInvalidResourceHandle, 400);
  EXPECT_EQ(cudaErrorNotReady, 600);
  EXPECT_EQ(cudaErrorIllegalAddress, 700);
  EXPECT_EQ(cudaErrorLaunchOutOfResources, 701);
  EXPECT_EQ(cudaErrorAssert, 710);
  EXPECT_EQ(cudaErrorLaunchFailure, 719);
  EXPECT_EQ(cudaErrorNotSupported, 801);
  EXPECT_EQ(cudaErrorUnknown, 999);

  EXPECT_STREQ(cudaErrorNameOrNull(cudaSuccess), "cudaSuccess");
  EXPECT_STREQ(cudaErrorStringOrNull(cudaSuccess), "no error");
  EXPECT_STREQ(cudaErrorNameOrNull(cudaErrorInvalidValue),
               "cudaErrorInvalidValue");
  EXPECT_STREQ(cudaErrorStringOrNull(cudaErrorInvalidValue),
               "invalid argument");
  EXPECT_STREQ(cudaErrorStringOrNull(cudaErrorMemoryAllocation),
               "out of memory");
  EXPECT_STREQ(cudaErrorStringOrNull(cudaErrorInvalidConfiguration),
               "invalid configuration argument");
  EXPECT_STREQ(cudaErrorStringOrNull(cudaErrorAssert),
               "device-side assert triggered");
  EXPECT_STREQ(cudaErrorStringOrNull(cudaErrorLaunchFailure),
               "unspecified launch failure");
  EXPECT_STREQ(cudaErrorStringOrNull(cudaErrorNoKernelImageForDevice),
               "no kernel image is available for execution on the device");
  EXPECT_STREQ(cudaErrorStringOrNull(cudaErrorNoDevice),
               "no CUDA-capable device is detected");
  EXPECT_EQ(cudaErrorNameOrNull(12345), nullptr);
  EXPECT_EQ(cudaErrorStringOrNull(-1), nullptr);
}

TEST(CudaErrors, EveryEntryHasAUniqueName) {
  std::set<std::string> Names;
  for (int V = 0; V <= 10000; ++V)
    if (const char *N = cudaErrorNameOrNull(V)) {
      EXPECT_TRUE(Names.insert(N).second) << N;
      EXPECT_NE(cudaErrorStringOrNull(V), nullptr) << N;
      EXPECT_EQ(std::string(N).rfind("cuda", 0), 0u) << N;
    }
  EXPECT_GE(Names.size(), 120u);
}

TEST(CudaErrors, BackendErrorMapping) {
  EXPECT_EQ(toCudaError(ErrorCode::Success), cudaSuccess);
  EXPECT_EQ(toCudaError(ErrorCode::InvalidValue), cudaErrorInvalidValue);
  EXPECT_EQ(toCudaError(ErrorCode::OutOfMemory), cudaErrorMemoryAllocation);
  EXPECT_EQ(toCudaError(ErrorCode::Assert), cudaErrorAssert);
  EXPECT_EQ(toCudaError(ErrorCode::LaunchFailure), cudaErrorLaunchFailure);
  EXPECT_EQ(toCudaError(ErrorCode::NoBinaryForGpu),
            cudaErrorNoKernelImageForDevice);
  EXPECT_EQ(toCudaError(ErrorCode::NotReady), cudaErrorNotReady);
  EXPECT_TRUE(isStickyError(cudaErrorAssert));
  EXPECT_TRUE(isStickyError(cudaErrorLaunchFailure));
  EXPECT_TRUE(isStickyError(cudaErrorIllegalAddress));
  EXPECT_FALSE(isStickyError(cudaErrorInvalidConfiguration));
  EXPECT_FALSE(isStickyError(cudaErrorInvalidValue));
}

} // namespace
