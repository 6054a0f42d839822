//===- RVManycoreLink.cpp - Link a kernel object into a core image --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The image is a static PIE (ET_DYN, no interpreter, only R_RISCV_RELATIVE
/// dynamic relocations): tt-sim relocates one copy into device DRAM at a
/// base it picks, and qemu-riscv64 runs the unrelocated file as each core's
/// boot program (ABI/RVManycore.h).
///
//===----------------------------------------------------------------------===//

#include "RVManycoreLink.h"

#include "hetgpu/Targets/ExternalTools.h"
#include "hetgpu/Targets/TargetDiagnostics.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <cstring>

using namespace llvm;

namespace hetgpu {

namespace {
const unsigned char RuntimeArchive[] = {
#include "RVMCRuntimeArchive.inc"
};

Error failure(const Twine &Msg) { return targetError("rvmc", Msg); }

/// Turns the linker's complaints into messages about the kernel source.
std::string explainLinkErrors(StringRef Log) {
  std::string Out;
  SmallVector<StringRef, 16> Lines;
  Log.split(Lines, '\n', -1, false);
  for (StringRef L : Lines) {
    size_t At = L.find("undefined symbol: ");
    if (At == StringRef::npos)
      continue;
    StringRef Sym = L.substr(At + strlen("undefined symbol: ")).trim();
    if (!Out.empty())
      Out += "; ";
    if (Sym.starts_with("__hetgpu_math_"))
      Out += "math builtin '" + Sym.str() +
             "' is not implemented by the device math library";
    else
      Out += "'" + Sym.str() + "' is not defined in the kernel module or "
             "the device runtime";
  }
  return Out;
}
} // namespace

ArrayRef<unsigned char> rvmcRuntimeArchive() {
  return ArrayRef<unsigned char>(RuntimeArchive, sizeof(RuntimeArchive));
}

Expected<std::vector<char>> linkRVManycoreImage(ArrayRef<char> Object) {
  Expected<std::string> Lld =
      findLLD("rvmc", "links the RISC-V many-core device image");
  if (!Lld)
    return Lld.takeError();
  ArrayRef<unsigned char> A = rvmcRuntimeArchive();
  Expected<LinkResult> R = runLinker(
      "rvmc", *Lld,
      {"-pie", "--no-dynamic-linker", "-static", "-z", "max-page-size=4096",
       "-z", "noexecstack", "--hash-style=gnu", "-e", "_start"},
      {{"kernel.o", Object},
       {"librvmc-rt.a", ArrayRef<char>(reinterpret_cast<const char *>(A.data()),
                                       A.size())}});
  if (!R)
    return R.takeError();
  if (!R->Succeeded) {
    std::string Why = explainLinkErrors(R->Log);
    return failure("linking the device image failed" +
                   (Why.empty() ? (R->ExecError.empty() ? "" : ": " + R->ExecError)
                                : ": " + Why) +
                   (R->Log.empty() ? "" : "\n" + R->Log));
  }
  return std::move(R->Output);
}

} // namespace hetgpu
