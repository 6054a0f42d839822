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
/// This file holds the pass, steps 0-1, the address space inference and
/// the order of the steps (SPIRVLowering::run); each other step has its own
/// file, listed in the private SPIRVLowering.h.
///
/// USAGE: hetgpu-opt -passes=hetgpu-lower-spirv -S in.ll
///
//===----------------------------------------------------------------------===//

#include "LowerToSPIRV.h"
#include "SPIRVLowering.h"
#include "hetgpu/ABI/SPIRVKernel.h"

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

namespace spirv {

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


} // namespace spirv

using spirv::SPIRVLowering;


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
  if (Error E = lowerModuleToSPIRV(M, Opts))
    reportModuleFailure(M, "hetgpu-lower-spirv: " + toString(std::move(E)));
  return PreservedAnalyses::none();
}

} // namespace hetgpu

