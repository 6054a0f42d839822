//===- ContainerBuilder.cpp - hetIR modules in and out of containers -------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Used by hetgpu-cc (module -> container), hetgpu-objdump and
/// hetgpu-translate (file -> containers).
///
//===----------------------------------------------------------------------===//

#include "hetgpu/IR/ContainerBuilder.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/IR/Verifier.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;

namespace hetgpu {

Expected<container::ModuleInfo> buildModuleInfo(const Module &M) {
  if (Error E = verifyHetIR(M))
    return std::move(E);
  auto Infos = readKernelInfo(M);
  if (!Infos)
    return Infos.takeError();
  container::ModuleInfo MI;
  if (isRelocatable(M))
    MI.Kind = container::ModuleKind::RelocatableHetIR;
  MI.IRVersionMajor = IRVersionMajor;
  MI.IRVersionMinor = IRVersionMinor;
  for (auto &[F, K] : *Infos)
    MI.Kernels.push_back(std::move(K));
  MI.Globals = collectGlobals(M);
  raw_string_ostream OS(MI.IR);
  WriteBitcodeToFile(M, OS);
  OS.flush();
  MI.IRHash = container::fnv1a64(MI.IR.data(), MI.IR.size());
  return MI;
}

static Expected<container::Container> wrapModule(StringRef Bytes, StringRef Name) {
  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  if (isBitcode(reinterpret_cast<const unsigned char *>(Bytes.begin()),
                reinterpret_cast<const unsigned char *>(Bytes.end()))) {
    auto MOrErr = parseBitcodeFile(MemoryBufferRef(Bytes, Name), Ctx);
    if (!MOrErr)
      return MOrErr.takeError();
    M = std::move(*MOrErr);
  } else {
    SMDiagnostic Diag;
    M = parseAssemblyString(Bytes, Diag, Ctx);
    if (!M) {
      std::string Msg;
      raw_string_ostream OS(Msg);
      Diag.print(Name.str().c_str(), OS, false);
      return createStringError(inconvertibleErrorCode(), OS.str());
    }
  }
  auto MI = buildModuleInfo(*M);
  if (!MI)
    return MI.takeError();
  container::Container C;
  C.Modules.push_back(std::move(*MI));
  return C;
}

/// Containers laid one after another (clang aligns each to 8 bytes).
static Expected<std::vector<container::Container>>
scanSection(StringRef Data, StringRef Name) {
  std::vector<container::Container> Out;
  size_t Pos = 0;
  while (Pos + container::HeaderSize <= Data.size()) {
    if (std::memcmp(Data.data() + Pos, container::Magic, 8) != 0) {
      ++Pos;
      continue;
    }
    uint64_t Total = container::peekTotalSize(Data.data() + Pos);
    container::Container C;
    std::string Err;
    if (!container::read(Data.data() + Pos, Data.size() - Pos, C, Err))
      return createStringError(inconvertibleErrorCode(),
                               Name + ": " + Err);
    Out.push_back(std::move(C));
    Pos += Total;
  }
  if (Out.empty())
    return createStringError(inconvertibleErrorCode(),
                             Name + ": .nv_fatbin holds no hetGPU container "
                                    "(built by nvcc rather than hetgpu-cc?)");
  return Out;
}

Expected<std::vector<container::Container>> loadContainers(StringRef Bytes,
                                                           StringRef Name) {
  if (Bytes.size() >= 8 && std::memcmp(Bytes.data(), container::Magic, 8) == 0) {
    container::Container C;
    std::string Err;
    if (!container::read(Bytes.data(), Bytes.size(), C, Err))
      return createStringError(inconvertibleErrorCode(), Name + ": " + Err);
    std::vector<container::Container> V;
    V.push_back(std::move(C));
    return V;
  }
  if (Bytes.starts_with("\x7f"
                        "ELF")) {
    auto Obj = object::ObjectFile::createObjectFile(MemoryBufferRef(Bytes, Name));
    if (!Obj)
      return Obj.takeError();
    // `.nv_fatbin` holds what the runtime registers; a -dc object has only
    // `__nv_relfatbin` (its relocatable hetIR), which a linked program
    // also keeps but never registers.
    for (StringRef Wanted : {".nv_fatbin", "__nv_relfatbin"})
      for (const object::SectionRef &S : (*Obj)->sections()) {
        Expected<StringRef> SN = S.getName();
        if (!SN) {
          consumeError(SN.takeError());
          continue;
        }
        if (*SN != Wanted)
          continue;
        Expected<StringRef> Contents = S.getContents();
        if (!Contents)
          return Contents.takeError();
        return scanSection(*Contents, Name);
      }
    return createStringError(inconvertibleErrorCode(),
                             Name + ": no .nv_fatbin section (no device code "
                                    "compiled by hetgpu-cc)");
  }
  auto C = wrapModule(Bytes, Name);
  if (!C)
    return C.takeError();
  std::vector<container::Container> V;
  V.push_back(std::move(*C));
  return V;
}

} // namespace hetgpu
