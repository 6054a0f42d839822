//===- hetgpu-host-run.cpp - Run one kernel of a host shared object -------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A test driver for the host target: loads a shared object produced by
/// `hetgpu-translate --target=host` (or translates a hetIR .ll/.bc itself
/// with the host target), allocates the buffers the command line describes,
/// runs one kernel on the CPU backend (runtime/lib/Backends/CPU, driven
/// through Core/Device.h as hetgpu-ttsim-run drives tt-sim: --workers=N
/// blocks run at once, so atomics are exercised across cores) and prints
/// the buffers. It needs neither the CUDA runtime API nor the container.
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
/// What does not go through Device.h, and why: the kernel's container
/// description is built here from the command line (a shared object has
/// none); the worker count is the backend's HETGPU_CPU_THREADS; and the
/// short "launch failed: trap" / "launch failed: assert: F:L: Func:
/// Assertion `...` failed." lines the tests check are this tool's own
/// rendering of the backend's Status (which carries CUDA's longer text).
///
//===----------------------------------------------------------------------===//

#include "Backends/CPU/CPU.h"
#include "hetgpu/ABI/Migration.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Support/RunPasses.h"
#include "hetgpu/Targets/ExternalTools.h"
#include "hetgpu/Targets/LoweringTarget.h"
#include "hetgpu/Transforms/InsertLoopSafePoints.h"
#include "hetgpu/Transforms/InstrumentState.h"
#include "hetgpu/Transforms/LowerGridSync.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

using namespace llvm;
namespace rt = hetgpu::rt;
namespace container = hetgpu::container;

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

/// Static shared memory the kernel may use: a shared object carries no
/// container description, so the dynamic part starts after CUDA's limit.
constexpr uint64_t StaticSharedMax = 48 * 1024;

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

struct Arg {
  std::string Type;
  bool IsBuf = false;
  std::vector<char> Bytes; ///< value bytes, or the buffer's host copy
  size_t Count = 0;
  size_t Align = 1;    ///< of the by-value bytes
  void *Ptr = nullptr; ///< device buffer, the pointer parameter (IsBuf)
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
    A.Align = MaxAlign;
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
    A.Align = 8;
    return true;
  }
  size_t Eq = S.find('=');
  if (Eq == std::string::npos)
    return false;
  A.Type = S.substr(0, Eq);
  if (!typeSize(A.Type))
    return false;
  A.Bytes.assign(typeSize(A.Type), 0);
  A.Align = typeSize(A.Type);
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

//===----------------------------------------------------------------------===//
// The module: the shared object, or the translation of a hetIR module
//===----------------------------------------------------------------------===//

/// The kernel's container description, when --migrate-after is used.
std::optional<container::KernelInfo> Migration;

/// Instruments \p M for live migration (hetgpu-instrument-state) and keeps
/// the description of the kernel to run.
Error instrumentForMigration(llvm::Module &M) {
  auto Infos = hetgpu::readKernelInfo(M);
  if (!Infos)
    return Infos.takeError();
  for (auto &[F, KI] : *Infos)
    if (KI.Name == KernelName)
      Migration = KI;
  hetgpu::runModulePass(M,
                        hetgpu::InstrumentStatePass(/*EarlyFlagRead=*/false));
  return Error::success();
}

/// The bytes of the shared object to load: \p In itself, or its
/// translation by the host target (written to --save-so when given).
Expected<std::vector<char>> sharedObjectFor(const std::string &In) {
  StringRef S(In);
  if (!S.ends_with(".ll") && !S.ends_with(".bc")) {
    auto Buf = MemoryBuffer::getFile(In, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/false);
    if (!Buf)
      return createStringError(Buf.getError(),
                               In + ": " + Buf.getError().message());
    return std::vector<char>((*Buf)->getBufferStart(), (*Buf)->getBufferEnd());
  }
  LLVMContext Ctx;
  SMDiagnostic Diag;
  std::unique_ptr<llvm::Module> M = parseIRFile(In, Diag, Ctx);
  if (!M) {
    std::string Msg;
    raw_string_ostream OS(Msg);
    Diag.print("hetgpu-host-run", OS);
    return createStringError(inconvertibleErrorCode(), Msg);
  }
  // As hetgpu_translate does for the host target: grid barriers spin.
  hetgpu::lowerGridSync(*M);
  if (MigrateAfter) {
    if (Error E = instrumentForMigration(*M))
      return std::move(E);
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
  if (!SaveSO.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(SaveSO, EC);
    if (EC)
      return createStringError(EC, SaveSO + ": " + EC.message());
    OS.write(Bytes->data(), Bytes->size());
  }
  return std::vector<char>(Bytes->begin(), Bytes->end());
}

//===----------------------------------------------------------------------===//
// Running the kernel on the CPU backend
//===----------------------------------------------------------------------===//

/// A failed backend call (other than the launch): exit status 1.
void check(const rt::Status &S, const char *What) {
  if (!S)
    return;
  WithColor::error() << What << ": " << S.Message << "\n";
  std::exit(1);
}

/// The launch's container description, from the command line: one
/// parameter per argument (pointers for buffers), then, for a migratable
/// launch, the hidden state, control and round parameters.
container::KernelInfo describeKernel(const std::vector<Arg> &Args) {
  container::KernelInfo KI;
  KI.Name = KernelName;
  KI.StaticShared = StaticSharedMax;
  uint32_t Off = 0;
  auto Add = [&](container::ParamKind Kind, uint32_t Size, uint32_t Align) {
    container::ParamInfo PI;
    PI.Kind = Kind;
    PI.Size = Size;
    PI.Align = Align;
    Off = (Off + Align - 1) / Align * Align;
    PI.Offset = Off;
    Off += Size;
    KI.Params.push_back(PI);
  };
  for (const Arg &A : Args) {
    if (A.IsBuf)
      Add(container::ParamKind::Pointer, 8, 8);
    else
      Add(container::ParamKind::Value, uint32_t(A.Bytes.size()),
          uint32_t(A.Align));
  }
  if (MigrateAfter) {
    Add(container::ParamKind::Pointer, 8, 8);
    Add(container::ParamKind::Pointer, 8, 8);
    Add(container::ParamKind::Value, 4, 4);
  }
  KI.ParamBufferSize = Off;
  return KI;
}

/// This tool's short rendering of a failed launch (see the file comment):
/// "trap", or "assert: File:Line: Function: Assertion `...` failed.".
std::string failureText(const rt::Status &S) {
  if (S.Code == rt::ErrorCode::LaunchFailure &&
      S.Message.find(" trapped ") != std::string::npos)
    return "trap";
  std::string M = S.Message;
  if (S.Code != rt::ErrorCode::Assert)
    return M;
  // "device-side assert in kernel K: F:L: Func: block: [..], thread: [..]
  // Assertion `...` failed."
  std::string Prefix = "device-side assert in kernel " + KernelName + ": ";
  if (M.rfind(Prefix, 0) == 0)
    M.erase(0, Prefix.size());
  size_t B = M.find("block: [");
  size_t T = B == std::string::npos ? B : M.find("thread: [", B);
  size_t E = T == std::string::npos ? T : M.find("] ", T);
  if (E != std::string::npos)
    M.erase(B, E + 2 - B);
  return "assert: " + M;
}

/// The buffers, the launch and its migration round trip.
class HostRun {
public:
  HostRun(rt::Device &D, rt::Queue &Q, std::vector<Arg> &Args)
      : D(D), Q(Q), Args(Args) {}
  ~HostRun() {
    for (void *P : Allocations)
      D.release(P);
  }

  void allocateBuffers() {
    for (Arg &A : Args)
      if (A.IsBuf) {
        A.Ptr = allocate(A.Bytes.size());
        check(Q.memcpy(A.Ptr, A.Bytes.data(), A.Bytes.size(),
                       rt::CopyKind::HostToDevice),
              "memcpy");
      }
    check(Q.synchronize(), "memcpy");
  }

  /// Runs the kernel (twice with --migrate-after: suspended, then resumed);
  /// returns the launch's status.
  rt::Status run(rt::Kernel &K, const uint32_t Grid[3],
                 const uint32_t Block[3]) {
    std::vector<void *> ArgPtrs;
    for (Arg &A : Args)
      ArgPtrs.push_back(A.IsBuf ? static_cast<void *>(&A.Ptr)
                                : static_cast<void *>(A.Bytes.data()));
    // Live migration: the state buffer, the control block and the round are
    // the hidden trailing parameters of an instrumented kernel.
    // (The CPU queue copies from host memory when it gets there: what it
    // copies from lives until the queue is synchronised.)
    void *State = nullptr, *Ctrl = nullptr;
    hetgpu::abi::MigrationControl CB = {};
    uint32_t Round = 0;
    uint64_t PerBlock = 0, NumBlocks = uint64_t(Grid[0]) * Grid[1] * Grid[2];
    if (MigrateAfter) {
      uint64_t NThreads = uint64_t(Block[0]) * Block[1] * Block[2];
      PerBlock =
          hetgpu::abi::stateBlockBytes(Migration->StaticShared, DynShared,
                                       NThreads, Migration->StateRecordSize);
      State = allocate(PerBlock * NumBlocks + 16);
      check(Q.memset(State, 0, PerBlock * NumBlocks + 16), "memset");
      CB.DynShared = DynShared;
      CB.YieldAfter = MigrateAfter;
      Ctrl = allocate(sizeof CB);
      check(Q.memcpy(Ctrl, &CB, sizeof CB, rt::CopyKind::HostToDevice),
            "memcpy");
      ArgPtrs.push_back(&State);
      ArgPtrs.push_back(&Ctrl);
      Round = hetgpu::abi::RoundWatched; // round 0, watched
      ArgPtrs.push_back(&Round);
    }
    rt::LaunchParams P;
    std::memcpy(P.Grid, Grid, sizeof P.Grid);
    std::memcpy(P.Block, Block, sizeof P.Block);
    P.DynamicShared = DynShared;
    P.Args = ArgPtrs.data();
    check(Q.launch(K, P), "launch");
    if (rt::Status S = Q.synchronize())
      return S;
    if (!MigrateAfter)
      return rt::Status::ok();
    // Count the blocks by status, then resume the launch. Round 0 wrote
    // status 1 into the blocks it suspended; the others ran to their end
    // and left their (cleared) header alone.
    std::vector<char> Host(PerBlock * NumBlocks);
    check(Q.memcpy(Host.data(), State, Host.size(), rt::CopyKind::DeviceToHost),
          "memcpy");
    check(Q.memcpy(&CB, Ctrl, sizeof CB, rt::CopyKind::DeviceToHost), "memcpy");
    check(Q.synchronize(), "memcpy");
    unsigned Suspended = 0, Ended = 0;
    for (uint64_t B = 0; B < NumBlocks; ++B) {
      uint32_t St;
      std::memcpy(&St, Host.data() + B * PerBlock, 4);
      ++(St == 1 ? Suspended : Ended);
    }
    printf("migration: yield=%u suspended=%u ran-to-end=%u\n", CB.Yield,
           Suspended, Ended);
    Round = 1 | hetgpu::abi::RoundWatched;
    CB.Yield = 0;
    CB.YieldAfter = 0;
    check(Q.memcpy(Ctrl, &CB, sizeof CB, rt::CopyKind::HostToDevice), "memcpy");
    check(Q.launch(K, P), "launch");
    return Q.synchronize();
  }

  void printBuffers() {
    for (size_t I = 0; I < Args.size(); ++I) {
      Arg &A = Args[I];
      if (!A.IsBuf)
        continue;
      if (!PrintArgs.empty() &&
          std::find(PrintArgs.begin(), PrintArgs.end(), I) == PrintArgs.end())
        continue;
      check(Q.memcpy(A.Bytes.data(), A.Ptr, A.Bytes.size(),
                     rt::CopyKind::DeviceToHost),
            "memcpy");
      check(Q.synchronize(), "memcpy");
      printf("arg%zu:", I);
      size_t ES = typeSize(A.Type);
      for (size_t E = 0; E < A.Count; ++E) {
        putchar(' ');
        printElem(A.Type, A.Bytes.data() + E * ES);
      }
      putchar('\n');
    }
  }

private:
  void *allocate(size_t Bytes) {
    void *P = nullptr;
    check(D.allocate(Bytes, P), "allocate");
    Allocations.push_back(P);
    return P;
  }

  rt::Device &D;
  rt::Queue &Q;
  std::vector<Arg> &Args;
  std::vector<void *> Allocations;
};

/// Loads \p Binary on the CPU device, runs the kernel and prints the
/// buffers; returns the exit status.
int runOnCPU(const std::vector<char> &Binary, std::vector<Arg> &Args,
             const uint32_t Grid[3], const uint32_t Block[3]) {
  // The CPU device runs blocks on HETGPU_CPU_THREADS threads in all.
  setenv("HETGPU_CPU_THREADS",
         std::to_string(std::max(1u, unsigned(Threads))).c_str(), 1);
  std::unique_ptr<rt::Backend> B = rt::createCPUBackend();
  std::vector<std::unique_ptr<rt::Device>> Devs;
  check(B->discover(Devs), "discover");
  rt::Device &D = *Devs.at(0);
  std::unique_ptr<rt::Queue> Q;
  check(D.createQueue(Q), "createQueue");
  container::ModuleInfo MI;
  MI.Kernels.push_back(describeKernel(Args));
  std::unique_ptr<rt::Module> M;
  check(D.loadModule(Binary, MI, M), "loadModule");
  rt::Kernel *K = nullptr;
  check(M->getKernel(KernelName, K), "getKernel");

  HostRun Run(D, *Q, Args);
  Run.allocateBuffers();
  auto T0 = std::chrono::steady_clock::now();
  rt::Status S = Run.run(*K, Grid, Block);
  if (Time)
    fprintf(stderr, "kernel time: %.3f ms\n",
            std::chrono::duration<double, std::milli>(
                std::chrono::steady_clock::now() - T0)
                .count());
  fflush(stdout);
  if (S) {
    printf("launch failed: %s\n", failureText(S).c_str());
    return 3;
  }
  Run.printBuffers();
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "run one kernel of a host .so\n");
  hetgpu::reparseOptionsAfterLinks(argc, argv);
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
  auto Binary = sharedObjectFor(Input);
  if (!Binary) {
    WithColor::error() << toString(Binary.takeError()) << "\n";
    return 1;
  }
  if (MigrateAfter && !Migration) {
    WithColor::error() << "--migrate-after needs a hetIR input that "
                          "describes kernel "
                       << KernelName << "\n";
    return 1;
  }
  return runOnCPU(*Binary, Args, Grid, Block);
}
