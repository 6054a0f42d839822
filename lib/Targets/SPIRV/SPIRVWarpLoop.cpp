//===- SPIRVWarpLoop.cpp - Warp-loop kernels of SPIR-V --------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Step 1b of hetgpu-lower-spirv (SPIRVLowering.h): kernels that need exact
/// warp semantics without 32-wide sub-groups run one warp per work-item,
/// through the SIMT->MIMD lowering and the warp executor (WarpExecutor.c,
/// embedded as bitcode).
///
//===----------------------------------------------------------------------===//

#include "SPIRVLowering.h"

#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Targets/ExpandIntrinsics.h"
#include "hetgpu/Targets/TargetDiagnostics.h"
#include "hetgpu/Transforms/SIMTToMIMD.h"
#include "hetgpu/ABI/BlockExecutor.h"
// The block context the SIMT->MIMD thread functions read (plain C).
#include "hetgpu/ABI/BlockABI.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <cstddef>
#include <map>


#define DEBUG_TYPE "hetgpu-lower-spirv"

using namespace llvm;

namespace hetgpu {
namespace spirv {

namespace {
/// WarpExecutor.c as bitcode (built by CMakeLists.txt).
const unsigned char WarpExecutorBitcode[] = {
#include "SPIRVWarpExecutor.inc"
};
} // namespace

//===----------------------------------------------------------------------===//
// Step 1b: warp-loop kernels (one work-item runs one warp)
//===----------------------------------------------------------------------===//

/// Kernels whose CUDA semantics a work-item per thread cannot give without
/// 32-wide sub-groups: warp operations that not every thread of the block
/// reaches the same number of times (the barrier emulation of lowerWarpOps
/// would deadlock or pair the wrong lanes), and warp-synchronous exchanges
/// through volatile shared memory (pre-CUDA 9 scans and reductions assume
/// the lanes of a warp execute each access in lock-step) or through
/// non-volatile shared memory with no barrier between a lane's store and
/// another lane's load (findUnorderedSharedExchanges).
bool SPIRVLowering::needsWarpLoop(Function &K) {
  if (Opts.WarpLoop == SPIRVLoweringOptions::WarpLoopMode::All)
    return true;
  SmallVector<Instruction *, 4> Exchanges;
  findUnorderedSharedExchanges(K, Exchanges);
  if (!Exchanges.empty())
    return true;
  std::optional<DominatorTree> DT;
  std::optional<PostDominatorTree> PDT;
  std::optional<LoopInfo> LI;
  for (Instruction &I : instructions(K)) {
    if (auto *LD = dyn_cast<LoadInst>(&I);
        LD && LD->isVolatile() && mayBeShared(LD->getPointerOperand()))
      return true;
    if (auto *ST = dyn_cast<StoreInst>(&I);
        ST && ST->isVolatile() && mayBeShared(ST->getPointerOperand()))
      return true;
    auto *CI = dyn_cast<CallInst>(&I);
    if (!CI || !isWarpBuiltin(*CI))
      continue;
    if (!DT) {
      DT.emplace(K);
      PDT.emplace(K);
      LI.emplace(*DT);
    }
    BasicBlock *BB = CI->getParent();
    if (!PDT->dominates(BB, &K.getEntryBlock()) || LI->getLoopFor(BB))
      return true;
  }
  return false;
}

/// The warp-loop form of the selected kernels, on hetIR (before the SPIR-V
/// types). The SIMT->MIMD lowering of the host target (SIMTToMIMD.h) turns
/// each into a resumable thread function and a block function that calls
/// `__hetgpu_exec_block`; here the block function is replaced by a kernel
/// with the original parameters and five more (the block size, the scratch
/// area and its slot count, ABI/SPIRVKernel.h) that builds the block context in private memory and calls the
/// warp executor (WarpExecutor.c) for its warp. The other kernels are
/// detached from the module meanwhile, and the builtins the SIMT->MIMD
/// lowering would turn into host services (printf, assert, trap, malloc,
/// free, clocks) or CPU fences keep their hetIR names, hidden from it, so
/// that lowerBuiltins gives them their SPIR-V form in the thread function.
Error SPIRVLowering::lowerWarpLoopKernels() {
  if (Opts.SubGroups32 || Opts.WarpLoop == SPIRVLoweringOptions::WarpLoopMode::Off)
    return Error::success();
  std::vector<WarpLoopKernel> Sel;
  SmallVector<Function *, 8> Others;
  for (Function &F : M) {
    if (!F.hasFnAttribute(KernelAttr) || F.isDeclaration())
      continue;
    if (!needsWarpLoop(F)) {
      Others.push_back(&F);
      continue;
    }
    SharedLayout SL = computeSharedLayout(F);
    Sel.push_back({F.getName().str(), F.getFunctionType(), F.getAttributes(),
                   F.getLinkage(), SL.Vars.empty() ? 0 : SL.dynamicOffset()});
    // A kernel without sync points would become a loop over the whole
    // block; a no-op warp operation makes it a thread function too.
    bool HasSync = false;
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (auto BI = getCalledBuiltin(*CB))
          HasSync |= BI->Group == "warp" || BI->Group == "barrier";
    if (!HasSync)
      CallInst::Create(getOrDeclareBuiltin(M, BuiltinID::activemask), {}, "",
                       F.getEntryBlock().getTerminator()->getIterator());
  }
  if (Sel.empty())
    return Error::success();

  // printf argument buffers may move into the thread frames: their types
  // go along on the calls.
  for (Function &F : M)
    if (F.hasFnAttribute(KernelAttr) && !F.isDeclaration())
      for (Instruction &I : instructions(F))
        if (auto *CI = dyn_cast<CallInst>(&I))
          if (auto BI = getCalledBuiltin(*CI); BI && BI->ID == BuiltinID::printf)
            if (auto *AI = dyn_cast<AllocaInst>(
                    CI->getArgOperand(1)->stripPointerCasts()))
              CI->setMetadata(PrintfArgsMD,
                              MDNode::get(Ctx, ConstantAsMetadata::get(
                                                   PoisonValue::get(
                                                       AI->getAllocatedType()))));

  if (Error E = lowerToThreadFunctions(Others))
    return E;

  // The kernels.
  auto *Ptr = PointerType::get(Ctx, 0);
  FunctionCallee Exec = M.getOrInsertFunction(
      WarpExecName, FunctionType::get(Type::getVoidTy(Ctx),
                                      {Ptr, Ptr, Ptr, Ptr, I32, Ptr, I32},
                                      false));
  for (const WarpLoopKernel &S : Sel)
    if (Error E = buildWarpLoopKernel(S, Exec))
      return E;
  return linkWarpExecutor();
}

/// Runs the SIMT->MIMD lowering on the warp-loop kernels only: the bodies
/// of the \p Others are detached meanwhile, and the service builtins keep
/// their hetIR names, hidden from it.
Error SPIRVLowering::lowerToThreadFunctions(ArrayRef<Function *> Others) {
  // Detach the other kernels' bodies; hide the service builtins.
  SmallVector<std::pair<Function *, Function *>, 8> Detached;
  for (Function *F : Others) {
    Function *Holder = Function::Create(F->getFunctionType(),
                                        GlobalValue::InternalLinkage, "");
    Holder->splice(Holder->end(), F);
    Detached.push_back({F, Holder});
  }
  SmallVector<std::pair<Function *, std::string>, 8> Hidden;
  for (Function &F : M) {
    std::optional<BuiltinInfo> BI = lookupBuiltin(F);
    if (!BI || !F.isDeclaration())
      continue;
    switch (BI->ID) {
    case BuiltinID::printf:
    case BuiltinID::assert_fail:
    case BuiltinID::trap:
    case BuiltinID::malloc:
    case BuiltinID::free:
    case BuiltinID::clock:
    case BuiltinID::clock64:
    case BuiltinID::globaltimer:
    case BuiltinID::fence_block:
    case BuiltinID::fence_device:
    case BuiltinID::fence_system:
      Hidden.push_back({&F, F.getName().str()});
      break;
    default:
      break;
    }
  }
  for (auto &[F, Name] : Hidden)
    F->setName("hetgpu.spirv.hidden." + Name);

  Error Err = lowerSIMTToMIMD(M);

  for (auto &[F, Name] : Hidden)
    F->setName(Name);
  for (auto &[F, Holder] : Detached) {
    F->splice(F->end(), Holder);
    delete Holder;
  }
  if (Err)
    return joinErrors(failure("the warp-loop form (one work-item per warp, "
                              "for exact warp semantics on a " +
                              Opts.DeviceDesc + ") failed"),
                      std::move(Err));
  return Error::success();
}

/// Replaces the block function SIMT->MIMD made of the warp-loop kernel
/// \p S by a kernel with S's parameters, the three block sizes, the scratch
/// area and its slot count, which
/// builds the block context (ABI/BlockABI.h) and the warps' area of the
/// dynamic local buffer and calls the warp executor \p Exec.
Error SPIRVLowering::buildWarpLoopKernel(const WarpLoopKernel &S,
                                         FunctionCallee Exec) {
  auto *Ptr = PointerType::get(Ctx, 0);
  Function *BF = M.getFunction((BlockFunctionPrefix + S.Name).str());
  CallInst *Call = nullptr;
  if (BF)
    for (Instruction &I : instructions(*BF))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (CI->getCalledFunction() &&
            CI->getCalledFunction()->getName() == ExecBlockName)
          Call = CI;
  if (!Call)
    return failure("kernel '" + S.Name +
                   "': the SIMT->MIMD lowering produced no resumable "
                   "thread function");
  auto *Thread = dyn_cast<Function>(Call->getArgOperand(2));
  auto *FS = dyn_cast<ConstantInt>(Call->getArgOperand(3));
  if (!Thread || !FS)
    return failure("kernel '" + S.Name +
                   "': unexpected block function from SIMT->MIMD");
  Thread->addFnAttr(WarpThreadAttr);
  uint64_t FrameSize = FS->getZExtValue();
  Constant *KName = dyn_cast<Constant>(Call->getArgOperand(4));
  BF->eraseFromParent();
  if (auto *G = dyn_cast_or_null<GlobalVariable>(
          KName ? KName->stripPointerCasts() : nullptr))
    if (G->use_empty())
      G->eraseFromParent();

  SmallVector<Type *, 8> Params(S.FT->params());
  // The block size, then the scratch area and its slot count
  // (ABI/SPIRVKernel.h).
  Params.append({I32, I32, I32, Ptr, I32});
  Function *K = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), Params, false), S.Linkage,
      S.Name, M);
  AttributeList AL = S.Attrs;
  K->setAttributes(AttributeList::get(Ctx, AL.getFnAttrs(),
                                      AL.getRetAttrs(), [&] {
                                        SmallVector<AttributeSet, 8> PA;
                                        for (unsigned I = 0;
                                             I < S.FT->getNumParams(); ++I)
                                          PA.push_back(AL.getParamAttrs(I));
                                        return PA;
                                      }()));
  K->addFnAttr(WarpLoopAttr);
  K->removeFnAttr(Attribute::Memory);
  unsigned NP = S.FT->getNumParams();
  K->getArg(NP)->setName("hetgpu.ntid.x");
  K->getArg(NP + 1)->setName("hetgpu.ntid.y");
  K->getArg(NP + 2)->setName("hetgpu.ntid.z");
  K->getArg(NP + 3)->setName("hetgpu.scratch");
  K->getArg(NP + 4)->setName("hetgpu.scratch.slots");
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", K));
  // args[i] points to parameter i's bytes, as cudaLaunchKernel's array.
  AllocaInst *Args = B.CreateAlloca(ArrayType::get(Ptr, std::max(NP, 1u)),
                                    nullptr, "args");
  for (unsigned I = 0; I < NP; ++I) {
    Argument *A = K->getArg(I);
    Value *Slot = A;
    if (!A->hasByValAttr()) {
      AllocaInst *Copy = B.CreateAlloca(A->getType(), nullptr,
                                        A->getName() + ".slot");
      B.CreateStore(A, Copy);
      Slot = Copy;
    }
    B.CreateStore(Slot, B.CreateConstInBoundsGEP2_32(Args->getAllocatedType(),
                                                      Args, 0, I));
  }
  // The block context (ABI/BlockABI.h).
  auto *CtxTy = ArrayType::get(I8, sizeof(hetgpu_block_ctx));
  AllocaInst *BCtx = B.CreateAlloca(CtxTy, nullptr, "ctx");
  BCtx->setAlignment(Align(16));
  B.CreateMemSet(BCtx, B.getInt8(0), sizeof(hetgpu_block_ctx), Align(16));
  auto Store = [&](size_t Off, Value *V) {
    B.CreateStore(V, B.CreateConstInBoundsGEP1_64(I8, BCtx, Off));
  };
  auto Builtin = [&](BuiltinID ID) {
    return B.CreateCall(getOrDeclareBuiltin(M, ID));
  };
  const BuiltinID Grid[3] = {BuiltinID::nctaid_x, BuiltinID::nctaid_y,
                             BuiltinID::nctaid_z};
  const BuiltinID Idx[3] = {BuiltinID::ctaid_x, BuiltinID::ctaid_y,
                            BuiltinID::ctaid_z};
  for (unsigned D = 0; D < 3; ++D) {
    Store(offsetof(hetgpu_block_ctx, grid_dim) + 4 * D, Builtin(Grid[D]));
    Store(offsetof(hetgpu_block_ctx, block_dim) + 4 * D, K->getArg(NP + D));
    Store(offsetof(hetgpu_block_ctx, block_idx) + 4 * D, Builtin(Idx[D]));
  }
  // The dynamic local buffer: the warps' lane tables, thread states and
  // frames (WarpBytes per warp; in the scratch area instead when the slot
  // count is not 0), then static and dynamic shared memory.
  uint64_t Frame = alignTo(std::max<uint64_t>(FrameSize, 16), 16);
  uint64_t WarpBytes =
      32 * sizeof(void *) + 32 * sizeof(hetgpu_thread_state) + 32 * Frame;
  Value *Area =
      B.CreateAddrSpaceCast(Builtin(BuiltinID::dynamic_shared), Ptr, "area");
  Value *Threads = B.CreateMul(
      K->getArg(NP), B.CreateMul(K->getArg(NP + 1), K->getArg(NP + 2)));
  Value *Warps = B.CreateLShr(B.CreateAdd(Threads, B.getInt32(31)), 5);
  Value *InLocal = B.CreateICmpEQ(K->getArg(NP + 4), B.getInt32(0));
  Value *SharedBase = B.CreateInBoundsGEP(
      I8, Area,
      B.CreateSelect(InLocal,
                     B.CreateMul(B.CreateZExt(Warps, I64),
                                 B.getInt64(WarpBytes)),
                     B.getInt64(0)),
      "shared");
  Store(offsetof(hetgpu_block_ctx, shared), SharedBase);
  Store(offsetof(hetgpu_block_ctx, dynamic_shared_offset),
        B.getInt64(S.Shared));
  B.CreateCall(Exec, {Args, BCtx, Thread, Area, B.getInt32(Frame),
                      K->getArg(NP + 3), K->getArg(NP + 4)});
  B.CreateRetVoid();
  WarpLoopShared[S.Name] = {S.Shared, WarpBytes};
  return Error::success();
}

/// Links WarpExecutor.c's bitcode and inlines it into the warp-loop kernels
/// (so the thread function, its argument there, is called directly).
Error SPIRVLowering::linkWarpExecutor() {
  MemoryBufferRef Buf(
      StringRef(reinterpret_cast<const char *>(WarpExecutorBitcode),
                sizeof(WarpExecutorBitcode)),
      "SPIRVWarpExecutor.bc");
  Expected<std::unique_ptr<Module>> Exec = parseBitcodeFile(Buf, Ctx);
  if (!Exec)
    return failure("embedded warp-loop executor: " +
                   toString(Exec.takeError()));
  (*Exec)->setTargetTriple(M.getTargetTriple());
  (*Exec)->setDataLayout(M.getDataLayout());
  for (Function &F : **Exec) {
    // Host CPU attributes mean nothing here.
    AttributeMask Drop;
    for (Attribute A : F.getAttributes().getFnAttrs())
      if (A.isStringAttribute())
        Drop.addAttribute(A.getKindAsString());
    F.removeFnAttrs(Drop);
    F.setCallingConv(CallingConv::C);
    for (User *U : F.users())
      if (auto *CB = dyn_cast<CallBase>(U))
        CB->setCallingConv(CallingConv::C);
    // Lifetime markers inside the round loop make the work-group compiler
    // of PoCL drop the lane table between work-group barriers.
    for (Instruction &I : make_early_inc_range(instructions(F)))
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        if (II->isLifetimeStartOrEnd())
          II->eraseFromParent();
  }
  if (Linker::linkModules(M, std::move(*Exec), Linker::Flags::LinkOnlyNeeded))
    return failure("cannot link the warp-loop executor");
  Function *ExecF = M.getFunction(WarpExecName);
  Function *RunWarp = M.getFunction(WarpRunName);
  if (!ExecF || ExecF->isDeclaration() || !RunWarp || RunWarp->isDeclaration())
    return failure("the embedded warp-loop executor lacks its entry points");
  // The executor goes into each kernel; the warp scheduler stays a
  // function, one copy per kernel calling its thread function directly
  // (the function pointer parameter dropped), and so does the thread
  // function: the kernel keeps a small CFG around its barriers.
  SmallVector<CallInst *, 8> Calls;
  for (User *U : ExecF->users())
    if (auto *CI = dyn_cast<CallInst>(U))
      Calls.push_back(CI);
  for (CallInst *CI : Calls) {
    InlineFunctionInfo IFI;
    if (!InlineFunction(*CI, IFI).isSuccess())
      return failure("the warp-loop executor could not be inlined");
  }
  ExecF->eraseFromParent();
  DenseMap<Function *, Function *> RunCopies;
  SmallVector<CallInst *, 8> RunCalls;
  for (User *U : RunWarp->users())
    if (auto *CI = dyn_cast<CallInst>(U))
      RunCalls.push_back(CI);
  for (CallInst *CI : RunCalls) {
    auto *Thread = dyn_cast<Function>(CI->getArgOperand(2));
    if (!Thread)
      return failure("warp-loop kernel '" + CI->getFunction()->getName() +
                     "': no thread function");
    Function *&Copy = RunCopies[Thread];
    if (!Copy) {
      ValueToValueMapTy VMap;
      VMap[RunWarp->getArg(2)] = Thread;
      Copy = CloneFunction(RunWarp, VMap);
      Copy->setName(CI->getFunction()->getName() + ".hetgpu.run_warp");
      Copy->setLinkage(GlobalValue::InternalLinkage);
    }
    SmallVector<Value *, 4> Args;
    for (unsigned I = 0; I < CI->arg_size(); ++I)
      if (I != 2)
        Args.push_back(CI->getArgOperand(I));
    IRBuilder<> B(CI);
    B.CreateCall(Copy, Args);
    CI->eraseFromParent();
    Thread->addFnAttr(Attribute::NoInline);
  }
  for (Function &F : make_early_inc_range(M))
    if (!F.isDeclaration() && !F.hasFnAttribute(KernelAttr) &&
        !F.hasFnAttribute(WarpThreadAttr) && F.use_empty())
      F.eraseFromParent();
  for (Function &F : M)
    if (!F.isDeclaration() && !F.hasFnAttribute(KernelAttr))
      F.setLinkage(GlobalValue::InternalLinkage);
  return Error::success();
}

} // namespace spirv
} // namespace hetgpu
