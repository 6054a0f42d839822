//===- ContainerImagesTest.cpp - Container 2.1's ahead-of-time images ----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The image list of container 2.1 (lib/IR/Container.cpp): written and read
/// back field by field, absent from 2.0 containers, left out of the tables
/// the JIT cache keys on, and an image whose bytes do not match their hash
/// refused by name.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/IR/Container.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace hetgpu::container;

namespace {

Container withImage() {
  Container C;
  ModuleInfo &M = C.Modules.emplace_back();
  M.IRVersionMajor = 1;
  M.IR = "not bitcode: the container does not parse it";
  AOTImage &Img = M.Images.emplace_back();
  Img.Target = "sm_90";
  Img.TranslatorVersion = 7;
  Img.Flags = 0;
  Img.SourceIRHash = hash128(M.IR.data(), M.IR.size());
  Img.Bytes = "IMAGE-BYTES-0123456789";
  return C;
}

bool readBack(const std::string &Bytes, Container &Out, std::string &Error) {
  return read(Bytes.data(), Bytes.size(), Out, Error);
}

/// Both checksums of the header recomputed after an edit of the payload.
void reseal(std::string &Bytes) {
  auto Patch = [&](size_t At, const Hash128 &H) {
    std::memcpy(&Bytes[At], &H.Low, 8);
    std::memcpy(&Bytes[At + 8], &H.High, 8);
  };
  Patch(32, hash128(Bytes.data() + HeaderSize, Bytes.size() - HeaderSize));
  Patch(48, hash128(Bytes.data(), 48));
}

TEST(ContainerImages, RoundTrip) {
  Container C = withImage(), Out;
  std::string Error;
  ASSERT_TRUE(readBack(write(C), Out, Error)) << Error;
  ASSERT_EQ(Out.Minor, 1);
  ASSERT_EQ(Out.Modules.size(), 1u);
  ASSERT_EQ(Out.Modules[0].Images.size(), 1u);
  const AOTImage &Img = Out.Modules[0].Images[0];
  EXPECT_EQ(Img.Target, "sm_90");
  EXPECT_EQ(Img.TranslatorVersion, 7u);
  EXPECT_EQ(Img.Bytes, "IMAGE-BYTES-0123456789");
  EXPECT_TRUE(Img.SourceIRHash == Out.Modules[0].IRHash);
}

TEST(ContainerImages, Version20HasNone) {
  Container C = withImage(), Out;
  C.Minor = 0;
  std::string Error;
  ASSERT_TRUE(readBack(write(C), Out, Error)) << Error;
  EXPECT_EQ(Out.Minor, 0);
  EXPECT_TRUE(Out.Modules[0].Images.empty());
}

TEST(ContainerImages, TablesLeaveImagesOut) {
  Container C = withImage();
  ModuleInfo Bare = C.Modules[0];
  Bare.Images.clear();
  EXPECT_EQ(writeTables(C.Modules[0]), writeTables(Bare));
}

TEST(ContainerImages, DamagedImageRefused) {
  std::string Bytes = write(withImage());
  size_t At = Bytes.find("IMAGE-BYTES");
  ASSERT_NE(At, std::string::npos);
  Bytes[At] = 'X';
  reseal(Bytes); // only the image's own hash can catch it now
  Container Out;
  std::string Error;
  EXPECT_FALSE(readBack(Bytes, Out, Error));
  EXPECT_NE(Error.find("image 0 (sm_90)"), std::string::npos) << Error;
}

} // namespace
