//===- LowerToRVManycore.cpp - hetIR to RISC-V many-core IR ---------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-lower-rvmc` (see LowerToRVManycore.h). The SIMT->MIMD lowering
/// (lib/Transforms/SIMTToMIMD.cpp) is the one the host target uses; this
/// file adds what is specific to the many-core device: checks that nothing
/// but math builtins and the block executor is left external, the per-kernel
/// frame-size exports, and the RISC-V triple, data layout and attributes.
/// Address spaces need no rewriting: the RISC-V back end treats global,
/// shared and constant pointers as the flat 64-bit address space, which is
/// what the device is (DRAM and SRAM are ranges of one address space).
///
/// USAGE: hetgpu-opt -passes=hetgpu-lower-rvmc in.ll -S
///
//===----------------------------------------------------------------------===//

#include "LowerToRVManycore.h"

#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Targets/TargetDiagnostics.h"
#include "hetgpu/Transforms/SIMTToMIMD.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <optional>

#define DEBUG_TYPE "hetgpu-lower-rvmc"

using namespace llvm;

STATISTIC(NumBlockFunctions, "Block functions made for the many-core target");

namespace hetgpu {

namespace {

Error failure(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), "rvmc: " + Msg);
}
} // namespace

Expected<std::string> rvmcFeaturesForArch(StringRef Arch) {
  std::string Lower = Arch.lower();
  StringRef ISA(Lower);
  if (!ISA.consume_front("rv64"))
    return failure("'" + Arch +
                   "' is not a 64-bit RISC-V ISA string (e.g. rv64imafd): "
                   "CUDA's 64-bit pointers rule out rv32");
  ISA = ISA.take_until([](char C) { return C == '_'; });
  bool M = false, A = false, F = false, D = false, C = false;
  for (char Ch : ISA) {
    switch (Ch) {
    case 'i':
      break;
    case 'g':
      M = A = F = D = true;
      break;
    case 'm':
      M = true;
      break;
    case 'a':
      A = true;
      break;
    case 'f':
      F = true;
      break;
    case 'd':
      D = true;
      break;
    case 'c':
      C = true;
      break;
    default:
      return failure("unknown extension '" + Twine(Ch) + "' in ISA string '" +
                     Arch + "'");
    }
  }
  if (!M || !A || !F || !D)
    return failure("ISA '" + Arch +
                   "' lacks one of M, A, F, D: kernels need integer "
                   "multiply, atomics and single and double precision");
  std::string Features = "+m,+a,+f,+d";
  if (C)
    Features += ",+c";
  return Features;
}

Error lowerModuleToRVManycore(Module &M, const RVManycoreLowerOptions &Opts) {
  if (M.getTargetTriple().str() == RVMCTriple)
    return Error::success(); // already lowered
  if (M.getTargetTriple().str() != HetIRTriple)
    return failure("module is not hetIR (target triple '" +
                   M.getTargetTriple().str() + "', expected '" + HetIRTriple +
                   "')");
  Expected<std::string> Features = rvmcFeaturesForArch(Opts.Arch);
  if (!Features)
    return Features.takeError();
  // Opts.Instrument needs nothing here: hetgpu-instrument-state already
  // rewrote the hetIR (plain hetIR with three hidden parameters).

  // Static shared bytes of each kernel (the layout every target uses),
  // exported next to the frame sizes below.
  std::vector<std::pair<std::string, uint64_t>> SharedBytes;
  for (Function *K : getKernels(M))
    if (!K->isDeclaration())
      SharedBytes.push_back(
          {K->getName().str(), computeSharedLayout(*K).Size});

  // What may stay external: the block executor and the math library (both
  // in the device runtime archive) and the C memory functions. Checked
  // before SIMT->MIMD for calls the source wrote (so the message names the
  // user's function) and after it for builtins it left behind.
  auto CheckExternals = [&](bool BuiltinsAllowed) {
    Error Err = Error::success();
    for (Function &F : M) {
      if (!F.isDeclaration() || F.use_empty() || F.isIntrinsic())
        continue;
      StringRef N = F.getName();
      if (N == ExecBlockName || N.starts_with(MathPrefix) || N == "memcpy" ||
          N == "memmove" || N == "memset")
        continue;
      if (BuiltinsAllowed && lookupBuiltin(F))
        continue;
      std::string Caller = "?";
      for (User *U : F.users())
        if (auto *I = dyn_cast<Instruction>(U)) {
          Caller = I->getFunction()->getName().str();
          break;
        }
      Err = joinErrors(
          std::move(Err),
          failure("function '" + Caller + "' calls '" + N + "', which " +
                  (N.starts_with(BuiltinPrefix)
                       ? "the RISC-V many-core target does not implement"
                       : "is not defined in the module (device code cannot "
                         "call host or library functions)")));
    }
    return Err;
  };
  if (Error E = CheckExternals(/*BuiltinsAllowed=*/true))
    return E;
  if (Error E = lowerSIMTToMIMD(M))
    return joinErrors(failure("SIMT->MIMD lowering failed"), std::move(E));

  Error Err = CheckExternals(/*BuiltinsAllowed=*/false);
  for (GlobalVariable &G : M.globals())
    if (G.getAddressSpace() == AS_Shared && !G.use_empty())
      Err = joinErrors(std::move(Err),
                       failure("shared variable '" + G.getName() +
                               "' was not placed in core SRAM by the "
                               "SIMT->MIMD lowering"));
  if (Err)
    return Err;

  // Frame bytes per thread of every block function (the executor's third
  // argument after the thread function), exported for tt-sim's SRAM check.
  LLVMContext &Ctx = M.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  SmallVector<Function *, 8> Blocks;
  for (Function &F : M)
    if (!F.isDeclaration() && F.getName().starts_with(BlockFunctionPrefix))
      Blocks.push_back(&F);
  for (Function *F : Blocks) {
    // Only kernels that run through the block executor have thread states
    // and frames; loop kernels get no export.
    std::optional<uint64_t> Frame;
    for (BasicBlock &BB : *F)
      for (Instruction &I : BB)
        if (auto *CI = dyn_cast<CallInst>(&I))
          if (Function *Callee = CI->getCalledFunction();
              Callee && Callee->getName() == ExecBlockName &&
              CI->arg_size() >= 4)
            if (auto *C = dyn_cast<ConstantInt>(CI->getArgOperand(3)))
              Frame = std::max(Frame.value_or(0), C->getZExtValue());
    ++NumBlockFunctions;
    if (!Frame)
      continue;
    std::string Name =
        (RVMCFramePrefix + F->getName().drop_front(BlockFunctionPrefix.size()))
            .str();
    if (M.getNamedGlobal(Name))
      continue;
    auto *GV = new GlobalVariable(M, I64, /*isConstant=*/true,
                                  GlobalValue::ExternalLinkage,
                                  ConstantInt::get(I64, *Frame), Name);
    GV->setAlignment(Align(8));
  }

  for (auto &[Kernel, Bytes] : SharedBytes) {
    std::string Name = (RVMCSharedPrefix + Kernel).str();
    if (M.getNamedGlobal(Name))
      continue;
    auto *GV = new GlobalVariable(M, I64, /*isConstant=*/true,
                                  GlobalValue::ExternalLinkage,
                                  ConstantInt::get(I64, Bytes), Name);
    GV->setAlignment(Align(8));
  }

  // The RISC-V target: triple, layout, ISA and ABI. Every symbol is final
  // in a static-PIE image, so definitions are dso_local.
  M.setTargetTriple(Triple(RVMCTriple));
  M.setDataLayout(RVMCDataLayout);
  for (Function &F : M) {
    F.removeFnAttr("target-cpu");
    F.removeFnAttr("target-features");
    F.removeFnAttr("hetgpu-kernel");
    if (F.isDeclaration())
      continue;
    F.addFnAttr("target-cpu", "generic-rv64");
    F.addFnAttr("target-features", *Features);
    F.setDSOLocal(true);
  }
  for (GlobalVariable &G : M.globals())
    if (!G.isDeclaration())
      G.setDSOLocal(true);
  if (!M.getModuleFlag("target-abi"))
    M.addModuleFlag(Module::Error, "target-abi", MDString::get(Ctx, "lp64d"));
  M.setPICLevel(PICLevel::BigPIC);
  M.setPIELevel(PIELevel::Large);
  return Error::success();
}

PreservedAnalyses LowerToRVManycorePass::run(Module &M,
                                             ModuleAnalysisManager &) {
  if (Error E = lowerModuleToRVManycore(M, RVManycoreLowerOptions()))
    reportModuleFailure(M, toString(std::move(E)));
  return PreservedAnalyses::none();
}

} // namespace hetgpu
