//===- LowerToSPIRV.cpp - Lower hetIR to OpenCL-flavoured SPIR-V IR -------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-lower-spirv`. The module is rewritten in these steps:
///
///  1. Non-kernel functions are inlined where possible (warp operations are
///     then checked per kernel), debug info is dropped.
///  2. Every function and global is cloned with SPIR-V address spaces
///     (hetIR 0 generic -> 4 Generic, 1 global -> 1 CrossWorkgroup,
///     3 shared -> 3 Workgroup, 4 constant -> 1, allocas -> 0 Function).
///     Kernels become `spir_kernel` with pointer parameters in global memory
///     and byval aggregates in private memory; every defined function gets
///     the two hidden trailing parameters of ABI/SPIRVKernel.h (dynamic
///     shared memory, globals block).
///  3. `__device__`/`__constant__` variables move into the globals block;
///     read-only internal data stays a program-scope constant.
///  4. `__hetgpu_*` builtins become OpenCL built-in calls (mangled as the
///     OpenCL C compiler mangles them, which the SPIR-V backend turns into
///     BuiltIn variables and OpenCL.std instructions) or inline code.
///  5. Atomics the SPIR-V backend cannot select (floating point, wrapping
///     increment/decrement) become compare-exchange loops.
///  6. The helper kernels (info, init) are added and address spaces are
///     inferred so most generic accesses become global or local ones.
///
/// USAGE: hetgpu-opt -passes=hetgpu-lower-spirv -S in.ll
///
//===----------------------------------------------------------------------===//

#include "LowerToSPIRV.h"
#include "hetgpu/ABI/SPIRVKernel.h"

#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Targets/ExpandIntrinsics.h"
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

static cl::opt<bool> ClFenceAsAtomic(
    "hetgpu-spirv-fence-as-atomic", cl::Hidden, cl::init(false),
    cl::desc("hetgpu-lower-spirv: lower fences to seq_cst atomics"));

static cl::opt<bool> ClDeferUnsupported(
    "hetgpu-spirv-defer-unsupported", cl::Hidden, cl::init(false),
    cl::desc("hetgpu-lower-spirv: leave out kernels whose warp operations "
             "cannot be emulated instead of failing"));

static cl::opt<SPIRVLoweringOptions::WarpLoopMode> ClWarpLoop(
    "hetgpu-spirv-warp-loop", cl::Hidden,
    cl::init(SPIRVLoweringOptions::WarpLoopMode::Off),
    cl::desc("hetgpu-lower-spirv: kernels that run one warp per work-item"),
    cl::values(clEnumValN(SPIRVLoweringOptions::WarpLoopMode::Off, "off",
                          "none"),
               clEnumValN(SPIRVLoweringOptions::WarpLoopMode::Auto, "auto",
                          "those that need exact warp semantics"),
               clEnumValN(SPIRVLoweringOptions::WarpLoopMode::All, "all",
                          "every kernel")));

static cl::opt<bool> ClFlatAtomics(
    "hetgpu-spirv-flat-atomics", cl::Hidden, cl::init(false),
    cl::desc("hetgpu-lower-spirv: atomics on generic pointers use global "
             "pointers (flat-memory devices)"));

static cl::opt<bool> ClSubGroups(
    "hetgpu-spirv-subgroups", cl::Hidden, cl::init(false),
    cl::desc("hetgpu-lower-spirv: map warp operations to 32-wide sub-groups"));

namespace {

// SPIR-V (OpenCL) address spaces as LLVM's SPIR-V backend numbers them.
enum SPIRVAS : unsigned {
  ASPrivate = 0,
  ASGlobal = 1,
  ASConstant = 2,
  ASLocal = 3,
  ASGeneric = 4,
};

constexpr StringLiteral KernelAttr = "hetgpu-kernel";
/// Marks the kernels that run one warp per work-item, and their thread
/// functions.
constexpr StringLiteral WarpLoopAttr = "hetgpu-spirv-warp-loop";
constexpr StringLiteral WarpThreadAttr = "hetgpu-spirv-warp-thread";
constexpr StringLiteral WarpExecName = "__hetgpu_spirv_warp_exec";
constexpr StringLiteral WarpRunName = "__hetgpu_spirv_run_warp";
/// On printf calls: the type of the argument buffer (a poison constant).
constexpr StringLiteral PrintfArgsMD = "hetgpu.spirv.printf.args";

/// WarpExecutor.c as bitcode (built by CMakeLists.txt).
const unsigned char WarpExecutorBitcode[] = {
#include "SPIRVWarpExecutor.inc"
};

Error failure(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

std::string kernelOf(const Function &F) {
  return ("'" + F.getName() + "'").str();
}

/// Maps hetIR address spaces to SPIR-V ones; nullopt for unknown ones.
std::optional<unsigned> mapAddrSpace(unsigned AS) {
  switch (AS) {
  case 0:
    return ASGeneric;
  case 1:
    return ASGlobal;
  case 3:
    return ASLocal;
  case 4:
    return ASGlobal; // constant memory is written by the host: global
  case 5:
    return ASPrivate;
  default:
    return std::nullopt;
  }
}

/// Rewrites pointer address spaces inside (possibly nested) types.
class AddrSpaceRemapper final : public ValueMapTypeRemapper {
public:
  explicit AddrSpaceRemapper(LLVMContext &Ctx) : Ctx(Ctx) {}

  Type *remapType(Type *T) override {
    auto It = Cache.find(T);
    if (It != Cache.end())
      return It->second;
    Type *R = compute(T);
    Cache[T] = R;
    return R;
  }

  /// First address space that has no SPIR-V equivalent, if any was seen.
  std::optional<unsigned> BadAS;

private:
  Type *compute(Type *T) {
    if (auto *PT = dyn_cast<PointerType>(T)) {
      std::optional<unsigned> AS = mapAddrSpace(PT->getAddressSpace());
      if (!AS) {
        BadAS = PT->getAddressSpace();
        return T;
      }
      return PointerType::get(Ctx, *AS);
    }
    if (auto *VT = dyn_cast<VectorType>(T))
      return VectorType::get(remapType(VT->getElementType()),
                             VT->getElementCount());
    if (auto *AT = dyn_cast<ArrayType>(T))
      return ArrayType::get(remapType(AT->getElementType()),
                            AT->getNumElements());
    if (auto *FT = dyn_cast<FunctionType>(T)) {
      SmallVector<Type *, 8> Ps;
      for (Type *P : FT->params())
        Ps.push_back(remapType(P));
      return FunctionType::get(remapType(FT->getReturnType()), Ps,
                               FT->isVarArg());
    }
    if (auto *ST = dyn_cast<StructType>(T)) {
      if (ST->isOpaque())
        return T;
      SmallVector<Type *, 8> Es;
      bool Changed = false;
      for (Type *E : ST->elements()) {
        Es.push_back(remapType(E));
        Changed |= Es.back() != E;
      }
      if (!Changed)
        return T;
      if (ST->isLiteral())
        return StructType::get(Ctx, Es, ST->isPacked());
      return StructType::create(Ctx, Es, (ST->getName() + ".spirv").str(),
                                ST->isPacked());
    }
    return T;
  }

  LLVMContext &Ctx;
  DenseMap<Type *, Type *> Cache;
};

/// A `__device__`/`__constant__` variable placed in the globals block.
struct BlockVar {
  std::string Name;
  GlobalVariable *Placeholder = nullptr; ///< new-module stand-in
  Type *ValueTy = nullptr;               ///< remapped value type
  Constant *Init = nullptr;              ///< remapped initializer, or null
  uint64_t Offset = 0;
  uint64_t Size = 0;
};

class SPIRVLowering {
public:
  SPIRVLowering(Module &M, const SPIRVLoweringOptions &Opts)
      : M(M), Ctx(M.getContext()), Opts(Opts), TM(Ctx),
        I32(Type::getInt32Ty(Ctx)), I64(Type::getInt64Ty(Ctx)),
        I8(Type::getInt8Ty(Ctx)) {}

  Error run();

private:
  Error checkInput();
  void inlineCalls();
  bool needsWarpLoop(Function &K);
  Error lowerWarpLoopKernels();
  Error linkWarpExecutor();
  Error cloneWithSPIRVTypes();
  Error placeBlockVars();
  Error lowerBuiltins();
  Error lowerWarpOps();
  Error expandAtomics();
  void expandIntrinsics();
  Value *emitFrexp(IRBuilder<> &B, Value *X, Type *ResTy);
  void lowerFences();
  Value *emitNextAfter(IRBuilder<> &B, Value *X, Value *Y);
  void addHelperKernels();
  void inferAddressSpaces();

  // Helpers for builtin lowering.
  Value *hiddenDynShared(Function &F) { return F.getArg(F.arg_size() - 2); }
  Value *hiddenGlobals(Function &F) { return F.getArg(F.arg_size() - 1); }
  FunctionCallee oclFunc(StringRef Name, Type *Ret, ArrayRef<Type *> Params,
                         bool Convergent = false, bool ReadNone = false);
  Value *workItemQuery(IRBuilder<> &B, StringRef Mangled, unsigned Dim);
  Value *linearLocalId(IRBuilder<> &B);
  Value *blockSize(IRBuilder<> &B);
  void emitBarrier(IRBuilder<> &B, unsigned Flags);
  void emitStatusFailure(IRBuilder<> &B, Function &F, uint32_t Code);
  /// Appends a printf record (ABI/SPIRVKernel.h) before \p Before; returns
  /// the printf result.
  Expected<Value *> emitPrintf(Instruction *Before, Function &F,
                               StringRef Format, Value *Args, Type *ArgsTy,
                               bool ToStderr = false);
  GlobalVariable *localScratch(StringRef Name, Type *Ty);

  Module &M;
  LLVMContext &Ctx;
  const SPIRVLoweringOptions &Opts;
  AddrSpaceRemapper TM;
  Type *I32, *I64, *I8;

  SmallVector<Function *, 8> Kernels; ///< new (lowered) kernels
  std::vector<BlockVar> BlockVars;
  uint64_t BlockSize = spirv_abi::HeaderSize;
  uint64_t BlockAlign = 16;
  SmallPtrSet<Function *, 8> WarpEmulated;
  /// Warp-loop kernels by name -> (bytes of static shared memory, bytes of
  /// thread states and frames per warp): the runtime's dynamic local buffer
  /// holds the warps' states, then static, then dynamic shared memory.
  std::map<std::string, std::pair<uint64_t, uint64_t>> WarpLoopShared;

  struct PrintfFormat {
    std::string Text;
    uint64_t ArgsSize = 0;
    SmallVector<uint64_t, 2> StringOffsets;
    bool Stderr = false; ///< assert messages go to stderr, as CUDA's do
  };
  std::vector<PrintfFormat> Formats;
  bool UsesHeap = false;
  /// Kernels left out of the module (DeferUnsupported) and why.
  std::vector<std::pair<std::string, std::string>> Unsupported;
  SmallPtrSet<Function *, 4> Dropped;
};

bool isWarpBuiltin(const CallInst &CI) {
  if (std::optional<BuiltinInfo> BI = getCalledBuiltin(CI))
    return BI->Group == "warp";
  return false;
}

//===----------------------------------------------------------------------===//
// Step 0: input checks
//===----------------------------------------------------------------------===//

Error SPIRVLowering::checkInput() {
  for (Function &F : M) {
    if (F.hasFnAttribute(KernelAttr)) {
      if (F.isDeclaration())
        return failure("kernel " + kernelOf(F) + " has no body");
      if (!F.getReturnType()->isVoidTy())
        return failure("kernel " + kernelOf(F) + " does not return void");
    }
    if (F.isVarArg() && !F.isDeclaration())
      return failure("function " + kernelOf(F) +
                     " has variable arguments: not supported in SPIR-V");
  }
  for (GlobalVariable &G : M.globals()) {
    if (G.isThreadLocal())
      return failure("thread-local variable '" + G.getName() +
                     "' cannot be expressed in SPIR-V");
    if (G.isDeclaration() && !G.getName().starts_with("llvm."))
      return failure("variable '" + G.getName() +
                     "' is declared but not defined in the module (extern "
                     "device variables need relocatable device code, which "
                     "the SPIR-V target does not support)");
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Step 1: inline
//===----------------------------------------------------------------------===//

void SPIRVLowering::inlineCalls() {
  bool Any = false;
  for (Function &F : M) {
    if (F.isDeclaration() || F.hasFnAttribute(KernelAttr))
      continue;
    F.removeFnAttr(Attribute::NoInline);
    F.removeFnAttr(Attribute::OptimizeNone);
    F.addFnAttr(Attribute::AlwaysInline);
    Any = true;
  }
  if (!Any)
    return;
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
  MPM.addPass(AlwaysInlinerPass(/*InsertLifetime=*/false));
  MPM.run(M, MAM);
  // Drop what is no longer called.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Function &F : make_early_inc_range(M)) {
      if (!F.isDeclaration() && !F.hasFnAttribute(KernelAttr) &&
          F.hasLocalLinkage() && F.use_empty()) {
        F.eraseFromParent();
        Changed = true;
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Step 1b: warp-loop kernels (one work-item runs one warp)
//===----------------------------------------------------------------------===//

/// Kernels whose CUDA semantics a work-item per thread cannot give without
/// 32-wide sub-groups: warp operations that not every thread of the block
/// reaches the same number of times (the barrier emulation of lowerWarpOps
/// would deadlock or pair the wrong lanes), and warp-synchronous exchanges
/// through volatile shared memory (pre-CUDA 9 scans and reductions assume
/// the lanes of a warp execute each access in lock-step).
bool SPIRVLowering::needsWarpLoop(Function &K) {
  if (Opts.WarpLoop == SPIRVLoweringOptions::WarpLoopMode::All)
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
/// with the original parameters and three more (the block size, SPIRVKernel
/// ABI.h) that builds the block context in private memory and calls the
/// warp executor (WarpExecutor.c) for its warp. The other kernels are
/// detached from the module meanwhile, and the builtins the SIMT->MIMD
/// lowering would turn into host services (printf, assert, trap, malloc,
/// free, clocks) or CPU fences keep their hetIR names, hidden from it, so
/// that lowerBuiltins gives them their SPIR-V form in the thread function.
Error SPIRVLowering::lowerWarpLoopKernels() {
  if (Opts.SubGroups32 || Opts.WarpLoop == SPIRVLoweringOptions::WarpLoopMode::Off)
    return Error::success();
  struct Selected {
    std::string Name;
    FunctionType *FT;
    AttributeList Attrs;
    GlobalValue::LinkageTypes Linkage;
    uint64_t Shared;
  };
  std::vector<Selected> Sel;
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

  // The kernels.
  auto *Ptr = PointerType::get(Ctx, 0);
  FunctionCallee Exec = M.getOrInsertFunction(
      WarpExecName, FunctionType::get(Type::getVoidTy(Ctx),
                                      {Ptr, Ptr, Ptr, Ptr, I32}, false));
  for (Selected &S : Sel) {
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
    Params.append({I32, I32, I32});
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
    // frames (WarpBytes per warp), then static and dynamic shared memory.
    uint64_t Frame = alignTo(std::max<uint64_t>(FrameSize, 16), 16);
    uint64_t WarpBytes =
        32 * sizeof(void *) + 32 * sizeof(hetgpu_thread_state) + 32 * Frame;
    Value *Area =
        B.CreateAddrSpaceCast(Builtin(BuiltinID::dynamic_shared), Ptr, "area");
    Value *Threads = B.CreateMul(
        K->getArg(NP), B.CreateMul(K->getArg(NP + 1), K->getArg(NP + 2)));
    Value *Warps = B.CreateLShr(B.CreateAdd(Threads, B.getInt32(31)), 5);
    Value *SharedBase = B.CreateInBoundsGEP(
        I8, Area,
        B.CreateMul(B.CreateZExt(Warps, I64), B.getInt64(WarpBytes)),
        "shared");
    Store(offsetof(hetgpu_block_ctx, shared), SharedBase);
    Store(offsetof(hetgpu_block_ctx, dynamic_shared_offset),
          B.getInt64(S.Shared));
    B.CreateCall(Exec, {Args, BCtx, Thread, Area, B.getInt32(Frame)});
    B.CreateRetVoid();
    WarpLoopShared[S.Name] = {S.Shared, WarpBytes};
  }
  return linkWarpExecutor();
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

//===----------------------------------------------------------------------===//
// Step 2 and 3: clone with SPIR-V types, globals block
//===----------------------------------------------------------------------===//

Error SPIRVLowering::cloneWithSPIRVTypes() {
  // llvm.used and friends name the old values and mean nothing to OpenCL.
  for (StringRef N : {"llvm.used", "llvm.compiler.used"})
    if (GlobalVariable *G = M.getNamedGlobal(N))
      G->eraseFromParent();

  // Constant expressions over globals become instructions first, so that the
  // globals can be replaced by per-function values later.
  SmallVector<Constant *, 16> GVs;
  for (GlobalVariable &G : M.globals())
    GVs.push_back(&G);
  for (Function &F : M)
    GVs.push_back(&F);
  convertUsersOfConstantsToInstructions(GVs);

  SmallVector<Function *, 16> OldFuncs;
  for (Function &F : M)
    OldFuncs.push_back(&F);
  SmallVector<GlobalVariable *, 16> OldGlobals;
  for (GlobalVariable &G : M.globals())
    if (!G.getName().starts_with("llvm."))
      OldGlobals.push_back(&G);

  ValueToValueMapTy VMap;
  std::vector<std::pair<GlobalVariable *, GlobalVariable *>> GlobalPairs;

  // Globals.
  for (GlobalVariable *G : OldGlobals) {
    unsigned AS = G->getAddressSpace();
    Type *VT = TM.remapType(G->getValueType());
    if (!mapAddrSpace(AS))
      return failure("variable '" + G->getName() + "' is in address space " +
                     Twine(AS) + ", which hetIR does not define");
    GlobalVariable *NG;
    if (AS == 3) {
      NG = new GlobalVariable(M, VT, false, GlobalValue::InternalLinkage,
                              PoisonValue::get(VT), G->getName() + ".spirv",
                              nullptr, GlobalValue::NotThreadLocal, ASLocal);
    } else if (G->isConstant() && G->hasLocalLinkage()) {
      // Read-only data nobody outside can name: a program-scope constant.
      NG = new GlobalVariable(M, VT, true, GlobalValue::InternalLinkage,
                              nullptr, G->getName() + ".spirv", nullptr,
                              GlobalValue::NotThreadLocal, ASGlobal);
    } else {
      // A variable the host may read or write: lives in the globals block.
      BlockVar BV;
      BV.Name = G->getName().str();
      BV.ValueTy = VT;
      const DataLayout &DL = M.getDataLayout();
      BV.Size = DL.getTypeAllocSize(G->getValueType());
      uint64_t Al = std::max<uint64_t>(
          G->getAlign().valueOrOne().value(),
          DL.getABITypeAlign(G->getValueType()).value());
      BlockAlign = std::max(BlockAlign, Al);
      BV.Offset = alignTo(BlockSize, Al);
      BlockSize = BV.Offset + BV.Size;
      NG = new GlobalVariable(M, VT, false, GlobalValue::ExternalLinkage,
                              nullptr, "__hetgpu_spirv_placeholder." + BV.Name,
                              nullptr, GlobalValue::NotThreadLocal, ASGlobal);
      BV.Placeholder = NG;
      BlockVars.push_back(BV);
    }
    NG->setAlignment(G->getAlign());
    // Uses see the global through its hetIR address space, remapped (a
    // generic string literal becomes a generic pointer to global memory).
    auto *Want = cast<PointerType>(TM.remapType(G->getType()));
    if (Want != NG->getType())
      VMap[G] = ConstantExpr::getAddrSpaceCast(NG, Want);
    else
      VMap[G] = NG;
    GlobalPairs.push_back({G, NG});
  }

  // Function declarations and definitions.
  std::vector<std::pair<Function *, Function *>> FuncPairs;
  for (Function *F : OldFuncs) {
    if (F->isIntrinsic()) {
      SmallVector<Type *, 4> Tys;
      FunctionType *NFT = cast<FunctionType>(TM.remapType(F->getFunctionType()));
      if (NFT == F->getFunctionType())
        continue; // nothing to remap
      if (!Intrinsic::getIntrinsicSignature(F->getIntrinsicID(), NFT, Tys))
        return failure("intrinsic '" + F->getName() +
                       "' cannot be re-declared for SPIR-V address spaces");
      VMap[F] = Intrinsic::getOrInsertDeclaration(&M, F->getIntrinsicID(), Tys);
      continue;
    }
    FunctionType *OFT = F->getFunctionType();
    bool IsKernel = F->hasFnAttribute(KernelAttr);
    SmallVector<Type *, 8> Ps;
    for (Argument &A : F->args()) {
      Type *T = TM.remapType(A.getType());
      if (!F->isDeclaration() && A.getType()->isPointerTy()) {
        if (A.hasByValAttr())
          T = PointerType::get(Ctx, ASPrivate);
        else if (IsKernel && T->getPointerAddressSpace() == ASGeneric)
          T = PointerType::get(Ctx, ASGlobal);
      }
      Ps.push_back(T);
    }
    if (!F->isDeclaration()) {
      // Device functions take the dynamic shared memory as a generic
      // pointer: OpenCL compilers inline every function with a local
      // pointer parameter into the kernel (PoCL does), which the warp-loop
      // form's thread functions must not be.
      Ps.push_back(PointerType::get(Ctx, IsKernel ? ASLocal : ASGeneric));
      Ps.push_back(PointerType::get(Ctx, ASGlobal));
    }
    auto *NFT = FunctionType::get(TM.remapType(OFT->getReturnType()), Ps,
                                  OFT->isVarArg());
    Function *NF = Function::Create(NFT, F->getLinkage(), 0,
                                    F->getName() + ".spirv", &M);
    NF->setCallingConv(IsKernel ? CallingConv::SPIR_KERNEL
                                : CallingConv::SPIR_FUNC);
    VMap[F] = NF;
    FuncPairs.push_back({F, NF});
  }
  if (TM.BadAS)
    return failure("a pointer in address space " + Twine(*TM.BadAS) +
                   ", which hetIR does not define, cannot be lowered");

  // Initializers.
  for (auto &[G, NG] : GlobalPairs) {
    if (!G->hasInitializer() || G->getAddressSpace() == 3)
      continue;
    Constant *Init = MapValue(G->getInitializer(), VMap, RF_None, &TM);
    if (NG->getName().starts_with("__hetgpu_spirv_placeholder.")) {
      for (BlockVar &BV : BlockVars)
        if (BV.Placeholder == NG && !Init->isNullValue())
          BV.Init = Init;
    } else {
      NG->setInitializer(Init);
    }
  }

  // Bodies.
  for (auto &[F, NF] : FuncPairs) {
    if (F->isDeclaration())
      continue;
    BasicBlock *Pre = BasicBlock::Create(Ctx, "hetgpu.entry", NF);
    IRBuilder<> B(Pre);
    for (Argument &A : F->args()) {
      Argument *NA = NF->getArg(A.getArgNo());
      NA->setName(A.getName());
      Type *Want = TM.remapType(A.getType());
      if (NA->getType() != Want)
        VMap[&A] = B.CreateAddrSpaceCast(NA, Want, A.getName() + ".gen");
      else
        VMap[&A] = NA;
    }
    NF->getArg(NF->arg_size() - 2)->setName("hetgpu.dynshared");
    NF->getArg(NF->arg_size() - 1)->setName("hetgpu.globals");
    SmallVector<ReturnInst *, 4> Returns;
    CloneFunctionInto(NF, F, VMap, CloneFunctionChangeType::GlobalChanges,
                      Returns, "", nullptr, &TM);
    // Parameter attributes: only those valid for the new types.
    AttributeList OldAL = F->getAttributes();
    NF->setAttributes(AttributeList());
    NF->setCallingConv(F->hasFnAttribute(KernelAttr) ? CallingConv::SPIR_KERNEL
                                                    : CallingConv::SPIR_FUNC);
    for (Attribute A : OldAL.getFnAttrs())
      NF->addFnAttr(A);
    // The hidden parameters are accessed through: memory effects computed
    // for the hetIR function (e.g. argmem: none) no longer hold.
    NF->removeFnAttr(Attribute::Memory);
    for (Argument &A : F->args()) {
      Argument *NA = NF->getArg(A.getArgNo());
      if (A.hasByValAttr()) {
        NA->addAttr(Attribute::getWithByValType(
            Ctx, TM.remapType(A.getParamByValType())));
        if (MaybeAlign Al = A.getParamAlign())
          NA->addAttr(Attribute::getWithAlignment(Ctx, *Al));
      } else if (NA->getType()->isPointerTy()) {
        if (A.hasNoAliasAttr())
          NA->addAttr(Attribute::NoAlias);
      }
    }
    B.CreateBr(&*std::next(NF->begin()));
    MergeBlockIntoPredecessor(&*std::next(NF->begin()));
  }

  // Fix-ups on the new bodies.
  for (auto &[F, NF] : FuncPairs) {
    if (NF->isDeclaration())
      continue;
    for (Instruction &I : make_early_inc_range(instructions(*NF))) {
      // Casts that the mapping made trivial (constant -> global).
      if (auto *ASC = dyn_cast<AddrSpaceCastInst>(&I)) {
        if (ASC->getSrcTy() == ASC->getDestTy()) {
          ASC->replaceAllUsesWith(ASC->getOperand(0));
          ASC->eraseFromParent();
        }
        continue;
      }
      // Allocas live in private memory; the rest of the code sees them
      // through generic pointers, as in hetIR.
      if (auto *AI = dyn_cast<AllocaInst>(&I)) {
        if (AI->getAddressSpace() == ASPrivate)
          continue;
        IRBuilder<> B(AI);
        auto *NA = B.CreateAlloca(AI->getAllocatedType(), ASPrivate,
                                  AI->getArraySize());
        NA->takeName(AI);
        NA->setAlignment(AI->getAlign());
        Value *Cast = B.CreateAddrSpaceCast(NA, AI->getType());
        SmallVector<Use *, 8> Uses;
        for (Use &U : AI->uses())
          Uses.push_back(&U);
        for (Use *U : Uses)
          U->set(Cast);
        AI->eraseFromParent();
        continue;
      }
      // Calls to defined functions pass the hidden parameters on.
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        // The call still has the callee's hetIR type (the clone has the
        // hidden parameters more): not getCalledFunction().
        auto *Callee = dyn_cast<Function>(CB->getCalledOperand());
        if (!Callee) {
          if (!isa<InlineAsm>(CB->getCalledOperand()))
            return failure("function " + kernelOf(*F) +
                           " makes an indirect call: not supported in "
                           "SPIR-V (OpenCL)");
          return failure("function " + kernelOf(*F) +
                         " contains inline assembly");
        }
        if (Callee->isDeclaration())
          continue;
        if (!isa<CallInst>(CB))
          return failure("function " + kernelOf(*F) +
                         " uses invoke: exceptions are not supported");
        SmallVector<Value *, 8> Args(CB->args());
        IRBuilder<> HB(CB);
        Args.push_back(HB.CreateAddrSpaceCast(hiddenDynShared(*NF),
                                              PointerType::get(Ctx, ASGeneric)));
        Args.push_back(hiddenGlobals(*NF));
        IRBuilder<> B(CB);
        CallInst *NC = B.CreateCall(Callee, Args);
        NC->setCallingConv(CallingConv::SPIR_FUNC);
        NC->takeName(CB);
        for (unsigned A = 0; A < CB->arg_size(); ++A)
          if (CB->getParamAttributes(A).hasAttribute(Attribute::ByVal))
            NC->addParamAttr(A, Attribute::getWithByValType(
                                    Ctx, CB->getParamByValType(A)));
        CB->replaceAllUsesWith(NC);
        CB->eraseFromParent();
        continue;
      }
    }
  }

  // Calls to kernels from device code (dynamic parallelism) cannot work.
  for (auto &[F, NF] : FuncPairs)
    if (F->hasFnAttribute(KernelAttr))
      for (User *U : NF->users())
        if (auto *CB = dyn_cast<CallBase>(U))
          return failure("kernel " + kernelOf(*F) + " is called from " +
                         kernelOf(*CB->getFunction()) +
                         ": device-side launches are not supported in SPIR-V");

  // Retire the hetIR functions and globals; the new ones take their names.
  for (auto &[F, NF] : FuncPairs)
    F->dropAllReferences();
  for (Function *F : OldFuncs)
    if (F->isIntrinsic() && VMap.count(F))
      F->dropAllReferences();
  for (auto &[G, NG] : GlobalPairs)
    if (G->hasInitializer())
      G->setInitializer(nullptr);
  for (auto &[F, NF] : FuncPairs) {
    NF->takeName(F);
    if (F->hasFnAttribute(KernelAttr))
      Kernels.push_back(NF);
  }
  for (auto &[G, NG] : GlobalPairs) {
    if (!NG->getName().starts_with("__hetgpu_spirv_placeholder."))
      NG->takeName(G);
  }
  for (auto &[F, NF] : FuncPairs) {
    F->removeDeadConstantUsers();
    F->replaceAllUsesWith(PoisonValue::get(F->getType()));
    F->eraseFromParent();
  }
  for (Function *F : OldFuncs) {
    if (F->isIntrinsic() && VMap.count(F) && VMap[F] != F) {
      F->removeDeadConstantUsers();
      if (F->use_empty())
        F->eraseFromParent();
    }
  }
  for (auto &[G, NG] : GlobalPairs) {
    G->removeDeadConstantUsers();
    G->replaceAllUsesWith(PoisonValue::get(G->getType()));
    G->eraseFromParent();
  }
  return Error::success();
}

Error SPIRVLowering::placeBlockVars() {
  for (BlockVar &BV : BlockVars) {
    GlobalVariable *PG = BV.Placeholder;
    convertUsersOfConstantsToInstructions({PG});
    DenseMap<Function *, Value *> Addr;
    SmallVector<Use *, 16> Uses;
    for (Use &U : PG->uses())
      Uses.push_back(&U);
    for (Use *U : Uses) {
      auto *I = dyn_cast<Instruction>(U->getUser());
      if (!I)
        return failure("the initializer of a variable takes the address of '" +
                       BV.Name +
                       "': device-variable addresses in initializers are "
                       "not supported by the SPIR-V target");
      Function *F = I->getFunction();
      Value *&A = Addr[F];
      if (!A) {
        IRBuilder<> B(&*F->getEntryBlock().getFirstInsertionPt());
        A = B.CreateInBoundsGEP(I8, hiddenGlobals(*F), B.getInt64(BV.Offset),
                                BV.Name);
      }
      U->set(A);
    }
    for (BlockVar &Other : BlockVars)
      if (Other.Init)
        for (const Use &U : Other.Init->operands())
          if (U.get() == PG)
            return failure("the initializer of '" + Other.Name +
                           "' takes the address of '" + BV.Name +
                           "': not supported by the SPIR-V target");
  }
  for (BlockVar &BV : BlockVars) {
    BV.Placeholder->removeDeadConstantUsers();
    if (BV.Placeholder->use_empty())
      BV.Placeholder->eraseFromParent();
    BV.Placeholder = nullptr;
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Step 4: builtins
//===----------------------------------------------------------------------===//

FunctionCallee SPIRVLowering::oclFunc(StringRef Name, Type *Ret,
                                      ArrayRef<Type *> Params, bool Convergent,
                                      bool ReadNone) {
  FunctionCallee FC =
      M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
  if (auto *F = dyn_cast<Function>(FC.getCallee())) {
    F->setCallingConv(CallingConv::SPIR_FUNC);
    F->addFnAttr(Attribute::NoUnwind);
    if (Convergent)
      F->addFnAttr(Attribute::Convergent);
    if (ReadNone)
      F->setDoesNotAccessMemory();
  }
  return FC;
}

Value *SPIRVLowering::workItemQuery(IRBuilder<> &B, StringRef Mangled,
                                    unsigned Dim) {
  FunctionCallee FC = oclFunc(Mangled, I64, {I32}, false, true);
  CallInst *C = B.CreateCall(FC, {B.getInt32(Dim)});
  C->setCallingConv(CallingConv::SPIR_FUNC);
  return B.CreateTrunc(C, I32);
}

Value *SPIRVLowering::linearLocalId(IRBuilder<> &B) {
  Value *X = workItemQuery(B, "_Z12get_local_idj", 0);
  Value *Y = workItemQuery(B, "_Z12get_local_idj", 1);
  Value *Z = workItemQuery(B, "_Z12get_local_idj", 2);
  Value *NX = workItemQuery(B, "_Z14get_local_sizej", 0);
  Value *NY = workItemQuery(B, "_Z14get_local_sizej", 1);
  return B.CreateAdd(X, B.CreateMul(NX, B.CreateAdd(Y, B.CreateMul(NY, Z))),
                     "hetgpu.linear.tid");
}

Value *SPIRVLowering::blockSize(IRBuilder<> &B) {
  Value *NX = workItemQuery(B, "_Z14get_local_sizej", 0);
  Value *NY = workItemQuery(B, "_Z14get_local_sizej", 1);
  Value *NZ = workItemQuery(B, "_Z14get_local_sizej", 2);
  return B.CreateMul(NX, B.CreateMul(NY, NZ), "hetgpu.block.size");
}

void SPIRVLowering::emitBarrier(IRBuilder<> &B, unsigned Flags) {
  FunctionCallee FC = oclFunc("_Z7barrierj", B.getVoidTy(), {I32}, true);
  B.CreateCall(FC, {B.getInt32(Flags)})->setCallingConv(CallingConv::SPIR_FUNC);
}

GlobalVariable *SPIRVLowering::localScratch(StringRef Name, Type *Ty) {
  if (GlobalVariable *G = M.getNamedGlobal(Name))
    return G;
  auto *G = new GlobalVariable(M, Ty, false, GlobalValue::InternalLinkage,
                               PoisonValue::get(Ty), Name, nullptr,
                               GlobalValue::NotThreadLocal, ASLocal);
  G->setAlignment(Align(8));
  return G;
}

void SPIRVLowering::emitStatusFailure(IRBuilder<> &B, Function &F,
                                      uint32_t Code) {
  Value *Status = B.CreateInBoundsGEP(I8, hiddenGlobals(F),
                                      B.getInt64(spirv_abi::StatusOffset));
  B.CreateAtomicCmpXchg(Status, B.getInt32(0), B.getInt32(Code), Align(4),
                        AtomicOrdering::Monotonic, AtomicOrdering::Monotonic);
}

/// CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE
constexpr unsigned CLKLocal = 1, CLKGlobal = 2;

/// OpenCL C mangling of a math function over float or double.
std::string mangleMath(StringRef Name, bool IsFloat, unsigned Arity) {
  std::string S = ("_Z" + Twine(Name.size()) + Name).str();
  for (unsigned I = 0; I < Arity; ++I)
    S += IsFloat ? "f" : "d";
  return S;
}

/// Argument indices of the %s conversions of \p Fmt (C printf syntax, `*`
/// widths and precisions consume arguments).
SmallVector<unsigned, 2> stringArguments(StringRef Fmt) {
  SmallVector<unsigned, 2> Out;
  unsigned Arg = 0;
  for (size_t I = 0; I < Fmt.size(); ++I) {
    if (Fmt[I] != '%')
      continue;
    if (++I < Fmt.size() && Fmt[I] == '%')
      continue;
    while (I < Fmt.size() && StringRef("-+ #0'").contains(Fmt[I]))
      ++I;
    for (int Part = 0; Part < 2; ++Part) {
      if (I < Fmt.size() && Fmt[I] == '*') {
        ++Arg;
        ++I;
      }
      while (I < Fmt.size() && isDigit(Fmt[I]))
        ++I;
      if (Part == 0 && I < Fmt.size() && Fmt[I] == '.')
        ++I;
      else
        break;
    }
    while (I < Fmt.size() && StringRef("hlLqjzt").contains(Fmt[I]))
      ++I;
    if (I < Fmt.size()) {
      if (Fmt[I] == 's')
        Out.push_back(Arg);
      ++Arg;
    }
  }
  return Out;
}

Expected<Value *> SPIRVLowering::emitPrintf(Instruction *Before, Function &F,
                                            StringRef Format, Value *Args,
                                            Type *ArgsTy, bool ToStderr) {
  const DataLayout &DL = M.getDataLayout();
  PrintfFormat PF;
  PF.Text = Format.str();
  PF.Stderr = ToStderr;
  PF.ArgsSize = ArgsTy ? DL.getTypeAllocSize(ArgsTy) : 0;
  unsigned NumArgs = 0;
  auto *ST = dyn_cast_or_null<StructType>(ArgsTy);
  if (ST)
    NumArgs = ST->getNumElements();
  else if (ArgsTy)
    NumArgs = 1;
  for (unsigned K : stringArguments(Format)) {
    if (K >= NumArgs)
      break;
    Type *ET = ST ? ST->getElementType(K) : ArgsTy;
    if (!ET->isPointerTy())
      continue;
    PF.StringOffsets.push_back(
        ST ? DL.getStructLayout(ST)->getElementOffset(K).getFixedValue() : 0);
  }
  uint32_t Id = Formats.size();
  uint64_t RecSize =
      alignTo(spirv_abi::PrintfRecordHeader + PF.ArgsSize +
                  spirv_abi::StringSlot * PF.StringOffsets.size(),
              8);
  Formats.push_back(PF);

  IRBuilder<> B(Before);
  auto *GPtr = PointerType::get(Ctx, ASGlobal);
  Value *BufAddr = B.CreateLoad(
      I64, B.CreateInBoundsGEP(I8, hiddenGlobals(F),
                               B.getInt64(spirv_abi::PrintfBufferOffset)),
      "printf.buffer");
  Value *Has = B.CreateICmpNE(BufAddr, B.getInt64(0));
  Value *Result =
      B.CreateSelect(Has, B.getInt32(NumArgs), B.getInt32(-1), "printf.result");
  Instruction *T1 = SplitBlockAndInsertIfThen(Has, Before, false);
  B.SetInsertPoint(T1);
  Value *Buf = B.CreateIntToPtr(BufAddr, GPtr);
  Value *Off = B.CreateAtomicRMW(AtomicRMWInst::Add, Buf, B.getInt64(RecSize),
                                 Align(8), AtomicOrdering::Monotonic);
  Value *Cap = B.CreateLoad(I64, B.CreateInBoundsGEP(I8, Buf, B.getInt64(8)));
  Value *Fits =
      B.CreateICmpULE(B.CreateAdd(Off, B.getInt64(RecSize)), Cap, "fits");
  Instruction *T2 = SplitBlockAndInsertIfThen(Fits, T1, false);
  B.SetInsertPoint(T2);
  Value *Rec = B.CreateInBoundsGEP(
      I8, Buf, B.CreateAdd(Off, B.getInt64(spirv_abi::PrintfHeaderSize)),
      "printf.record");
  B.CreateStore(B.getInt32(Id), Rec);
  B.CreateStore(B.getInt32(RecSize),
                B.CreateInBoundsGEP(I8, Rec, B.getInt64(4)));
  Value *ArgDst =
      B.CreateInBoundsGEP(I8, Rec, B.getInt64(spirv_abi::PrintfRecordHeader));
  if (PF.ArgsSize)
    B.CreateMemCpy(ArgDst, Align(1), Args, Align(1), PF.ArgsSize);
  for (size_t K = 0; K < PF.StringOffsets.size(); ++K) {
    B.SetInsertPoint(T2);
    Value *Src = B.CreateLoad(
        PointerType::get(Ctx, ASGeneric),
        B.CreateInBoundsGEP(I8, Args, B.getInt64(PF.StringOffsets[K])));
    Value *Dst = B.CreateInBoundsGEP(
        I8, ArgDst,
        B.getInt64(PF.ArgsSize + spirv_abi::StringSlot * K));
    B.CreateStore(B.getInt8(0), Dst);
    Instruction *T3 = SplitBlockAndInsertIfThen(
        B.CreateIsNotNull(Src), T2, false);
    BasicBlock *Pre = T3->getParent();
    BasicBlock *Exit = SplitBlock(Pre, T3);
    BasicBlock *Loop = BasicBlock::Create(Ctx, "printf.strcpy", &F, Exit);
    Pre->getTerminator()->setSuccessor(0, Loop);
    IRBuilder<> LB(Loop);
    PHINode *I = LB.CreatePHI(I64, 2);
    I->addIncoming(LB.getInt64(0), Pre);
    Value *C = LB.CreateLoad(I8, LB.CreateInBoundsGEP(I8, Src, I));
    LB.CreateStore(C, LB.CreateInBoundsGEP(I8, Dst, I));
    Value *Next = LB.CreateAdd(I, LB.getInt64(1));
    I->addIncoming(Next, Loop);
    Value *More = LB.CreateAnd(
        LB.CreateICmpNE(C, LB.getInt8(0)),
        LB.CreateICmpULT(Next, LB.getInt64(spirv_abi::StringSlot - 1)));
    LB.CreateCondBr(More, Loop, Exit);
    IRBuilder<> XB(T3);
    XB.CreateStore(XB.getInt8(0),
                   XB.CreateInBoundsGEP(
                       I8, Dst, XB.getInt64(spirv_abi::StringSlot - 1)));
  }
  return Result;
}

Value *SPIRVLowering::emitNextAfter(IRBuilder<> &B, Value *X, Value *Y) {
  Type *FT = X->getType();
  auto *IT = IntegerType::get(Ctx, FT->getPrimitiveSizeInBits());
  Value *XI = B.CreateBitCast(X, IT);
  Value *YI = B.CreateBitCast(Y, IT);
  Value *AnyNaN = B.CreateFCmpUNO(X, Y);
  Value *Equal = B.CreateFCmpOEQ(X, Y);
  Value *XZero = B.CreateFCmpOEQ(X, ConstantFP::get(FT, 0.0));
  // Smallest subnormal with y's sign.
  Value *SignMask = ConstantInt::get(IT, APInt::getSignMask(IT->getBitWidth()));
  Value *Tiny = B.CreateOr(B.CreateAnd(YI, SignMask), ConstantInt::get(IT, 1));
  // Away from zero when x and the direction agree, else toward zero.
  Value *Up = B.CreateFCmpOLT(X, Y);
  Value *XPos = B.CreateICmpSGE(XI, ConstantInt::get(IT, 0));
  Value *Grow = B.CreateICmpEQ(Up, XPos);
  Value *Step = B.CreateSelect(Grow, ConstantInt::get(IT, 1),
                               ConstantInt::getAllOnesValue(IT));
  Value *Next = B.CreateAdd(XI, Step);
  Value *R = B.CreateSelect(XZero, Tiny, Next);
  Value *RF = B.CreateBitCast(R, FT);
  RF = B.CreateSelect(Equal, Y, RF);
  return B.CreateSelect(AnyNaN, B.CreateFAdd(X, Y), RF, "nextafter");
}

void SPIRVLowering::lowerFences() {
  if (!Opts.FenceAsAtomic)
    return;
  SmallVector<FenceInst *, 8> Fences;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *FI = dyn_cast<FenceInst>(&I))
        Fences.push_back(FI);
  for (FenceInst *FI : Fences) {
    Function &F = *FI->getFunction();
    IRBuilder<> B(FI);
    Value *Word;
    if (FI->getSyncScopeID() == Ctx.getOrInsertSyncScopeID("workgroup"))
      Word = localScratch("__hetgpu_spirv_fence_word", I32);
    else
      Word = B.CreateInBoundsGEP(I8, hiddenGlobals(F),
                                 B.getInt64(spirv_abi::FenceWordOffset));
    B.CreateAtomicRMW(AtomicRMWInst::Or, Word, B.getInt32(0), Align(4),
                      AtomicOrdering::SequentiallyConsistent,
                      FI->getSyncScopeID());
    FI->eraseFromParent();
  }
}

Error SPIRVLowering::lowerBuiltins() {
  SmallVector<CallInst *, 32> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (Function *Callee = CI->getCalledFunction())
          if (Callee->getName().starts_with(BuiltinPrefix))
            Calls.push_back(CI);

  for (CallInst *CI : Calls) {
    Function *Callee = CI->getCalledFunction();
    Function &F = *CI->getFunction();
    StringRef Name = Callee->getName();
    std::optional<BuiltinInfo> BI = lookupBuiltin(Name);
    if (!BI)
      return failure("function " + kernelOf(F) + " calls '" + Name +
                     "', which is not a hetIR builtin");
    IRBuilder<> B(CI);
    Value *R = nullptr;
    bool Handled = true;
    auto Unsupported = [&](StringRef What) {
      return failure("kernel " + kernelOf(F) + ": " + What + " ('" + Name +
                     "') is not supported by the SPIR-V target");
    };
    switch (BI->ID) {
    case BuiltinID::tid_x:
    case BuiltinID::tid_y:
    case BuiltinID::tid_z:
      R = workItemQuery(B, "_Z12get_local_idj",
                        unsigned(BI->ID) - unsigned(BuiltinID::tid_x));
      break;
    case BuiltinID::ntid_x:
    case BuiltinID::ntid_y:
    case BuiltinID::ntid_z:
      R = workItemQuery(B, "_Z14get_local_sizej",
                        unsigned(BI->ID) - unsigned(BuiltinID::ntid_x));
      break;
    case BuiltinID::ctaid_x:
    case BuiltinID::ctaid_y:
    case BuiltinID::ctaid_z:
      R = workItemQuery(B, "_Z12get_group_idj",
                        unsigned(BI->ID) - unsigned(BuiltinID::ctaid_x));
      break;
    case BuiltinID::nctaid_x:
    case BuiltinID::nctaid_y:
    case BuiltinID::nctaid_z:
      R = workItemQuery(B, "_Z14get_num_groupsj",
                        unsigned(BI->ID) - unsigned(BuiltinID::nctaid_x));
      break;
    case BuiltinID::lane_id:
      R = B.CreateAnd(linearLocalId(B), B.getInt32(31), "hetgpu.lane");
      break;
    case BuiltinID::barrier:
      emitBarrier(B, CLKLocal | CLKGlobal);
      break;
    case BuiltinID::barrier_count:
    case BuiltinID::barrier_and:
    case BuiltinID::barrier_or: {
      // A counter in local memory that only grows: every work-item reads
      // it, a barrier, the work-items that count change it, a barrier, the
      // difference is the answer. Nothing resets the counter, so two
      // barriers suffice: no work-item writes before all have read (the
      // first barrier), and a fast work-item's next read sees every write
      // of this reduction (the second). (A reset took four barriers and a
      // branch; PoCL runs a work-item loop per region between barriers, so
      // the loop safe point of a stencil loop cost 1.23x with it.)
      // barrier_or/and only ask whether any work-item counts: those store
      // the counter's old value + 1, all the same value, and nobody else
      // writes, so no atomic is needed. An atomic add per work-item made a
      // stencil's safe point (barrier_or of the yield flag) cost 1.17x on
      // PoCL, the stores 1.03x (500 iterations of a loop with barriers).
      GlobalVariable *Ctr = localScratch("__hetgpu_spirv_barrier_counter", I32);
      Value *Before = B.CreateLoad(I32, Ctr, /*isVolatile=*/true);
      emitBarrier(B, CLKLocal | CLKGlobal);
      Value *Pred = B.CreateICmpNE(CI->getArgOperand(0), B.getInt32(0));
      if (BI->ID == BuiltinID::barrier_count) {
        B.CreateAtomicRMW(AtomicRMWInst::Add, Ctr, B.CreateZExt(Pred, I32),
                          Align(4), AtomicOrdering::Monotonic);
      } else {
        Value *Counts =
            BI->ID == BuiltinID::barrier_or ? Pred : B.CreateNot(Pred);
        Instruction *Then = SplitBlockAndInsertIfThen(Counts, CI->getIterator(),
                                                      /*Unreachable=*/false);
        IRBuilder<> TB(Then);
        TB.CreateStore(TB.CreateAdd(Before, TB.getInt32(1)), Ctr,
                       /*isVolatile=*/true);
        B.SetInsertPoint(CI);
      }
      emitBarrier(B, CLKLocal);
      Value *Count =
          B.CreateSub(B.CreateLoad(I32, Ctr, /*isVolatile=*/true), Before,
                      "hetgpu.barrier.count");
      if (BI->ID == BuiltinID::barrier_count)
        R = Count;
      else if (BI->ID == BuiltinID::barrier_or)
        R = B.CreateZExt(B.CreateICmpNE(Count, B.getInt32(0)), I32);
      else
        R = B.CreateZExt(B.CreateICmpEQ(Count, B.getInt32(0)), I32);
      break;
    }
    case BuiltinID::fence_block:
      B.CreateFence(AtomicOrdering::SequentiallyConsistent,
                    Ctx.getOrInsertSyncScopeID("workgroup"));
      break;
    case BuiltinID::fence_device:
      B.CreateFence(AtomicOrdering::SequentiallyConsistent,
                    Ctx.getOrInsertSyncScopeID("device"));
      break;
    case BuiltinID::fence_system:
      B.CreateFence(AtomicOrdering::SequentiallyConsistent);
      break;
    case BuiltinID::dynamic_shared:
      R = hiddenDynShared(F);
      if (R->getType() != CI->getType())
        R = B.CreateAddrSpaceCast(R, CI->getType());
      break;
    case BuiltinID::assert_fail:
    case BuiltinID::trap: {
      if (BI->ID == BuiltinID::assert_fail) {
        // CUDA's message, printed through the printf buffer.
        Type *GenPtr = PointerType::get(Ctx, ASGeneric);
        StructType *ST = StructType::get(
            Ctx, {GenPtr, I32, GenPtr, I32, I32, I32, I32, I32, I32, GenPtr});
        IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
        AllocaInst *AI = EB.CreateAlloca(ST, ASPrivate, nullptr, "assert.args");
        Value *Vals[] = {CI->getArgOperand(1),
                         CI->getArgOperand(2),
                         CI->getArgOperand(3),
                         workItemQuery(B, "_Z12get_group_idj", 0),
                         workItemQuery(B, "_Z12get_group_idj", 1),
                         workItemQuery(B, "_Z12get_group_idj", 2),
                         workItemQuery(B, "_Z12get_local_idj", 0),
                         workItemQuery(B, "_Z12get_local_idj", 1),
                         workItemQuery(B, "_Z12get_local_idj", 2),
                         CI->getArgOperand(0)};
        for (unsigned I = 0; I < 10; ++I)
          B.CreateStore(Vals[I], B.CreateStructGEP(ST, AI, I));
        Expected<Value *> P = emitPrintf(
            CI, F,
            "%s:%d: %s: block: [%d,%d,%d], thread: [%d,%d,%d] Assertion `%s` "
            "failed.\n",
            B.CreateAddrSpaceCast(AI, GenPtr), ST, /*ToStderr=*/true);
        if (!P)
          return P.takeError();
        B.SetInsertPoint(CI);
      }
      // Record the failure for the runtime, then leave this work-item.
      emitStatusFailure(B, F,
                        BI->ID == BuiltinID::trap ? spirv_abi::StatusTrap
                                                  : spirv_abi::StatusAssert);
      Instruction *Next = CI->getNextNode();
      BasicBlock *BB = CI->getParent();
      if (Next && isa<UnreachableInst>(Next)) {
        Next->eraseFromParent();
      } else {
        // Split so the rest of the block becomes dead.
        SplitBlock(BB, Next);
        BB->getTerminator()->eraseFromParent();
      }
      IRBuilder<> RB(BB);
      if (F.getReturnType()->isVoidTy())
        RB.CreateRetVoid();
      else if (F.hasFnAttribute(WarpThreadAttr))
        RB.CreateRet(ConstantInt::get(F.getReturnType(),
                                      HETGPU_SYNC_EXIT)); // the lane exits
      else
        RB.CreateRet(PoisonValue::get(F.getReturnType()));
      CI->eraseFromParent();
      continue;
    }
    case BuiltinID::malloc: {
      // Bump allocation in the runtime's heap (ABI/SPIRVKernel.h).
      UsesHeap = true;
      auto At = [&](uint64_t Off) {
        return B.CreateInBoundsGEP(I8, hiddenGlobals(F), B.getInt64(Off));
      };
      Value *Size = B.CreateAnd(
          B.CreateAdd(CI->getArgOperand(0), B.getInt64(15)), B.getInt64(~15ull));
      Value *Base = B.CreateLoad(I64, At(spirv_abi::HeapBaseOffset));
      Value *Cap = B.CreateLoad(I64, At(spirv_abi::HeapSizeOffset));
      Value *Off = B.CreateAtomicRMW(AtomicRMWInst::Add,
                                     At(spirv_abi::HeapNextOffset), Size,
                                     Align(8), AtomicOrdering::Monotonic);
      Value *Ok = B.CreateAnd(
          B.CreateICmpNE(Base, B.getInt64(0)),
          B.CreateICmpULE(B.CreateAdd(Off, Size), Cap));
      Value *Addr = B.CreateSelect(Ok, B.CreateAdd(Base, Off), B.getInt64(0));
      R = B.CreateIntToPtr(Addr, PointerType::get(Ctx, ASGeneric));
      break;
    }
    case BuiltinID::free:
      // The bump heap does not reclaim (documented in ABI/SPIRVKernel.h).
      break;
    case BuiltinID::clock:
    case BuiltinID::clock64: {
      Value *C = B.CreateAtomicRMW(
          AtomicRMWInst::Add,
          B.CreateInBoundsGEP(I8, hiddenGlobals(F),
                              B.getInt64(spirv_abi::ClockOffset)),
          B.getInt64(1), Align(8), AtomicOrdering::Monotonic);
      R = BI->ID == BuiltinID::clock ? B.CreateTrunc(C, I32) : C;
      break;
    }
    case BuiltinID::globaltimer:
      return Unsupported("reading the global nanosecond timer (OpenCL has no "
                         "device timer)");
    case BuiltinID::printf: {
      auto *FG = dyn_cast<GlobalVariable>(
          CI->getArgOperand(0)->stripPointerCasts());
      auto *Data = FG && FG->hasInitializer()
                       ? dyn_cast<ConstantDataSequential>(FG->getInitializer())
                       : nullptr;
      if (!Data || !Data->isCString())
        return Unsupported("printf with a format that is not a constant "
                           "string");
      Value *Args = CI->getArgOperand(1);
      Type *ArgsTy = nullptr;
      if (!isa<ConstantPointerNull>(Args)) {
        auto *AI = dyn_cast<AllocaInst>(Args->stripPointerCasts());
        if (AI) {
          ArgsTy = AI->getAllocatedType();
        } else if (MDNode *MD = CI->getMetadata(PrintfArgsMD)) {
          // A warp-loop thread function keeps the buffer in its frame.
          ArgsTy = cast<ConstantAsMetadata>(MD->getOperand(0))
                       ->getValue()
                       ->getType();
        } else {
          return Unsupported("printf whose argument buffer is not a local "
                             "variable");
        }
      }
      Expected<Value *> P =
          emitPrintf(CI, F, Data->getAsCString(), Args, ArgsTy);
      if (!P)
        return P.takeError();
      R = *P;
      break;
    }
    default:
      Handled = false;
      break;
    }
    if (!Handled) {
      StringRef Group = BI->Group;
      if (Group == "warp")
        continue; // lowerWarpOps
      if (Group == "math" &&
          (BI->ID == BuiltinID::math_nextafterf ||
           BI->ID == BuiltinID::math_nextafter)) {
        // Exact in integer arithmetic (some OpenCL libraries are not).
        R = emitNextAfter(B, CI->getArgOperand(0), CI->getArgOperand(1));
      } else if (Group == "math") {
        StringRef Fn = Name.drop_front(MathPrefix.size());
        bool IsFloat = Callee->getReturnType()->isFloatTy();
        if (IsFloat)
          Fn = Fn.drop_back(); // sinf -> sin (overloaded in OpenCL C)
        unsigned Arity = CI->arg_size();
        SmallVector<Type *, 2> Ps(Arity, Callee->getReturnType());
        FunctionCallee FC = oclFunc(mangleMath(Fn, IsFloat, Arity),
                                    Callee->getReturnType(), Ps, false, true);
        SmallVector<Value *, 2> Args(CI->args());
        CallInst *NC = B.CreateCall(FC, Args);
        NC->setCallingConv(CallingConv::SPIR_FUNC);
        R = NC;
      } else {
        return Unsupported("builtin");
      }
    }
    if (R) {
      if (!isa<Argument>(R))
        R->takeName(CI);
      CI->replaceAllUsesWith(R);
    }
    CI->eraseFromParent();
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Warp operations
//===----------------------------------------------------------------------===//


Error SPIRVLowering::lowerWarpOps() {
  std::map<Function *, SmallVector<CallInst *, 8>> PerFn;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (isWarpBuiltin(*CI))
          PerFn[&F].push_back(CI);
  if (PerFn.empty())
    return Error::success();

  if (!Opts.SubGroups32) {
    // Emulation is exact only where every thread of the block executes the
    // operation the same number of times: blocks that post-dominate the
    // kernel entry and are in no loop.
    for (auto &[F, Calls] : PerFn) {
      if (F->getCallingConv() != CallingConv::SPIR_KERNEL)
        return failure("function " + kernelOf(*F) + " uses warp operation '" +
                       Calls.front()->getCalledFunction()->getName() +
                       "' and could not be inlined into its kernel; warp "
                       "operations on a " +
                       Opts.DeviceDesc + " are emulated only in kernels");
      DominatorTree DT(*F);
      PostDominatorTree PDT(*F);
      LoopInfo LI(DT);
      std::string Why;
      for (CallInst *CI : Calls) {
        BasicBlock *BB = CI->getParent();
        if (!PDT.dominates(BB, &F->getEntryBlock()) || LI.getLoopFor(BB)) {
          Why = "kernel " + kernelOf(*F) + ": warp operation '" +
                CI->getCalledFunction()->getName().str() +
                "' is in code that not every thread of the block reaches the "
                "same number of times; a " +
                Opts.DeviceDesc +
                " can only emulate warp operations in block-convergent code";
          break;
        }
      }
      if (!Why.empty()) {
        if (!Opts.DeferUnsupported)
          return failure(Why);
        // Leave this kernel out; launching it reports Why (module table).
        Unsupported.push_back({F->getName().str(), Why});
        Dropped.insert(F);
        continue;
      }
      WarpEmulated.insert(F);
    }
  }

  for (Function *F : Dropped) {
    PerFn.erase(F);
    llvm::erase(Kernels, F);
    F->replaceAllUsesWith(PoisonValue::get(F->getType()));
    F->eraseFromParent();
  }
  Type *ScratchTy = ArrayType::get(I32, 1024);
  for (auto &[F, Calls] : PerFn) {
    if (Opts.SubGroups32)
      F->setMetadata("intel_reqd_sub_group_size",
                     MDNode::get(Ctx, ConstantAsMetadata::get(
                                          ConstantInt::get(I32, 32))));
    for (CallInst *CI : Calls) {
      BuiltinID ID = getCalledBuiltin(*CI)->ID;
      IRBuilder<> B(CI);
      Value *Lin = linearLocalId(B);
      Value *Lane = B.CreateAnd(Lin, B.getInt32(31), "lane");
      Value *Base = B.CreateAnd(Lin, B.getInt32(~31u), "warp.base");
      // Lanes of this warp that exist (a partial last warp has fewer).
      Value *NLanes = B.CreateBinaryIntrinsic(
          Intrinsic::umin, B.CreateSub(blockSize(B), Base), B.getInt32(32));
      Value *Exist = B.CreateSelect(
          B.CreateICmpEQ(NLanes, B.getInt32(32)), B.getInt32(~0u),
          B.CreateSub(B.CreateShl(B.getInt32(1), NLanes), B.getInt32(1)),
          "warp.exist");

      GlobalVariable *Scratch =
          Opts.SubGroups32 ? nullptr
                           : localScratch("__hetgpu_spirv_warp_scratch",
                                          ScratchTy);
      // Publishes V (i32) for the warp; returns a reader of lane L's value.
      auto Publish = [&](Value *V) {
        emitBarrier(B, CLKLocal);
        B.CreateStore(V, B.CreateInBoundsGEP(I32, Scratch, Lin));
        emitBarrier(B, CLKLocal);
      };
      auto ReadLane = [&](Value *L) -> Value * {
        return B.CreateLoad(
            I32, B.CreateInBoundsGEP(I32, Scratch, B.CreateAdd(Base, L)));
      };
      auto SGShuffle = [&](Value *V, Value *L) -> Value * {
        FunctionCallee FC =
            oclFunc("_Z17sub_group_shuffleij", I32, {I32, I32}, true);
        CallInst *C = B.CreateCall(FC, {V, L});
        C->setCallingConv(CallingConv::SPIR_FUNC);
        return C;
      };
      auto SGBallot = [&](Value *P) -> Value * {
        auto *V4 = FixedVectorType::get(I32, 4);
        FunctionCallee FC =
            oclFunc("_Z16sub_group_balloti", V4, {I32}, true);
        CallInst *C = B.CreateCall(FC, {P});
        C->setCallingConv(CallingConv::SPIR_FUNC);
        return B.CreateExtractElement(C, uint64_t(0));
      };
      // Ballot of a 0/1 predicate over the existing lanes.
      auto Ballot = [&](Value *P01) -> Value * {
        if (Opts.SubGroups32)
          return SGBallot(P01);
        Publish(P01);
        Value *Acc = B.getInt32(0);
        for (unsigned L = 0; L < 32; ++L) {
          Value *Bit = B.CreateAnd(ReadLane(B.getInt32(L)), B.getInt32(1));
          Acc = B.CreateOr(Acc, B.CreateShl(Bit, B.getInt32(L)));
        }
        return B.CreateAnd(Acc, Exist);
      };

      Value *R = nullptr;
      switch (ID) {
      case BuiltinID::syncwarp:
        if (Opts.SubGroups32) {
          FunctionCallee FC =
              oclFunc("_Z17sub_group_barrierj", B.getVoidTy(), {I32}, true);
          B.CreateCall(FC, {B.getInt32(CLKLocal | CLKGlobal)})
              ->setCallingConv(CallingConv::SPIR_FUNC);
        } else {
          emitBarrier(B, CLKLocal | CLKGlobal);
        }
        break;
      case BuiltinID::activemask:
        R = Opts.SubGroups32 ? SGBallot(B.getInt32(1)) : Exist;
        break;
      case BuiltinID::vote_ballot:
      case BuiltinID::vote_any:
      case BuiltinID::vote_all: {
        Value *Mask = CI->getArgOperand(0);
        Value *P = B.CreateZExt(
            B.CreateICmpNE(CI->getArgOperand(1), B.getInt32(0)), I32);
        Value *Bal = B.CreateAnd(Ballot(P), Mask);
        if (ID == BuiltinID::vote_ballot)
          R = Bal;
        else if (ID == BuiltinID::vote_any)
          R = B.CreateZExt(B.CreateICmpNE(Bal, B.getInt32(0)), I32);
        else
          R = B.CreateZExt(
              B.CreateICmpEQ(Bal, B.CreateAnd(B.CreateAnd(Mask, Exist),
                                              Opts.SubGroups32
                                                  ? SGBallot(B.getInt32(1))
                                                  : Exist)),
              I32);
        break;
      }
      case BuiltinID::match_any_i32: {
        Value *V = CI->getArgOperand(1);
        Value *Acc = B.getInt32(0);
        if (!Opts.SubGroups32)
          Publish(V);
        for (unsigned L = 0; L < 32; ++L) {
          Value *Other = Opts.SubGroups32 ? SGShuffle(V, B.getInt32(L))
                                          : ReadLane(B.getInt32(L));
          Value *Eq = B.CreateZExt(B.CreateICmpEQ(Other, V), I32);
          Acc = B.CreateOr(Acc, B.CreateShl(Eq, B.getInt32(L)));
        }
        R = B.CreateAnd(B.CreateAnd(Acc, Exist), CI->getArgOperand(0));
        break;
      }
      case BuiltinID::shfl_idx_i32:
      case BuiltinID::shfl_up_i32:
      case BuiltinID::shfl_down_i32:
      case BuiltinID::shfl_xor_i32: {
        // CUDA semantics with a segment width W (power of two, <= 32):
        // lanes are grouped in segments of W; a source outside the
        // caller's segment yields the caller's own value.
        Value *V = CI->getArgOperand(1);
        Value *Arg = CI->getArgOperand(2);
        Value *W = CI->getArgOperand(3);
        Value *SegStart =
            B.CreateAnd(Lane, B.CreateNeg(W), "seg.start"); // lane & ~(W-1)
        Value *Src = nullptr, *Own = B.getFalse();
        switch (ID) {
        case BuiltinID::shfl_idx_i32:
          Src = B.CreateAdd(SegStart,
                            B.CreateAnd(Arg, B.CreateSub(W, B.getInt32(1))));
          break;
        case BuiltinID::shfl_up_i32:
          Src = B.CreateSub(Lane, Arg);
          Own = B.CreateICmpSLT(Src, SegStart);
          break;
        case BuiltinID::shfl_down_i32:
          Src = B.CreateAdd(Lane, Arg);
          Own = B.CreateICmpSGE(Src, B.CreateAdd(SegStart, W));
          break;
        default:
          Src = B.CreateXor(Lane, Arg);
          Own = B.CreateICmpSGE(Src, B.CreateAdd(SegStart, W));
          break;
        }
        Src = B.CreateSelect(Own, Lane, B.CreateAnd(Src, B.getInt32(31)));
        Value *Got;
        if (Opts.SubGroups32) {
          Got = SGShuffle(V, Src);
        } else {
          Publish(V);
          Got = ReadLane(Src);
        }
        R = B.CreateSelect(Own, V, Got);
        break;
      }
      default:
        return failure("kernel " + kernelOf(*F) + ": warp builtin '" +
                       CI->getCalledFunction()->getName() +
                       "' is not handled by the SPIR-V target");
      }
      if (R) {
        R->takeName(CI);
        CI->replaceAllUsesWith(R);
      }
      CI->eraseFromParent();
    }
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Step 5: atomics
//===----------------------------------------------------------------------===//

Error SPIRVLowering::expandAtomics() {
  SmallVector<AtomicRMWInst *, 8> Work;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
        Type *T = RMW->getValOperand()->getType();
        bool Native = T->isIntegerTy(32) || T->isIntegerTy(64);
        switch (RMW->getOperation()) {
        case AtomicRMWInst::UIncWrap:
        case AtomicRMWInst::UDecWrap:
        case AtomicRMWInst::USubCond:
        case AtomicRMWInst::USubSat:
        case AtomicRMWInst::Nand:
          Native = false;
          break;
        default:
          break;
        }
        if (!Native)
          Work.push_back(RMW);
      }
  const DataLayout &DL = M.getDataLayout();
  for (AtomicRMWInst *RMW : Work) {
    Type *T = RMW->getValOperand()->getType();
    unsigned Bits = DL.getTypeSizeInBits(T);
    if (Bits != 32 && Bits != 64)
      return failure("function " + kernelOf(*RMW->getFunction()) +
                     ": a " + Twine(Bits) +
                     "-bit atomic read-modify-write is not supported by the "
                     "SPIR-V target (32 and 64 bits are)");
    IntegerType *IT = IntegerType::get(Ctx, Bits);
    Value *Ptr = RMW->getPointerOperand();
    BasicBlock *Before = RMW->getParent();
    BasicBlock *After = SplitBlock(Before, RMW);
    BasicBlock *Loop = BasicBlock::Create(Ctx, "atomic.cas", RMW->getFunction(),
                                          After);
    Before->getTerminator()->setSuccessor(0, Loop);
    IRBuilder<> B(Before->getTerminator());
    Value *Init = B.CreateLoad(IT, Ptr, "atomic.init");
    B.SetInsertPoint(Loop);
    PHINode *Cur = B.CreatePHI(IT, 2, "atomic.cur");
    Cur->addIncoming(Init, Before);
    Value *CurV = T == IT ? (Value *)Cur
                          : (T->isPointerTy() ? B.CreateIntToPtr(Cur, T)
                                              : B.CreateBitCast(Cur, T));
    Value *NewV = buildAtomicRMWValue(RMW->getOperation(), B, CurV,
                                      RMW->getValOperand());
    Value *NewI = T == IT ? NewV
                          : (T->isPointerTy() ? B.CreatePtrToInt(NewV, IT)
                                              : B.CreateBitCast(NewV, IT));
    AtomicOrdering Ord = RMW->getOrdering();
    auto *CX = B.CreateAtomicCmpXchg(
        Ptr, Cur, NewI, RMW->getAlign(), Ord,
        AtomicCmpXchgInst::getStrongestFailureOrdering(Ord),
        RMW->getSyncScopeID());
    Value *Seen = B.CreateExtractValue(CX, 0);
    Value *Ok = B.CreateExtractValue(CX, 1);
    Cur->addIncoming(Seen, Loop);
    B.CreateCondBr(Ok, After, Loop);
    RMW->replaceAllUsesWith(CurV);
    RMW->eraseFromParent();
  }
  return Error::success();
}

/// `llvm.frexp` in integer arithmetic (exact; LLVM 22's SPIR-V backend
/// crashes selecting it with a constant operand): { mantissa in [0.5, 1)
/// with x's sign, exponent }; zero, infinities and NaN give (x, 0).
Value *SPIRVLowering::emitFrexp(IRBuilder<> &B, Value *X, Type *ResTy) {
  Type *FT = X->getType();
  Type *ET = cast<StructType>(ResTy)->getElementType(1);
  bool IsDouble = FT->isDoubleTy();
  unsigned Bits = IsDouble ? 64 : 32, Mant = IsDouble ? 52 : 23;
  uint64_t Bias = IsDouble ? 1022 : 126, ExpMask = IsDouble ? 0x7ff : 0xff;
  auto *IT = IntegerType::get(Ctx, Bits);
  // Subnormals are scaled into the normal range first.
  Value *Abs = B.CreateUnaryIntrinsic(Intrinsic::fabs, X);
  Value *Tiny = B.CreateFCmpOLT(
      Abs, ConstantFP::get(FT, IsDouble ? 0x1p-1022 : 0x1p-126));
  Value *Scaled = B.CreateSelect(
      Tiny, B.CreateFMul(X, ConstantFP::get(FT, IsDouble ? 0x1p54 : 0x1p25)),
      X);
  Value *Adjust =
      B.CreateSelect(Tiny, B.getInt32(IsDouble ? 54 : 25), B.getInt32(0));
  Value *I = B.CreateBitCast(Scaled, IT);
  Value *E = B.CreateTrunc(
      B.CreateAnd(B.CreateLShr(I, Mant), ConstantInt::get(IT, ExpMask)), I32);
  Value *Exp = B.CreateSub(B.CreateSub(E, B.getInt32(Bias)), Adjust);
  Value *MBits = B.CreateOr(
      B.CreateAnd(I, ConstantInt::get(IT, ~(ExpMask << Mant))),
      ConstantInt::get(IT, Bias << Mant));
  Value *M = B.CreateBitCast(MBits, FT);
  // Zero, infinity, NaN: x itself and exponent 0.
  Value *Special = B.CreateOr(
      B.CreateFCmpOEQ(X, ConstantFP::get(FT, 0.0)),
      B.CreateFCmpUEQ(Abs, ConstantFP::getInfinity(FT)));
  Special = B.CreateOr(Special, B.CreateFCmpUNO(X, X));
  M = B.CreateSelect(Special, X, M);
  Exp = B.CreateSelect(Special, B.getInt32(0), Exp);
  Value *R = PoisonValue::get(ResTy);
  R = B.CreateInsertValue(R, M, 0);
  return B.CreateInsertValue(R, B.CreateSExtOrTrunc(Exp, ET), 1);
}

/// Intrinsics LLVM's SPIR-V backend cannot legalise: `llvm.lrint` /
/// `llvm.llrint` / `llvm.lround` / `llvm.llround` to an integer of another
/// width than the operand (CUDA's lrintf, llrintf, lroundf: float to 64
/// bits). They become rint/round (OpenCL.std) and a conversion; out-of-range
/// inputs are undefined in C as in CUDA.
void SPIRVLowering::expandIntrinsics() {
  SmallVector<IntrinsicInst *, 8> Work;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        switch (II->getIntrinsicID()) {
        case Intrinsic::lrint:
        case Intrinsic::llrint:
        case Intrinsic::lround:
        case Intrinsic::llround:
        case Intrinsic::frexp:
          Work.push_back(II);
          break;
        default:
          break;
        }
  for (IntrinsicInst *II : Work) {
    IRBuilder<> B(II);
    Value *X = II->getArgOperand(0);
    if (II->getIntrinsicID() == Intrinsic::frexp) {
      Value *R = emitFrexp(B, X, II->getType());
      R->takeName(II);
      II->replaceAllUsesWith(R);
      II->eraseFromParent();
      continue;
    }
    expandIntegerRounding(*II);
  }
}

//===----------------------------------------------------------------------===//
// Step 6: helper kernels, address space inference
//===----------------------------------------------------------------------===//

void SPIRVLowering::addHelperKernels() {
  auto *GPtr = PointerType::get(Ctx, ASGlobal);

  // The module table.
  std::string Table;
  raw_string_ostream OS(Table);
  OS << "hetgpu-spirv " << spirv_abi::ABIVersion << "\n";
  OS << "block " << alignTo(BlockSize, 16) << " " << BlockAlign << "\n";
  for (const BlockVar &BV : BlockVars)
    OS << "global " << BV.Name << " " << BV.Offset << " " << BV.Size << "\n";
  for (Function *K : Kernels) {
    auto WL = WarpLoopShared.find(K->getName().str());
    if (WL != WarpLoopShared.end())
      OS << "kernel " << K->getName() << " 2 " << WL->second.first << " "
         << WL->second.second << "\n";
    else
      OS << "kernel " << K->getName() << " "
         << (WarpEmulated.count(K) ? 1 : 0) << "\n";
  }
  if (UsesHeap)
    OS << "heap 1\n";
  for (const auto &[Name, Why] : Unsupported)
    OS << "unsupported " << Name << " " << toHex(Why, /*LowerCase=*/true)
       << "\n";
  for (size_t I = 0; I < Formats.size(); ++I) {
    OS << "printf " << I << " " << Formats[I].ArgsSize << " "
       << Formats[I].StringOffsets.size();
    for (uint64_t Off : Formats[I].StringOffsets)
      OS << " " << Off;
    OS << " " << toHex(Formats[I].Text, /*LowerCase=*/true) << "\n";
    if (Formats[I].Stderr)
      OS << "stderr " << I << "\n";
  }

  {
    auto *FT = FunctionType::get(Type::getVoidTy(Ctx), {GPtr, I64}, false);
    Function *F = Function::Create(FT, GlobalValue::ExternalLinkage,
                                   spirv_abi::InfoKernel, &M);
    F->setCallingConv(CallingConv::SPIR_KERNEL);
    // The text lives in byte arrays of at most ChunkBytes elements each: a
    // SPIR-V constant composite has at most 65535 operands without
    // SPV_INTEL_long_composites (modules with hundreds of kernels have
    // tables of that size). It is copied byte by byte, truncated to cap - 8.
    constexpr uint64_t ChunkBytes = 60000;
    uint64_t Len = Table.size();
    BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", F);
    IRBuilder<> B(Entry);
    Value *Out = F->getArg(0), *Cap = F->getArg(1);
    B.CreateStore(B.getInt64(Len), Out);
    Value *Room = B.CreateSub(Cap, B.getInt64(8));
    Value *N = B.CreateSelect(B.CreateICmpULT(Room, B.getInt64(Len)), Room,
                              B.getInt64(Len), "n");
    for (uint64_t First = 0; First < Len; First += ChunkBytes) {
      uint64_t Count = std::min<uint64_t>(ChunkBytes, Len - First);
      Constant *Data = ConstantDataArray::getString(
          Ctx, StringRef(Table).substr(First, Count), false);
      auto *G = new GlobalVariable(
          M, Data->getType(), true, GlobalValue::InternalLinkage, Data,
          First ? "__hetgpu_spirv_table." + Twine(First / ChunkBytes)
                : Twine("__hetgpu_spirv_table"),
          nullptr, GlobalValue::NotThreadLocal, ASConstant);
      BasicBlock *Copy = BasicBlock::Create(Ctx, "copy", F);
      BasicBlock *Next = BasicBlock::Create(Ctx, "next", F);
      Value *Begin = B.getInt64(First);
      BasicBlock *From = B.GetInsertBlock();
      B.CreateCondBr(B.CreateICmpULT(Begin, N), Copy, Next);
      B.SetInsertPoint(Copy);
      PHINode *I = B.CreatePHI(I64, 2);
      I->addIncoming(B.getInt64(0), From);
      Value *C = B.CreateLoad(I8, B.CreateInBoundsGEP(I8, G, I));
      Value *At = B.CreateAdd(I, Begin);
      B.CreateStore(C, B.CreateInBoundsGEP(I8, Out,
                                           B.CreateAdd(At, B.getInt64(8))));
      Value *INext = B.CreateAdd(I, B.getInt64(1));
      I->addIncoming(INext, Copy);
      Value *More = B.CreateAnd(B.CreateICmpULT(INext, B.getInt64(Count)),
                                B.CreateICmpULT(B.CreateAdd(INext, Begin), N));
      B.CreateCondBr(More, Copy, Next);
      B.SetInsertPoint(Next);
    }
    B.CreateRetVoid();
  }
  {
    auto *FT = FunctionType::get(Type::getVoidTy(Ctx), {GPtr}, false);
    Function *F = Function::Create(FT, GlobalValue::ExternalLinkage,
                                   spirv_abi::InitKernel, &M);
    F->setCallingConv(CallingConv::SPIR_KERNEL);
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
    for (const BlockVar &BV : BlockVars) {
      if (!BV.Init)
        continue;
      auto *Img = new GlobalVariable(M, BV.Init->getType(), true,
                                     GlobalValue::InternalLinkage, BV.Init,
                                     BV.Name + ".init", nullptr,
                                     GlobalValue::NotThreadLocal, ASGlobal);
      B.CreateMemCpy(
          B.CreateInBoundsGEP(I8, F->getArg(0), B.getInt64(BV.Offset)),
          Align(1), Img, Align(1), BV.Size);
    }
    B.CreateRetVoid();
  }
}

void SPIRVLowering::inferAddressSpaces() {
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
  FunctionPassManager FPM;
  FPM.addPass(InferAddressSpacesPass(ASGeneric));
  for (Function &F : M)
    if (!F.isDeclaration())
      FPM.run(F, FAM);
  if (!Opts.FlatAtomics)
    return;
  // Generic atomics left (shared memory reached through the block context
  // of warp-loop kernels, say) as global ones: the same address on a flat
  // memory device.
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      unsigned Op;
      if (isa<AtomicRMWInst>(I))
        Op = AtomicRMWInst::getPointerOperandIndex();
      else if (isa<AtomicCmpXchgInst>(I))
        Op = AtomicCmpXchgInst::getPointerOperandIndex();
      else if (auto *LI = dyn_cast<LoadInst>(&I); LI && LI->isAtomic())
        Op = LoadInst::getPointerOperandIndex();
      else if (auto *SI = dyn_cast<StoreInst>(&I); SI && SI->isAtomic())
        Op = StoreInst::getPointerOperandIndex();
      else
        continue;
      Value *P = I.getOperand(Op);
      if (P->getType()->getPointerAddressSpace() != ASGeneric)
        continue;
      IRBuilder<> B(&I);
      I.setOperand(Op, B.CreateAddrSpaceCast(P, PointerType::get(Ctx, ASGlobal)));
    }
}

Error SPIRVLowering::run() {
  if (Error E = checkInput())
    return E;
  StripDebugInfo(M);
  inlineCalls();
  if (Error E = lowerWarpLoopKernels())
    return E;
  if (Error E = cloneWithSPIRVTypes())
    return E;
  if (Error E = placeBlockVars())
    return E;
  if (Error E = lowerWarpOps())
    return E;
  if (Error E = lowerBuiltins())
    return E;
  if (Error E = expandAtomics())
    return E;
  expandIntrinsics();
  lowerFences();
  // Builtin declarations are gone now.
  for (Function &F : make_early_inc_range(M))
    if (F.isDeclaration() && F.getName().starts_with(BuiltinPrefix) &&
        F.use_empty())
      F.eraseFromParent();
  // Format strings live on in the module table only.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (GlobalVariable &G : make_early_inc_range(M.globals())) {
      G.removeDeadConstantUsers();
      if (G.hasLocalLinkage() && G.use_empty()) {
        G.eraseFromParent();
        Changed = true;
      }
    }
  }
  addHelperKernels();
  inferAddressSpaces();

  SmallVector<NamedMDNode *, 4> Drop;
  for (NamedMDNode &N : M.named_metadata())
    if (N.getName().starts_with("hetgpu."))
      Drop.push_back(&N);
  for (NamedMDNode *N : Drop)
    N->eraseFromParent();
  M.setTargetTriple(Triple(Opts.SubGroups32 ? "spirv64v1.3-unknown-unknown"
                                            : "spirv64v1.2-unknown-unknown"));
  M.setDataLayout("e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-"
                  "v256:256-v512:512-v1024:1024-n8:16:32:64-G1");

  std::string Msg;
  raw_string_ostream OS(Msg);
  if (verifyModule(M, &OS))
    return failure("internal error: the lowered SPIR-V module is invalid: " +
                   OS.str());
  return Error::success();
}

} // namespace

bool isLoweredForSPIRV(const Module &M) {
  return M.getTargetTriple().isSPIRV();
}

Error lowerModuleToSPIRV(Module &M, const SPIRVLoweringOptions &Opts) {
  if (isLoweredForSPIRV(M))
    return Error::success();
  return SPIRVLowering(M, Opts).run();
}

LowerToSPIRVPass::LowerToSPIRVPass() {
  Opts.SubGroups32 = ClSubGroups;
  Opts.FlatAtomics = ClFlatAtomics;
  Opts.WarpLoop = ClWarpLoop;
  Opts.FenceAsAtomic = ClFenceAsAtomic;
  Opts.DeferUnsupported = ClDeferUnsupported;
  if (Opts.SubGroups32)
    Opts.DeviceDesc = "SPIR-V device with 32-wide sub-groups";
}

PreservedAnalyses LowerToSPIRVPass::run(Module &M, ModuleAnalysisManager &) {
  if (isLoweredForSPIRV(M))
    return PreservedAnalyses::all();
  if (Error E = lowerModuleToSPIRV(M, Opts)) {
    std::string Msg = toString(std::move(E));
    Function *Where = nullptr;
    for (Function &F : M)
      if (!F.isDeclaration()) {
        Where = &F;
        break;
      }
    if (Where)
      M.getContext().diagnose(
          DiagnosticInfoUnsupported(*Where, "hetgpu-lower-spirv: " + Msg));
    else
      M.getContext().emitError("hetgpu-lower-spirv: " + Msg);
  }
  return PreservedAnalyses::none();
}

} // namespace hetgpu
