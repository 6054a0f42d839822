//===- ImageTargets.cpp - Names of ahead-of-time image targets ------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements hetgpu/IR/ImageTargets.h: one table of image names, read by
/// hetgpu-cc (how to translate) and by the runtime (which device fits).
///
//===----------------------------------------------------------------------===//

#include "hetgpu/IR/ImageTargets.h"

#include <cctype>
#include <set>

using namespace hetgpu;
using namespace hetgpu::container;

namespace {

constexpr const char *HostArch = "x86-64-v3";
constexpr const char *SPIRVArch = "spirv1.2";

bool allDigits(const std::string &S, size_t From, size_t To) {
  if (From >= To || To > S.size())
    return false;
  for (size_t I = From; I < To; ++I)
    if (!isdigit(static_cast<unsigned char>(S[I])))
      return false;
  return true;
}

/// sm_NN, sm_NNN, with an optional a / f suffix.
bool isSmName(const std::string &N) {
  if (N.rfind("sm_", 0) != 0)
    return false;
  size_t End = N.size();
  if (End > 3 && (N[End - 1] == 'a' || N[End - 1] == 'f'))
    --End;
  return End - 3 >= 2 && End - 3 <= 3 && allDigits(N, 3, End);
}

/// gfx followed by 3 or 4 hexadecimal digits (gfx90a, gfx942, gfx1100).
bool isGfxName(const std::string &N) {
  if (N.rfind("gfx", 0) != 0 || N.size() < 6 || N.size() > 7)
    return false;
  for (size_t I = 3; I < N.size(); ++I)
    if (!isxdigit(static_cast<unsigned char>(N[I])))
      return false;
  return true;
}

/// The SPIR-V target's features an image may name (SPIRVTarget.cpp).
bool isSPIRVFeature(const std::string &F) {
  for (const char *K : {"defer-unsupported", "subgroups32", "fence-as-atomic",
                        "flat-atomics", "warp-loop", "warp-loop-all"})
    if (F == K)
      return true;
  return false;
}

/// `spirv`, `spirv1.N`, either followed by `+feature`s: SPIR-V 1.N (1.2 by
/// default) with "+defer-unsupported" and the features named, sorted.
bool parseSPIRVName(const std::string &Name, ImageTranslation &Out,
                    std::string &Why) {
  size_t Plus = Name.find('+');
  std::string Base = Name.substr(0, Plus);
  if (Base == "spirv")
    Out.Arch = SPIRVArch;
  else if (Base.size() == 8 && Base.rfind("spirv1.", 0) == 0 &&
           Base[7] >= '0' && Base[7] <= '6')
    Out.Arch = Base;
  else
    return false;
  Out.Target = "spirv";
  std::set<std::string> Features = {"defer-unsupported"};
  while (Plus != std::string::npos) {
    size_t Next = Name.find('+', Plus + 1);
    std::string F =
        Name.substr(Plus + 1, Next == std::string::npos ? std::string::npos
                                                        : Next - Plus - 1);
    if (!isSPIRVFeature(F)) {
      Why = "image target '" + Name + "': unknown SPIR-V feature '" + F +
            "' (expected defer-unsupported, subgroups32, fence-as-atomic, "
            "flat-atomics, warp-loop or warp-loop-all)";
      return false;
    }
    Features.insert(F);
    Plus = Next;
  }
  for (const std::string &F : Features)
    Out.Features += (Out.Features.empty() ? "+" : ",+") + F;
  return true;
}

/// \p Features ("+a,+b") as a set.
std::set<std::string> featureSet(const std::string &Features) {
  std::set<std::string> Out;
  size_t Start = 0;
  while (Start < Features.size()) {
    size_t Comma = Features.find(',', Start);
    std::string F = Features.substr(
        Start, Comma == std::string::npos ? std::string::npos : Comma - Start);
    if (!F.empty())
      Out.insert(F);
    if (Comma == std::string::npos)
      break;
    Start = Comma + 1;
  }
  return Out;
}

} // namespace

bool container::cpuRunsHostImages() {
#if defined(__x86_64__) && (defined(__clang__) || __GNUC__ >= 12)
  return __builtin_cpu_supports("x86-64-v3");
#else
  return false;
#endif
}

bool container::imageTranslation(const std::string &Name, ImageTranslation &Out,
                                 std::string &Why) {
  Out = ImageTranslation();
  Why.clear();
  if (Name == "host") {
    Out.Target = "host";
    Out.Arch = HostArch;
  } else if (isSmName(Name)) {
    Out.Target = "nvptx";
    Out.Arch = Name;
  } else if (isGfxName(Name)) {
    Out.Target = "amdgpu";
    Out.Arch = Name;
  } else if (!parseSPIRVName(Name, Out, Why)) {
    if (Why.empty())
      Why = "unknown image target '" + Name +
            "' (expected host, sm_NN, gfxNNN or spirv[1.N][+feature...])";
    Out = ImageTranslation();
    return false;
  }
  return true;
}

bool container::imageFitsDevice(const std::string &Name,
                                const std::string &Target,
                                const std::string &Arch,
                                const std::string &Features, std::string &Why) {
  ImageTranslation T;
  if (!imageTranslation(Name, T, Why))
    return false;
  std::string Device = Target + (Arch.empty() ? "" : ":" + Arch);
  bool Fits = false;
  if (T.Target != Target)
    Fits = false;
  else if (T.Target == "host")
    Fits = (Arch.empty() || Arch == "native") && cpuRunsHostImages();
  else if (T.Target == "nvptx")
    Fits = Arch == T.Arch; // the driver's +ptxNN: any ISA from the minimum
  else if (T.Target == "amdgpu")
    Fits = Arch.substr(0, Arch.find(':')) == T.Arch; // xnack/sramecc: any
  else
    Fits = Arch == T.Arch && featureSet(Features) == featureSet(T.Features);
  if (!Fits && T.Target == "host" && T.Target == Target)
    Why = std::string("built for ") + HostArch + " (AVX2, FMA, ...), which " +
          (Arch.empty() || Arch == "native" ? "this CPU lacks"
                                            : "is not the device's " + Arch);
  else if (!Fits)
    Why = "built for " + T.Target + ":" + T.Arch +
          (T.Features.empty() ? "" : " (" + T.Features + ")") +
          ", the device is " + Device +
          (Features.empty() ? "" : " (" + Features + ")");
  return Fits;
}
