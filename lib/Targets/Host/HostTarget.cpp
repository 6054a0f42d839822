//===- HostTarget.cpp - The host-CPU lowering target ----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `createHostTarget()`: hetIR -> native shared object for the CPU backend
/// (runtime/include/hetgpu/host_abi.h).
///
/// lower(): `hetgpu-simt-to-mimd` (block functions `__hetgpu_block_<K>`),
/// math builtins from hetGPU's device math library (docs/DeviceMath.md,
/// linked as bitcode so they inline; glibc misses CUDA's ulp bounds), the block
/// executor linked in from embedded bitcode when a kernel synchronises,
/// `__hetgpu_host_abi_version`, and everything but the block functions and
/// `__device__`/`__constant__` variables internalised.
///
/// emit(): O3 for the host CPU (TargetOptions::Arch, or the running CPU's
/// name and features when empty or "native"), an object from the X86
/// backend, linked with ld.lld (env HETGPU_LLD, then LLVM's ld.lld, then
/// `ld.lld` in PATH) into a shared object whose bytes are returned.
///
/// USAGE: hetgpu-translate --target=host in.bc -o kernels.so
///        hetgpu-opt -passes=hetgpu-lower-host in.ll -S
///
//===----------------------------------------------------------------------===//

#include "../../../runtime/include/hetgpu/host_abi.h"
#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Support/Diagnostics.h"
#include "hetgpu/Targets/DeviceMath.h"
#include "hetgpu/Targets/LoweringTarget.h"
#include "hetgpu/Transforms/SIMTToMIMD.h"
#include "hetgpu/Transforms/SIMTToMIMDABI.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <cstdlib>
#include <mutex>

extern "C" {
void LLVMInitializeX86TargetInfo();
void LLVMInitializeX86Target();
void LLVMInitializeX86TargetMC();
void LLVMInitializeX86AsmPrinter();
}

using namespace llvm;

namespace hetgpu {
namespace {

constexpr StringLiteral HostTriple = "x86_64-unknown-linux-gnu";
constexpr StringLiteral AbiVersionSymbol = "__hetgpu_host_abi_version";

const unsigned char ExecutorBitcode[] = {
#include "HostExecutor.inc"
};

void initX86() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmPrinter();
  });
}

/// CPU name and feature string for \p Opts.
std::pair<std::string, std::string> cpuAndFeatures(const TargetOptions &Opts) {
  std::string CPU = Opts.Arch;
  std::string Features = Opts.Features;
  if (CPU.empty() || CPU == "native") {
    CPU = sys::getHostCPUName().str();
    SubtargetFeatures SF;
    for (const auto &[Name, On] : sys::getHostCPUFeatures())
      SF.AddFeature(Name, On);
    if (!Features.empty())
      SF.AddFeature(Features);
    Features = SF.getString();
  }
  return {CPU, Features};
}

Expected<std::unique_ptr<TargetMachine>>
createHostMachine(const TargetOptions &Opts) {
  initX86();
  Triple TT(HostTriple);
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(TT, Err);
  if (!T)
    return createStringError(inconvertibleErrorCode(),
                             "host target: X86 backend unavailable: " + Err);
  auto [CPU, Features] = cpuAndFeatures(Opts);
  CodeGenOptLevel OL = Opts.OptLevel == 0   ? CodeGenOptLevel::None
                       : Opts.OptLevel == 1 ? CodeGenOptLevel::Less
                       : Opts.OptLevel == 2 ? CodeGenOptLevel::Default
                                            : CodeGenOptLevel::Aggressive;
  llvm::TargetOptions TO;
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      TT, CPU, Features, TO, Reloc::PIC_, std::nullopt, OL));
  if (!TM)
    return createStringError(inconvertibleErrorCode(),
                             "host target: cannot create a target machine for "
                             "CPU '" +
                                 CPU + "'");
  return std::move(TM);
}

Error linkExecutor(Module &M) {
  if (!M.getFunction(ExecBlockName) && !M.getFunction("__hetgpu_exec_block_lanes"))
    return Error::success();
  MemoryBufferRef Buf(StringRef(reinterpret_cast<const char *>(ExecutorBitcode),
                                sizeof(ExecutorBitcode)),
                      "HostExecutor.bc");
  Expected<std::unique_ptr<Module>> Exec =
      parseBitcodeFile(Buf, M.getContext());
  if (!Exec)
    return createStringError(inconvertibleErrorCode(),
                             "host target: embedded block executor: " +
                                 toString(Exec.takeError()));
  (*Exec)->setTargetTriple(M.getTargetTriple());
  (*Exec)->setDataLayout(M.getDataLayout());
  if (Linker::linkModules(M, std::move(*Exec), Linker::Flags::LinkOnlyNeeded))
    return createStringError(inconvertibleErrorCode(),
                             "host target: cannot link the block executor");
  return Error::success();
}

/// Name of the executor entry that also takes a lane-loop function.
constexpr StringLiteral ExecBlockLanesName = "__hetgpu_exec_block_lanes";

/// Above this many instructions (thread function size times the number of
/// its resume points) no lane-loop function is built: every resume point
/// gets its own inlined copy of the thread function before O3 prunes it.
constexpr unsigned MaxLaneLoopInstructions = 40000;

/// The `switch (ts->resume)` that the thread function \p T dispatches on
/// (default: the kernel entry, resume point 0), or null.
SwitchInst *resumeSwitch(Function &T) {
  if (T.isDeclaration() || T.arg_size() != 3)
    return nullptr;
  for (BasicBlock &BB : T) {
    auto *SW = dyn_cast<SwitchInst>(BB.getTerminator());
    auto *L = SW ? dyn_cast<LoadInst>(SW->getCondition()) : nullptr;
    if (L && L->getPointerOperand()->stripPointerCasts() == T.getArg(2))
      return SW;
  }
  return nullptr;
}

/// The sync ids the thread function \p T dispatches on, 0 first; empty
/// when \p T has another shape.
SmallVector<uint32_t, 16> resumePoints(Function &T) {
  SmallVector<uint32_t, 16> Ids;
  SwitchInst *SW = resumeSwitch(T);
  if (!SW)
    return Ids;
  Ids.push_back(0);
  for (auto &Case : SW->cases())
    Ids.push_back(uint32_t(Case.getCaseValue()->getZExtValue()));
  return Ids;
}

/// Inlines \p Call (a call of the thread function \p T) after pruning a
/// copy of \p T to what resume point \p Id reaches, so that O3 does not
/// have to optimise the other regions in every loop.
bool inlineRegion(CallInst &Call, Function &T, uint32_t Id) {
  ValueToValueMapTy VM;
  Function *R = CloneFunction(&T, VM);
  if (SwitchInst *SW = resumeSwitch(*R)) {
    BasicBlock *Dest = Id == 0 ? SW->getDefaultDest()
                               : SW->findCaseValue(ConstantInt::get(
                                     cast<IntegerType>(
                                         SW->getCondition()->getType()),
                                     Id))
                                     ->getCaseSuccessor();
    bool Kept = false; // one edge to Dest stays
    for (BasicBlock *Succ : successors(SW->getParent())) {
      if (Succ == Dest && !Kept)
        Kept = true;
      else
        Succ->removePredecessor(SW->getParent());
    }
    BranchInst::Create(Dest, SW->getIterator());
    SW->eraseFromParent();
    removeUnreachableBlocks(*R);
  }
  Call.setCalledFunction(R);
  InlineFunctionInfo IFI;
  bool Ok = InlineFunction(Call, IFI).isSuccess();
  R->eraseFromParent();
  return Ok;
}

/// Builds `void T.lanes(void **args, ctx *, hetgpu_thread_state *ts,
/// uint32_t mask, uint32_t resume, uint32_t *ids, uint32_t fuse)`
/// (SIMTToMIMDABI.h): a switch on the resume point around one loop per
/// resume point over the 32 lanes of a warp, each calling \p T with
/// ts[i].resume set to that point, and the calls inlined. O3 then folds T's
/// dispatch per loop, hoists T's setup (parameters, block values) out of
/// the loop and may vectorise the region. Unknown resume values run the
/// plain loop. With `fuse`, a warp operation all lanes stopped at is done by
/// __hetgpu_exec_fuse and the switch is entered again at its id. Returns
/// null when \p T is not a thread function of the expected shape or too
/// large.
Function *buildLaneFunction(Module &M, Function &T) {
  SmallVector<uint32_t, 16> Ids = resumePoints(T);
  if (Ids.empty() ||
      T.getInstructionCount() * Ids.size() > MaxLaneLoopInstructions)
    return nullptr;
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C), *I8 = Type::getInt8Ty(C);
  PointerType *Ptr = PointerType::getUnqual(C);
  FunctionType *FT = FunctionType::get(
      Type::getVoidTy(C), {Ptr, Ptr, Ptr, I32, I32, Ptr, I32}, false);
  FunctionCallee Fuse = M.getOrInsertFunction(
      "__hetgpu_exec_fuse", FunctionType::get(I32, {Ptr, I32, Ptr}, false));
  Function *LF = Function::Create(FT, GlobalValue::InternalLinkage,
                                  T.getName() + ".lanes", M);
  LF->addFnAttr(Attribute::NoUnwind);
  for (unsigned A : {0u, 1u, 2u, 5u})
    LF->addParamAttr(A, Attribute::NoAlias);
  Argument *Args = LF->getArg(0), *Ctx = LF->getArg(1), *TS = LF->getArg(2),
           *Mask = LF->getArg(3), *Resume = LF->getArg(4),
           *Out = LF->getArg(5), *FuseOn = LF->getArg(6);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", LF);
  BasicBlock *Dispatch = BasicBlock::Create(C, "dispatch", LF);
  BasicBlock *Done = BasicBlock::Create(C, "done", LF);
  BasicBlock *Exit = BasicBlock::Create(C, "exit", LF);
  ReturnInst::Create(C, Exit);
  BranchInst::Create(Dispatch, Entry);
  PHINode *At = PHINode::Create(I32, 2, "at", Dispatch);
  At->addIncoming(Resume, Entry);
  {
    // After the lanes stopped: a warp operation they all stopped at is
    // performed here and they go on from it.
    BasicBlock *TryFuse = BasicBlock::Create(C, "fuse", LF, Exit);
    IRBuilder<> B(Done);
    B.CreateCondBr(B.CreateICmpNE(FuseOn, B.getInt32(0)), TryFuse, Exit);
    B.SetInsertPoint(TryFuse);
    Value *Next = B.CreateCall(Fuse, {TS, Mask, Out}, "next");
    B.CreateCondBr(B.CreateICmpNE(Next, B.getInt32(0)), Dispatch, Exit);
    At->addIncoming(Next, TryFuse);
  }
  SmallVector<std::pair<CallInst *, uint32_t>, 16> Calls;
  // One loop per resume point (Point < 0: any resume value, not inlined).
  auto makeLoop = [&](int64_t Point) {
    BasicBlock *Head = BasicBlock::Create(C, "lanes", LF, Done);
    BasicBlock *Body = BasicBlock::Create(C, "lane", LF, Done);
    BasicBlock *Latch = BasicBlock::Create(C, "next", LF, Done);
    IRBuilder<> B(Head);
    PHINode *I = B.CreatePHI(I32, 2, "i");
    Value *On = B.CreateTrunc(B.CreateLShr(Mask, I), B.getInt1Ty());
    B.CreateCondBr(On, Body, Latch);
    B.SetInsertPoint(Body);
    Value *Lane = B.CreateGEP(
        I8, TS, B.CreateMul(B.CreateZExt(I, B.getInt64Ty()),
                            B.getInt64(sizeof(hetgpu_thread_state))));
    if (Point >= 0)
      B.CreateStore(B.getInt32(uint32_t(Point)), Lane);
    CallInst *Call = B.CreateCall(&T, {Args, Ctx, Lane});
    B.CreateStore(Call, B.CreateGEP(I32, Out, I));
    B.CreateBr(Latch);
    if (Point >= 0)
      Calls.push_back({Call, uint32_t(Point)});
    else // Never taken in practice: no second copy of T for O3 to optimise.
      Call->setIsNoInline();
    B.SetInsertPoint(Latch);
    Value *N = B.CreateAdd(I, B.getInt32(1), "i.next", /*HasNUW=*/true,
                           /*HasNSW=*/true);
    B.CreateCondBr(B.CreateICmpULT(N, B.getInt32(32)), Head, Done);
    I->addIncoming(B.getInt32(0), Dispatch);
    I->addIncoming(N, Latch);
    return Head;
  };
  BasicBlock *Generic = makeLoop(-1);
  IRBuilder<> B(Dispatch);
  SwitchInst *SW = B.CreateSwitch(At, Generic, Ids.size());
  for (uint32_t Id : Ids)
    SW->addCase(B.getInt32(Id), makeLoop(Id));
  for (auto [Call, Id] : Calls)
    if (!inlineRegion(*Call, T, Id)) {
      LF->eraseFromParent();
      return nullptr;
    }
  return LF;
}

/// Block functions that call the executor with a thread function call the
/// lane-loop entry instead, with T's lane-loop function.
/// HETGPU_HOST_LANE_LOOPS=0 keeps the one-call-per-lane executor (for
/// comparisons; translations are cached, so use a separate cache).
void addLaneLoops(Module &M) {
  Function *Exec = M.getFunction(ExecBlockName);
  if (!Exec)
    return;
  if (const char *Env = std::getenv("HETGPU_HOST_LANE_LOOPS"))
    if (StringRef(Env) == "0")
      return;
  SmallVector<CallInst *, 8> Calls;
  for (User *U : Exec->users())
    if (auto *CI = dyn_cast<CallInst>(U))
      if (CI->getCalledFunction() == Exec && CI->arg_size() == 5)
        Calls.push_back(CI);
  if (Calls.empty())
    return;
  LLVMContext &C = M.getContext();
  PointerType *Ptr = PointerType::getUnqual(C);
  Type *I32 = Type::getInt32Ty(C);
  FunctionCallee Lanes = M.getOrInsertFunction(
      ExecBlockLanesName,
      FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, Ptr, Ptr, I32, Ptr},
                        false));
  for (CallInst *CI : Calls) {
    auto *T = dyn_cast<Function>(CI->getArgOperand(2)->stripPointerCasts());
    if (!T)
      continue;
    Function *LF = buildLaneFunction(M, *T);
    if (!LF)
      continue;
    IRBuilder<> B(CI);
    B.CreateCall(Lanes, {CI->getArgOperand(0), CI->getArgOperand(1), T, LF,
                         CI->getArgOperand(3), CI->getArgOperand(4)});
    CI->eraseFromParent();
  }
}

Error lowerForHost(Module &M, const DataLayout &DL) {
  if (Error E = lowerSIMTToMIMD(M))
    return E;
  M.setTargetTriple(Triple(HostTriple));
  M.setDataLayout(DL);
  // hetGPU's own math library (hetgpu-math-x86_64-unknown-linux-gnu.bc),
  // not the C library: glibc's tanh, exp10 and cbrt exceed CUDA's ulp
  // bounds, and the bitcode inlines into the block functions.
  if (Error E = linkDeviceMathLibrary(M))
    return joinErrors(createStringError(inconvertibleErrorCode(),
                                        "host target: device math library"),
                      std::move(E));
  for (Function &F : M)
    if (F.isDeclaration())
      if (auto BI = lookupBuiltin(F))
        if (!F.use_empty())
          return createStringError(inconvertibleErrorCode(),
                                   "host target: builtin '" + F.getName() +
                                       "' is still used after lowering");
  addLaneLoops(M);
  if (Error E = linkExecutor(M))
    return E;
  if (!M.getGlobalVariable(AbiVersionSymbol)) {
    Type *I32 = Type::getInt32Ty(M.getContext());
    new GlobalVariable(
        M, I32, /*isConstant=*/true, GlobalValue::ExternalLinkage,
        ConstantInt::get(I32, HETGPU_HOST_ABI_VERSION), AbiVersionSymbol);
  }
  // Only the block functions and the device variables stay visible.
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    if (F.getName().starts_with(BlockFunctionPrefix)) {
      F.setLinkage(GlobalValue::ExternalLinkage);
      F.setVisibility(GlobalValue::DefaultVisibility);
      continue;
    }
    F.setLinkage(GlobalValue::InternalLinkage);
  }
  // Device variables are exported and stay writable: the runtime writes
  // __constant__ memory too (cudaMemcpyToSymbol), so none goes to .rodata.
  for (GlobalVariable &G : M.globals()) {
    if (G.isDeclaration() || G.hasLocalLinkage())
      continue;
    G.setVisibility(GlobalValue::DefaultVisibility);
    unsigned AS = G.getAddressSpace();
    if ((AS == AS_Global || AS == AS_Constant) &&
        G.getName() != AbiVersionSymbol)
      G.setConstant(false);
  }
  std::string Msg;
  raw_string_ostream OS(Msg);
  if (verifyModule(M, &OS))
    return createStringError(inconvertibleErrorCode(),
                             "host target: lowering produced invalid IR: " +
                                 Msg);
  return Error::success();
}

Expected<std::string> findLinker() {
  if (const char *Env = std::getenv("HETGPU_LLD"))
    if (*Env)
      return std::string(Env);
#ifdef HETGPU_HOST_DEFAULT_LLD
  if (sys::fs::can_execute(HETGPU_HOST_DEFAULT_LLD))
    return std::string(HETGPU_HOST_DEFAULT_LLD);
#endif
  if (sys::fs::can_execute("/usr/lib/llvm-22/bin/ld.lld"))
    return std::string("/usr/lib/llvm-22/bin/ld.lld");
  if (auto P = sys::findProgramByName("ld.lld"))
    return *P;
  return createStringError(inconvertibleErrorCode(),
                           "host target: ld.lld not found (set HETGPU_LLD, or "
                           "install lld-22)");
}

/// Removes a temporary file when it goes out of scope.
struct TempFile {
  SmallString<128> Path;
  ~TempFile() {
    if (!Path.empty())
      sys::fs::remove(Path);
  }
};

class HostTarget final : public LoweringTarget {
public:
  StringRef name() const override { return "host"; }
  std::string defaultArch() const override {
    return sys::getHostCPUName().str();
  }

  void registerPasses(PassBuilder &PB) const override {
    PB.registerPipelineParsingCallback(
        [](StringRef Name, ModulePassManager &MPM,
           ArrayRef<PassBuilder::PipelineElement>) {
          if (Name != "hetgpu-lower-host")
            return false;
          MPM.addPass(LowerToHostPass());
          return true;
        });
  }

  Error lower(Module &M, const TargetOptions &Opts) const override {
    auto TM = createHostMachine(Opts);
    if (!TM)
      return TM.takeError();
    return lowerForHost(M, (*TM)->createDataLayout());
  }

  Expected<std::vector<char>> emit(Module &M,
                                   const TargetOptions &Opts) const override {
    auto TMOr = createHostMachine(Opts);
    if (!TMOr)
      return TMOr.takeError();
    TargetMachine &TM = **TMOr;
    M.setTargetTriple(TM.getTargetTriple());
    M.setDataLayout(TM.createDataLayout());
    std::string CPU = TM.getTargetCPU().str();
    std::string Features = TM.getTargetFeatureString().str();
    for (Function &F : M) {
      if (F.isDeclaration())
        continue;
      F.addFnAttr("target-cpu", CPU);
      if (!Features.empty())
        F.addFnAttr("target-features", Features);
      F.removeFnAttr("frame-pointer");
    }

    // Optimise.
    {
      LoopAnalysisManager LAM;
      FunctionAnalysisManager FAM;
      CGSCCAnalysisManager CGAM;
      ModuleAnalysisManager MAM;
      PipelineTuningOptions PTO;
      PTO.LoopVectorization = Opts.OptLevel >= 2;
      PTO.SLPVectorization = Opts.OptLevel >= 2;
      PassBuilder PB(&TM, PTO);
      PB.registerModuleAnalyses(MAM);
      PB.registerCGSCCAnalyses(CGAM);
      PB.registerFunctionAnalyses(FAM);
      PB.registerLoopAnalyses(LAM);
      PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
      OptimizationLevel OL = Opts.OptLevel == 0   ? OptimizationLevel::O0
                             : Opts.OptLevel == 1 ? OptimizationLevel::O1
                             : Opts.OptLevel == 2 ? OptimizationLevel::O2
                                                  : OptimizationLevel::O3;
      ModulePassManager MPM = OL == OptimizationLevel::O0
                                  ? PB.buildO0DefaultPipeline(OL)
                                  : PB.buildPerModuleDefaultPipeline(OL);
      MPM.run(M, MAM);
    }

    // Object file.
    TempFile Obj, SO;
    int FD;
    if (std::error_code EC =
            sys::fs::createTemporaryFile("hetgpu-host", "o", FD, Obj.Path))
      return createStringError(EC, "host target: cannot create a temporary "
                                   "object file: " +
                                       EC.message());
    {
      raw_fd_ostream OS(FD, /*shouldClose=*/true);
      legacy::PassManager PM;
      if (TM.addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::ObjectFile))
        return createStringError(inconvertibleErrorCode(),
                                 "host target: the X86 backend cannot emit an "
                                 "object file");
      PM.run(M);
      OS.flush();
      if (OS.has_error())
        return createStringError(OS.error(), "host target: writing " +
                                                 Obj.Path + ": " +
                                                 OS.error().message());
    }
    if (std::error_code EC =
            sys::fs::createTemporaryFile("hetgpu-host", "so", SO.Path))
      return createStringError(EC, "host target: cannot create a temporary "
                                   "file: " +
                                       EC.message());

    // Shared object.
    auto Lld = findLinker();
    if (!Lld)
      return Lld.takeError();
    TempFile Log;
    sys::fs::createTemporaryFile("hetgpu-host-lld", "log", Log.Path);
    SmallVector<StringRef, 12> Argv = {
        *Lld,          "-shared", "--eh-frame-hdr", "-z",    "now", "-z",
        "noexecstack", "-o",      SO.Path,          Obj.Path};
    std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Log.Path),
                                            StringRef(Log.Path)};
    std::string ErrMsg;
    int RC =
        sys::ExecuteAndWait(*Lld, Argv, std::nullopt, Redirects, 0, 0, &ErrMsg);
    if (RC != 0) {
      std::string Out;
      if (auto B = MemoryBuffer::getFile(Log.Path))
        Out = (*B)->getBuffer().trim().str();
      return createStringError(inconvertibleErrorCode(),
                               "host target: linking the shared object with " +
                                   *Lld + " failed" +
                                   (ErrMsg.empty() ? "" : " (" + ErrMsg + ")") +
                                   (Out.empty() ? "" : ":\n" + Out));
    }
    auto Bytes = MemoryBuffer::getFile(SO.Path, /*IsText=*/false,
                                       /*RequiresNullTerminator=*/false);
    if (!Bytes)
      return createStringError(Bytes.getError(),
                               "host target: reading " + SO.Path + ": " +
                                   Bytes.getError().message());
    StringRef B = (*Bytes)->getBuffer();
    return std::vector<char>(B.begin(), B.end());
  }

private:
  /// `hetgpu-lower-host`: lower() with default options, as a pass, so the
  /// lowering can be tested on IR. Errors become diagnostics.
  struct LowerToHostPass : RequiredPass<LowerToHostPass> {
    PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
      auto TM = createHostMachine(TargetOptions());
      Error E =
          TM ? lowerForHost(M, (*TM)->createDataLayout()) : TM.takeError();
      if (E) {
        std::string Msg = toString(std::move(E));
        Function *Any = nullptr;
        for (Function &F : M)
          if (!F.isDeclaration()) {
            Any = &F;
            break;
          }
        if (Any)
          reportFailure(*Any, Msg);
        else
          M.getContext().emitError(Msg);
      }
      return PreservedAnalyses::none();
    }
  };
};

} // namespace

std::unique_ptr<LoweringTarget> createHostTarget() {
  return std::make_unique<HostTarget>();
}

} // namespace hetgpu
