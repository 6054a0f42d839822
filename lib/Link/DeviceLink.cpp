//===- DeviceLink.cpp - Link relocatable hetIR into one module ------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Finding relocatable components in objects and archives, checking their
/// device symbols (one strong definition each, nothing undefined) and
/// linking them with llvm::Linker, checking their contracts
/// (LinkContracts.cpp), then hetgpu-finalize-link and the hetIR verifier on
/// the result (docs/SeparateCompilation.md).
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Link/DeviceLink.h"
#include "LinkContracts.h"
#include "hetgpu/IR/ContainerBuilder.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Support/RunPasses.h"
#include "hetgpu/Transforms/FinalizeLink.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace llvm;

namespace hetgpu {
namespace link {
namespace {

Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// Contents of the section \p Name of \p Obj, or an empty string.
Expected<StringRef> sectionContents(const object::ObjectFile &Obj,
                                    StringRef Name) {
  for (const object::SectionRef &S : Obj.sections()) {
    Expected<StringRef> SN = S.getName();
    if (!SN)
      return SN.takeError();
    if (*SN == Name)
      return S.getContents();
  }
  return StringRef();
}

/// The containers of a `__nv_relfatbin` section, one after another (clang
/// aligns each to 8 bytes).
Error readContainers(StringRef Data, StringRef Origin,
                     std::vector<container::Container> &Out) {
  size_t Pos = 0;
  while (Pos + container::HeaderSize <= Data.size()) {
    if (std::memcmp(Data.data() + Pos, container::Magic, 8) != 0) {
      ++Pos;
      continue;
    }
    container::Container C;
    std::string Err;
    if (!container::read(Data.data() + Pos, Data.size() - Pos, C, Err))
      return makeError(Origin + ": " + Err);
    Pos += container::peekTotalSize(Data.data() + Pos);
    Out.push_back(std::move(C));
  }
  return Error::success();
}

Error scanObject(const object::ObjectFile &Obj, StringRef Origin,
                 InputScan &Out) {
  for (const object::SymbolRef &S : Obj.symbols()) {
    Expected<uint32_t> Flags = S.getFlags();
    Expected<StringRef> Name = S.getName();
    if (!Flags || !Name) {
      consumeError(Flags.takeError());
      consumeError(Name.takeError());
      continue;
    }
    if (!(*Flags & object::SymbolRef::SF_Undefined) &&
        Name->starts_with(RegisterLinkedBinaryPrefix))
      Out.LinkedIds.emplace_back(
          Name->drop_front(RegisterLinkedBinaryPrefix.size()).str(),
          Origin.str());
  }
  Expected<StringRef> Rel = sectionContents(Obj, "__nv_relfatbin");
  if (!Rel)
    return Rel.takeError();
  if (Rel->empty())
    return Error::success();
  Expected<StringRef> Ids = sectionContents(Obj, "__nv_module_id");
  if (!Ids)
    return Ids.takeError();
  SmallVector<StringRef, 2> IdList;
  Ids->split(IdList, '\0', -1, /*KeepEmpty=*/false);
  std::vector<container::Container> Cs;
  if (Error E = readContainers(*Rel, Origin, Cs))
    return E;
  if (Cs.size() != IdList.size())
    return makeError(Origin + ": " + Twine(Cs.size()) +
                     " relocatable containers but " + Twine(IdList.size()) +
                     " module ids (object not built by hetgpu-cc -dc?)");
  for (size_t I = 0; I < Cs.size(); ++I)
    for (container::ModuleInfo &M : Cs[I].Modules) {
      if (M.Kind != container::ModuleKind::RelocatableHetIR)
        return makeError(Origin + ": __nv_relfatbin holds a module that is "
                                  "not relocatable hetIR");
      Out.Components.push_back({Origin.str(), IdList[I].str(), std::move(M)});
    }
  return Error::success();
}

Error scanArchive(const object::Archive &A, StringRef Path, InputScan &Out) {
  Error Err = Error::success();
  for (const object::Archive::Child &C : A.children(Err)) {
    Expected<StringRef> Name = C.getName();
    std::string Origin =
        (Path + "(" + (Name ? *Name : StringRef("?")) + ")").str();
    if (!Name)
      consumeError(Name.takeError());
    Expected<std::unique_ptr<object::Binary>> Bin = C.getAsBinary();
    if (!Bin) {
      consumeError(Bin.takeError()); // not an object (a symbol table...)
      continue;
    }
    if (auto *Obj = dyn_cast<object::ObjectFile>(Bin->get()))
      if (Error E = scanObject(*Obj, Origin, Out))
        return E;
  }
  return Err;
}

} // namespace

Error scanInput(StringRef Path, InputScan &Out) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buf)
    return makeError("cannot read '" + Path + "': " + Buf.getError().message());
  Expected<std::unique_ptr<object::Binary>> Bin =
      object::createBinary((*Buf)->getMemBufferRef());
  if (!Bin) {
    consumeError(Bin.takeError()); // a linker script or the like
    return Error::success();
  }
  if (auto *A = dyn_cast<object::Archive>(Bin->get()))
    return scanArchive(*A, Path, Out);
  if (auto *Obj = dyn_cast<object::ObjectFile>(Bin->get())) {
    // A shared library's device code is linked and registered already.
    if (auto *ELF = dyn_cast<object::ELFObjectFileBase>(Obj))
      if (ELF->getEType() == ELF::ET_DYN)
        return Error::success();
    return scanObject(*Obj, Path, Out);
  }
  return Error::success();
}

namespace {

/// Collects the diagnostics of the link and of the passes after it.
struct CollectDiagnostics : DiagnosticHandler {
  std::vector<std::string> *Errors;
  explicit CollectDiagnostics(std::vector<std::string> *E) : Errors(E) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() != DS_Error)
      return true;
    std::string Msg;
    raw_string_ostream OS(Msg);
    DiagnosticPrinterRawOStream DP(OS);
    DI.print(DP);
    Errors->push_back(OS.str());
    return true;
  }
};

} // namespace

std::string describeSymbol(StringRef Name) {
  std::string D = demangle(Name.str());
  return D == Name ? ("'" + Name + "'").str()
                   : ("'" + D + "' ('" + Name + "')").str();
}

namespace {

bool isStrongDefinition(const GlobalValue &GV) {
  return !GV.isDeclaration() && GV.hasExternalLinkage();
}

bool needsDefinition(const GlobalValue &GV) {
  if (!GV.isDeclaration() || GV.use_empty())
    return false;
  StringRef N = GV.getName();
  if (auto *F = dyn_cast<Function>(&GV); F && F->isIntrinsic())
    return false;
  return !N.starts_with("__hetgpu_") && !N.starts_with("llvm.");
}

/// One strong definition per symbol, and a definition of every symbol some
/// component uses; every problem is reported, each naming the components.
Error checkSymbols(ArrayRef<std::unique_ptr<Module>> Mods,
                   ArrayRef<Component> Components) {
  StringMap<size_t> Strong;
  StringMap<bool> Defined;
  std::vector<std::pair<std::string, size_t>> Uses;
  Error Err = Error::success();
  for (size_t I = 0; I < Mods.size(); ++I)
    for (const GlobalValue &GV : Mods[I]->global_values()) {
      if (GV.hasLocalLinkage())
        continue;
      if (!GV.isDeclaration())
        Defined[GV.getName()] = true;
      if (needsDefinition(GV))
        Uses.emplace_back(GV.getName().str(), I);
      if (!isStrongDefinition(GV))
        continue;
      auto [It, New] = Strong.try_emplace(GV.getName(), I);
      if (!New)
        Err = joinErrors(std::move(Err),
                         makeError("duplicate device symbol " +
                                   describeSymbol(GV.getName()) +
                                   ": defined in '" +
                                   Components[It->second].Origin +
                                   "' and in '" + Components[I].Origin + "'"));
    }
  StringMap<bool> Reported;
  for (auto &[Name, I] : Uses)
    if (!Defined.count(Name) && Reported.try_emplace(Name, true).second)
      Err = joinErrors(std::move(Err),
                       makeError("undefined device symbol " +
                                 describeSymbol(Name) + ", referenced in '" +
                                 Components[I].Origin +
                                 "' (no linked object or archive member "
                                 "defines it)"));
  return Err;
}

Error collected(std::vector<std::string> &Errors, const Twine &What) {
  if (Errors.empty())
    return Error::success();
  std::string Msg = What.str();
  for (const std::string &E : Errors)
    Msg += "\n  " + E;
  Errors.clear();
  return makeError(Msg);
}

Error finalize(Module &M, std::vector<std::string> &Errors) {
  runModulePass(M, FinalizeLinkPass(/*Optimize=*/true));
  return collected(Errors, "device link: the linked device code is invalid:");
}

} // namespace

Expected<container::Container> linkComponents(ArrayRef<Component> Components,
                                              const LinkOptions &Opts) {
  if (Components.empty())
    return makeError("device link: no relocatable device code to link");
  LLVMContext Ctx;
  std::vector<std::string> Errors;
  Ctx.setDiagnosticHandler(std::make_unique<CollectDiagnostics>(&Errors));
  std::vector<std::unique_ptr<Module>> Mods;
  std::vector<Geometry> Geometries;
  for (const Component &C : Components) {
    auto M = parseBitcodeFile(MemoryBufferRef(C.Module.IR, C.Origin), Ctx);
    if (!M)
      return makeError(C.Origin +
                       ": relocatable hetIR: " + toString(M.takeError()));
    if (!isRelocatable(**M))
      return makeError(C.Origin + ": device code is not relocatable hetIR");
    tagOrigins(**M, Mods.size());
    Geometries.push_back(readGeometry(**M));
    Mods.push_back(std::move(*M));
  }
  if (Opts.CheckContracts)
    if (Error E = checkFacts(Mods, Components))
      return std::move(E);
  if (Error E = checkSymbols(Mods, Components))
    return std::move(E);
  auto Dest = std::make_unique<Module>("hetgpu-device-link", Ctx);
  Dest->setTargetTriple(Mods.front()->getTargetTriple());
  Dest->setDataLayout(Mods.front()->getDataLayout());
  Linker L(*Dest);
  for (size_t I = 0; I < Mods.size(); ++I)
    if (L.linkInModule(std::move(Mods[I])) || !Errors.empty()) {
      if (Errors.empty())
        Errors.push_back("llvm::Linker reported no reason");
      return collected(Errors,
                       "device link of '" + Components[I].Origin + "' failed:");
    }
  if (Opts.CheckContracts) {
    if (Error E = checkJointSharedMemory(*Dest, Components))
      return std::move(E);
    if (Error E = checkUniformBarriers(*Dest, Components))
      return std::move(E);
    if (Error E = checkDynamicShared(*Dest, Components))
      return std::move(E);
    if (Error E = checkLaunchGeometry(*Dest, Components, Geometries))
      return std::move(E);
  }
  clearOrigins(*Dest);
  if (Error E = finalize(*Dest, Errors))
    return std::move(E);
  auto MI = buildModuleInfo(*Dest);
  if (!MI)
    return makeError("device link: the linked device code is not valid "
                     "hetIR:\n" +
                     toString(MI.takeError()));
  container::Container C;
  C.Modules.push_back(std::move(*MI));
  return C;
}

} // namespace link
} // namespace hetgpu
