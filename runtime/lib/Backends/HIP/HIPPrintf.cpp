//===- HIPPrintf.cpp - Drains the device printf buffer of a code object ---===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Walks printf/assert records. Each record carries its format, its vprintf
/// argument buffer and copies of its %s strings; the string arguments are
/// pointed at the host copies before formatting with Core's CUDA printf
/// formatter.
///
//===----------------------------------------------------------------------===//

#include "HIPPrintf.h"

#include "hetgpu/ABI/AMDGPUDevice.h"
#include "Core/Printf.h"

#include <cstdio>
#include <cstring>

namespace hetgpu {
namespace rt {
namespace hip {

namespace {
uint32_t read32(const unsigned char *P) {
  uint32_t V;
  std::memcpy(&V, P, 4);
  return V;
}
} // namespace

void printRecords(const unsigned char *Data, size_t Bytes) {
  namespace pf = amdgpu_printf;
  size_t Off = 0;
  while (Off + pf::HeaderSize <= Bytes) {
    const unsigned char *R = Data + Off;
    uint32_t Size = read32(R), Kind = read32(R + 4), FmtOff = read32(R + 8),
             FmtLen = read32(R + 12), ArgsOff = read32(R + 16),
             ArgsLen = read32(R + 20), NumStr = read32(R + 24),
             StrOff = read32(R + 28);
    auto Inside = [&](uint64_t O, uint64_t N) { return O + N <= Size; };
    if (Size < pf::HeaderSize || Size % 8 || Off + Size > Bytes ||
        !Inside(FmtOff, FmtLen) || FmtLen == 0 || R[FmtOff + FmtLen - 1] != 0 ||
        !Inside(ArgsOff, ArgsLen) || !Inside(StrOff, 8ull * NumStr))
      break; // not a record the device wrote (or a torn one)
    // The argument buffer, with %s arguments pointing at the host copies.
    std::vector<unsigned char> Args(R + ArgsOff, R + ArgsOff + ArgsLen);
    Args.resize(Args.size() + 8, 0);
    bool Ok = true;
    for (uint32_t I = 0; I < NumStr; ++I) {
      uint32_t ArgOff = read32(R + StrOff + 8 * I);
      uint32_t DataOff = read32(R + StrOff + 8 * I + 4);
      if (ArgOff + 8 > ArgsLen || (DataOff && DataOff >= Size)) {
        Ok = false;
        break;
      }
      const char *Host =
          DataOff ? reinterpret_cast<const char *>(R + DataOff) : nullptr;
      std::memcpy(Args.data() + ArgOff, &Host, sizeof(Host));
    }
    if (Ok) {
      const char *Fmt = reinterpret_cast<const char *>(R + FmtOff);
      if (Kind == pf::KindAssert) {
        std::string Text = formatDevicePrintf(Fmt, Args.data());
        std::fwrite(Text.data(), 1, Text.size(), stderr);
        std::fflush(stderr);
      } else {
        devicePrintf(Fmt, Args.data());
      }
    }
    Off += Size;
  }
}

} // namespace hip
} // namespace rt
} // namespace hetgpu
