//===- SPIRVResultIds.cpp - Result ids of a SPIR-V binary -----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Walks the instructions of a SPIR-V binary and records each result id; the
/// Khronos grammar header (spirv-headers) says which opcodes have one and
/// where it is.
///
//===----------------------------------------------------------------------===//

#include "SPIRVResultIds.h"

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

using namespace hetgpu;

std::string spirv::resultIdProblem(llvm::ArrayRef<char> Bytes) {
  if (Bytes.size() < 20 || Bytes.size() % 4)
    return "not a SPIR-V binary (" + std::to_string(Bytes.size()) + " bytes)";
  std::vector<uint32_t> W(Bytes.size() / 4);
  std::memcpy(W.data(), Bytes.data(), Bytes.size());
  if (W[0] != spv::MagicNumber)
    return "not a SPIR-V binary (no magic number)";
  const uint32_t Bound = W[3];
  std::vector<bool> Defined(Bound, false);
  for (size_t I = 5; I < W.size();) {
    const uint32_t Count = W[I] >> 16;
    const auto Op = static_cast<spv::Op>(W[I] & 0xffff);
    if (Count == 0 || I + Count > W.size())
      return "malformed instruction at word " + std::to_string(I);
    bool HasResult = false, HasType = false;
    spv::HasResultAndType(Op, &HasResult, &HasType);
    const size_t At = I + (HasType ? 2 : 1);
    if (HasResult) {
      if (At >= I + Count)
        return "malformed instruction at word " + std::to_string(I);
      const uint32_t Id = W[At];
      if (Id == 0 || Id >= Bound)
        return "id " + std::to_string(Id) + " is outside the bound " +
               std::to_string(Bound);
      if (Defined[Id])
        return "id " + std::to_string(Id) + " is defined twice";
      Defined[Id] = true;
    }
    I += Count;
  }
  return "";
}
