//===- DeviceMath.cpp - Find, load and link the device math library ------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
/// \file
/// Implements include/hetgpu/Targets/DeviceMath.h: locating
/// hetgpu-math-<triple>.bc relative to the binary that contains this code
/// (found with dladdr) or through $HETGPU_MATH_LIBRARY, loading it with the
/// subtarget attributes stripped, and linking what a module needs.
//===----------------------------------------------------------------------===//

#include "hetgpu/Targets/DeviceMath.h"
#include "hetgpu/IR/Builtins.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <dlfcn.h>

using namespace llvm;

namespace hetgpu {

Expected<std::string> getDeviceMathTriple(StringRef TripleStr) {
  switch (Triple(TripleStr).getArch()) {
  case Triple::x86_64:
    return std::string("x86_64-unknown-linux-gnu");
  case Triple::nvptx64:
    return std::string("nvptx64-nvidia-cuda");
  case Triple::amdgcn:
    return std::string("amdgcn-amd-amdhsa");
  case Triple::riscv64:
    return std::string("riscv64-unknown-elf");
  case Triple::spirv64:
    return std::string("spirv64-unknown-unknown");
  default:
    return createStringError(inconvertibleErrorCode(),
                             "no device math library for triple '" +
                                 TripleStr + "'");
  }
}

/// Directory of the shared object or executable that contains this code.
static std::string thisBinaryDir() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&thisBinaryDir), &Info) ||
      !Info.dli_fname)
    return "";
  SmallString<256> Path(Info.dli_fname);
  // An executable started through PATH is reported by its bare name:
  // ask the system for its real location instead.
  if (!StringRef(Info.dli_fname).contains('/'))
    Path = sys::fs::getMainExecutable(nullptr,
                                      reinterpret_cast<void *>(&thisBinaryDir));
  if (sys::fs::make_absolute(Path))
    return "";
  return std::string(sys::path::parent_path(Path));
}

Expected<std::string> findDeviceMathLibrary(StringRef TripleStr) {
  Expected<std::string> LibTriple = getDeviceMathTriple(TripleStr);
  if (!LibTriple)
    return LibTriple.takeError();
  std::string FileName = "hetgpu-math-" + *LibTriple + ".bc";
  SmallVector<std::string, 4> Candidates;
  if (std::optional<std::string> Env =
          sys::Process::GetEnv("HETGPU_MATH_LIBRARY")) {
    if (sys::fs::is_directory(*Env)) {
      SmallString<256> P(*Env);
      sys::path::append(P, FileName);
      Candidates.push_back(std::string(P));
    } else if (!Env->empty()) {
      Candidates.push_back(*Env);
    }
  }
  // An explicit HETGPU_MATH_LIBRARY is the only place looked at.
  std::string Dir = Candidates.empty() ? thisBinaryDir() : std::string();
  if (!Dir.empty()) {
    SmallString<256> P(Dir);
    sys::path::append(P, FileName);
    Candidates.push_back(std::string(P));
    P = Dir;
    sys::path::append(P, "..", "lib", FileName);
    Candidates.push_back(std::string(P));
  }
  for (const std::string &C : Candidates)
    if (sys::fs::exists(C))
      return C;
  std::string Msg = "device math library '" + FileName + "' not found (looked in";
  for (const std::string &C : Candidates)
    Msg += " '" + C + "'";
  if (Candidates.empty())
    Msg += " nothing: set HETGPU_MATH_LIBRARY";
  return createStringError(inconvertibleErrorCode(), Msg + ")");
}

Expected<std::unique_ptr<Module>> loadDeviceMathLibrary(LLVMContext &Ctx,
                                                        StringRef TripleStr) {
  Expected<std::string> Path = findDeviceMathLibrary(TripleStr);
  if (!Path)
    return Path.takeError();
  SMDiagnostic Diag;
  std::unique_ptr<Module> Lib = parseIRFile(*Path, Diag, Ctx);
  if (!Lib) {
    std::string Msg;
    raw_string_ostream OS(Msg);
    Diag.print("", OS, /*ShowColors=*/false);
    return createStringError(inconvertibleErrorCode(),
                             "cannot load device math library '" + *Path +
                                 "': " + StringRef(Msg).trim());
  }
  for (Function &F : *Lib) {
    F.removeFnAttr("target-cpu");
    F.removeFnAttr("target-features");
    F.removeFnAttr("tune-cpu");
  }
  if (NamedMDNode *Flags = Lib->getModuleFlagsMetadata())
    Lib->eraseNamedMetadata(Flags);
  return std::move(Lib);
}

Error linkDeviceMathLibrary(Module &M) {
  SmallVector<std::string, 8> Needed;
  for (Function &F : M)
    if (F.isDeclaration() && F.getName().starts_with(MathPrefix))
      Needed.push_back(F.getName().str());
  if (Needed.empty())
    return Error::success();
  Expected<std::unique_ptr<Module>> Lib =
      loadDeviceMathLibrary(M.getContext(), M.getTargetTriple().str());
  if (!Lib)
    return Lib.takeError();
  (*Lib)->setTargetTriple(M.getTargetTriple());
  (*Lib)->setDataLayout(M.getDataLayout());
  if (Linker::linkModules(M, std::move(*Lib), Linker::LinkOnlyNeeded))
    return createStringError(inconvertibleErrorCode(),
                             "linking the device math library into '" +
                                 M.getModuleIdentifier() + "' failed");
  std::string Missing;
  for (const std::string &Name : Needed) {
    Function *F = M.getFunction(Name);
    if (!F || F->isDeclaration())
      Missing += (Missing.empty() ? "" : ", ") + Name;
  }
  if (!Missing.empty())
    return createStringError(inconvertibleErrorCode(),
                             "the device math library does not define: " +
                                 Missing);
  return Error::success();
}

} // namespace hetgpu
