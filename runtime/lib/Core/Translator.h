//===- Translator.h - hetIR -> native code, through the JIT cache -*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Gives the native binary of a module for a device: from the JIT cache when
/// present, otherwise by dlopen'ing libhetgpu-translate.so (HETGPU_TRANSLATOR,
/// else next to libhetgpu-rt.so, else the default library search) and
/// calling hetgpu_translate(). A warm start never loads the translator,
/// nor does a module whose container holds an image for the device
/// (hetgpu-cc --offload-arch).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_CORE_TRANSLATOR_H
#define HETGPU_RUNTIME_CORE_TRANSLATOR_H

#include "Core/Device.h"

#include <string>
#include <vector>

namespace hetgpu {
namespace rt {

/// Where getTranslation() found its binary.
enum class TranslationSource { Cache, Image, Translated };

/// The native binary of \p M for device \p Dev (its lowering target's
/// output after Device::finalizeBinary): from the JIT cache; else from an
/// embedded image of exactly these kernels (chooseImage; finalised, and
/// cached when the device has a finalisation step); else translated and
/// cached. NoBinaryForGpu with the translator's message when translation
/// fails. With \p Kernels, the binary of those kernels alone (the
/// translator's HETGPU_TRANSLATE_SOME_KERNELS; cached on its own).
/// Thread-safe; the translator runs one translation at a time.
Status getTranslation(const container::ModuleInfo &M, Device &Dev,
                      unsigned Flags, std::vector<char> &Out,
                      const std::vector<std::string> &Kernels = {},
                      TranslationSource *Source = nullptr);

/// The embedded image of \p M (container 2.1/2.2) that a translation of
/// \p Kernels (empty: the whole module) for \p Dev with translation flags
/// \p Flags may be replaced by: it holds exactly those kernels (a 2.1
/// image: the whole module), its target fits the device
/// (hetgpu/IR/ImageTargets.h), its
/// translator version is HETGPU_TRANSLATOR_ABI_VERSION, its source hash is
/// container::imageSourceHash(M), its flags are \p Flags and its bytes are
/// sound. Null when none is; with \p Log, each image passed over is logged
/// with the reason (HETGPU_LOG=warn: damaged, stale, other translator
/// version; info: other target, other flags, other kernels), one line per
/// target and reason.
const container::AOTImage *
chooseImage(const container::ModuleInfo &M, Device &Dev, unsigned Flags,
            bool Log, const std::vector<std::string> &Kernels = {});

/// The image of one kernel group of \p M (container 2.2) that holds kernel
/// \p Name and may stand for a plain translation of its kernels for
/// \p Dev, or null.
const container::AOTImage *groupImageOf(const container::ModuleInfo &M,
                                        Device &Dev, const std::string &Name);

/// Logs, once per target and reason, why images of \p M are passed over
/// for \p Dev and flags \p Flags whatever kernels they hold (a module
/// loaded in kernel groups says it at its first load).
void logImageRefusals(const container::ModuleInfo &M, Device &Dev,
                      unsigned Flags);

/// One component of a fusion (graph coalescing, docs/Graphs.md).
struct FusePart {
  const container::ModuleInfo *M = nullptr;
  std::string Kernel; ///< symbol name
  uint32_t Grid[3] = {1, 1, 1};
  uint32_t Block[3] = {1, 1, 1};
};

/// The container bytes of kernel \p Name fusing \p Parts
/// (hetgpu/Transforms/FuseKernels.h): from the JIT cache, else made by the
/// translator's hetgpu_fuse and cached (a warm start loads no LLVM).
/// NoBinaryForGpu with the reason when the translator refuses the fusion
/// (\p Refused: the index of the part refused, or -1 for the whole; a
/// refusal is cached like a fusion) or has no hetgpu_fuse.
Status getFusedModule(const std::vector<FusePart> &Parts,
                      const std::string &Name, std::vector<char> &Out,
                      long &Refused);

/// The translator library that a miss would load.
std::string translatorPath();
/// True once the translator library has been loaded in this process.
bool translatorLoaded();
/// The JIT cache directory in use.
std::string cacheDirectory();

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_CORE_TRANSLATOR_H
