//===- ExternalTools.cpp - The linker that lowering targets run -----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements include/hetgpu/Targets/ExternalTools.h. CMake defines
/// HETGPU_LLVM_BINDIR (LLVM's tools) and HETGPU_BUILD_LLD (the ld.lld it
/// found, possibly empty) for this file.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Targets/ExternalTools.h"
#include "hetgpu/Targets/TargetDiagnostics.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>

using namespace llvm;

namespace hetgpu {

Expected<std::string> findLLD(StringRef Target, StringRef Purpose) {
  if (const char *Env = std::getenv("HETGPU_LLD"); Env && *Env) {
    if (sys::fs::can_execute(Env))
      return std::string(Env);
    return targetError(Target,
                       Twine("HETGPU_LLD='") + Env + "' is not an executable");
  }
  std::string Major = std::to_string(LLVM_VERSION_MAJOR);
  SmallVector<std::string, 4> Known;
#ifdef HETGPU_BUILD_LLD
  Known.push_back(HETGPU_BUILD_LLD);
#endif
#ifdef HETGPU_LLVM_BINDIR
  Known.push_back(HETGPU_LLVM_BINDIR "/ld.lld");
#endif
  Known.push_back("/usr/lib/llvm-" + Major + "/bin/ld.lld");
  for (const std::string &P : Known)
    if (!P.empty() && sys::fs::can_execute(P))
      return P;
  for (std::string Name :
       {std::string("ld.lld-" LLVM_VERSION_STRING), "ld.lld-" + Major,
        std::string("ld.lld")})
    if (ErrorOr<std::string> Found = sys::findProgramByName(Name))
      return *Found;
  return targetError(Target, "ld.lld not found (set HETGPU_LLD, or install "
                             "lld-" +
                                 Major + ")" +
                                 (Purpose.empty() ? "" : "; it " + Purpose));
}

namespace {
/// A temporary directory, removed with the files made in it on scope exit.
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

Error writeFile(StringRef Target, StringRef Path, ArrayRef<char> Bytes) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC)
    return targetError(Target, "cannot write " + Path + ": " + EC.message());
  OS.write(Bytes.data(), Bytes.size());
  OS.close();
  if (OS.has_error())
    return targetError(Target, "cannot write " + Path);
  return Error::success();
}
} // namespace

Expected<LinkResult> runLinker(StringRef Target, StringRef Linker,
                               ArrayRef<StringRef> Flags,
                               ArrayRef<LinkInput> Inputs) {
  TempDir Dir;
  if (std::error_code EC =
          sys::fs::createUniqueDirectory("hetgpu-link", Dir.Path))
    return targetError(Target,
                       "cannot create a temporary directory: " + EC.message());
  std::vector<std::string> InputPaths;
  for (const LinkInput &In : Inputs) {
    InputPaths.push_back(Dir.file(In.FileName));
    if (Error E = writeFile(Target, InputPaths.back(), In.Bytes))
      return std::move(E);
  }
  std::string Out = Dir.file("linked.out"), Log = Dir.file("linker.log");

  SmallVector<StringRef, 24> Argv = {Linker};
  // ld.lld is a symlink to lld: "-flavor gnu" is only understood as the
  // first argument of `lld`; ld.lld knows its flavour from its name.
  if (!sys::path::filename(Linker).starts_with("ld.lld"))
    Argv.append({"-flavor", "gnu"});
  Argv.append(Flags.begin(), Flags.end());
  for (const std::string &P : InputPaths)
    Argv.push_back(P);
  Argv.append({"-o", Out});
  std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Log),
                                          StringRef(Log)};
  LinkResult R;
  int RC = sys::ExecuteAndWait(Linker, Argv, std::nullopt, Redirects, 0, 0,
                               &R.ExecError);
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Log))
    R.Log = (*B)->getBuffer().trim().str();
  if (RC != 0)
    return std::move(R);
  ErrorOr<std::unique_ptr<MemoryBuffer>> B =
      MemoryBuffer::getFile(Out, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!B)
    return targetError(Target, "the linker wrote no output: " +
                                   B.getError().message());
  R.Succeeded = true;
  R.Output.assign((*B)->getBufferStart(), (*B)->getBufferEnd());
  return std::move(R);
}

} // namespace hetgpu
