//===- ExternalTools.cpp - The linker that lowering targets run -----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements include/hetgpu/Targets/ExternalTools.h. CMake defines
/// HETGPU_LLVM_BINDIR (LLVM's tools), HETGPU_BUILD_LLD (the ld.lld it
/// found, possibly empty) and, when lld's libraries were found,
/// HETGPU_IN_PROCESS_LLD for this file.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Targets/ExternalTools.h"
#include "hetgpu/Targets/TargetDiagnostics.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#ifdef HETGPU_IN_PROCESS_LLD
#include "lld/Common/Driver.h"
LLD_HAS_DRIVER(elf)
#endif

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <optional>

using namespace llvm;

namespace hetgpu {

namespace {
/// Cleared when an in-process link crashed (lld then cannot run again in
/// this process); later links run the executable.
std::atomic<bool> InProcessUsable{true};
/// The command line of reparseOptionsAfterLinks(), if any.
int SavedArgc = 0;
const char *const *SavedArgv = nullptr;
} // namespace

void reparseOptionsAfterLinks(int Argc, const char *const *Argv) {
  SavedArgc = Argc;
  SavedArgv = Argv;
}

/// An ld.lld executable: the one CMake found, next to LLVM's tools, in
/// /usr/lib/llvm-<major>/bin, then on PATH (only PATH with
/// HETGPU_LLD_PATH_ONLY=1: tests make a machine without LLVM's tools);
/// empty when there is none.
static std::string findExecutable() {
  std::string Major = std::to_string(LLVM_VERSION_MAJOR);
  const char *PathOnly = std::getenv("HETGPU_LLD_PATH_ONLY");
  bool Builtin = !PathOnly || StringRef(PathOnly) != "1";
  SmallVector<std::string, 4> Known;
#ifdef HETGPU_BUILD_LLD
  Known.push_back(HETGPU_BUILD_LLD);
#endif
#ifdef HETGPU_LLVM_BINDIR
  Known.push_back(HETGPU_LLVM_BINDIR "/ld.lld");
#endif
  Known.push_back("/usr/lib/llvm-" + Major + "/bin/ld.lld");
  for (const std::string &P : Known)
    if (Builtin && !P.empty() && sys::fs::can_execute(P))
      return P;
  for (std::string Name :
       {std::string("ld.lld-" LLVM_VERSION_STRING), "ld.lld-" + Major,
        std::string("ld.lld")})
    if (ErrorOr<std::string> Found = sys::findProgramByName(Name))
      return *Found;
  return "";
}

Expected<std::string> findLLD(StringRef Target, StringRef Purpose) {
  if (const char *Env = std::getenv("HETGPU_LLD"); Env && *Env) {
#ifdef HETGPU_IN_PROCESS_LLD
    if (StringRef(Env) == "in-process")
      return std::string(InProcessLinker);
#endif
    if (sys::fs::can_execute(Env))
      return std::string(Env);
    return targetError(Target,
                       Twine("HETGPU_LLD='") + Env + "' is not an executable");
  }
  // lld linked into this library first (~6x faster than a process: no
  // fork/exec, no loading of lld); its driver resets the process's LLVM
  // command-line options on each link (reparseOptionsAfterLinks). After an
  // in-process link crashed, an executable.
#ifdef HETGPU_IN_PROCESS_LLD
  if (InProcessUsable)
    return std::string(InProcessLinker);
#endif
  if (std::string Exe = findExecutable(); !Exe.empty())
    return Exe;
  return targetError(Target, "ld.lld not found (set HETGPU_LLD, or install "
                             "lld-" +
                                 std::to_string(LLVM_VERSION_MAJOR) + ")" +
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

/// Reads the linker's output file into \p R.
Error readOutput(StringRef Target, StringRef Out, LinkResult &R) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> B =
      MemoryBuffer::getFile(Out, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!B)
    return targetError(Target, "the linker wrote no output: " +
                                   B.getError().message());
  R.Succeeded = true;
  R.Output.assign((*B)->getBufferStart(), (*B)->getBufferEnd());
  return Error::success();
}

/// lld's ELF driver in this process: one link at a time (its state is
/// global), messages captured into LinkResult::Log.
Expected<LinkResult> linkInProcess(StringRef Target, ArrayRef<StringRef> Flags,
                                   ArrayRef<std::string> Inputs,
                                   const std::string &Out) {
  LinkResult R;
#ifdef HETGPU_IN_PROCESS_LLD
  std::vector<std::string> Args = {"ld.lld"};
  for (StringRef F : Flags)
    Args.push_back(F.str());
  Args.insert(Args.end(), Inputs.begin(), Inputs.end());
  Args.push_back("-o");
  Args.push_back(Out);
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  std::string Log;
  raw_string_ostream LogOS(Log);
  static std::mutex M;
  lld::Result Res;
  {
    std::lock_guard<std::mutex> Lock(M);
    Res = lld::lldMain(Argv, LogOS, LogOS, {{lld::Gnu, &lld::elf::link}});
    if (SavedArgv) {
      cl::ResetAllOptionOccurrences();
      cl::ParseCommandLineOptions(SavedArgc, SavedArgv);
    }
  }
  if (!Res.canRunAgain)
    InProcessUsable = false;
  R.Log = StringRef(Log).trim().str();
  if (Res.retCode != 0)
    return std::move(R);
  if (Error E = readOutput(Target, Out, R))
    return std::move(E);
#else
  (void)Flags;
  (void)Inputs;
  (void)Out;
  R.ExecError = "this translator was built without lld's libraries";
#endif
  return std::move(R);
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
  std::string Fallback;
  if (Linker == InProcessLinker) {
    Expected<LinkResult> R = linkInProcess(Target, Flags, InputPaths, Out);
    // lld crashed (it cannot run again in this process): the same link
    // with an executable, if there is one.
    if (!InProcessUsable && R && !R->Succeeded)
      Fallback = findExecutable();
    if (Fallback.empty())
      return R;
    Linker = Fallback;
  }

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
  if (Error E = readOutput(Target, Out, R))
    return std::move(E);
  return std::move(R);
}

} // namespace hetgpu
