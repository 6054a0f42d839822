//===- ExtractKernel.cpp - Some kernels of a module, alone ---------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements hetgpu/Transforms/ExtractKernel.h.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Transforms/ExtractKernel.h"

#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Support/RunPasses.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"

using namespace llvm;

namespace hetgpu {

namespace {

Error extractError(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           "extracting kernels: " + Why);
}

/// Drops the operands of named metadata \p MD whose first operand is one of
/// \p Gone.
void dropEntries(Module &M, StringRef MD,
                 const SmallPtrSetImpl<Function *> &Gone) {
  NamedMDNode *N = M.getNamedMetadata(MD);
  if (!N)
    return;
  SmallVector<MDNode *, 16> Keep;
  for (MDNode *Op : N->operands()) {
    auto *VM = Op->getNumOperands()
                   ? dyn_cast_or_null<ValueAsMetadata>(Op->getOperand(0))
                   : nullptr;
    auto *F = VM ? dyn_cast<Function>(VM->getValue()) : nullptr;
    if (!F || !Gone.count(F))
      Keep.push_back(Op);
  }
  N->clearOperands();
  for (MDNode *Op : Keep)
    N->addOperand(Op);
}

/// Removes the functions of \p Gone from llvm.used / llvm.compiler.used.
void dropFromUsedLists(Module &M, const SmallPtrSetImpl<Function *> &Gone) {
  for (StringRef Name : {"llvm.used", "llvm.compiler.used"}) {
    GlobalVariable *GV = M.getGlobalVariable(Name);
    if (!GV || !GV->hasInitializer())
      continue;
    auto *Init = dyn_cast<ConstantArray>(GV->getInitializer());
    if (!Init)
      continue;
    SmallVector<Constant *, 16> Keep;
    for (Use &U : Init->operands()) {
      auto *C = cast<Constant>(U.get());
      auto *F = dyn_cast<Function>(C->stripPointerCasts());
      if (!F || !Gone.count(F))
        Keep.push_back(C);
    }
    if (Keep.size() == Init->getNumOperands())
      continue;
    GV->eraseFromParent();
    if (Keep.empty())
      continue;
    auto *Ty = ArrayType::get(Keep.front()->getType(), Keep.size());
    auto *New = new GlobalVariable(M, Ty, false, GlobalValue::AppendingLinkage,
                                   ConstantArray::get(Ty, Keep), Name);
    New->setSection("llvm.metadata");
  }
}

} // namespace

Error extractKernels(Module &M, ArrayRef<StringRef> Names) {
  SmallPtrSet<Function *, 16> Keep, Others;
  for (Function *K : getKernels(M)) {
    if (is_contained(Names, K->getName()))
      Keep.insert(K);
    else
      Others.insert(K);
  }
  for (StringRef N : Names) {
    Function *F = M.getFunction(N);
    if (!F || !Keep.count(F))
      return extractError("the module has no kernel '" + N + "'");
  }
  dropEntries(M, KernelsMD, Others);
  dropEntries(M, StateMD, Others);
  dropFromUsedLists(M, Others);
  for (Function *F : Others)
    F->removeFnAttr(KernelAttr);
  for (Function &F : M)
    if (!Keep.count(&F) && !F.isDeclaration()) {
      F.setComdat(nullptr);
      F.setLinkage(GlobalValue::InternalLinkage);
      F.setVisibility(GlobalValue::DefaultVisibility);
    }

  runModulePass(M, GlobalDCEPass());

  std::string Msg;
  raw_string_ostream OS(Msg);
  if (verifyModule(M, &OS))
    return extractError("the reduced module does not verify: " + Msg);
  return Error::success();
}

} // namespace hetgpu
