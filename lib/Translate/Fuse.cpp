//===- Fuse.cpp - hetgpu_fuse: components in, fused module out ------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads each distinct component module (checked as the translator checks
/// its input), links them with renamed definitions (linkForFusion), fuses
/// the components (fuseKernels) and describes the result as a container of
/// one module, which the runtime then translates like any other.
///
//===----------------------------------------------------------------------===//

#include "Fuse.h"

#include "hetgpu/IR/Container.h"
#include "hetgpu/IR/ContainerBuilder.h"
#include "hetgpu/IR/Verifier.h"
#include "hetgpu/Transforms/FuseKernels.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <map>

using namespace llvm;

namespace hetgpu {

namespace {

Expected<std::string> fuse(const hetgpu_fuse_request &Req) {
  if (Req.refused_component)
    *Req.refused_component = -1;
  if (!Req.components || Req.num_components < 2 || !Req.fused_name)
    return createStringError(inconvertibleErrorCode(),
                             "hetgpu_fuse: fewer than two components or no "
                             "fused name");
  LLVMContext Ctx;
  std::map<const void *, unsigned> ModuleOf;
  std::vector<std::unique_ptr<Module>> Mods;
  std::vector<FuseComponent> Parts;
  for (size_t I = 0; I < Req.num_components; ++I) {
    const hetgpu_fuse_component &C = Req.components[I];
    if (!C.ir || !C.kernel)
      return createStringError(inconvertibleErrorCode(),
                               "hetgpu_fuse: component " + std::to_string(I) +
                                   " has no module or kernel name");
    auto [It, New] = ModuleOf.try_emplace(C.ir, unsigned(Mods.size()));
    if (New) {
      StringRef Bytes(static_cast<const char *>(C.ir), C.ir_size);
      auto M = parseCheckedBitcode(Bytes, "hetIR", Ctx);
      if (!M)
        return M.takeError();
      if (Error E = verifyHetIR(**M))
        return std::move(E);
      Mods.push_back(std::move(*M));
    }
    FuseComponent P;
    P.Kernel = fusedSymbol(It->second, C.kernel);
    for (unsigned D = 0; D < 3; ++D) {
      P.Grid[D] = C.grid[D];
      P.Block[D] = C.block[D];
    }
    Parts.push_back(P);
  }
  auto Linked = linkForFusion(std::move(Mods));
  if (!Linked)
    return Linked.takeError();
  long Refused = -1;
  auto F = fuseKernels(**Linked, Parts, Req.fused_name, &Refused);
  if (Req.refused_component)
    *Req.refused_component = Refused;
  if (!F)
    return F.takeError();
  auto Info = buildModuleInfo(**Linked);
  if (!Info)
    return Info.takeError();
  container::Container Out;
  Out.Modules.push_back(std::move(*Info));
  return container::write(Out);
}

} // namespace

std::string fuseToContainer(const hetgpu_fuse_request *Req,
                            std::string &Error) {
  if (!Req) {
    Error = "hetgpu_fuse: no request";
    return "";
  }
  auto Out = fuse(*Req);
  if (!Out) {
    Error = toString(Out.takeError());
    return "";
  }
  return std::move(*Out);
}

} // namespace hetgpu
