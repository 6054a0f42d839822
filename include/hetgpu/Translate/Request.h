//===- Request.h - The runtime's translation request ------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// One builder of hetgpu_translate_request for its two callers, the runtime's
/// JIT (runtime/lib/Core/Translator.cpp) and hetgpu-cc's ahead-of-time images
/// (tools/hetgpu-cc/Images.cpp), so an image is made exactly as the runtime
/// would translate: optimisation level 3, the module's tables checked
/// against its IR, the flags and the kernels asked for.
///
/// Plain C++ (the runtime includes it without LLVM).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TRANSLATE_REQUEST_H
#define HETGPU_TRANSLATE_REQUEST_H

#include "hetgpu/IR/Container.h"
#include "hetgpu/Translate/Translate.h"

#include <string>
#include <vector>

namespace hetgpu {

/// A request for \p M's kernels \p Kernels (empty: the whole module) for
/// (\p Target, \p Arch, \p Features) with translation flags \p Flags
/// (HETGPU_TRANSLATE_CHECK_TABLES and, for some kernels,
/// HETGPU_TRANSLATE_SOME_KERNELS are added). The strings and \p M must
/// outlive it; it owns the tables and the name array Req points to.
class TranslateRequest {
public:
  TranslateRequest(const container::ModuleInfo &M, const std::string &Target,
                   const std::string &Arch, const std::string &Features,
                   unsigned Flags, const std::vector<std::string> &Kernels)
      : Tables(container::writeTables(M)) {
    Req.target = Target.c_str();
    Req.arch = Arch.c_str();
    Req.features = Features.c_str();
    Req.ir = M.IR.data();
    Req.ir_size = M.IR.size();
    Req.opt_level = 3;
    Req.flags = Flags | HETGPU_TRANSLATE_CHECK_TABLES;
    Req.tables = Tables.data();
    Req.tables_size = Tables.size();
    for (const std::string &K : Kernels)
      Names.push_back(K.c_str());
    if (!Names.empty()) {
      Req.flags |= HETGPU_TRANSLATE_SOME_KERNELS;
      Req.kernels = Names.data();
      Req.num_kernels = Names.size();
    }
  }
  TranslateRequest(const TranslateRequest &) = delete;
  TranslateRequest &operator=(const TranslateRequest &) = delete;

  const hetgpu_translate_request *get() const { return &Req; }

private:
  std::string Tables;
  std::vector<const char *> Names;
  hetgpu_translate_request Req{};
};

} // namespace hetgpu

#endif // HETGPU_TRANSLATE_REQUEST_H
