//===- KernelMemCheck.cpp - HETGPU_MEMCHECK: checked kernel accesses ------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements Core/KernelMemCheck.h. A context's table lives in its device's
/// memory: the header, the heap ranges the kernels append (kept from launch
/// to launch), the reports of the running launch and the ranges, rewritten
/// before each launch from the allocation table (Runtime::memCheckRanges).
/// When the ranges outgrow it, a larger table replaces it and every loaded
/// module is pointed at the new one.
///
//===----------------------------------------------------------------------===//

#include "Core/KernelMemCheck.h"

#include "Core/Log.h"
#include "Core/MigrationService.h"
#include "Core/Runtime.h"
#include "hetgpu/ABI/MemCheck.h"
#include "hetgpu/Translate/Translate.h"

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>

using namespace hetgpu;
using namespace hetgpu::rt;
using abi::MemCheckHeader;
using abi::MemCheckRange;
using abi::MemCheckReport;

namespace {

constexpr uint32_t MaxReports = 1024;
constexpr uint32_t HeapCapacity = 4096;
constexpr size_t FixedBytes = sizeof(MemCheckHeader) +
                              HeapCapacity * sizeof(MemCheckRange) +
                              MaxReports * sizeof(MemCheckReport);

/// One context's table.
struct Table {
  void *Dev = nullptr;
  size_t RangeCapacity = 0;
  std::unique_ptr<Queue> Q; ///< for the table's own copies
};

std::map<const DeviceContext *, Table> &tables() {
  static std::map<const DeviceContext *, Table> T;
  return T;
}

std::atomic<uint64_t> TotalErrors{0};

Status copyIn(Queue &Q, void *Dst, const void *Src, size_t N) {
  if (Status S = Q.memcpy(Dst, Src, N, CopyKind::HostToDevice))
    return S;
  return Q.synchronize();
}

Status copyOut(Queue &Q, void *Dst, const void *Src, size_t N) {
  if (Status S = Q.memcpy(Dst, Src, N, CopyKind::DeviceToHost))
    return S;
  return Q.synchronize();
}

Status pointModule(Queue &Q, const Table &T, Module &M) {
  void *Ptr = nullptr;
  size_t Size = 0;
  if (Status S = M.getGlobal(abi::MemCheckTableVar, Ptr, Size))
    return Status(ErrorCode::NoBinaryForGpu,
                  "memcheck: the translation has no " +
                      std::string(abi::MemCheckTableVar) + " (" + S.Message +
                      ")");
  uint64_t Addr = reinterpret_cast<uintptr_t>(T.Dev);
  return copyIn(Q, Ptr, &Addr, sizeof(Addr));
}

/// Points every module loaded on \p Ctx at \p T.
Status pointModules(DeviceContext &Ctx, const Table &T) {
  for (auto &[Key, LM] : Ctx.Modules)
    if (LM.M)
      if (Status S = pointModule(*T.Q, T, *LM.M))
        return S;
  return Status::ok();
}

/// Makes \p T hold \p Ranges ranges: a new table (header, heap and reports
/// carried over) when it is too small.
Status reserve(DeviceContext &Ctx, Table &T, size_t Ranges) {
  if (T.Dev && Ranges <= T.RangeCapacity)
    return Status::ok();
  if (!T.Q)
    if (Status S = Ctx.Dev->createQueue(T.Q))
      return Status(S.Code, "memcheck: cannot create a queue: " + S.Message);
  size_t Capacity = std::max<size_t>(4096, 2 * T.RangeCapacity);
  while (Capacity < Ranges)
    Capacity *= 2;
  void *New = nullptr;
  if (Status S =
          Ctx.Dev->allocate(FixedBytes + Capacity * sizeof(MemCheckRange), New))
    return Status(S.Code, "memcheck: cannot allocate its table: " + S.Message);
  Queue &Q = *T.Q;
  std::vector<char> Fixed(FixedBytes, 0);
  if (T.Dev) {
    if (Status S = copyOut(Q, Fixed.data(), T.Dev, FixedBytes))
      return S;
    (void)Ctx.Dev->release(T.Dev);
  } else {
    MemCheckHeader H{};
    H.Magic = abi::MemCheckMagic;
    H.MaxReports = MaxReports;
    H.HeapCapacity = HeapCapacity;
    std::memcpy(Fixed.data(), &H, sizeof(H));
  }
  T.Dev = New;
  T.RangeCapacity = Capacity;
  if (Status S = copyIn(Q, New, Fixed.data(), FixedBytes))
    return S;
  return pointModules(Ctx, T);
}

/// Line \p Site of a module's site table: access, bytes, function, location.
struct SiteInfo {
  std::string Access = "access", Function = "?", Location;
};

std::map<uint32_t, SiteInfo> readSites(DeviceContext &Ctx, Queue &Q,
                                       const KernelRecord &KR) {
  std::map<uint32_t, SiteInfo> Out;
  auto It = Ctx.Modules.find({KR.Bin, KR.ModuleIndex});
  if (It == Ctx.Modules.end() || !It->second.M)
    return Out;
  void *Addr = nullptr, *BytesAddr = nullptr;
  size_t Size = 0;
  uint64_t Bytes = 0;
  Module &M = *It->second.M;
  if (M.getGlobal(abi::MemCheckSitesBytesVar, BytesAddr, Size) ||
      copyOut(Q, &Bytes, BytesAddr, sizeof(Bytes)) ||
      M.getGlobal(abi::MemCheckSitesVar, Addr, Size) || !Bytes ||
      Bytes > (64u << 20))
    return Out;
  Size = Bytes;
  std::string Text(Size, '\0');
  if (copyOut(Q, Text.data(), Addr, Size))
    return Out;
  std::istringstream In(Text.c_str());
  std::string Line;
  std::map<std::string, std::string> Functions;
  while (std::getline(In, Line)) {
    std::vector<std::string> F;
    size_t From = 0;
    for (size_t Tab; (Tab = Line.find('\t', From)) != std::string::npos;
         From = Tab + 1)
      F.push_back(Line.substr(From, Tab - From));
    F.push_back(Line.substr(From));
    if (F.size() == 3 && F[0] == "f") {
      Functions[F[1]] = F[2];
      continue;
    }
    if (F.size() < 5)
      continue;
    SiteInfo &S = Out[uint32_t(std::strtoul(F[0].c_str(), nullptr, 10))];
    S.Access = F[1];
    S.Function = Functions.count(F[3]) ? Functions[F[3]] : "?";
    S.Location = F[4];
  }
  return Out;
}

/// Where \p Addr lies relative to the nearest range: "N bytes before/after
/// the nearest allocation at A of size S".
std::string nearest(const std::vector<MemCheckRange> &Ranges, uint64_t Addr,
                    bool Freed) {
  const MemCheckRange *Best = nullptr;
  uint64_t BestDist = UINT64_MAX;
  for (const MemCheckRange &R : Ranges) {
    // Inside freed memory: the freed block; else any block, the freed
    // ones too (a device-malloc block freed since).
    if (Freed && R.State != abi::MRS_Freed)
      continue;
    uint64_t D = Addr < R.Begin  ? R.Begin - Addr
                 : Addr >= R.End ? Addr - R.End
                                 : 0;
    if (D < BestDist) {
      BestDist = D;
      Best = &R;
    }
  }
  if (!Best)
    return "";
  char Buf[160];
  if (Addr >= Best->Begin && Addr < Best->End)
    std::snprintf(
        Buf, sizeof Buf,
        "and is %" PRIu64 " bytes inside the %sallocation at 0x%" PRIx64
        " of size %" PRIu64 " bytes",
        Addr - Best->Begin, Best->State == abi::MRS_Freed ? "freed " : "",
        Best->Begin, Best->End - Best->Begin);
  else
    std::snprintf(Buf, sizeof Buf,
                  "and is %" PRIu64 " bytes %s the nearest %sallocation at "
                  "0x%" PRIx64 " of size %" PRIu64 " bytes",
                  BestDist, Addr < Best->Begin ? "before" : "after",
                  Best->State == abi::MRS_Freed ? "freed " : "", Best->Begin,
                  Best->End - Best->Begin);
  return Buf;
}

void printReport(const MemCheckReport &R, const SiteInfo &Site,
                 const std::string &Kernel,
                 const std::vector<MemCheckRange> &Ranges) {
  const bool Shared = R.Problem == abi::MCP_SharedOutOfBounds;
  std::string Why;
  switch (R.Problem) {
  case abi::MCP_Freed:
    Why = "is in freed memory";
    break;
  case abi::MCP_Misaligned:
    Why = "is misaligned";
    break;
  case abi::MCP_SharedOutOfBounds:
    Why = "is out of bounds of the shared variable it is based on";
    break;
  default:
    Why = "is out of bounds";
  }
  std::string Near =
      Shared || R.Problem == abi::MCP_Misaligned
          ? ""
          : nearest(Ranges, R.Address, R.Problem == abi::MCP_Freed);
  std::fprintf(stderr,
               "========= Invalid __%s__ %s of size %" PRIu64 " bytes\n"
               "=========     at %s in kernel %s%s%s\n"
               "=========     by thread (%u,%u,%u) in block (%u,%u,%u)\n"
               "=========     Address 0x%" PRIx64 " %s\n%s%s%s",
               Shared ? "shared" : "global", Site.Access.c_str(), R.Size,
               Site.Function.c_str(), Kernel.c_str(),
               Site.Location.empty() ? "" : " ", Site.Location.c_str(),
               R.Thread[0], R.Thread[1], R.Thread[2], R.Block[0], R.Block[1],
               R.Block[2], R.Address, Why.c_str(),
               Near.empty() ? "" : "=========     ", Near.c_str(),
               Near.empty() ? "" : "\n");
}

void printSummary() {
  std::fflush(stdout); // after what the program printed
  std::fprintf(stderr, "========= ERROR SUMMARY: %" PRIu64 " error%s\n",
               TotalErrors.load(), TotalErrors.load() == 1 ? "" : "s");
}

} // namespace

bool hetgpu::rt::memCheckEnabled() {
  static const bool On = [] {
    const char *E = std::getenv("HETGPU_MEMCHECK");
    bool V = E && *E && std::strcmp(E, "0") != 0;
    if (V)
      std::atexit(printSummary);
    return V;
  }();
  return On;
}

unsigned hetgpu::rt::moduleTranslateFlags() {
  MigrationService *Mig = activeMigrationService();
  return (Mig ? Mig->translateFlags() : 0) |
         (memCheckEnabled() ? HETGPU_TRANSLATE_MEMCHECK : 0);
}

Status hetgpu::rt::memCheckModuleLoaded(DeviceContext &Ctx,
                                        const container::ModuleInfo &MI,
                                        LoadedModule &LM) {
  Table &T = tables()[&Ctx];
  if (Status S = reserve(Ctx, T, 0))
    return S;
  if (Status S = pointModule(*T.Q, T, *LM.M))
    return S;
  // The module's variables are memory its kernels may touch.
  for (const container::GlobalInfo &G : MI.Globals) {
    void *Addr = nullptr;
    size_t Bytes = 0;
    if (LM.M->getGlobal(G.Name, Addr, Bytes).isOk() && Addr)
      Runtime::get().addSymbolRange(Addr, Bytes ? Bytes : G.Size, Ctx.Index);
  }
  return Status::ok();
}

Status hetgpu::rt::memCheckedLaunch(DeviceContext &Ctx, StreamObj &S, Kernel &K,
                                    const KernelRecord &KR,
                                    const LaunchParams &P) {
  std::vector<MemCheckRange> Ranges;
  Runtime::get().memCheckRanges(Ctx.Index, Ranges);
  Table &T = tables()[&Ctx];
  if (Status St = reserve(Ctx, T, Ranges.size()))
    return St;
  Queue &Q = *S.Q;
  // Header words the host owns: magic, range count, dynamic shared size,
  // report count (the heap words stay as the kernels left them).
  MemCheckHeader H{};
  H.Magic = abi::MemCheckMagic;
  H.NumRanges = uint32_t(Ranges.size());
  H.DynamicShared = P.DynamicShared;
  H.NumReports = 0;
  char *Dev = static_cast<char *>(T.Dev);
  if (Status St = Q.memcpy(Dev, &H, offsetof(MemCheckHeader, MaxReports),
                           CopyKind::HostToDevice))
    return St;
  if (!Ranges.empty())
    if (Status St = Q.memcpy(Dev + FixedBytes, Ranges.data(),
                             Ranges.size() * sizeof(MemCheckRange),
                             CopyKind::HostToDevice))
      return St;
  if (Status St = Q.launch(K, P))
    return St;
  if (Status St = Q.synchronize())
    return St;
  MemCheckHeader After{};
  if (Status St = copyOut(Q, &After, Dev, sizeof(After)))
    return St;
  if (!After.NumReports)
    return Status::ok();
  uint32_t Shown = std::min(After.NumReports, MaxReports);
  std::vector<MemCheckReport> Reports(Shown);
  if (Status St = copyOut(Q, Reports.data(),
                          Dev + sizeof(MemCheckHeader) +
                              HeapCapacity * sizeof(MemCheckRange),
                          Shown * sizeof(MemCheckReport)))
    return St;
  // The device-malloc blocks count as allocations in the reports.
  uint32_t Heap = std::min(After.NumHeap, HeapCapacity);
  size_t Static = Ranges.size();
  Ranges.resize(Static + Heap);
  if (Heap && copyOut(Q, Ranges.data() + Static, Dev + sizeof(MemCheckHeader),
                      Heap * sizeof(MemCheckRange)))
    Ranges.resize(Static);
  std::map<uint32_t, SiteInfo> Sites = readSites(Ctx, Q, KR);
  std::fflush(stdout);
  const std::string &Name = KR.Info ? KR.Info->Demangled : KR.Name;
  for (const MemCheckReport &R : Reports)
    printReport(R, Sites[R.Site], Name, Ranges);
  if (After.NumReports > Shown)
    std::fprintf(stderr,
                 "========= (%u more errors of this launch not shown)\n",
                 After.NumReports - Shown);
  TotalErrors += After.NumReports;
  bool Misaligned = Reports[0].Problem == abi::MCP_Misaligned;
  return Status(
      Misaligned ? ErrorCode::MisalignedAddress : ErrorCode::IllegalAddress,
      "memcheck: kernel " + Name + " made " + std::to_string(After.NumReports) +
          " invalid memory access(es); none was performed");
}

void hetgpu::rt::memCheckResetContext(DeviceContext &Ctx) {
  auto It = tables().find(&Ctx);
  if (It == tables().end())
    return;
  if (It->second.Dev)
    (void)Ctx.Dev->release(It->second.Dev);
  It->second.Q.reset();
  tables().erase(It);
}
