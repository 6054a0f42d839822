//===- ArgPackTest.cpp - Tests of kernel argument packing -----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Arguments are copied at the container's offsets and sizes, so the
/// caller's storage may change right after an asynchronous launch.
///
//===----------------------------------------------------------------------===//

#include "Core/ArgPack.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;

namespace {

container::ParamInfo param(container::ParamKind K, uint32_t Size,
                           uint32_t Align, uint32_t Offset) {
  container::ParamInfo P;
  P.Kind = K;
  P.Size = Size;
  P.Align = Align;
  P.Offset = Offset;
  return P;
}

TEST(ArgPack, CopiesEachParameterAtItsOffset) {
  struct Agg {
    int A;
    double B;
    char C;
  };
  container::KernelInfo K;
  K.Name = "k";
  K.Params = {param(container::ParamKind::Value, 4, 4, 0),
              param(container::ParamKind::Pointer, 8, 8, 8),
              param(container::ParamKind::ByVal, sizeof(Agg), 8, 16),
              param(container::ParamKind::Value, 2, 2, 16 + sizeof(Agg))};
  K.ParamBufferSize = 16 + sizeof(Agg) + 2;
  int I = 7;
  float F = 0;
  float *Ptr = &F;
  Agg S = {1, 2.5, 'x'};
  short H = -3;
  void *Args[] = {&I, &Ptr, &S, &H};
  ArgPack P(K, Args);
  // The caller's values change after the launch call returned...
  I = 0;
  Ptr = nullptr;
  S = {0, 0, 0};
  H = 0;
  // ...the pack still holds the launch-time values.
  void **A = P.args();
  EXPECT_EQ(*static_cast<int *>(A[0]), 7);
  EXPECT_EQ(*static_cast<float **>(A[1]), &F);
  Agg Copy;
  memcpy(&Copy, A[2], sizeof(Agg));
  EXPECT_EQ(Copy.A, 1);
  EXPECT_EQ(Copy.B, 2.5);
  EXPECT_EQ(Copy.C, 'x');
  EXPECT_EQ(*static_cast<short *>(A[3]), -3);
  // Parameters sit at their offsets of the packed buffer, aligned.
  EXPECT_EQ(static_cast<char *>(A[1]) - P.buffer(), 8);
  EXPECT_EQ(static_cast<char *>(A[2]) - P.buffer(), 16);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(P.buffer()) % 16, 0u);
  EXPECT_GE(P.size(), K.ParamBufferSize);
}

TEST(ArgPack, NoParameters) {
  container::KernelInfo K;
  ArgPack P(K, nullptr);
  EXPECT_NE(P.args(), nullptr);
  EXPECT_EQ(P.size(), 0u);
}

} // namespace
