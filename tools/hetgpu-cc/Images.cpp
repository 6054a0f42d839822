//===- Images.cpp - hetgpu-cc's ahead-of-time images ----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The request is the runtime's (runtime/lib/Core/Translator.cpp): optimisation
/// level 3, the tables checked against the IR, no instrumentation, the whole
/// module; only target, processor and features come from the image's name.
/// The bytes are the translator's output, what the runtime's JIT cache would
/// hold for a device without a finalisation step (the NVIDIA backend links
/// the PTX into a cubin when it loads the image).
///
//===----------------------------------------------------------------------===//

#include "Images.h"

#include "hetgpu/IR/ImageTargets.h"
#include "hetgpu/Translate/Translate.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;
using namespace hetgpu;

namespace {

/// The translator's output for \p T, or its message.
Expected<std::string> translate(const container::ModuleInfo &M,
                                const container::ImageTranslation &T) {
  std::string Tables = container::writeTables(M);
  hetgpu_translate_request Req{};
  Req.target = T.Target.c_str();
  Req.arch = T.Arch.c_str();
  Req.features = T.Features.c_str();
  Req.ir = M.IR.data();
  Req.ir_size = M.IR.size();
  Req.opt_level = 3;
  Req.flags = HETGPU_TRANSLATE_CHECK_TABLES;
  Req.tables = Tables.data();
  Req.tables_size = Tables.size();
  hetgpu_translate_result Res{};
  int RC = hetgpu_translate(&Req, &Res);
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
  for (size_t I = 0; I < Names.size(); ++I) {
    const std::string &Name = Names[I];
    container::ImageTranslation T;
    std::string Why;
    if (!container::imageTranslation(Name, T, Why))
      return createStringError(inconvertibleErrorCode(), Why);
    auto T0 = std::chrono::steady_clock::now();
    Expected<std::string> Bytes = translate(M, T);
    if (!Bytes) {
      std::string Msg = "no " + Name + " image of the device code of " + What +
                        ": " + toString(Bytes.takeError());
      if (I < Explicit.size() && Explicit[I])
        return createStringError(inconvertibleErrorCode(), Msg);
      WithColor::warning(errs(), "hetgpu-cc")
          << Msg << " (the portable hetIR is translated at run time)\n";
      continue;
    }
    container::AOTImage &Img = M.Images.emplace_back();
    Img.Target = Name;
    Img.TranslatorVersion = HETGPU_TRANSLATOR_ABI_VERSION;
    Img.Flags = 0;
    Img.SourceIRHash = Source;
    Img.Bytes = std::move(*Bytes);
    if (Verbose) {
      double Ms = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - T0)
                      .count();
      errs() << "#$ (hetgpu-cc) " << Name << " image of " << What << ": "
             << T.Target << ":" << T.Arch
             << (T.Features.empty() ? "" : " " + T.Features) << ", "
             << Img.Bytes.size() << " bytes in " << format("%.1f", Ms)
             << " ms\n";
    }
  }
  return Error::success();
}
