//===- HostTarget.cpp - The host-CPU lowering target ----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `createHostTarget()`: hetIR -> native shared object for the CPU backend
/// (include/hetgpu/ABI/BlockABI.h).
///
/// lower(): `hetgpu-simt-to-mimd` (block functions `__hetgpu_block_<K>`),
/// math builtins from hetGPU's device math library (docs/DeviceMath.md,
/// linked as bitcode so they inline; glibc misses CUDA's ulp bounds), the block
/// executor linked in from embedded bitcode when a kernel synchronises,
/// `__hetgpu_host_abi_version`, and everything but the block functions and
/// `__device__`/`__constant__` variables internalised.
///
/// emit(): O3 for the host CPU (TargetOptions::Arch, or the running CPU's
/// name and features when empty or "native"; vectors of at most 256 bits
/// preferred), an object from the X86
/// backend, linked with ld.lld (env HETGPU_LLD, then LLVM's ld.lld, then
/// `ld.lld` in PATH) into a shared object whose bytes are returned.
///
/// USAGE: hetgpu-translate --target=host in.bc -o kernels.so
///        hetgpu-opt -passes=hetgpu-lower-host in.ll -S
///
//===----------------------------------------------------------------------===//

#include "hetgpu/ABI/BlockABI.h"
#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Support/Diagnostics.h"
#include "hetgpu/Targets/DeviceMath.h"
#include "hetgpu/Targets/LoweringTarget.h"
#include "hetgpu/Transforms/SIMTToMIMD.h"
#include "hetgpu/ABI/BlockExecutor.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
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

#include <cstddef>
#include <cstdlib>
#include <map>
#include <set>
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

/// One loop of a lane-loop function: its resume point, header, lane i's
/// thread state (`ts + i * sizeof(hetgpu_thread_state)`) and i.
struct LaneLoop {
  uint32_t Point;
  BasicBlock *Pick; ///< where both dispatches enter the loop(s) of Point
  Instruction *Lane;
  PHINode *I;
};

/// The parts of a lane-loop function that convertToWarpArrays rewires.
struct LaneLoopFunction {
  Function *F;
  BasicBlock *Entry, *Dispatch;
  PHINode *At;
  BasicBlock *Done, *Exit, *GenericLatch;
  SmallVector<LaneLoop, 16> Loops;
};

/// HETGPU_HOST_ROW_LOOPS=0 builds one loop per resume point only (no
/// second loop for warps whose lanes share a row, see buildLaneFunction).
/// Whether a value stored to ts->kind is a block barrier's sync kind (not
/// a warp operation's); a kind only known at run time counts as a warp's.
bool isBlockBarrierKind(Value *V) {
  auto *K = dyn_cast<ConstantInt>(V);
  return K && K->getZExtValue() >= HETGPU_SYNC_BARRIER &&
         K->getZExtValue() <= HETGPU_SYNC_BARRIER_OR;
}

bool rowLoopsDisabled() {
  const char *Env = std::getenv("HETGPU_HOST_ROW_LOOPS");
  return Env && StringRef(Env) == "0";
}

/// HETGPU_HOST_WARP_ARRAYS=0 keeps the lanes' operations and frame values
/// in the thread states during lane loops (comparisons).
bool soaDisabled() {
  const char *Env = std::getenv("HETGPU_HOST_WARP_ARRAYS");
  return Env && StringRef(Env) == "0";
}

/// Keeps, for the duration of one call of the lane-loop function \p L, what
/// the lanes exchange with the executor in per-warp arrays (allocations of
/// the function, indexed by the lane) instead of their thread states and
/// frames: the operation (kind, arg[0..3]) of the sync point each lane
/// stopped at, its result, and the values spilled across sync points (the
/// accesses SIMTToMIMD tagged with SpillMD). Entering at resume point p
/// copies the values p reloads (and the result) from the states of the
/// lanes of the mask; returning to the executor copies kind, operands and
/// the values saved at the sync point each lane stopped at back; in between
/// fused warp operations work on the arrays (__hetgpu_exec_fuse_soa). The
/// loops then read and write consecutive memory that nothing else can
/// alias, which the vectoriser can use. Leaves \p L alone when an access
/// to a thread state or a spill slot has another shape, and for kernels
/// whose only sync points are block barriers.
void convertToWarpArrays(Module &M, LaneLoopFunction &L) {
  const DataLayout &DL = M.getDataLayout();
  LLVMContext &C = M.getContext();
  Function &F = *L.F;
  Type *I32 = Type::getInt32Ty(C), *I8 = Type::getInt8Ty(C),
       *I64 = Type::getInt64Ty(C);
  PointerType *Ptr = PointerType::getUnqual(C);

  enum What { Kind, Arg, Result, Slot, Erase };
  struct Access {
    Instruction *I;
    unsigned Loop;
    What W;
    uint64_t Off; // Arg: operand number; Slot: frame offset
    Type *Ty;
    uint32_t Sync; // Slot: the sync id of SpillMD
  };
  SmallVector<Access, 64> Accesses;
  unsigned SpillsFound = 0;
  const uint64_t KindOff = offsetof(hetgpu_thread_state, kind);
  const uint64_t ArgOff = offsetof(hetgpu_thread_state, arg);
  const uint64_t ResultOff = offsetof(hetgpu_thread_state, result);
  const uint64_t FrameOff = offsetof(hetgpu_thread_state, frame);
  const uint64_t TidOff = offsetof(hetgpu_thread_state, tid);
  const uint64_t LinearOff = offsetof(hetgpu_thread_state, linear);

  auto Analyse = [&](unsigned Loop, Instruction *Lane) -> bool {
    // Spill accesses below a lane's frame pointer.
    auto Spills = [&](LoadInst *FrameLoad) -> bool {
      SmallVector<std::pair<Value *, uint64_t>, 8> Work{{FrameLoad, 0}};
      while (!Work.empty()) {
        auto [V, Off] = Work.pop_back_val();
        for (User *U : V->users()) {
          auto *UI = dyn_cast<Instruction>(U);
          if (!UI)
            return false;
          if (auto *GEP = dyn_cast<GetElementPtrInst>(UI)) {
            APInt A(64, 0);
            if (GEP->getPointerOperand() == V &&
                GEP->accumulateConstantOffset(DL, A))
              Work.push_back({GEP, Off + A.getZExtValue()});
            continue; // an allocation in the frame, say
          }
          MDNode *MD = UI->getMetadata(SpillMD);
          if (!MD)
            continue;
          Type *Ty = nullptr;
          if (auto *LI = dyn_cast<LoadInst>(UI);
              LI && LI->getPointerOperand() == V && LI->isSimple())
            Ty = LI->getType();
          else if (auto *SI = dyn_cast<StoreInst>(UI);
                   SI && SI->getPointerOperand() == V && SI->isSimple() &&
                   SI->getValueOperand() != V)
            Ty = SI->getValueOperand()->getType();
          if (!Ty || MD->getNumOperands() != 1)
            return false;
          auto *Id = mdconst::dyn_extract<ConstantInt>(MD->getOperand(0));
          if (!Id)
            return false;
          Accesses.push_back(
              {UI, Loop, Slot, Off, Ty, uint32_t(Id->getZExtValue())});
          ++SpillsFound;
        }
      }
      return true;
    };
    SmallVector<std::pair<Value *, uint64_t>, 8> Work{{Lane, 0}};
    while (!Work.empty()) {
      auto [V, Off] = Work.pop_back_val();
      for (User *U : V->users()) {
        if (auto *GEP = dyn_cast<GetElementPtrInst>(U)) {
          APInt A(64, 0);
          if (GEP->getPointerOperand() != V ||
              !GEP->accumulateConstantOffset(DL, A))
            return false;
          Work.push_back({GEP, Off + A.getZExtValue()});
          continue;
        }
        if (auto *SI = dyn_cast<StoreInst>(U)) {
          if (SI->getPointerOperand() != V || SI->getValueOperand() == V ||
              !SI->isSimple())
            return false;
          bool IsI32 = SI->getValueOperand()->getType() == I32;
          if (Off == offsetof(hetgpu_thread_state, resume) && IsI32)
            Accesses.push_back({SI, Loop, Erase, 0, I32, 0});
          else if (Off == KindOff && IsI32)
            Accesses.push_back({SI, Loop, Kind, 0, I32, 0});
          else if (Off >= ArgOff && Off < ArgOff + 16 && Off % 4 == 0 && IsI32)
            Accesses.push_back({SI, Loop, Arg, (Off - ArgOff) / 4, I32, 0});
          else
            return false;
          continue;
        }
        auto *LI = dyn_cast<LoadInst>(U);
        if (!LI || !LI->isSimple())
          return false;
        if (Off == offsetof(hetgpu_thread_state, resume) && LI->use_empty())
          Accesses.push_back({LI, Loop, Erase, 0, I32, 0});
        else if (Off == ResultOff && LI->getType() == I32)
          Accesses.push_back({LI, Loop, Result, 0, I32, 0});
        else if (Off >= TidOff && Off <= LinearOff && Off % 4 == 0)
          continue; // read only: stays in the thread state
        else if (Off == FrameOff && LI->getType()->isPointerTy()) {
          if (!Spills(LI))
            return false;
        } else {
          return false;
        }
      }
    }
    return true;
  };
  for (unsigned I = 0; I < L.Loops.size(); ++I)
    if (!Analyse(I, L.Loops[I].Lane))
      return;
  // Only kernels with warp operations gain (fused operations on the
  // arrays); with block barriers alone the copies would only add work.
  bool WarpOps = false;
  for (Access &A : Accesses)
    if (A.W == Kind)
      WarpOps |= !isBlockBarrierKind(cast<StoreInst>(A.I)->getValueOperand());
  if (!WarpOps)
    return;
  unsigned SpillsInF = 0;
  CallInst *Fuse = nullptr;
  for (Instruction &I : instructions(F)) {
    SpillsInF += I.hasMetadata(SpillMD);
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (CI->getCalledFunction() &&
          CI->getCalledFunction()->getName() == "__hetgpu_exec_fuse") {
        if (Fuse)
          return;
        Fuse = CI;
      }
  }
  if (SpillsInF != SpillsFound || !Fuse)
    return;

  // The arrays.
  Argument *TS = F.getArg(2), *Mask = F.getArg(3), *Resume = F.getArg(4),
           *Out = F.getArg(5);
  IRBuilder<> AB(L.Entry->getTerminator());
  auto Array = [&](Type *Ty, unsigned N, const Twine &Name) {
    AllocaInst *A = AB.CreateAlloca(ArrayType::get(Ty, N), nullptr, Name);
    A->setAlignment(Align(64));
    return A;
  };
  AllocaInst *KindA = Array(I32, 32, "warp.kind");
  AllocaInst *ArgA = Array(I32, 128, "warp.args");
  AllocaInst *ResA = Array(I32, 32, "warp.result");
  MapVector<std::pair<uint64_t, Type *>, AllocaInst *> Slots;
  auto SlotArray = [&](uint64_t Off, Type *Ty) {
    AllocaInst *&A = Slots[{Off, Ty}];
    if (!A)
      A = Array(Ty, 32, "warp.slot." + Twine(Off));
    return A;
  };
  auto Elem = [&](IRBuilder<> &B, AllocaInst *A, Value *Idx) {
    return B.CreateInBoundsGEP(A->getAllocatedType(), A,
                               {B.getInt32(0), Idx});
  };

  // Per loop: what the entry copies in; per sync id: what the exit copies
  // out.
  std::map<uint32_t, SetVector<std::pair<uint64_t, Type *>>> LoadsIn;
  std::map<uint32_t, bool> ResultIn;
  std::map<uint32_t, SetVector<std::pair<uint64_t, Type *>>> StoredAt;
  bool ArgUsed[4] = {false, false, false, false};
  for (Access &A : Accesses) {
    Instruction *I = A.I;
    if (A.W == Erase) {
      I->eraseFromParent();
      continue;
    }
    IRBuilder<> B(I);
    Value *Idx = L.Loops[A.Loop].I;
    Value *P;
    switch (A.W) {
    case Kind:
      P = Elem(B, KindA, Idx);
      break;
    case Arg:
      P = Elem(B, ArgA, B.CreateAdd(Idx, B.getInt32(uint32_t(32 * A.Off))));
      ArgUsed[A.Off] = true;
      break;
    case Result:
      P = Elem(B, ResA, Idx);
      ResultIn[L.Loops[A.Loop].Point] = true;
      break;
    default:
      P = Elem(B, SlotArray(A.Off, A.Ty), Idx);
      if (isa<LoadInst>(I))
        LoadsIn[L.Loops[A.Loop].Point].insert({A.Off, A.Ty});
      else
        StoredAt[A.Sync].insert({A.Off, A.Ty});
      break;
    }
    Align Al = DL.getABITypeAlign(A.Ty);
    if (auto *LI = dyn_cast<LoadInst>(I)) {
      LI->setOperand(LI->getPointerOperandIndex(), P);
      LI->setAlignment(Al);
    } else {
      auto *SI = cast<StoreInst>(I);
      SI->setOperand(SI->getPointerOperandIndex(), P);
      SI->setAlignment(Al);
    }
  }

  // A loop over the lanes of the mask; Body(B, lane index, lane state)
  // fills the body and leaves B in the block that ends it.
  auto LaneLoopBlocks = [&](const Twine &Name, BasicBlock *After,
                            function_ref<void(IRBuilder<> &, Value *, Value *)>
                                Body) {
    BasicBlock *Head = BasicBlock::Create(C, Name + ".head", &F, L.Exit);
    BasicBlock *Work = BasicBlock::Create(C, Name + ".lane", &F, L.Exit);
    BasicBlock *Next = BasicBlock::Create(C, Name + ".next", &F, L.Exit);
    IRBuilder<> B(Head);
    PHINode *J = B.CreatePHI(I32, 2, "j");
    B.CreateCondBr(B.CreateTrunc(B.CreateLShr(Mask, J), B.getInt1Ty()), Work,
                   Next);
    B.SetInsertPoint(Work);
    Value *Lane = B.CreateInBoundsGEP(
        I8, TS,
        B.CreateMul(B.CreateZExt(J, I64),
                    B.getInt64(sizeof(hetgpu_thread_state))));
    Body(B, J, Lane);
    B.CreateBr(Next);
    B.SetInsertPoint(Next);
    Value *N = B.CreateAdd(J, B.getInt32(1), "j.next", true, true);
    B.CreateCondBr(B.CreateICmpULT(N, B.getInt32(32)), Head, After);
    J->addIncoming(N, Next);
    return std::make_tuple(Head, J, Next);
  };
  auto FieldPtr = [&](IRBuilder<> &B, Value *Lane, uint64_t Off) {
    return B.CreateConstInBoundsGEP1_64(I8, Lane, Off);
  };

  // Entry: copy in, then the loop of the resume point.
  auto *OldSW = cast<SwitchInst>(L.Dispatch->getTerminator());
  BasicBlock *Generic = OldSW->getDefaultDest();
  BasicBlock *EntrySwitch =
      BasicBlock::Create(C, "entry.dispatch", &F, L.Dispatch);
  L.Entry->getTerminator()->eraseFromParent();
  BranchInst::Create(EntrySwitch, L.Entry);
  L.At->removeIncomingValue(L.Entry);
  IRBuilder<> EB(EntrySwitch);
  SwitchInst *ESW = EB.CreateSwitch(Resume, Generic, L.Loops.size());
  cast<PHINode>(&Generic->front())->addIncoming(EB.getInt32(0), EntrySwitch);
  std::set<uint32_t> Entered;
  for (LaneLoop &LL : L.Loops) {
    uint32_t P = LL.Point;
    if (!Entered.insert(P).second)
      continue;
    auto &Keys = LoadsIn[P];
    bool Res = ResultIn[P];
    if (Keys.empty() && !Res) {
      ESW->addCase(EB.getInt32(P), LL.Pick);
      continue;
    }
    auto [Head, J, Last] = LaneLoopBlocks(
        "copyin" + Twine(P), LL.Pick,
        [&](IRBuilder<> &B, Value *J, Value *Lane) {
          if (!Keys.empty()) {
            Value *Frame = B.CreateLoad(Ptr, FieldPtr(B, Lane, FrameOff));
            for (auto [Off, Ty] : Keys)
              B.CreateStore(B.CreateAlignedLoad(
                                Ty, FieldPtr(B, Frame, Off), Align(1)),
                            Elem(B, SlotArray(Off, Ty), J));
          }
          if (Res)
            B.CreateStore(B.CreateLoad(I32, FieldPtr(B, Lane, ResultOff)),
                          Elem(B, ResA, J));
        });
    J->addIncoming(EB.getInt32(0), EntrySwitch);
    ESW->addCase(EB.getInt32(P), Head);
    (void)Last;
  }

  // Back to the executor: copy out what it and the next resume read. A
  // lane's values are those saved at the sync point it stopped at (Out[j]).
  BasicBlock *CopyOut = nullptr;
  {
    auto [Head, J, Last] = LaneLoopBlocks(
        "copyout", L.Exit, [&](IRBuilder<> &B, Value *J, Value *Lane) {
          B.CreateStore(B.CreateLoad(I32, Elem(B, KindA, J)),
                        FieldPtr(B, Lane, KindOff));
          for (unsigned K = 0; K < 4; ++K)
            if (ArgUsed[K])
              B.CreateStore(
                  B.CreateLoad(I32, Elem(B, ArgA,
                                         B.CreateAdd(J, B.getInt32(32 * K)))),
                  FieldPtr(B, Lane, ArgOff + 4 * K));
          if (StoredAt.empty())
            return;
          BasicBlock *Join = BasicBlock::Create(C, "copyout.join", &F, L.Exit);
          Value *Id = B.CreateLoad(I32, B.CreateInBoundsGEP(I32, Out, J));
          SwitchInst *SW = B.CreateSwitch(Id, Join, StoredAt.size());
          for (auto &[Sync, Keys] : StoredAt) {
            BasicBlock *Case = BasicBlock::Create(
                C, "copyout.sync" + Twine(Sync), &F, Join);
            SW->addCase(B.getInt32(Sync), Case);
            IRBuilder<> CB(Case);
            Value *Frame = CB.CreateLoad(Ptr, FieldPtr(CB, Lane, FrameOff));
            for (auto [Off, Ty] : Keys)
              CB.CreateAlignedStore(
                  CB.CreateLoad(Ty, Elem(CB, SlotArray(Off, Ty), J)),
                  FieldPtr(CB, Frame, Off), Align(1));
            CB.CreateBr(Join);
          }
          B.SetInsertPoint(Join);
        });
    CopyOut = BasicBlock::Create(C, "copyout", &F, Head);
    BranchInst::Create(Head, CopyOut);
    J->addIncoming(ConstantInt::get(I32, 0), CopyOut);
    (void)Last;
  }
  // Every way back to the executor from the inlined loops passes CopyOut;
  // the generic loop (plain calls) wrote the states itself.
  for (BasicBlock *BB : {L.Done, Fuse->getParent()}) {
    Instruction *Term = BB->getTerminator();
    for (unsigned S = 0; S < Term->getNumSuccessors(); ++S)
      if (Term->getSuccessor(S) == L.Exit)
        Term->setSuccessor(S, CopyOut);
  }
  if (L.GenericLatch) {
    Instruction *Term = L.GenericLatch->getTerminator();
    for (unsigned S = 0; S < Term->getNumSuccessors(); ++S)
      if (Term->getSuccessor(S) == L.Done)
        Term->setSuccessor(S, L.Exit);
  }
  // After a fused operation the next sync id is always one of the loops';
  // anything else returns to the executor.
  cast<PHINode>(&Generic->front())->removeIncomingValue(L.Dispatch);
  OldSW->setDefaultDest(CopyOut);

  // Fused operations on the arrays.
  FunctionCallee FuseSoA = M.getOrInsertFunction(
      "__hetgpu_exec_fuse_soa",
      FunctionType::get(I32, {I32, Ptr, Ptr, Ptr, Ptr}, false));
  IRBuilder<> FB(Fuse);
  Value *Next = FB.CreateCall(FuseSoA, {Mask, Out, KindA, ArgA, ResA}, "next");
  Fuse->replaceAllUsesWith(Next);
  Fuse->eraseFromParent();
}

/// Whether the thread function \p T stops at a warp operation: it stores a
/// kind other than a block barrier's to ts->kind.
bool hasWarpOps(Function &T) {
  for (Instruction &I : instructions(T)) {
    auto *SI = dyn_cast<StoreInst>(&I);
    auto *GEP = SI ? dyn_cast<GetElementPtrInst>(SI->getPointerOperand())
                   : nullptr;
    if (!GEP || GEP->getPointerOperand() != T.getArg(2) ||
        GEP->getNumIndices() != 1)
      continue;
    auto *Off = dyn_cast<ConstantInt>(GEP->getOperand(1));
    if (!Off || Off->getZExtValue() != offsetof(hetgpu_thread_state, kind))
      continue;
    if (!isBlockBarrierKind(SI->getValueOperand()))
      return true;
  }
  return false;
}

/// Builds `void T.lanes(void **args, ctx *, hetgpu_thread_state *ts,
/// uint32_t mask, uint32_t resume, uint32_t *ids, uint32_t fuse)`
/// (ABI/BlockExecutor.h): a switch on the resume point around one loop per
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
  // Two loops per resume point (see Row below) for kernels with warp
  // operations, when small enough: barrier-only kernels keep one (the
  // second doubles their translation time).
  bool TwoLoops =
      !rowLoopsDisabled() && hasWarpOps(T) &&
      T.getInstructionCount() * Ids.size() * 2 <= MaxLaneLoopInstructions;
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
  // Row: all 32 lanes run and are in the row of lane 0 (tid.x of lane 0
  // plus 31 < blockDim.x). Lanes of a warp have consecutive linear ids, so
  // lane i then has tid (x0 + i, y0, z0) and linear id lin0 + i: the row
  // loops compute them instead of loading them from the states, have no
  // mask test, and accesses indexed by threadIdx.x become consecutive
  // (vector loads and stores instead of gathers and masked operations).
  Value *Row = nullptr, *X0 = nullptr, *Y0 = nullptr, *Z0 = nullptr,
        *Lin0 = nullptr;
  if (TwoLoops) {
    IRBuilder<> B(Entry);
    auto Field = [&](Value *Base, size_t Off, const Twine &Name) {
      return B.CreateLoad(I32, B.CreateConstInBoundsGEP1_64(I8, Base, Off),
                          Name);
    };
    X0 = Field(TS, offsetof(hetgpu_thread_state, tid), "x0");
    Y0 = Field(TS, offsetof(hetgpu_thread_state, tid) + 4, "y0");
    Z0 = Field(TS, offsetof(hetgpu_thread_state, tid) + 8, "z0");
    Lin0 = Field(TS, offsetof(hetgpu_thread_state, linear), "lin0");
    Value *BX = Field(Ctx, offsetof(hetgpu_block_ctx, block_dim), "ntid.x");
    Row = B.CreateAnd(B.CreateICmpEQ(Mask, B.getInt32(-1)),
                      B.CreateICmpULT(B.CreateAdd(X0, B.getInt32(31)), BX),
                      "row");
  }
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
  SmallVector<LaneLoop, 16> Loops, RowLoops;
  BasicBlock *GenericLatch = nullptr;
  // One loop per resume point (Point < 0: any resume value, not inlined),
  // entered from Pred.
  auto makeLoop = [&](int64_t Point, BasicBlock *Pred, bool IsRow) {
    BasicBlock *Head = BasicBlock::Create(C, IsRow ? "rowlanes" : "lanes",
                                          LF, Done);
    BasicBlock *Body = BasicBlock::Create(C, "lane", LF, Done);
    BasicBlock *Latch = BasicBlock::Create(C, "next", LF, Done);
    IRBuilder<> B(Head);
    PHINode *I = B.CreatePHI(I32, 2, "i");
    if (IsRow) {
      B.CreateBr(Body);
    } else {
      Value *On = B.CreateTrunc(B.CreateLShr(Mask, I), B.getInt1Ty());
      B.CreateCondBr(On, Body, Latch);
    }
    B.SetInsertPoint(Body);
    Value *Lane = B.CreateGEP(
        I8, TS, B.CreateMul(B.CreateZExt(I, B.getInt64Ty()),
                            B.getInt64(sizeof(hetgpu_thread_state))));
    if (Point >= 0)
      B.CreateStore(B.getInt32(uint32_t(Point)), Lane);
    CallInst *Call = B.CreateCall(&T, {Args, Ctx, Lane});
    B.CreateStore(Call, B.CreateGEP(I32, Out, I));
    B.CreateBr(Latch);
    if (Point >= 0) {
      Calls.push_back({Call, uint32_t(Point)});
      (IsRow ? RowLoops : Loops)
          .push_back({uint32_t(Point), Pred, cast<Instruction>(Lane), I});
    } else { // Never taken in practice: no second copy of T to optimise.
      Call->setIsNoInline();
      GenericLatch = Latch;
    }
    B.SetInsertPoint(Latch);
    Value *N = B.CreateAdd(I, B.getInt32(1), "i.next", /*HasNUW=*/true,
                           /*HasNSW=*/true);
    B.CreateCondBr(B.CreateICmpULT(N, B.getInt32(32)), Head, Done);
    I->addIncoming(B.getInt32(0), Pred);
    I->addIncoming(N, Latch);
    return Head;
  };
  BasicBlock *Generic = makeLoop(-1, Dispatch, false);
  IRBuilder<> B(Dispatch);
  SwitchInst *SW = B.CreateSwitch(At, Generic, Ids.size());
  for (uint32_t Id : Ids) {
    BasicBlock *Pick = BasicBlock::Create(C, "at" + Twine(Id), LF, Done);
    SW->addCase(B.getInt32(Id), Pick);
    BasicBlock *Plain = makeLoop(Id, Pick, false);
    if (Row)
      BranchInst::Create(makeLoop(Id, Pick, true), Plain, Row, Pick);
    else
      BranchInst::Create(Plain, Pick);
  }
  for (auto [Call, Id] : Calls)
    if (!inlineRegion(*Call, T, Id)) {
      LF->eraseFromParent();
      return nullptr;
    }
  // Row loops: tid and linear id from lane 0's.
  const DataLayout &DL = M.getDataLayout();
  for (LaneLoop &RL : RowLoops) {
    SmallVector<std::pair<Value *, uint64_t>, 8> Work{{RL.Lane, 0}};
    SmallVector<std::pair<LoadInst *, Value *>, 8> Repl;
    while (!Work.empty()) {
      auto [V, Off] = Work.pop_back_val();
      for (User *U : V->users()) {
        if (auto *GEP = dyn_cast<GetElementPtrInst>(U)) {
          APInt A(64, 0);
          if (GEP->getPointerOperand() == V &&
              GEP->accumulateConstantOffset(DL, A))
            Work.push_back({GEP, Off + A.getZExtValue()});
          continue;
        }
        auto *LI = dyn_cast<LoadInst>(U);
        if (!LI || LI->getPointerOperand() != V || LI->getType() != I32 ||
            !LI->isSimple())
          continue;
        IRBuilder<> RB(LI);
        if (Off == offsetof(hetgpu_thread_state, tid))
          Repl.push_back({LI, RB.CreateAdd(X0, RL.I, "tid.x.row")});
        else if (Off == offsetof(hetgpu_thread_state, tid) + 4)
          Repl.push_back({LI, Y0});
        else if (Off == offsetof(hetgpu_thread_state, tid) + 8)
          Repl.push_back({LI, Z0});
        else if (Off == offsetof(hetgpu_thread_state, linear))
          Repl.push_back({LI, RB.CreateAdd(Lin0, RL.I, "linear.row")});
      }
    }
    for (auto [LI, V] : Repl) {
      LI->replaceAllUsesWith(V);
      LI->eraseFromParent();
    }
  }
  Loops.append(RowLoops.begin(), RowLoops.end());
  LaneLoopFunction LLF{LF, Entry, Dispatch, At, Done, Exit, GenericLatch,
                       std::move(Loops)};
  if (!soaDisabled())
    convertToWarpArrays(M, LLF);
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
  // The flag read early would be one more value every thread spills and
  // reloads at every barrier of the chunk (5-8% on bench/migration's
  // barrier loops on the CPU device; read at the safe point, 0-1%).
  bool readsYieldFlagEarly() const override { return false; }

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
      // 256-bit vectors even where the CPU has 512-bit ones (as clang does
      // for most AVX-512 CPUs): on the 2-core AMD EPYC (Zen 4) CI host the
      // block executor's lane loops ran 10-20% slower with 512-bit vectors
      // (bench/migration/overhead.cu: reduce 22.4 -> 18.7 ms, stencil
      // 15.7 -> 13.2, matmul 69.4 -> 64.5), and instrumented kernels lost
      // another 6-8% there (1.00-1.02 with 256).
      F.addFnAttr("prefer-vector-width", "256");
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
