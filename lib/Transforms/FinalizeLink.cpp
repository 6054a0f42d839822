//===- FinalizeLink.cpp - Finish relocatable hetIR after the device link --===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-finalize-link` runs on the one module that the device link makes
/// out of relocatable components. A relocatable component stopped after
/// hetgpu-raise (its callees in other components were unknown); this pass
/// runs what the whole-TU device pipeline runs after raising, now that the
/// program is complete: internalize, inline safe-point callees, describe the
/// kernels again (shared memory and features depend on callees of other
/// components), fold the facts components import (<hetgpu/contract.h>),
/// insert loop safe points, lay out the state.
///
/// USAGE: hetgpu-opt -passes=hetgpu-finalize-link linked.ll -S
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Transforms/FinalizeLink.h"
#include "hetgpu/IR/Contracts.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Support/Diagnostics.h"
#include "hetgpu/Support/RunPasses.h"
#include "hetgpu/Transforms/InsertLoopSafePoints.h"
#include "hetgpu/Transforms/RaiseToHetIR.h"
#include "hetgpu/Transforms/StateLayout.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

#define DEBUG_TYPE "hetgpu-finalize-link"

STATISTIC(NumInternalized, "Device functions internalized after the link");
STATISTIC(NumErased, "Unused device functions erased after the link");
STATISTIC(NumFactsFolded, "Loads of imported facts replaced by their value");

namespace hetgpu {
namespace {

/// The components' `!hetgpu.ir.version` entries (llvm-link appends them)
/// must agree on the major version; the linked module gets ours.
bool unifyVersions(Module &M) {
  NamedMDNode *N = M.getNamedMetadata(VersionMD);
  if (N)
    for (const MDNode *Op : N->operands()) {
      auto *C = Op->getNumOperands() == 2
                    ? mdconst::dyn_extract<ConstantInt>(Op->getOperand(0))
                    : nullptr;
      if (!C || C->getZExtValue() != IRVersionMajor) {
        M.getContext().diagnose(DiagnosticInfoGeneric(
            "device link: a component has hetIR version " +
                Twine(C ? C->getZExtValue() : 0) + ".x, expected " +
                Twine(IRVersionMajor) + ".x (rebuild it with this hetgpu-cc)",
            DS_Error));
        return false;
      }
    }
  setIRVersion(M);
  return true;
}

/// A kernel defined by several components (a template instantiated in each,
/// weak_odr) is one function after the link but listed once per component.
void dedupeKernelEntries(Module &M) {
  NamedMDNode *N = M.getNamedMetadata(KernelsMD);
  if (!N)
    return;
  SmallVector<MDNode *, 16> Keep;
  SmallPtrSet<Value *, 16> Seen;
  for (MDNode *Op : N->operands()) {
    auto *VM = Op->getNumOperands()
                   ? dyn_cast_or_null<ValueAsMetadata>(Op->getOperand(0).get())
                   : nullptr;
    if (!VM || Seen.insert(VM->getValue()).second)
      Keep.push_back(Op);
  }
  N->clearOperands();
  for (MDNode *Op : Keep)
    N->addOperand(Op);
  for (Value *V : Seen)
    if (auto *F = dyn_cast<Function>(V))
      F->setLinkage(GlobalValue::ExternalLinkage);
}

/// Device functions are visible only inside the program once it is linked.
void internalizeDeviceFunctions(Module &M) {
  for (Function &F : M)
    if (!F.isDeclaration() && !isKernel(F) && !F.hasLocalLinkage()) {
      F.setLinkage(GlobalValue::InternalLinkage);
      F.setVisibility(GlobalValue::DefaultVisibility);
      F.setComdat(nullptr);
      ++NumInternalized;
    }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function &F : make_early_inc_range(M))
      if (!F.isDeclaration() && F.hasLocalLinkage() && F.use_empty()) {
        F.eraseFromParent();
        ++NumErased;
        Changed = true;
      }
  }
  // Comdats of erased or internalized functions.
  SmallVector<StringRef, 8> Unused;
  for (auto &[Name, C] : M.getComdatSymbolTable())
    Unused.push_back(Name);
  for (const GlobalObject &GO : M.global_objects())
    if (const Comdat *C = GO.getComdat())
      llvm::erase(Unused, C->getName());
  for (StringRef Name : Unused)
    M.getComdatSymbolTable().erase(Name);
}

/// clang's `-fgpu-rdc` keeps device symbols that host code uses alive until
/// the device link through `__clang_gpu_used_external`; the link is done.
void dropUsedExternalList(Module &M) {
  GlobalVariable *G = M.getNamedGlobal("__clang_gpu_used_external");
  if (!G)
    return;
  removeFromUsedLists(M, [&](Constant *C) { return C == G; });
  G->removeDeadConstantUsers();
  if (G->use_empty())
    G->eraseFromParent();
}

/// Shared memory and feature bits of a kernel are properties of its whole
/// call graph, which now spans components.
void redescribeKernels(Module &M) {
  auto Infos = readKernelInfo(M);
  if (!Infos) {
    M.getContext().diagnose(DiagnosticInfoGeneric(
        "device link: " + toString(Infos.takeError()), DS_Error));
    return;
  }
  for (auto &[F, K] : *Infos) {
    K.StaticShared = computeSharedLayout(*F).Size;
    K.Features = computeKernelFeatures(*F);
    writeKernelMetadata(*F, K);
  }
}

/// The components were optimized one by one, each without its callees in
/// other components; now that the program is whole, optimize it as clang's
/// -O3 does a whole translation unit (inlining across components, the
/// folded facts as constants), so that separate compilation costs no speed
/// (bench/linking). Runs before loop safe points and the state layout, as
/// in the whole-TU pipeline.
void optimizeLinked(Module &M) {
  PassBuilder PB;
  ModulePassManager MPM =
      PB.buildPerModuleDefaultPipeline(OptimizationLevel::O3);
  runModulePasses(M, MPM, PB);
}

} // namespace

PreservedAnalyses FinalizeLinkPass::run(Module &M, ModuleAnalysisManager &AM) {
  if (!isRelocatable(M))
    return PreservedAnalyses::all();
  if (!unifyVersions(M))
    return PreservedAnalyses::none();
  dedupeKernelEntries(M);
  dropUsedExternalList(M);
  internalizeDeviceFunctions(M);
  if (!inlineSafePointCallees(M))
    return PreservedAnalyses::none();
  internalizeDeviceFunctions(M); // inlined barrier helpers are unused now
  NumFactsFolded += foldFacts(M);
  if (Optimize)
    optimizeLinked(M);
  redescribeKernels(M);
  InsertLoopSafePointsPass().run(M, AM);
  StateLayoutPass().run(M, AM);
  setRelocatable(M, false);
  return PreservedAnalyses::none();
}

} // namespace hetgpu
