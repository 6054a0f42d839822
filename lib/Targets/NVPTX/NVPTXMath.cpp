//===- NVPTXMath.cpp - Math builtins for the NVPTX target -----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Links libdevice or hetGPU's device math library into a module being
/// lowered to NVPTX (see NVPTXMath.h for the search order). Libraries are
/// loaded lazily and linked with LinkOnlyNeeded, so only the functions the
/// module calls are materialised.
///
//===----------------------------------------------------------------------===//

#include "NVPTXMath.h"

#include "hetgpu/IR/Builtins.h"
#include "hetgpu/Targets/DeviceMath.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdlib>

using namespace llvm;

namespace hetgpu {

namespace {

constexpr StringLiteral LibDeviceFile = "libdevice.10.bc";

std::string getEnv(const char *Name) {
  const char *V = std::getenv(Name);
  return V ? std::string(V) : std::string();
}

/// \p P as a libdevice file: itself, or libdevice.10.bc inside it.
std::string asLibDeviceFile(const std::string &P) {
  if (sys::fs::is_directory(P)) {
    SmallString<256> F(P);
    sys::path::append(F, LibDeviceFile);
    return std::string(F);
  }
  return P;
}

/// The first function of \p M that calls \p F, for diagnostics.
Function *firstUser(Function &F) {
  for (User *U : F.users())
    if (auto *I = dyn_cast<Instruction>(U))
      return I->getFunction();
  return nullptr;
}

/// Loads \p Path lazily into \p M's context, retargeted to \p M.
Expected<std::unique_ptr<Module>> loadLibrary(Module &M, const std::string &Path) {
  SMDiagnostic Diag;
  std::unique_ptr<Module> Lib = getLazyIRFileModule(Path, Diag, M.getContext());
  if (!Lib) {
    std::string Msg;
    raw_string_ostream OS(Msg);
    Diag.print("", OS, /*ShowColors=*/false);
    return createStringError(inconvertibleErrorCode(),
                             "cannot load math library '" + Path +
                                 "': " + StringRef(Msg).trim());
  }
  // libdevice's triple is nvptx64-nvidia-gpulibs; the code is the same.
  Lib->setTargetTriple(M.getTargetTriple());
  Lib->setDataLayout(M.getDataLayout());
  return std::move(Lib);
}

/// libdevice's name of math builtin \p Builtin: __hetgpu_math_sinf ->
/// __nv_sinf.
std::string libDeviceName(StringRef Builtin) {
  return ("__nv_" + Builtin.drop_front(MathPrefix.size())).str();
}

} // namespace

std::string findLibDevice(const std::string &Requested) {
  if (Requested == "none")
    return "";
  if (!Requested.empty())
    return asLibDeviceFile(Requested);
  std::string Env = getEnv("HETGPU_LIBDEVICE");
  if (Env == "none")
    return "";
  if (!Env.empty())
    return asLibDeviceFile(Env);
  SmallVector<std::string, 4> Roots;
  for (const char *V : {"CUDA_HOME", "CUDA_PATH"})
    if (std::string R = getEnv(V); !R.empty())
      Roots.push_back(R);
  Roots.push_back("/usr/local/cuda");
  for (const std::string &R : Roots) {
    SmallString<256> F(R);
    sys::path::append(F, "nvvm", "libdevice", LibDeviceFile);
    if (sys::fs::exists(F))
      return std::string(F);
  }
  return "";
}

void linkNVPTXMath(Module &M, const NVPTXLowerOptions &Opts,
                   function_ref<void(Function *, const Twine &)> Fail) {
  SmallVector<Function *, 8> Used;
  for (Function &F : M)
    if (F.getName().starts_with(MathPrefix) && F.isDeclaration() &&
        !F.use_empty())
      Used.push_back(&F);
  if (Used.empty())
    return;

  // 1. libdevice.
  std::string LibDevice = findLibDevice(Opts.LibDevicePath);
  if (!LibDevice.empty() && !Opts.LibDevicePath.empty() &&
      !sys::fs::exists(LibDevice)) {
    Fail(firstUser(*Used.front()), "libdevice not found at '" + LibDevice + "'");
    return;
  }
  if (!LibDevice.empty() && sys::fs::exists(LibDevice)) {
    Expected<std::unique_ptr<Module>> Lib = loadLibrary(M, LibDevice);
    if (!Lib) {
      Fail(firstUser(*Used.front()), toString(Lib.takeError()));
      return;
    }
    SmallVector<std::pair<std::string, Function *>, 8> Renamed;
    for (Function *F : Used) {
      std::string Name = libDeviceName(F->getName());
      Function *Impl = (*Lib)->getFunction(Name);
      if (!Impl || Impl->getFunctionType() != F->getFunctionType()) {
        Fail(firstUser(*F), "math function '" +
                                F->getName().drop_front(MathPrefix.size()) +
                                "' is not in libdevice '" + LibDevice + "'");
        continue;
      }
      FunctionCallee Decl = M.getOrInsertFunction(Name, F->getFunctionType());
      Renamed.push_back({Name, firstUser(*F)});
      F->replaceAllUsesWith(Decl.getCallee());
      F->eraseFromParent();
    }
    if (Linker::linkModules(M, std::move(*Lib), Linker::LinkOnlyNeeded)) {
      Fail(Renamed.empty() ? nullptr : Renamed.front().second,
           "linking libdevice '" + LibDevice + "' failed");
      return;
    }
    for (auto &[Name, User] : Renamed) {
      Function *F = M.getFunction(Name);
      if (!F || F->isDeclaration())
        Fail(User, "libdevice '" + LibDevice + "' does not define '" + Name + "'");
    }
    // libdevice reads this flag through __nvvm_reflect; CUDA's default is
    // to keep denormals (nvcc -ftz=false).
    if (!M.getModuleFlag("nvvm-reflect-ftz"))
      M.addModuleFlag(Module::Override, "nvvm-reflect-ftz", uint32_t(0));
    return;
  }

  // 2. hetGPU's device math library.
  if (Opts.MathLibraryPath != "none") {
    Expected<std::unique_ptr<Module>> Lib =
        Opts.MathLibraryPath.empty()
            ? loadDeviceMathLibrary(M.getContext(), M.getTargetTriple().str())
            : loadLibrary(M, Opts.MathLibraryPath);
    if (!Lib) {
      std::string Why = toString(Lib.takeError());
      for (Function *F : Used)
        Fail(firstUser(*F), "math function '" +
                                F->getName().drop_front(MathPrefix.size()) +
                                "' needs the device math library: no libdevice, "
                                "and " + Why);
      return;
    }
    (*Lib)->setTargetTriple(M.getTargetTriple());
    (*Lib)->setDataLayout(M.getDataLayout());
    SmallVector<std::pair<std::string, Function *>, 8> Needed;
    for (Function *F : Used)
      Needed.push_back({F->getName().str(), firstUser(*F)});
    if (Linker::linkModules(M, std::move(*Lib), Linker::LinkOnlyNeeded)) {
      Fail(Needed.front().second, "linking the device math library failed");
      return;
    }
    for (auto &[Name, User] : Needed) {
      Function *F = M.getFunction(Name);
      if (!F || F->isDeclaration())
        Fail(User, "math function '" + StringRef(Name).drop_front(MathPrefix.size()) +
                       "' is not in the device math library");
    }
    return;
  }

  // 3. Nothing: name every function that needs a library.
  for (Function *F : Used)
    Fail(firstUser(*F), "math function '" +
                            F->getName().drop_front(MathPrefix.size()) +
                            "' needs the device math library (libdevice and "
                            "hetGPU's math library are both disabled)");
}

} // namespace hetgpu
