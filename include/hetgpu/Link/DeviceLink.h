//===- DeviceLink.h - Link relocatable hetIR into one module ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The device link of nvcc's separate-compilation model, done on hetIR
/// (docs/SeparateCompilation.md). `hetgpu-cc -dc` objects carry their
/// relocatable hetIR in section `__nv_relfatbin` and their module id in
/// `__nv_module_id`, and call `__cudaRegisterLinkedBinary<id>` from their
/// constructor. The device link collects those components from objects and
/// archives, links their hetIR in process (llvm::Linker), runs
/// hetgpu-finalize-link and the verifier, and writes a link object that holds
/// the one linked container and defines every `__cudaRegisterLinkedBinary<id>`.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_LINK_DEVICELINK_H
#define HETGPU_LINK_DEVICELINK_H

#include "hetgpu/IR/Container.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <set>
#include <string>
#include <vector>

namespace hetgpu {
namespace link {

/// The prefix of the registration functions clang's host code calls in
/// relocatable mode; the module id follows it.
inline constexpr llvm::StringLiteral RegisterLinkedBinaryPrefix =
    "__cudaRegisterLinkedBinary";

/// One relocatable component: the hetIR of one `-dc` object.
struct Component {
  std::string Origin;   ///< "a.o" or "libx.a(b.o)", for messages
  std::string ModuleId; ///< contents of `__nv_module_id`
  container::ModuleInfo Module;
};

/// What the inputs of a link hold.
struct InputScan {
  std::vector<Component> Components;
  /// Module ids whose `__cudaRegisterLinkedBinary<id>` an input already
  /// defines (a `hetgpu-cc -dlink` object), with the input that does.
  std::vector<std::pair<std::string, std::string>> LinkedIds;
};

/// Adds the components and link-object ids of the object file or archive at
/// \p Path to \p Out. Objects without device code add nothing.
llvm::Error scanInput(llvm::StringRef Path, InputScan &Out);

struct LinkOptions {
  /// Check the components' contracts (hetgpu/IR/Contracts.h) before
  /// linking; off is symbol-only linking (`--no-device-link-contracts`).
  bool CheckContracts = true;
};

/// Links \p Components into one hetIR module and describes it. Duplicate
/// strong definitions and undefined device symbols are errors naming the
/// symbol and the components; so are broken contracts (a fact required with
/// another value than the one exported, exported twice, or required or
/// imported and exported by no component), naming the fact and both
/// components.
llvm::Expected<container::Container>
linkComponents(llvm::ArrayRef<Component> Components,
               const LinkOptions &Opts = LinkOptions());

/// Bitcode of the host-side link object for \p Linked (none: an empty
/// object), defining `__cudaRegisterLinkedBinary<id>` for every id of
/// \p ModuleIds. The first call registers the linked container
/// (`__cudaRegisterFatBinary`); every call hands its handle to the
/// component's registration callback.
std::string buildLinkObject(const container::Container *Linked,
                            const std::set<std::string> &ModuleIds,
                            llvm::StringRef HostTriple);

} // namespace link
} // namespace hetgpu

#endif // HETGPU_LINK_DEVICELINK_H
