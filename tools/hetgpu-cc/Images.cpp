//===- Images.cpp - hetgpu-cc's ahead-of-time images ----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The request is the runtime's (hetgpu/Translate/Request.h): optimisation
/// level 3, the tables checked against the IR, no instrumentation; only
/// target, processor and features come from the image's name. A module the
/// runtime translates in kernel groups (container::kernelGroups with
/// HETGPU_KERNEL_GROUP's size, 8 by default) gets one image per group and
/// target, so a first launch loads (and the NVIDIA driver compiles) only its
/// group; any other module one image of the whole module. The bytes are the
/// translator's output, what the runtime's JIT cache would hold for a device
/// without a finalisation step (the NVIDIA backend links the PTX into a
/// cubin when it loads the image).
///
//===----------------------------------------------------------------------===//

#include "Images.h"

#include "hetgpu/IR/ImageTargets.h"
#include "hetgpu/Translate/Request.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;
using namespace hetgpu;

namespace {

/// The translator's output for \p T of kernels \p Kernels (empty: the whole
/// module), or its message.
Expected<std::string> translate(const container::ModuleInfo &M,
                                const container::ImageTranslation &T,
                                const std::vector<std::string> &Kernels) {
  TranslateRequest Req(M, T.Target, T.Arch, T.Features, 0, Kernels);
  hetgpu_translate_result Res{};
  int RC = hetgpu_translate(Req.get(), &Res);
  if (RC != 0 || !Res.data) {
    std::string Msg = Res.error ? Res.error : "no message";
    hetgpu_translate_dispose(&Res);
    return createStringError(inconvertibleErrorCode(), Msg);
  }
  std::string Bytes(static_cast<const char *>(Res.data), Res.size);
  hetgpu_translate_dispose(&Res);
  return Bytes;
}

} // namespace

Error cc::addImages(container::ModuleInfo &M,
                    const std::vector<std::string> &Names,
                    const std::vector<bool> &Explicit, const std::string &What,
                    bool Verbose) {
  container::Hash128 Source = container::imageSourceHash(M);
  std::vector<std::vector<std::string>> Groups =
      container::kernelGroups(M, container::kernelGroupSizeSetting());
  if (Groups.empty())
    Groups.emplace_back(); // one image of the whole module
  for (size_t I = 0; I < Names.size(); ++I) {
    const std::string &Name = Names[I];
    container::ImageTranslation T;
    std::string Why;
    if (!container::imageTranslation(Name, T, Why))
      return createStringError(inconvertibleErrorCode(), Why);
    auto T0 = std::chrono::steady_clock::now();
    std::vector<container::AOTImage> Made;
    size_t Bytes = 0;
    for (const std::vector<std::string> &Kernels : Groups) {
      Expected<std::string> Out = translate(M, T, Kernels);
      if (!Out) {
        std::string Msg = "no " + Name + " image of the device code of " +
                          What + ": " + toString(Out.takeError());
        if (I < Explicit.size() && Explicit[I])
          return createStringError(inconvertibleErrorCode(), Msg);
        WithColor::warning(errs(), "hetgpu-cc")
            << Msg << " (the portable hetIR is translated at run time)\n";
        Made.clear();
        break;
      }
      container::AOTImage &Img = Made.emplace_back();
      Img.Target = Name;
      Img.TranslatorVersion = HETGPU_TRANSLATOR_ABI_VERSION;
      Img.Flags = 0;
      Img.SourceIRHash = Source;
      Img.Bytes = std::move(*Out);
      Img.Kernels = Kernels;
      Bytes += Img.Bytes.size();
    }
    if (Made.empty())
      continue;
    if (Verbose) {
      double Ms = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - T0)
                      .count();
      errs() << "#$ (hetgpu-cc) " << Name << " image of " << What << ": "
             << T.Target << ":" << T.Arch
             << (T.Features.empty() ? "" : " " + T.Features) << ", " << Bytes
             << " bytes";
      if (Made.size() > 1)
        errs() << " in " << Made.size() << " kernel groups";
      errs() << " in " << format("%.1f", Ms) << " ms\n";
    }
    for (container::AOTImage &Img : Made)
      M.Images.push_back(std::move(Img));
  }
  return Error::success();
}
