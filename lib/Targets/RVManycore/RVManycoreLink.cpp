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

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>

using namespace llvm;

namespace hetgpu {

namespace {
const unsigned char RuntimeArchive[] = {
#include "RVMCRuntimeArchive.inc"
};

Error failure(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), "rvmc: " + Msg);
}

Expected<std::string> findLinker() {
  if (const char *E = std::getenv("HETGPU_LLD"); E && *E) {
    if (sys::fs::can_execute(E))
      return std::string(E);
    return failure(Twine("HETGPU_LLD='") + E + "' is not an executable");
  }
  if (sys::fs::can_execute(HETGPU_RVMC_LLD))
    return std::string(HETGPU_RVMC_LLD);
  for (StringRef Name : {"ld.lld-22", "ld.lld"})
    if (ErrorOr<std::string> P = sys::findProgramByName(Name))
      return *P;
  return failure("ld.lld not found (install lld-22 or set HETGPU_LLD); it "
                 "links the RISC-V many-core device image");
}

Error writeFile(StringRef Path, const void *Data, size_t Size) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC)
    return failure("cannot write " + Path + ": " + EC.message());
  OS.write(static_cast<const char *>(Data), Size);
  OS.close();
  if (OS.has_error())
    return failure("cannot write " + Path);
  return Error::success();
}

/// Removes a temporary directory and the files in it on scope exit.
struct TempDir {
  SmallString<128> Path;
  std::vector<std::string> Files;
  ~TempDir() {
    for (const std::string &F : Files)
      sys::fs::remove(F);
    if (!Path.empty())
      sys::fs::remove(Path);
  }
  std::string file(StringRef Name) {
    SmallString<128> P(Path);
    sys::path::append(P, Name);
    Files.push_back(std::string(P));
    return Files.back();
  }
};

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
  Expected<std::string> Lld = findLinker();
  if (!Lld)
    return Lld.takeError();
  TempDir Dir;
  if (std::error_code EC =
          sys::fs::createUniqueDirectory("hetgpu-rvmc", Dir.Path))
    return failure("cannot create a temporary directory: " + EC.message());
  std::string Obj = Dir.file("kernel.o"), Ar = Dir.file("librvmc-rt.a"),
              Out = Dir.file("image.elf"), Log = Dir.file("lld.log");
  if (Error E = writeFile(Obj, Object.data(), Object.size()))
    return std::move(E);
  ArrayRef<unsigned char> A = rvmcRuntimeArchive();
  if (Error E = writeFile(Ar, A.data(), A.size()))
    return std::move(E);

  SmallVector<StringRef, 24> Args = {*Lld,
                                     "-pie",
                                     "--no-dynamic-linker",
                                     "-static",
                                     "-z",
                                     "max-page-size=4096",
                                     "-z",
                                     "noexecstack",
                                     "--hash-style=gnu",
                                     "-e",
                                     "_start",
                                     Obj,
                                     Ar,
                                     "-o",
                                     Out};
  std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Log),
                                          StringRef(Log)};
  std::string ErrMsg;
  int RC = sys::ExecuteAndWait(*Lld, Args, std::nullopt, Redirects, 0, 0,
                               &ErrMsg);
  if (RC != 0) {
    std::string Text;
    if (auto Buf = MemoryBuffer::getFile(Log))
      Text = (*Buf)->getBuffer().trim().str();
    std::string Why = explainLinkErrors(Text);
    return failure("linking the device image failed" +
                   (Why.empty() ? (ErrMsg.empty() ? "" : ": " + ErrMsg)
                                : ": " + Why) +
                   (Text.empty() ? "" : "\n" + Text));
  }
  auto Buf = MemoryBuffer::getFile(Out, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buf)
    return failure("the linker wrote no image: " + Buf.getError().message());
  return std::vector<char>((*Buf)->getBufferStart(), (*Buf)->getBufferEnd());
}

} // namespace hetgpu
