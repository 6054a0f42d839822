//===- Translator.h - hetIR -> native code, through the JIT cache -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Gives the native binary of a module for a device: from the JIT cache when
/// present, otherwise by dlopen'ing libhetgpu-translate.so (HETGPU_TRANSLATOR,
/// else next to libhetgpu-rt.so, else the default library search) and
/// calling hetgpu_translate(). A warm start never loads the translator.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_CORE_TRANSLATOR_H
#define HETGPU_RUNTIME_CORE_TRANSLATOR_H

#include "Core/Device.h"

#include <string>
#include <vector>

namespace hetgpu {
namespace rt {

/// The native binary of \p M for device \p Dev (its lowering target's
/// output after Device::finalizeBinary), from the JIT cache or translated
/// and cached, or NoBinaryForGpu with the translator's message when
/// translation fails. With \p Kernels, the binary of those kernels alone
/// (the translator's HETGPU_TRANSLATE_SOME_KERNELS; cached on its own).
/// Thread-safe; the translator runs one translation at a time.
Status getTranslation(const container::ModuleInfo &M, Device &Dev,
                      unsigned Flags, std::vector<char> &Out,
                      const std::vector<std::string> &Kernels = {});

/// The translator library that a miss would load.
std::string translatorPath();
/// True once the translator library has been loaded in this process.
bool translatorLoaded();
/// The JIT cache directory in use.
std::string cacheDirectory();

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_CORE_TRANSLATOR_H
