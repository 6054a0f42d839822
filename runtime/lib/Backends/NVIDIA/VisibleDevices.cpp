//===- VisibleDevices.cpp - CUDA_VISIBLE_DEVICES, applied by hetGPU -------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Parsing CUDA_VISIBLE_DEVICES into driver ordinals (VisibleDevices.h).
///
//===----------------------------------------------------------------------===//

#include "Backends/NVIDIA/VisibleDevices.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace hetgpu {
namespace rt {
namespace cu {

namespace {

std::string trim(const std::string &S) {
  size_t B = S.find_first_not_of(" \t");
  if (B == std::string::npos)
    return "";
  size_t E = S.find_last_not_of(" \t");
  return S.substr(B, E - B + 1);
}

std::string lower(std::string S) {
  std::transform(S.begin(), S.end(), S.begin(),
                 [](unsigned char C) { return std::tolower(C); });
  return S;
}

/// The ordinal \p Entry names, or -1.
int ordinalOf(const std::string &Entry, const std::vector<std::string> &Uuids) {
  int Count = static_cast<int>(Uuids.size());
  if (!Entry.empty() &&
      std::all_of(Entry.begin(), Entry.end(),
                  [](unsigned char C) { return std::isdigit(C); })) {
    if (Entry.size() > 9)
      return -1;
    int I = std::stoi(Entry);
    return I < Count ? I : -1;
  }
  std::string E = lower(Entry);
  if (E.rfind("gpu-", 0) != 0 || E.size() == 4)
    return -1;
  int Found = -1;
  for (int I = 0; I < Count; ++I)
    if (lower(Uuids[I]).rfind(E, 0) == 0) {
      if (Found >= 0)
        return -1; // a prefix of two devices' UUIDs
      Found = I;
    }
  return Found;
}

} // namespace

std::vector<int> visibleOrdinals(const std::string &Spec,
                                 const std::vector<std::string> &Uuids,
                                 std::string &Stopped) {
  std::vector<int> Out;
  Stopped.clear();
  size_t Pos = 0;
  while (Pos <= Spec.size()) {
    size_t Comma = Spec.find(',', Pos);
    std::string Entry = trim(Spec.substr(
        Pos, Comma == std::string::npos ? std::string::npos : Comma - Pos));
    if (Entry.empty() && Comma == std::string::npos && !Out.empty())
      break; // a trailing comma
    int I = ordinalOf(Entry, Uuids);
    if (I < 0 || std::find(Out.begin(), Out.end(), I) != Out.end()) {
      Stopped = Entry;
      break;
    }
    Out.push_back(I);
    if (Comma == std::string::npos)
      break;
    Pos = Comma + 1;
  }
  return Out;
}

std::string formatUuid(const unsigned char B[16]) {
  char S[64];
  std::snprintf(S, sizeof S,
                "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
                "%02x%02x%02x%02x%02x%02x",
                B[0], B[1], B[2], B[3], B[4], B[5], B[6], B[7], B[8], B[9],
                B[10], B[11], B[12], B[13], B[14], B[15]);
  return S;
}

} // namespace cu
} // namespace rt
} // namespace hetgpu
