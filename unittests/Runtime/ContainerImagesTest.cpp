//===- ContainerImagesTest.cpp - Container 2.1/2.2 ahead-of-time images --===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The image list of container 2.1 (lib/IR/Container.cpp): written and read
/// back field by field, absent from 2.0 containers, left out of the tables
/// the JIT cache keys on, an image whose bytes do not match their hash
/// marked damaged by name (the module stays), an empty target refused, and
/// the source hash an image records covering the IR and the tables; 2.2's
/// kernel lists (kernel-group images) round-trip, absent from 2.1, a list
/// naming a kernel the module lacks or naming one twice refused; the kernel
/// groups hetgpu-cc and the runtime share.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/IR/Container.h"
#include "hetgpu/IR/ImageTargets.h"

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
  ASSERT_EQ(Out.Minor, 2);
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
  // The module stays (its hetIR is sound); the image is marked, by name.
  ASSERT_TRUE(readBack(Bytes, Out, Error)) << Error;
  ASSERT_EQ(Out.Modules[0].Images.size(), 1u);
  const AOTImage &Img = Out.Modules[0].Images[0];
  EXPECT_NE(Img.Damage.find("image 0 (sm_90)"), std::string::npos)
      << Img.Damage;
  EXPECT_TRUE(Img.Bytes.empty());
}

TEST(ContainerImages, SoundImageHasNoDamage) {
  Container Out;
  std::string Error;
  ASSERT_TRUE(readBack(write(withImage()), Out, Error)) << Error;
  EXPECT_TRUE(Out.Modules[0].Images[0].Damage.empty());
}

TEST(ContainerImages, EmptyTargetRefused) {
  Container C = withImage(), Out;
  C.Modules[0].Images[0].Target.clear();
  std::string Error;
  EXPECT_FALSE(readBack(write(C), Out, Error));
  EXPECT_NE(Error.find("empty target of image 0"), std::string::npos) << Error;
}

TEST(ContainerImages, SourceHashCoversIRAndTables) {
  Container C = withImage();
  ModuleInfo M = C.Modules[0];
  Hash128 H = imageSourceHash(M);
  ModuleInfo OtherIR = M;
  OtherIR.IR += "x";
  EXPECT_NE(imageSourceHash(OtherIR), H);
  ModuleInfo OtherTables = M;
  OtherTables.Globals.push_back({"g", 4, 1, 0});
  EXPECT_NE(imageSourceHash(OtherTables), H);
  ModuleInfo NoImages = M;
  NoImages.Images.clear();
  EXPECT_EQ(imageSourceHash(NoImages), H);
}

/// withImage() with kernels k0..k{N-1} and the image holding \p Held.
Container withGroupImage(unsigned N, std::vector<std::string> Held) {
  Container C = withImage();
  for (unsigned I = 0; I < N; ++I)
    C.Modules[0].Kernels.emplace_back().Name = "k" + std::to_string(I);
  C.Modules[0].Images[0].Kernels = std::move(Held);
  return C;
}

TEST(ContainerImages, KernelListRoundTrip) {
  Container C = withGroupImage(3, {"k1", "k2"}), Out;
  std::string Error;
  ASSERT_TRUE(readBack(write(C), Out, Error)) << Error;
  EXPECT_EQ(Out.Modules[0].Images[0].Kernels,
            (std::vector<std::string>{"k1", "k2"}));
  // 2.1 has no kernel lists: the image reads back as a whole-module one.
  C.Minor = 1;
  ASSERT_TRUE(readBack(write(C), Out, Error)) << Error;
  EXPECT_EQ(Out.Minor, 1);
  EXPECT_TRUE(Out.Modules[0].Images[0].Kernels.empty());
  EXPECT_EQ(Out.Modules[0].Images[0].Bytes, "IMAGE-BYTES-0123456789");
}

TEST(ContainerImages, KernelListOfOtherKernelsRefused) {
  Container Out;
  std::string Error;
  EXPECT_FALSE(readBack(write(withGroupImage(2, {"k0", "k7"})), Out, Error));
  EXPECT_NE(Error.find("holds kernel 'k7', which the module does not have"),
            std::string::npos)
      << Error;
  EXPECT_FALSE(readBack(write(withGroupImage(2, {"k1", "k1"})), Out, Error));
  EXPECT_NE(Error.find("lists kernel 'k1' twice"), std::string::npos) << Error;
}

TEST(KernelGroups, RunsOfTheKernelTable) {
  Container C = withGroupImage(10, {});
  const ModuleInfo &M = C.Modules[0];
  std::vector<std::vector<std::string>> G = kernelGroups(M, 4);
  ASSERT_EQ(G.size(), 3u);
  EXPECT_EQ(G[0], (std::vector<std::string>{"k0", "k1", "k2", "k3"}));
  EXPECT_EQ(G[2], (std::vector<std::string>{"k8", "k9"}));
  EXPECT_TRUE(kernelGroups(M, 0).empty());  // whole modules only
  EXPECT_TRUE(kernelGroups(M, 10).empty()); // fits one group
  ModuleInfo WithVar = M;
  WithVar.Globals.push_back({"g", 4, 1, 0});
  EXPECT_TRUE(kernelGroups(WithVar, 4).empty()); // device variables
}

TEST(ImageTargets, Translations) {
  ImageTranslation T;
  std::string Why;
  ASSERT_TRUE(imageTranslation("host", T, Why));
  EXPECT_EQ(T.Target, "host");
  EXPECT_EQ(T.Arch, "x86-64-v3");
  ASSERT_TRUE(imageTranslation("sm_90a", T, Why));
  EXPECT_EQ(T.Target, "nvptx");
  EXPECT_EQ(T.Arch, "sm_90a");
  ASSERT_TRUE(imageTranslation("gfx90a", T, Why));
  EXPECT_EQ(T.Target, "amdgpu");
  ASSERT_TRUE(imageTranslation("spirv", T, Why));
  EXPECT_EQ(T.Arch, "spirv1.2");
  ASSERT_TRUE(imageTranslation("spirv1.3+warp-loop+fence-as-atomic", T, Why));
  EXPECT_EQ(T.Arch, "spirv1.3");
  EXPECT_EQ(T.Features, "+defer-unsupported,+fence-as-atomic,+warp-loop");
  EXPECT_FALSE(imageTranslation("spirv+bogus", T, Why));
  EXPECT_NE(Why.find("unknown SPIR-V feature 'bogus'"), std::string::npos)
      << Why;
  for (const char *Bad : {"sm_9", "compute_90", "gfx9", "cuda", "", "HOST",
                          "spirv1.7", "spirv2"}) {
    EXPECT_FALSE(imageTranslation(Bad, T, Why)) << Bad;
    EXPECT_NE(Why.find(std::string("'") + Bad + "'"), std::string::npos) << Why;
  }
}

TEST(ImageTargets, FitsDevice) {
  std::string Why;
  EXPECT_EQ(imageFitsDevice("host", "host", "native", "", Why),
            cpuRunsHostImages());
  EXPECT_FALSE(imageFitsDevice("host", "host", "znver1", "", Why));
  EXPECT_NE(Why.find("not the device's znver1"), std::string::npos) << Why;
  EXPECT_FALSE(imageFitsDevice("host", "nvptx", "sm_90", "+ptx85", Why));
  EXPECT_NE(Why.find("built for host:x86-64-v3, the device is nvptx:sm_90"),
            std::string::npos)
      << Why;
  EXPECT_TRUE(imageFitsDevice("sm_90", "nvptx", "sm_90", "+ptx85", Why));
  EXPECT_FALSE(imageFitsDevice("sm_90", "nvptx", "sm_80", "+ptx85", Why));
  EXPECT_FALSE(imageFitsDevice("sm_90", "nvptx", "sm_90a", "", Why));
  EXPECT_TRUE(
      imageFitsDevice("gfx942", "amdgpu", "gfx942:sramecc+:xnack-", "", Why));
  EXPECT_FALSE(imageFitsDevice("gfx942", "amdgpu", "gfx90a", "", Why));
  EXPECT_TRUE(
      imageFitsDevice("spirv", "spirv", "spirv1.2", "+defer-unsupported", Why));
  EXPECT_FALSE(imageFitsDevice("spirv", "spirv", "spirv1.2",
                               "+defer-unsupported,+flat-atomics", Why));
  EXPECT_TRUE(imageFitsDevice(
      "spirv+flat-atomics+warp-loop+fence-as-atomic", "spirv", "spirv1.2",
      "+defer-unsupported,+fence-as-atomic,+flat-atomics,+warp-loop", Why));
  EXPECT_FALSE(imageFitsDevice("spirv1.3+flat-atomics", "spirv", "spirv1.2",
                               "+defer-unsupported,+flat-atomics", Why));
  EXPECT_FALSE(imageFitsDevice("bogus", "host", "native", "", Why));
  EXPECT_NE(Why.find("unknown image target 'bogus'"), std::string::npos);
}

} // namespace
