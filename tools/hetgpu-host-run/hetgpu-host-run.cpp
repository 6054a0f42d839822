//===- hetgpu-host-run.cpp - Run one kernel of a host shared object -------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A minimal stand-in for the CPU backend, for testing the host target
/// alone: loads a shared object produced by `hetgpu-translate --target=host`
/// (or translates a hetIR .ll/.bc itself with the host target), allocates
/// the buffers the command line describes, runs every block of one kernel
/// (on --workers threads, so atomics are exercised across cores),
/// and prints the buffers.
///
/// USAGE: hetgpu-host-run [--grid=X,Y,Z] [--block=X,Y,Z] [--dyn-shared=N]
///          [--workers=N] [--print=I,J,...] [--save-so=F] INPUT KERNEL ARG...
///   ARG:  i32=V | u32=V | i64=V | f32=V | f64=V           (by value)
///         struct=T:V,T:V,...      (aggregate by value, natural layout)
///         buf:<i32|u32|i64|f32|f64>:N[:zero|iota|rev|fill=V|mod=M]
///                                                   (device buffer)
///   Output: one line per buffer, "argK: v0 v1 ...". A trap or failed
///   assert prints "launch failed: ..." and exits with 3.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Targets/LoweringTarget.h"
#include "hetgpu/Transforms/InsertLoopSafePoints.h"
#include "hetgpu/Transforms/InstrumentState.h"
#include "hetgpu/ABI/BlockABI.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csetjmp>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace llvm;

static cl::opt<std::string> Input(cl::Positional, cl::Required,
                                  cl::desc("<shared object | hetIR .ll/.bc>"));
static cl::opt<std::string> KernelName(cl::Positional, cl::Required,
                                       cl::desc("<kernel symbol>"));
static cl::list<std::string> ArgSpecs(cl::Positional, cl::desc("<args>..."));
static cl::opt<std::string> GridOpt("grid", cl::init("1"),
                                    cl::desc("X[,Y[,Z]]"));
static cl::opt<std::string> BlockOpt("block", cl::init("1"),
                                     cl::desc("X[,Y[,Z]]"));
static cl::opt<unsigned> DynShared("dyn-shared", cl::init(0),
                                   cl::desc("bytes of dynamic shared memory"));
static cl::opt<unsigned> Threads("workers", cl::init(1),
                                 cl::desc("worker threads running blocks"));
static cl::opt<std::string> Arch("cpu", cl::init(""),
                                 cl::desc("CPU when translating"));
static cl::opt<std::string> SaveSO("save-so", cl::init(""),
                                   cl::desc("write the translated .so here"));
static cl::opt<bool> Time("time", cl::desc("print the kernel's run time to "
                                           "stderr"));
static cl::opt<unsigned> MigrateAfter(
    "migrate-after",
    cl::desc("instrument the kernel for live migration (hetIR input), "
             "suspend it at this safe-point visit, then resume it"),
    cl::init(0));
static cl::list<unsigned> PrintArgs("print", cl::CommaSeparated,
                                    cl::desc("argument indices of the buffers "
                                             "to print (default: all)"));

namespace {

constexpr uint64_t StaticSharedMax = 48 * 1024;

// ---- Services
// -----------------------------------------------------------------

std::mutex PrintLock;
std::atomic<bool> Failed{false};
std::string FailMessage;
thread_local std::jmp_buf *BlockExit;

/// CUDA vprintf: each argument at its natural alignment in \p Args.
int devicePrintf(void *, const char *Fmt, const void *Args) {
  const char *A = static_cast<const char *>(Args);
  size_t Off = 0;
  auto Take = [&](size_t Size) {
    Off = (Off + Size - 1) & ~(Size - 1);
    const char *P = A + Off;
    Off += Size;
    return P;
  };
  std::string Out;
  for (const char *P = Fmt; *P;) {
    if (*P != '%') {
      Out += *P++;
      continue;
    }
    if (P[1] == '%') {
      Out += '%';
      P += 2;
      continue;
    }
    const char *Start = P++;
    while (*P && strchr("-+ #0123456789.*", *P))
      ++P;
    int Long = 0;
    while (*P && strchr("hlLzjt", *P)) {
      if (*P == 'l' || *P == 'z' || *P == 'j' || *P == 't')
        ++Long;
      ++P;
    }
    char Conv = *P ? *P++ : 0;
    std::string Spec(Start, P);
    // Strip length modifiers; re-add the one we pass.
    std::string Core;
    for (char Ch : Spec)
      if (!strchr("hlLzjt", Ch))
        Core += Ch;
    char Buf[512];
    switch (Conv) {
    case 'd':
    case 'i': {
      long long V;
      if (Long) {
        memcpy(&V, Take(8), 8);
      } else {
        int32_t I;
        memcpy(&I, Take(4), 4);
        V = I;
      }
      Core.insert(Core.size() - 1, "ll");
      snprintf(Buf, sizeof(Buf), Core.c_str(), V);
      break;
    }
    case 'u':
    case 'x':
    case 'X':
    case 'o':
    case 'c': {
      unsigned long long V;
      if (Long) {
        memcpy(&V, Take(8), 8);
      } else {
        uint32_t I;
        memcpy(&I, Take(4), 4);
        V = I;
      }
      if (Conv == 'c') {
        snprintf(Buf, sizeof(Buf), Core.c_str(), int(V));
      } else {
        Core.insert(Core.size() - 1, "ll");
        snprintf(Buf, sizeof(Buf), Core.c_str(), V);
      }
      break;
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A': {
      double V;
      memcpy(&V, Take(8), 8);
      snprintf(Buf, sizeof(Buf), Core.c_str(), V);
      break;
    }
    case 's': {
      const char *S;
      memcpy(&S, Take(8), 8);
      snprintf(Buf, sizeof(Buf), Core.c_str(), S ? S : "(null)");
      break;
    }
    case 'p': {
      void *V;
      memcpy(&V, Take(8), 8);
      snprintf(Buf, sizeof(Buf), Core.c_str(), V);
      break;
    }
    default:
      snprintf(Buf, sizeof(Buf), "%s", Spec.c_str());
      break;
    }
    Out += Buf;
  }
  std::lock_guard<std::mutex> G(PrintLock);
  fputs(Out.c_str(), stdout);
  return int(Out.size());
}

[[noreturn]] void fail(const std::string &Msg) {
  {
    std::lock_guard<std::mutex> G(PrintLock);
    if (!Failed.exchange(true))
      FailMessage = Msg;
  }
  std::longjmp(*BlockExit, 1);
}

void deviceAssert(void *, const char *Msg, const char *File, uint32_t Line,
                  const char *Func) {
  fail(std::string("assert: ") + File + ":" + std::to_string(Line) + ": " +
       Func + ": Assertion `" + Msg + "` failed.");
}
void deviceTrap(void *) { fail("trap"); }
void *deviceMalloc(void *, uint64_t Size) { return malloc(Size); }
void deviceFree(void *, void *P) { free(P); }
uint64_t deviceClock(void *) {
  return std::chrono::steady_clock::now().time_since_epoch().count();
}
uint64_t deviceTimer(void *) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// ---- Arguments
// ------------------------------------------------------------------

struct Arg {
  std::string Type;
  bool IsBuf = false;
  std::vector<char> Bytes; ///< value bytes, or the buffer
  size_t Count = 0;
  void *Ptr = nullptr; ///< pointer parameter value (IsBuf)
};

size_t typeSize(const std::string &T) {
  if (T == "i32" || T == "u32" || T == "f32")
    return 4;
  if (T == "i64" || T == "f64")
    return 8;
  return 0;
}

void storeElem(const std::string &T, char *P, double V) {
  if (T == "i32") {
    int32_t X = int32_t(V);
    memcpy(P, &X, 4);
  } else if (T == "u32") {
    uint32_t X = uint32_t(int64_t(V));
    memcpy(P, &X, 4);
  } else if (T == "i64") {
    int64_t X = int64_t(V);
    memcpy(P, &X, 8);
  } else if (T == "f32") {
    float X = float(V);
    memcpy(P, &X, 4);
  } else {
    memcpy(P, &V, 8);
  }
}

void printElem(const std::string &T, const char *P) {
  if (T == "i32") {
    int32_t X;
    memcpy(&X, P, 4);
    printf("%d", X);
  } else if (T == "u32") {
    uint32_t X;
    memcpy(&X, P, 4);
    printf("%u", X);
  } else if (T == "i64") {
    int64_t X;
    memcpy(&X, P, 8);
    printf("%lld", (long long)X);
  } else if (T == "f32") {
    float X;
    memcpy(&X, P, 4);
    printf("%g", X);
  } else {
    double X;
    memcpy(&X, P, 8);
    printf("%g", X);
  }
}

bool parseArg(const std::string &S, Arg &A) {
  if (S.rfind("struct=", 0) == 0) {
    // struct=T:V,T:V,... : fields at their natural alignment (by value).
    A.Type = "struct";
    std::string Rest = S.substr(7);
    size_t Pos = 0, MaxAlign = 1;
    while (Pos <= Rest.size()) {
      size_t C = Rest.find(',', Pos);
      std::string F = Rest.substr(Pos, C == std::string::npos ? C : C - Pos);
      size_t Colon = F.find(':');
      if (Colon == std::string::npos)
        return false;
      std::string T = F.substr(0, Colon);
      size_t Size = typeSize(T);
      if (!Size)
        return false;
      MaxAlign = std::max(MaxAlign, Size);
      size_t Off = (A.Bytes.size() + Size - 1) / Size * Size;
      A.Bytes.resize(Off + Size);
      storeElem(T, A.Bytes.data() + Off,
                strtod(F.c_str() + Colon + 1, nullptr));
      if (C == std::string::npos)
        break;
      Pos = C + 1;
    }
    A.Bytes.resize((A.Bytes.size() + MaxAlign - 1) / MaxAlign * MaxAlign);
    return true;
  }
  if (S.rfind("buf:", 0) == 0) {
    std::vector<std::string> F;
    size_t Pos = 4;
    while (true) {
      size_t C = S.find(':', Pos);
      F.push_back(S.substr(Pos, C == std::string::npos ? C : C - Pos));
      if (C == std::string::npos)
        break;
      Pos = C + 1;
    }
    if (F.size() < 2 || !typeSize(F[0]))
      return false;
    A.IsBuf = true;
    A.Type = F[0];
    A.Count = strtoull(F[1].c_str(), nullptr, 0);
    size_t ES = typeSize(A.Type);
    A.Bytes.assign(A.Count * ES + 64, 0);
    std::string Init = F.size() > 2 ? F[2] : "zero";
    for (size_t I = 0; I < A.Count; ++I) {
      double V = 0;
      if (Init == "iota")
        V = double(I);
      else if (Init == "rev")
        V = double(A.Count - 1 - I);
      else if (Init.rfind("fill=", 0) == 0)
        V = strtod(Init.c_str() + 5, nullptr);
      else if (Init.rfind("mod=", 0) == 0)
        V = double(I % strtoull(Init.c_str() + 4, nullptr, 0));
      else if (Init != "zero")
        return false;
      storeElem(A.Type, A.Bytes.data() + I * ES, V);
    }
    A.Ptr = A.Bytes.data();
    return true;
  }
  size_t Eq = S.find('=');
  if (Eq == std::string::npos)
    return false;
  A.Type = S.substr(0, Eq);
  if (!typeSize(A.Type))
    return false;
  A.Bytes.assign(typeSize(A.Type), 0);
  std::string V = S.substr(Eq + 1);
  if (A.Type[0] == 'f')
    storeElem(A.Type, A.Bytes.data(), strtod(V.c_str(), nullptr));
  else if (A.Type == "u32")
    storeElem("u32", A.Bytes.data(), double(strtoull(V.c_str(), nullptr, 0)));
  else {
    long long X = strtoll(V.c_str(), nullptr, 0);
    if (A.Type == "i64")
      memcpy(A.Bytes.data(), &X, 8);
    else {
      int32_t Y = int32_t(X);
      memcpy(A.Bytes.data(), &Y, 4);
    }
  }
  return true;
}

bool parseDim(const std::string &S, uint32_t D[3]) {
  D[0] = D[1] = D[2] = 1;
  unsigned I = 0;
  for (size_t Pos = 0; Pos <= S.size() && I < 3; ++I) {
    size_t C = S.find(',', Pos);
    std::string Part = S.substr(Pos, C == std::string::npos ? C : C - Pos);
    D[I] = uint32_t(strtoul(Part.c_str(), nullptr, 0));
    if (C == std::string::npos)
      break;
    Pos = C + 1;
  }
  return D[0] && D[1] && D[2];
}

/// The shared object to load: \p Input itself, or its translation.
/// The kernel's container description, when --migrate-after is used.
std::optional<hetgpu::container::KernelInfo> Migration;

Expected<std::string> sharedObjectFor(const std::string &In) {
  StringRef S(In);
  if (!S.ends_with(".ll") && !S.ends_with(".bc"))
    return In;
  LLVMContext Ctx;
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseIRFile(In, Diag, Ctx);
  if (!M) {
    std::string Msg;
    raw_string_ostream OS(Msg);
    Diag.print("hetgpu-host-run", OS);
    return createStringError(inconvertibleErrorCode(), Msg);
  }
  if (MigrateAfter) {
    auto Infos = hetgpu::readKernelInfo(*M);
    if (!Infos)
      return Infos.takeError();
    for (auto &[F, KI] : *Infos)
      if (KI.Name == KernelName)
        Migration = KI;
    LoopAnalysisManager LAM;
    FunctionAnalysisManager FAM;
    CGSCCAnalysisManager CGAM;
    ModuleAnalysisManager MAM;
    PassBuilder PB;
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
    ModulePassManager MPM;
    MPM.addPass(hetgpu::InstrumentStatePass(/*EarlyFlagRead=*/false));
    MPM.run(*M, MAM);
  } else {
    // As hetgpu_translate does: loop safe points are nothing unless the
    // translation is instrumented.
    hetgpu::stripSafePoints(*M);
  }
  auto T = hetgpu::createHostTarget();
  if (!T)
    return createStringError(inconvertibleErrorCode(),
                             "the host target is not built");
  hetgpu::TargetOptions Opts;
  Opts.Arch = Arch;
  Opts.Instrument = MigrateAfter != 0;
  if (Error E = T->lower(*M, Opts))
    return std::move(E);
  auto Bytes = T->emit(*M, Opts);
  if (!Bytes)
    return Bytes.takeError();
  SmallString<128> Path;
  if (!SaveSO.empty()) {
    Path = SaveSO;
  } else if (std::error_code EC =
                 sys::fs::createTemporaryFile("hetgpu-host-run", "so", Path)) {
    return createStringError(EC, "temporary file: " + EC.message());
  }
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (EC)
    return createStringError(EC, Path + ": " + EC.message());
  OS.write(Bytes->data(), Bytes->size());
  return std::string(Path);
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "run one kernel of a host .so\n");
  uint32_t Grid[3], Block[3];
  if (!parseDim(GridOpt, Grid) || !parseDim(BlockOpt, Block)) {
    WithColor::error() << "bad --grid or --block\n";
    return 2;
  }
  std::vector<Arg> Args(ArgSpecs.size());
  for (size_t I = 0; I < ArgSpecs.size(); ++I)
    if (!parseArg(ArgSpecs[I], Args[I])) {
      WithColor::error() << "bad argument '" << ArgSpecs[I] << "'\n";
      return 2;
    }
  auto SOPath = sharedObjectFor(Input);
  if (!SOPath) {
    WithColor::error() << toString(SOPath.takeError()) << "\n";
    return 1;
  }
  // dlopen searches the library path for names without a slash.
  SmallString<256> Abs(*SOPath);
  sys::fs::make_absolute(Abs);
  void *H = dlopen(Abs.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (*SOPath != Input && SaveSO.empty())
    sys::fs::remove(*SOPath);
  if (!H) {
    WithColor::error() << "dlopen: " << dlerror() << "\n";
    return 1;
  }
  auto *Version =
      static_cast<uint32_t *>(dlsym(H, "__hetgpu_host_abi_version"));
  if (!Version || *Version != HETGPU_HOST_ABI_VERSION) {
    WithColor::error() << "missing or wrong __hetgpu_host_abi_version\n";
    return 1;
  }
  std::string Sym = "__hetgpu_block_" + KernelName;
  auto Fn = reinterpret_cast<hetgpu_block_fn>(dlsym(H, Sym.c_str()));
  if (!Fn) {
    WithColor::error() << "no symbol " << Sym << "\n";
    return 1;
  }

  std::vector<void *> ArgPtrs;
  for (Arg &A : Args)
    ArgPtrs.push_back(A.IsBuf ? static_cast<void *>(&A.Ptr)
                              : static_cast<void *>(A.Bytes.data()));

  // Live migration: the state buffer, the control block and the round are
  // the hidden trailing parameters of an instrumented kernel.
  std::vector<char> StateBuf;
  hetgpu::abi::MigrationControl Ctrl = {};
  void *StatePtr = nullptr, *CtrlPtr = &Ctrl;
  uint32_t Round = 0;
  if (MigrateAfter) {
    if (!Migration) {
      WithColor::error() << "--migrate-after needs a hetIR input that "
                            "describes kernel "
                         << KernelName << "\n";
      return 1;
    }
    uint64_t Threads = uint64_t(Block[0]) * Block[1] * Block[2];
    uint64_t PerBlock =
        hetgpu::abi::stateBlockBytes(Migration->StaticShared, DynShared, Threads,
                                    Migration->StateRecordSize);
    StateBuf.assign(PerBlock * Grid[0] * Grid[1] * Grid[2] + 16, 0);
    StatePtr = StateBuf.data();
    Ctrl.DynShared = DynShared;
    Ctrl.YieldAfter = MigrateAfter;
    ArgPtrs.push_back(&StatePtr);
    ArgPtrs.push_back(&CtrlPtr);
    ArgPtrs.push_back(&Round);
  }

  hetgpu_host_services Svc = {nullptr,     devicePrintf, deviceAssert,
                              deviceTrap,  deviceMalloc, deviceFree,
                              deviceClock, deviceTimer};
  uint64_t NumBlocks = uint64_t(Grid[0]) * Grid[1] * Grid[2];
  std::atomic<uint64_t> Next{0};
  auto Worker = [&] {
    std::vector<char> Shared(StaticSharedMax + DynShared + 64);
    std::jmp_buf Exit;
    BlockExit = &Exit;
    for (;;) {
      uint64_t B = Next.fetch_add(1);
      if (B >= NumBlocks || Failed)
        return;
      hetgpu_block_ctx Ctx = {};
      memcpy(Ctx.grid_dim, Grid, sizeof(Grid));
      memcpy(Ctx.block_dim, Block, sizeof(Block));
      Ctx.block_idx[0] = uint32_t(B % Grid[0]);
      Ctx.block_idx[1] = uint32_t(B / Grid[0] % Grid[1]);
      Ctx.block_idx[2] = uint32_t(B / (uint64_t(Grid[0]) * Grid[1]));
      char *Base = reinterpret_cast<char *>(
          (reinterpret_cast<uintptr_t>(Shared.data()) + 63) & ~uintptr_t(63));
      memset(Base, 0, StaticSharedMax + DynShared);
      Ctx.shared = Base;
      Ctx.dynamic_shared_offset = StaticSharedMax;
      Ctx.dynamic_shared_size = DynShared;
      Ctx.services = &Svc;
      if (setjmp(Exit) == 0)
        Fn(ArgPtrs.data(), &Ctx);
      else
        return;
    }
  };
  auto T0 = std::chrono::steady_clock::now();
  auto Launch = [&] {
    Next = 0;
    if (Threads <= 1) {
      Worker(); // on this thread, so profilers see the kernel
    } else {
      std::vector<std::thread> Pool;
      for (unsigned I = 0; I < Threads; ++I)
        Pool.emplace_back(Worker);
      for (std::thread &T : Pool)
        T.join();
    }
  };
  Launch();
  if (MigrateAfter && !Failed) {
    // Count the blocks by status, then resume the launch.
    uint64_t Threads3 = uint64_t(Block[0]) * Block[1] * Block[2];
    uint64_t PerBlock =
        hetgpu::abi::stateBlockBytes(Migration->StaticShared, DynShared,
                                    Threads3, Migration->StateRecordSize);
    // Round 0 wrote status 1 into the blocks it suspended; the others ran
    // to their end and left their (cleared) header alone.
    unsigned Suspended = 0, Ended = 0;
    for (uint64_t B = 0; B < NumBlocks; ++B) {
      uint32_t St;
      memcpy(&St, StateBuf.data() + B * PerBlock, 4);
      ++(St == 1 ? Suspended : Ended);
    }
    printf("migration: yield=%u suspended=%u ran-to-end=%u\n", Ctrl.Yield,
           Suspended, Ended);
    Round = 1;
    Ctrl.Yield = 0;
    Ctrl.YieldAfter = 0;
    Launch();
  }
  if (Time)
    fprintf(stderr, "kernel time: %.3f ms\n",
            std::chrono::duration<double, std::milli>(
                std::chrono::steady_clock::now() - T0)
                .count());
  fflush(stdout);
  if (Failed) {
    printf("launch failed: %s\n", FailMessage.c_str());
    return 3;
  }
  for (size_t I = 0; I < Args.size(); ++I) {
    if (!Args[I].IsBuf)
      continue;
    if (!PrintArgs.empty() &&
        std::find(PrintArgs.begin(), PrintArgs.end(), I) == PrintArgs.end())
      continue;
    printf("arg%zu:", I);
    size_t ES = typeSize(Args[I].Type);
    for (size_t E = 0; E < Args[I].Count; ++E) {
      putchar(' ');
      printElem(Args[I].Type, Args[I].Bytes.data() + E * ES);
    }
    putchar('\n');
  }
  return 0;
}
