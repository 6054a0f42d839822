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
#include "llvm/IR/Verifier.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <set>
#include <csignal>
#include <cstring>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

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
  MI.IRHash = container::hash128(MI.IR.data(), MI.IR.size());
  return MI;
}

/// Reads and verifies \p Bytes in a child process: 0 when it reads and
/// verifies, 1 when it is refused with an error, -signal when it crashes;
/// 0 too when no child can be made (the bitcode is then read in process).
static int probeBitcode(StringRef Bytes) {
  pid_t Pid = fork();
  if (Pid < 0)
    return 0;
  if (Pid == 0) {
    // The child dies of its own signals quietly: no handler of the
    // application's, no core file.
    for (int Sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP})
      signal(Sig, SIG_DFL);
    struct rlimit NoCore = {0, 0};
    setrlimit(RLIMIT_CORE, &NoCore);
    LLVMContext Ctx;
    auto M = parseBitcodeFile(MemoryBufferRef(Bytes, "probe"), Ctx);
    bool OK = M && !verifyModule(**M, nullptr);
    if (!M)
      consumeError(M.takeError());
    _exit(OK ? 0 : 1);
  }
  int St = 0;
  while (waitpid(Pid, &St, 0) < 0)
    if (errno != EINTR)
      return 0;
  if (WIFSIGNALED(St))
    return -WTERMSIG(St);
  return WIFEXITED(St) && WEXITSTATUS(St) == 0 ? 0 : 1;
}

/// Whether \p Bytes still needs the probe: once per distinct bitcode in a
/// process (a module translated in kernel groups is read once per group),
/// never with HETGPU_BITCODE_PROBE=0.
static bool needsProbe(StringRef Bytes) {
  static const bool Enabled = [] {
    const char *E = std::getenv("HETGPU_BITCODE_PROBE");
    return !(E && std::strcmp(E, "0") == 0);
  }();
  if (!Enabled)
    return false;
  static std::mutex M;
  static std::set<std::pair<uint64_t, uint64_t>> Probed;
  container::Hash128 H = container::hash128(Bytes.data(), Bytes.size());
  std::lock_guard<std::mutex> L(M);
  return Probed.insert({H.Low, H.High}).second;
}

Expected<std::unique_ptr<Module>>
parseCheckedBitcode(StringRef Bytes, StringRef Name, LLVMContext &Ctx) {
  if (int Probe = needsProbe(Bytes) ? probeBitcode(Bytes) : 0; Probe < 0)
    return createStringError(inconvertibleErrorCode(),
                             Name +
                                 ": malformed bitcode (LLVM's reader "
                                 "died of signal " +
                                 Twine(-Probe) + " reading it)");
  auto M = parseBitcodeFile(MemoryBufferRef(Bytes, Name), Ctx);
  if (!M)
    return createStringError(
        inconvertibleErrorCode(),
        Name + ": cannot read the bitcode: " + toString(M.takeError()));
  std::string Broken;
  raw_string_ostream OS(Broken);
  if (verifyModule(**M, &OS))
    return createStringError(inconvertibleErrorCode(),
                             Name +
                                 ": the bitcode does not verify: " + OS.str());
  return std::move(*M);
}

static bool sameParams(const container::KernelInfo &A,
                       const container::KernelInfo &B) {
  if (A.Params.size() != B.Params.size())
    return false;
  for (size_t I = 0; I < A.Params.size(); ++I) {
    const container::ParamInfo &P = A.Params[I], &Q = B.Params[I];
    if (P.Kind != Q.Kind || P.Size != Q.Size || P.Align != Q.Align ||
        P.Offset != Q.Offset)
      return false;
  }
  return true;
}

static bool sameSafePoints(const container::KernelInfo &A,
                           const container::KernelInfo &B) {
  if (A.SafePoints.size() != B.SafePoints.size())
    return false;
  for (size_t I = 0; I < A.SafePoints.size(); ++I) {
    const container::SafePointInfo &P = A.SafePoints[I], &Q = B.SafePoints[I];
    if (P.Id != Q.Id || P.Kind != Q.Kind || P.RecordSize != Q.RecordSize ||
        P.Slots.size() != Q.Slots.size())
      return false;
    for (size_t J = 0; J < P.Slots.size(); ++J)
      if (P.Slots[J].Kind != Q.Slots[J].Kind ||
          P.Slots[J].Offset != Q.Slots[J].Offset ||
          P.Slots[J].Size != Q.Slots[J].Size ||
          P.Slots[J].Type != Q.Slots[J].Type)
        return false;
  }
  return true;
}

/// What differs between kernel \p T of the tables and \p IR of the
/// metadata, or an empty string.
static std::string kernelDifference(const container::KernelInfo &T,
                                    const container::KernelInfo &IR) {
  if (!sameParams(T, IR))
    return "parameters";
  if (T.ParamBufferSize != IR.ParamBufferSize)
    return "parameter buffer size";
  if (T.StaticShared != IR.StaticShared)
    return "static shared size";
  if (T.Features != IR.Features)
    return "features";
  if (T.MaxThreads != IR.MaxThreads || T.MinBlocks != IR.MinBlocks)
    return "launch bounds";
  if (T.StateRecordSize != IR.StateRecordSize || !sameSafePoints(T, IR))
    return "safe points";
  return "";
}

Error checkTablesMatchIR(const Module &M, const void *Tables, size_t Size) {
  auto Fail = [](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "module tables refused: " + Why);
  };
  container::ModuleInfo T;
  std::string Err;
  if (!Tables || !container::readTables(Tables, Size, T, Err))
    return Fail(Tables ? Err : "none given");
  auto Infos = readKernelInfo(M);
  if (!Infos)
    return Infos.takeError();
  if (Infos->size() != T.Kernels.size())
    return Fail("they list " + Twine(T.Kernels.size()) +
                " kernels, the IR has " + Twine(Infos->size()));
  for (const auto &[F, K] : *Infos) {
    const container::KernelInfo *TK = T.findKernel(K.Name);
    if (!TK)
      return Fail("kernel " + K.Name + " of the IR is not in them");
    std::string What = kernelDifference(*TK, K);
    if (!What.empty())
      return Fail("the " + What + " of kernel " + K.Name +
                  " differ from the IR's");
  }
  std::vector<container::GlobalInfo> Gs = collectGlobals(M);
  bool SameGlobals = Gs.size() == T.Globals.size();
  for (size_t I = 0; SameGlobals && I < Gs.size(); ++I)
    SameGlobals = Gs[I].Name == T.Globals[I].Name &&
                  Gs[I].Size == T.Globals[I].Size &&
                  Gs[I].AddrSpace == T.Globals[I].AddrSpace;
  if (!SameGlobals)
    return Fail("their globals differ from the IR's");
  return Error::success();
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
