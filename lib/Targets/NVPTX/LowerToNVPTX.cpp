//===- LowerToNVPTX.cpp - Lower hetIR to NVPTX-flavoured LLVM IR ----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements `hetgpu-lower-nvptx`. hetIR's address-space numbering is
/// NVPTX's, so the rewrite is local: each builtin call is replaced by the
/// NVVM intrinsic (or driver-provided function) with CUDA's semantics, the
/// few portable LLVM intrinsics NVPTX cannot select are expanded, and the
/// module and kernels get NVPTX's triple, data layout, calling convention
/// and launch-bound attributes.
///
/// USAGE: hetgpu-opt -passes=hetgpu-lower-nvptx -S in.ll
///
//===----------------------------------------------------------------------===//

#include "LowerToNVPTX.h"
#include "NVPTXMath.h"
#include "hetgpu/ABI/MemCheck.h"

#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Targets/TargetDiagnostics.h"
#include "hetgpu/Targets/ExpandIntrinsics.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

#define DEBUG_TYPE "hetgpu-lower-nvptx"

using namespace llvm;

STATISTIC(NumBuiltinsLowered, "Builtin calls lowered to NVPTX");
STATISTIC(NumKernels, "Kernels given the PTX kernel calling convention");

static cl::opt<std::string> LibDeviceOpt(
    "hetgpu-nvptx-libdevice", cl::Hidden,
    cl::desc("libdevice bitcode (file or directory) for math builtins; "
             "'none' disables it"));
static cl::opt<std::string> MathLibOpt(
    "hetgpu-nvptx-math-library", cl::Hidden,
    cl::desc("hetGPU device math library bitcode for nvptx64"));
static cl::opt<bool> InstrumentOpt(
    "hetgpu-nvptx-instrument", cl::Hidden,
    cl::desc("Keep hetgpu.live bundles for the state instrumentation"));

namespace hetgpu {
namespace {

class NVPTXLowering {
public:
  NVPTXLowering(Module &M, const NVPTXLowerOptions &Opts) : M(M), Opts(Opts) {}
  void run();
  LoweringFailures Failures;

private:
  Module &M;
  const NVPTXLowerOptions &Opts;

  void fail(Function *F, const Twine &Msg) { Failures.add(F, Msg); }
  void lowerBuiltinCall(CallInst *CI, BuiltinID ID);
  void lowerKernels();
  void expandUnsupportedIntrinsics();
  void stripLiveBundles();
  void narrowCmpXchgScope();
  Value *lowerDynamicShared(IRBuilder<> &B);
};

/// The `c` operand of shfl.sync: CUDA packs the segment mask in bits 8..12
/// and the clamp lane in bits 0..4 (0 for shfl.up, which clamps at 0).
Value *shuffleControl(IRBuilder<> &B, Value *Width, bool IsUp) {
  Value *Seg = B.CreateShl(B.CreateSub(B.getInt32(32), Width), 8);
  return IsUp ? Seg : B.CreateOr(Seg, B.getInt32(0x1f));
}

Value *isNonZero(IRBuilder<> &B, Value *V) {
  return B.CreateICmpNE(V, ConstantInt::get(V->getType(), 0));
}

FunctionCallee declareDriverFunction(Module &M, StringRef Name, Type *Ret,
                                     ArrayRef<Type *> Params) {
  return M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
}

Value *NVPTXLowering::lowerDynamicShared(IRBuilder<> &B) {
  // `extern __shared__ char x[]` in CUDA terms: PTX places it after the
  // static shared variables; hetIR promises 16-byte alignment.
  auto *Ty = ArrayType::get(B.getInt8Ty(), 0);
  GlobalVariable *GV = M.getGlobalVariable(NVPTXDynamicSharedName);
  if (!GV) {
    GV = new GlobalVariable(M, Ty, /*isConstant=*/false,
                            GlobalValue::ExternalLinkage, nullptr,
                            NVPTXDynamicSharedName, nullptr,
                            GlobalValue::NotThreadLocal, AS_Shared);
    GV->setAlignment(Align(16));
  }
  return GV;
}

/// Lowers one call of a hetIR builtin. This stays one switch over
/// Builtins.def (about 180 lines, past the ~150 of STYLE.md): each case is a
/// few lines mapping one builtin to its NVVM intrinsic or driver call, and
/// read together they are the mapping table of docs/targets/NVPTX.md.
void NVPTXLowering::lowerBuiltinCall(CallInst *CI, BuiltinID ID) {
  IRBuilder<> B(CI);
  Function *Caller = CI->getFunction();
  auto Arg = [&](unsigned I) { return CI->getArgOperand(I); };
  auto Sreg = [&](Intrinsic::ID IID) -> Value * {
    return B.CreateIntrinsic(IID, ArrayRef<Type *>(), ArrayRef<Value *>());
  };
  Value *R = nullptr;
  CallInst *Barrier = nullptr; // a lowered safe point, keeps bundles if asked

  switch (ID) {
  case BuiltinID::tid_x: R = Sreg(Intrinsic::nvvm_read_ptx_sreg_tid_x); break;
  case BuiltinID::tid_y: R = Sreg(Intrinsic::nvvm_read_ptx_sreg_tid_y); break;
  case BuiltinID::tid_z: R = Sreg(Intrinsic::nvvm_read_ptx_sreg_tid_z); break;
  case BuiltinID::ntid_x: R = Sreg(Intrinsic::nvvm_read_ptx_sreg_ntid_x); break;
  case BuiltinID::ntid_y: R = Sreg(Intrinsic::nvvm_read_ptx_sreg_ntid_y); break;
  case BuiltinID::ntid_z: R = Sreg(Intrinsic::nvvm_read_ptx_sreg_ntid_z); break;
  case BuiltinID::ctaid_x: R = Sreg(Intrinsic::nvvm_read_ptx_sreg_ctaid_x); break;
  case BuiltinID::ctaid_y: R = Sreg(Intrinsic::nvvm_read_ptx_sreg_ctaid_y); break;
  case BuiltinID::ctaid_z: R = Sreg(Intrinsic::nvvm_read_ptx_sreg_ctaid_z); break;
  case BuiltinID::nctaid_x: R = Sreg(Intrinsic::nvvm_read_ptx_sreg_nctaid_x); break;
  case BuiltinID::nctaid_y: R = Sreg(Intrinsic::nvvm_read_ptx_sreg_nctaid_y); break;
  case BuiltinID::nctaid_z: R = Sreg(Intrinsic::nvvm_read_ptx_sreg_nctaid_z); break;
  case BuiltinID::lane_id: R = Sreg(Intrinsic::nvvm_read_ptx_sreg_laneid); break;

  // __syncthreads() is `bar.sync 0`: every thread of the warp reaches the
  // same barrier instruction (the .aligned form nvcc emits).
  case BuiltinID::barrier:
    Barrier = B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_sync_aligned_all,
                                {}, {B.getInt32(0)});
    break;
  case BuiltinID::barrier_count:
    Barrier = B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_red_popc_aligned_all,
                                {}, {B.getInt32(0), isNonZero(B, Arg(0))});
    R = Barrier;
    break;
  case BuiltinID::barrier_and:
  case BuiltinID::barrier_or: {
    Intrinsic::ID IID = ID == BuiltinID::barrier_and
                            ? Intrinsic::nvvm_barrier_cta_red_and_aligned_all
                            : Intrinsic::nvvm_barrier_cta_red_or_aligned_all;
    Barrier = B.CreateIntrinsic(IID, {}, {B.getInt32(0), isNonZero(B, Arg(0))});
    // The result is the same in every thread, but ptxas does not know it:
    // a branch on it made the loop around it divergent (a WARPSYNC before
    // every later bar.sync and the loop counter out of the uniform
    // registers: 23% on a barrier-dense loop with a migration safe point).
    // A vote over the (converged, non-exited) warp says so.
    R = B.CreateZExt(B.CreateIntrinsic(Intrinsic::nvvm_vote_any_sync, {},
                                       {B.getInt32(~0u), Barrier}),
                     B.getInt32Ty());
    break;
  }

  case BuiltinID::fence_block:
    B.CreateIntrinsic(Intrinsic::nvvm_membar_cta, ArrayRef<Type *>(), ArrayRef<Value *>());
    break;
  case BuiltinID::fence_device:
    B.CreateIntrinsic(Intrinsic::nvvm_membar_gl, ArrayRef<Type *>(), ArrayRef<Value *>());
    break;
  case BuiltinID::fence_system:
    B.CreateIntrinsic(Intrinsic::nvvm_membar_sys, ArrayRef<Type *>(), ArrayRef<Value *>());
    break;

  case BuiltinID::syncwarp:
    B.CreateIntrinsic(Intrinsic::nvvm_bar_warp_sync, {}, {Arg(0)});
    break;
  case BuiltinID::shfl_idx_i32:
  case BuiltinID::shfl_up_i32:
  case BuiltinID::shfl_down_i32:
  case BuiltinID::shfl_xor_i32: {
    Intrinsic::ID IID = ID == BuiltinID::shfl_idx_i32 ? Intrinsic::nvvm_shfl_sync_idx_i32
                        : ID == BuiltinID::shfl_up_i32 ? Intrinsic::nvvm_shfl_sync_up_i32
                        : ID == BuiltinID::shfl_down_i32
                            ? Intrinsic::nvvm_shfl_sync_down_i32
                            : Intrinsic::nvvm_shfl_sync_bfly_i32;
    Value *C = shuffleControl(B, Arg(3), ID == BuiltinID::shfl_up_i32);
    R = B.CreateIntrinsic(IID, {}, {Arg(0), Arg(1), Arg(2), C});
    break;
  }
  case BuiltinID::vote_any:
    R = B.CreateZExt(B.CreateIntrinsic(Intrinsic::nvvm_vote_any_sync, {},
                                       {Arg(0), isNonZero(B, Arg(1))}),
                     B.getInt32Ty());
    break;
  case BuiltinID::vote_all:
    R = B.CreateZExt(B.CreateIntrinsic(Intrinsic::nvvm_vote_all_sync, {},
                                       {Arg(0), isNonZero(B, Arg(1))}),
                     B.getInt32Ty());
    break;
  case BuiltinID::vote_ballot:
    R = B.CreateIntrinsic(Intrinsic::nvvm_vote_ballot_sync, {},
                          {Arg(0), isNonZero(B, Arg(1))});
    break;
  case BuiltinID::activemask:
    R = B.CreateIntrinsic(Intrinsic::nvvm_activemask, ArrayRef<Type *>(), ArrayRef<Value *>());
    break;
  case BuiltinID::match_any_i32:
    R = B.CreateIntrinsic(Intrinsic::nvvm_match_any_sync_i32, {},
                          {Arg(0), Arg(1)});
    break;

  case BuiltinID::dynamic_shared:
    R = lowerDynamicShared(B);
    break;
  case BuiltinID::malloc:
    R = B.CreateCall(declareDriverFunction(M, "malloc", B.getPtrTy(),
                                           {B.getInt64Ty()}),
                     {Arg(0)});
    break;
  case BuiltinID::free:
    B.CreateCall(declareDriverFunction(M, "free", B.getVoidTy(), {B.getPtrTy()}),
                 {Arg(0)});
    break;

  case BuiltinID::clock: R = Sreg(Intrinsic::nvvm_read_ptx_sreg_clock); break;
  case BuiltinID::clock64: R = Sreg(Intrinsic::nvvm_read_ptx_sreg_clock64); break;
  case BuiltinID::globaltimer:
    R = Sreg(Intrinsic::nvvm_read_ptx_sreg_globaltimer);
    break;

  case BuiltinID::printf:
    // The argument buffer already has vprintf's layout.
    R = B.CreateCall(declareDriverFunction(M, "vprintf", B.getInt32Ty(),
                                           {B.getPtrTy(), B.getPtrTy()}),
                     {Arg(0), Arg(1)});
    break;
  case BuiltinID::assert_fail: {
    // The driver's __assertfail(msg, file, line, func, charSize) reports
    // and stops the launch with cudaErrorAssert; the trap keeps the
    // builtin's noreturn promise for the optimiser.
    FunctionCallee AF = declareDriverFunction(
        M, "__assertfail", B.getVoidTy(),
        {B.getPtrTy(), B.getPtrTy(), B.getInt32Ty(), B.getPtrTy(),
         B.getInt64Ty()});
    B.CreateCall(AF, {Arg(0), Arg(1), Arg(2), Arg(3), B.getInt64(1)});
    B.CreateIntrinsic(Intrinsic::trap, ArrayRef<Type *>(), ArrayRef<Value *>());
    break;
  }
  case BuiltinID::trap:
    B.CreateIntrinsic(Intrinsic::trap, ArrayRef<Type *>(), ArrayRef<Value *>());
    break;

  default:
    fail(Caller, "builtin '" + getBuiltinInfo(ID).Name +
                     "' has no NVPTX lowering");
    return;
  }

  if (Barrier) {
    if (Opts.Instrument) {
      // Re-create the barrier with the safe point's live values so the state
      // instrumentation can find them after lowering.
      SmallVector<OperandBundleDef, 1> Bundles;
      CI->getOperandBundlesAsDefs(Bundles);
      if (!Bundles.empty()) {
        SmallVector<Value *, 2> Args(Barrier->args());
        auto *NewB = CallInst::Create(Barrier->getFunctionType(),
                                      Barrier->getCalledOperand(), Args, Bundles,
                                      "", Barrier->getIterator());
        NewB->copyMetadata(*Barrier);
        if (R == Barrier)
          R = NewB;
        Barrier->replaceAllUsesWith(NewB);
        Barrier->eraseFromParent();
        Barrier = NewB;
      }
      if (MDNode *SP = CI->getMetadata(SafePointMD))
        Barrier->setMetadata(SafePointMD, SP);
    }
  }

  ++NumBuiltinsLowered;
  if (R) {
    if (R->getType() != CI->getType()) {
      fail(Caller, "call of '" + CI->getCalledFunction()->getName() +
                       "' has a type other than the builtin table's");
      return;
    }
    if (isa<Instruction>(R))
      R->takeName(CI);
    CI->replaceAllUsesWith(R);
  }
  CI->eraseFromParent();
}

void NVPTXLowering::lowerKernels() {
  Expected<std::vector<std::pair<Function *, container::KernelInfo>>> Infos =
      readKernelInfo(M);
  if (!Infos) {
    Function *Any = nullptr;
    for (Function &F : M)
      if (!F.isDeclaration()) {
        Any = &F;
        break;
      }
    std::string Msg = "malformed kernel metadata: " + toString(Infos.takeError());
    if (Any)
      fail(Any, Msg);
    else
      M.getContext().emitError(Msg);
    return;
  }
  for (Function &F : M) {
    if (F.isDeclaration() || !isKernel(F))
      continue;
    F.setCallingConv(CallingConv::PTX_Kernel);
    ++NumKernels;
  }
  for (auto &[F, K] : *Infos) {
    if (!F || F->isDeclaration())
      continue;
    F->setCallingConv(CallingConv::PTX_Kernel);
    // LLVM 22 reads launch bounds from these string attributes (what clang
    // emits for __launch_bounds__).
    if (K.MaxThreads)
      F->addFnAttr("nvvm.maxntid", std::to_string(K.MaxThreads));
    // A memcheck translation calls its check helpers at every access, which
    // costs registers: bounded for 1024 threads, it still launches with any
    // block size the uninstrumented kernel launched with (a 32x32 matmul
    // failed with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES).
    else if (M.getNamedGlobal(abi::MemCheckTableVar))
      F->addFnAttr("nvvm.maxntid", "1024");
    if (K.MinBlocks)
      F->addFnAttr("nvvm.minctasm", std::to_string(K.MinBlocks));
  }
}

/// NVPTX has no libcalls: expand the portable intrinsics it cannot select.
void NVPTXLowering::expandUnsupportedIntrinsics() {
  SmallVector<IntrinsicInst *, 8> Work;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        switch (II->getIntrinsicID()) {
        case Intrinsic::lround:
        case Intrinsic::llround:
        case Intrinsic::lrint:
        case Intrinsic::llrint:
          Work.push_back(II);
          break;
        default:
          break;
        }
  for (IntrinsicInst *II : Work) {
    Function *Decl = II->getCalledFunction();
    expandIntegerRounding(*II);
    if (Decl->use_empty())
      Decl->eraseFromParent();
  }
}

/// CUDA's atomicCAS is a device-scope relaxed CAS (`atom.global.cas`), and
/// hetIR cannot tell it from atomicCAS_system (the headers emit the same
/// cmpxchg). LLVM selects `atom.relaxed.sys.cas` for a system-scope
/// cmpxchg while its atomicrmw selection is already device scope; give
/// cmpxchg the same scope so CAS loops cost what they cost with nvcc.
void NVPTXLowering::narrowCmpXchgScope() {
  SyncScope::ID Device = M.getContext().getOrInsertSyncScopeID("device");
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
        if (CX->getSyncScopeID() == SyncScope::System)
          CX->setSyncScopeID(Device);
}

/// Calls other than barriers may not carry live-value bundles into codegen.
void NVPTXLowering::stripLiveBundles() {
  SmallVector<std::pair<CallBase *, uint32_t>, 8> Work;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (std::optional<OperandBundleUse> OB = CB->getOperandBundle(LiveBundle))
          if (!(Opts.Instrument && getSafePointId(*CB) >= 0))
            Work.push_back({CB, OB->getTagID()});
  for (auto &[CB, Tag] : Work) {
    CallBase *New = CallBase::removeOperandBundle(CB, Tag, CB->getIterator());
    New->takeName(CB);
    CB->replaceAllUsesWith(New);
    CB->eraseFromParent();
  }
}

void NVPTXLowering::run() {
  // The target's triple and data layout first, so that linked libraries
  // agree with the module.
  M.setTargetTriple(Triple(NVPTXTriple));
  M.setDataLayout(NVPTXDataLayout);

  // Math next: it may link library functions that use other builtins.
  linkNVPTXMath(M, Opts, [&](Function *F, const Twine &Msg) {
    if (F)
      fail(F, Msg);
    else
      M.getContext().emitError("hetgpu-lower-nvptx: " + Msg);
  });

  SmallVector<std::pair<CallInst *, BuiltinID>, 32> Calls;
  SmallVector<Function *, 16> Decls;
  for (Function &F : M) {
    // Definitions are library code linked in above (the math library's
    // `__hetgpu_math_*` functions and their internal helpers).
    if (!F.getName().starts_with(BuiltinPrefix) || !F.isDeclaration())
      continue;
    std::optional<BuiltinInfo> Info = lookupBuiltin(F);
    if (!Info) {
      for (User *U : F.users())
        if (auto *I = dyn_cast<Instruction>(U))
          fail(I->getFunction(), "'" + F.getName() + "' is not a hetIR builtin");
      continue;
    }
    if (Info->Group == "math")
      continue; // linkNVPTXMath reported what it could not resolve
    Decls.push_back(&F);
    for (User *U : F.users()) {
      auto *CI = dyn_cast<CallInst>(U);
      if (!CI || CI->getCalledOperand() != &F) {
        if (auto *I = dyn_cast<Instruction>(U))
          fail(I->getFunction(), "builtin '" + F.getName() +
                                     "' is used other than as a direct call");
        else
          M.getContext().emitError("builtin '" + F.getName() +
                                   "' is used other than as a direct call");
        continue;
      }
      Calls.push_back({CI, Info->ID});
    }
  }
  for (auto &[CI, ID] : Calls)
    lowerBuiltinCall(CI, ID);
  for (Function *F : Decls)
    if (F->use_empty())
      F->eraseFromParent();

  expandUnsupportedIntrinsics();
  narrowCmpXchgScope();
  stripLiveBundles();
  lowerKernels();
}

} // namespace

Error lowerModuleToNVPTX(Module &M, const NVPTXLowerOptions &Opts) {
  NVPTXLowering L(M, Opts);
  L.run();
  return L.Failures.toError("nvptx");
}

LowerToNVPTXPass::LowerToNVPTXPass(NVPTXLowerOptions O) : Opts(std::move(O)) {}

PreservedAnalyses LowerToNVPTXPass::run(Module &M, ModuleAnalysisManager &) {
  NVPTXLowerOptions Effective = Opts;
  if (LibDeviceOpt.getNumOccurrences())
    Effective.LibDevicePath = LibDeviceOpt;
  if (MathLibOpt.getNumOccurrences())
    Effective.MathLibraryPath = MathLibOpt;
  if (InstrumentOpt)
    Effective.Instrument = true;

  NVPTXLowering L(M, Effective);
  L.run();
  L.Failures.report(M, "hetgpu-lower-nvptx");
  return PreservedAnalyses::none();
}

} // namespace hetgpu
