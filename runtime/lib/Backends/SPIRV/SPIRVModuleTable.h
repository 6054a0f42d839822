//===- SPIRVModuleTable.h - Read a SPIR-V module's table (runtime) -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Header-only helpers shared by the runtime backends that load hetGPU's
/// SPIR-V modules (OpenCL, Level Zero): parse the text the info kernel
/// writes, and turn printf records back into printf calls. Plain C++, no
/// LLVM (see ABI/SPIRVKernel.h for the formats).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TARGETS_SPIRV_SPIRVMODULETABLE_H
#define HETGPU_TARGETS_SPIRV_SPIRVMODULETABLE_H

#include "hetgpu/ABI/SPIRVKernel.h"

#include <cstdint>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace hetgpu {
namespace spirv_abi {

struct PrintfFormat {
  std::string Text;
  uint64_t ArgsSize = 0;
  std::vector<uint64_t> StringOffsets;
  bool Stderr = false; ///< print to stderr (assert messages)
};

struct ModuleTable {
  uint64_t BlockBytes = 0;
  uint64_t BlockAlign = 16;
  /// name -> (offset in the globals block, size)
  std::map<std::string, std::pair<uint64_t, uint64_t>> Globals;
  /// kernel -> warp operations emulated with work-group barriers
  std::map<std::string, bool> Kernels;
  /// Warp-loop kernels (one work-item per warp, ABI/SPIRVKernel.h) ->
  /// (bytes of static shared memory, bytes of thread state per warp).
  std::map<std::string, std::pair<uint64_t, uint64_t>> WarpLoop;
  std::vector<PrintfFormat> Formats;
  /// Some kernel calls malloc(): the runtime provides a heap.
  bool UsesHeap = false;
  /// Kernels left out of the module -> why (reported when launched).
  std::map<std::string, std::string> Unsupported;
};

/// Parses the info kernel's text. False with \p Error on malformed input.
inline bool parseModuleTable(const std::string &Text, ModuleTable &Out,
                             std::string &Error) {
  std::istringstream In(Text);
  std::string Line;
  bool SawVersion = false;
  while (std::getline(In, Line)) {
    std::istringstream LS(Line);
    std::string Kind;
    LS >> Kind;
    if (Kind == "hetgpu-spirv") {
      unsigned V = 0;
      LS >> V;
      if (V != ABIVersion) {
        Error = "module ABI version " + std::to_string(V) +
                ", this runtime reads version " + std::to_string(ABIVersion);
        return false;
      }
      SawVersion = true;
    } else if (Kind == "block") {
      LS >> Out.BlockBytes >> Out.BlockAlign;
    } else if (Kind == "global") {
      std::string Name;
      uint64_t Off = 0, Size = 0;
      LS >> Name >> Off >> Size;
      Out.Globals[Name] = {Off, Size};
    } else if (Kind == "kernel") {
      std::string Name;
      int Mode = 0;
      LS >> Name >> Mode;
      Out.Kernels[Name] = Mode == 1;
      if (Mode == 2) {
        uint64_t Shared = 0, PerWarp = 0;
        LS >> Shared >> PerWarp;
        Out.WarpLoop[Name] = {Shared, PerWarp};
      }
    } else if (Kind == "stderr") {
      size_t Id = 0;
      LS >> Id;
      if (Id >= Out.Formats.size()) {
        Error = "malformed stderr entry: " + Line;
        return false;
      }
      Out.Formats[Id].Stderr = true;
    } else if (Kind == "unsupported") {
      std::string Name, Hex, Why;
      LS >> Name >> Hex;
      for (size_t I = 0; I + 1 < Hex.size(); I += 2)
        Why.push_back(
            static_cast<char>(std::stoi(Hex.substr(I, 2), nullptr, 16)));
      Out.Unsupported[Name] = Why;
    } else if (Kind == "heap") {
      int Used = 0;
      LS >> Used;
      Out.UsesHeap = Used != 0;
    } else if (Kind == "printf") {
      PrintfFormat F;
      size_t Id = 0, N = 0;
      LS >> Id >> F.ArgsSize >> N;
      for (size_t I = 0; I < N; ++I) {
        uint64_t Off = 0;
        LS >> Off;
        F.StringOffsets.push_back(Off);
      }
      std::string Hex;
      LS >> Hex;
      for (size_t I = 0; I + 1 < Hex.size(); I += 2)
        F.Text.push_back(
            static_cast<char>(std::stoi(Hex.substr(I, 2), nullptr, 16)));
      if (Id != Out.Formats.size() || !LS) {
        Error = "malformed printf entry: " + Line;
        return false;
      }
      Out.Formats.push_back(std::move(F));
    } else if (!Kind.empty()) {
      Error = "unknown module table entry: " + Line;
      return false;
    }
  }
  if (!SawVersion || Out.BlockBytes < HeaderSize) {
    Error = "malformed module table:\n" + Text;
    return false;
  }
  return true;
}

/// Calls \p Print(format, vprintf buffer, to stderr) for every complete record in the
/// first \p Used bytes of a printf buffer's record area, with %s arguments
/// pointing at the copies in the record.
template <typename PrintFn>
void forEachPrintfRecord(const char *Recs, uint64_t Used,
                         const std::vector<PrintfFormat> &Formats,
                         PrintFn Print) {
  uint64_t Pos = 0;
  std::vector<char> Args;
  while (Pos + PrintfRecordHeader <= Used) {
    uint32_t Id = 0, Size = 0;
    std::memcpy(&Id, Recs + Pos, 4);
    std::memcpy(&Size, Recs + Pos + 4, 4);
    if (Size < PrintfRecordHeader || Pos + Size > Used || Id >= Formats.size())
      return; // a partial record: nothing after it is trustworthy
    const PrintfFormat &F = Formats[Id];
    const char *Rec = Recs + Pos;
    Args.assign(Rec + PrintfRecordHeader,
                Rec + PrintfRecordHeader + F.ArgsSize);
    for (size_t K = 0; K < F.StringOffsets.size(); ++K) {
      const char *Str =
          Rec + PrintfRecordHeader + F.ArgsSize + StringSlot * K;
      if (F.StringOffsets[K] + sizeof(Str) <= Args.size())
        std::memcpy(Args.data() + F.StringOffsets[K], &Str, sizeof Str);
    }
    Print(F.Text.c_str(), Args.empty() ? nullptr : Args.data(), F.Stderr);
    Pos += Size;
  }
}

} // namespace spirv_abi
} // namespace hetgpu

#endif // HETGPU_TARGETS_SPIRV_SPIRVMODULETABLE_H
