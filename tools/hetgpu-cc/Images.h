//===- Images.h - hetgpu-cc's ahead-of-time images --------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Translates a module for each requested image target with the runtime's
/// translator (libHetGPUTranslate, in process) and appends the results to
/// the module as AOTImages (container 2.2, docs/Container.md): one per
/// kernel group of the runtime's JIT, or one of the whole module.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TOOLS_HETGPU_CC_IMAGES_H
#define HETGPU_TOOLS_HETGPU_CC_IMAGES_H

#include "hetgpu/IR/Container.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace hetgpu::cc {

/// Appends to \p M one image per name of \p Names (hetgpu/IR/ImageTargets.h).
/// A failed translation is an error for a name whose \p Explicit entry is
/// true (--offload-arch) and a warning on stderr, no image, for the others
/// (the sm_NN codes of -arch: the hetIR still runs there). \p What names the
/// module in messages; \p Verbose prints each image made.
llvm::Error addImages(container::ModuleInfo &M,
                      const std::vector<std::string> &Names,
                      const std::vector<bool> &Explicit,
                      const std::string &What, bool Verbose);

} // namespace hetgpu::cc

#endif
