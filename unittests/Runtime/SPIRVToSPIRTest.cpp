//===- SPIRVToSPIRTest.cpp - Tests of the SPIR-V legalisation for llvm-spirv ===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// legalizeSPIRVForTranslator on hand-assembled word streams: phi pairs
/// repeated per edge (a switch with two cases to one block; 32- and 64-bit
/// selectors), scalar OpConstantNull rewritten, malformed input refused.
///
//===----------------------------------------------------------------------===//

#include "Backends/OpenCL/SPIRVToSPIR.h"

#include "gtest/gtest.h"

#include <cstring>
#include <string>
#include <vector>

using namespace hetgpu::rt;

namespace {

constexpr uint32_t op(uint32_t Words, uint32_t Opcode) {
  return (Words << 16) | Opcode;
}
constexpr uint32_t OpTypeInt = 21, OpConstant = 43, OpConstantNull = 46,
                   OpPhi = 245, OpLabel = 248, OpBranch = 249,
                   OpSwitch = 251, OpReturn = 253;

std::vector<char> bytes(const std::vector<uint32_t> &W) {
  std::vector<char> B(W.size() * 4);
  std::memcpy(B.data(), W.data(), B.size());
  return B;
}

std::vector<uint32_t> words(const std::vector<char> &B) {
  std::vector<uint32_t> W(B.size() / 4);
  std::memcpy(W.data(), B.data(), W.size() * 4);
  return W;
}

/// The operands of the first instruction with \p Opcode.
std::vector<uint32_t> find(const std::vector<uint32_t> &W, uint32_t Opcode) {
  for (size_t I = 5; I < W.size(); I += W[I] >> 16)
    if ((W[I] & 0xffff) == Opcode)
      return std::vector<uint32_t>(W.begin() + I + 1,
                                   W.begin() + I + (W[I] >> 16));
  return {};
}

/// %int = OpTypeInt Width 0; %sel = OpConstant %int 1; block %10 switches
/// on %sel to %11 (default) and to %12 for two cases; %11 branches to %12;
/// %12 has a phi of (%sel, %10), (%sel, %11).
std::vector<uint32_t> switchModule(uint32_t Width) {
  std::vector<uint32_t> W = {0x07230203, 0x00010200, 0, 100, 0};
  W.insert(W.end(), {op(4, OpTypeInt), 1, Width, 0});
  if (Width > 32)
    W.insert(W.end(), {op(5, OpConstant), 1, 2, 1, 0});
  else
    W.insert(W.end(), {op(4, OpConstant), 1, 2, 1});
  W.insert(W.end(), {op(2, OpLabel), 10});
  if (Width > 32) // 64-bit literals: two words each
    W.insert(W.end(), {op(9, OpSwitch), 2, 11, 1, 0, 12, 2, 0, 12});
  else
    W.insert(W.end(), {op(7, OpSwitch), 2, 11, 1, 12, 2, 12});
  W.insert(W.end(), {op(2, OpLabel), 11, op(2, OpBranch), 12});
  W.insert(W.end(), {op(2, OpLabel), 12});
  W.insert(W.end(), {op(7, OpPhi), 1, 3, 2, 10, 2, 11, op(1, OpReturn)});
  return W;
}

TEST(SPIRVToSPIRTest, PhiPairRepeatedPerEdge) {
  for (uint32_t Width : {32u, 64u}) {
    std::vector<char> M = bytes(switchModule(Width));
    std::string Error;
    ASSERT_TRUE(legalizeSPIRVForTranslator(M, Error)) << Error;
    std::vector<uint32_t> Phi = find(words(M), OpPhi);
    // Type, result, then (value, parent): %10 twice (two switch cases),
    // %11 once.
    EXPECT_EQ(Phi, (std::vector<uint32_t>{1, 3, 2, 10, 2, 10, 2, 11}))
        << "selector width " << Width;
  }
}

TEST(SPIRVToSPIRTest, ScalarNullBecomesZero) {
  std::vector<uint32_t> W = {0x07230203, 0x00010200, 0, 100, 0};
  W.insert(W.end(), {op(4, OpTypeInt), 1, 64, 0, op(3, OpConstantNull), 1, 2});
  std::vector<char> M = bytes(W);
  std::string Error;
  ASSERT_TRUE(legalizeSPIRVForTranslator(M, Error)) << Error;
  EXPECT_TRUE(find(words(M), OpConstantNull).empty());
  EXPECT_EQ(find(words(M), OpConstant), (std::vector<uint32_t>{1, 2, 0, 0}));
}

TEST(SPIRVToSPIRTest, MalformedRefused) {
  std::string Error;
  std::vector<char> Short(12);
  EXPECT_FALSE(legalizeSPIRVForTranslator(Short, Error));
  std::vector<uint32_t> W = {0x07230203, 0x00010200, 0, 100, 0,
                             op(9, OpTypeInt), 1};
  std::vector<char> Truncated = bytes(W);
  EXPECT_FALSE(legalizeSPIRVForTranslator(Truncated, Error));
  EXPECT_NE(Error.find("malformed"), std::string::npos) << Error;
}

} // namespace
