//===- ContextFunctions.cpp - Inline thread-context device functions ------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Step 1 of `hetgpu-simt-to-mimd`: the device functions that use a
/// thread's context (thread and block indices, shared memory, barriers,
/// warp operations, device services), directly or through the functions
/// they call, are inlined into every kernel, so that the thread function
/// built from the kernel sees every use of the context. Indirect calls of
/// such functions and recursion among them are reported.
///
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <functional>

using namespace llvm;
using namespace hetgpu::container;

#define DEBUG_TYPE "hetgpu-simt-to-mimd"

STATISTIC(NumInlined, "Device functions inlined into kernels");

namespace hetgpu {
namespace simt {
namespace {

/// Builtins whose lowering needs the thread's context (everything but the
/// math library and fences).
bool needsContext(const BuiltinInfo &BI) {
  return BI.Group != "math" && BI.Group != "fence";
}

bool refersToShared(const Value *V, SmallPtrSetImpl<const Value *> &Seen) {
  if (!isa<Constant>(V) || !Seen.insert(V).second)
    return false;
  if (auto *GV = dyn_cast<GlobalVariable>(V))
    return GV->getAddressSpace() == AS_Shared;
  if (auto *CE = dyn_cast<ConstantExpr>(V))
    for (const Value *Op : CE->operands())
      if (refersToShared(Op, Seen))
        return true;
  return false;
}

bool usesContextDirectly(const Function &F) {
  SmallPtrSet<const Value *, 32> Seen;
  for (const Instruction &I : instructions(F)) {
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (auto BI = getCalledBuiltin(*CB))
        if (needsContext(*BI))
          return true;
    for (const Value *Op : I.operands())
      if (refersToShared(Op, Seen))
        return true;
  }
  return false;
}

} // namespace

bool Lowering::computeContextFunctions() {
  for (Function &F : M)
    if (!F.isDeclaration() && usesContextDirectly(F))
      ContextFns.insert(&F);
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Function &F : M) {
      if (F.isDeclaration() || ContextFns.count(&F))
        continue;
      for (Instruction &I : instructions(F))
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *Callee = CB->getCalledFunction())
            if (ContextFns.count(Callee)) {
              ContextFns.insert(&F);
              Changed = true;
              break;
            }
    }
  }
  bool OK = true;
  for (Function *F : ContextFns) {
    if (isKernel(*F))
      continue;
    for (User *U : F->users()) {
      auto *CB = dyn_cast<CallBase>(U);
      if (!CB || CB->getCalledOperand() != F) {
        Fail.add(*F, "device function '" + F->getName() +
                         "' uses thread-context builtins (thread indices, "
                         "shared memory, barriers, warp operations or device "
                         "services) and its address is taken: indirect calls "
                         "to such functions are not supported");
        OK = false;
        break;
      }
    }
  }
  // Recursion among context functions cannot be inlined.
  DenseMap<Function *, int> State; // 1 = on stack, 2 = done
  std::function<bool(Function *)> Visit = [&](Function *F) -> bool {
    State[F] = 1;
    for (Instruction &I : instructions(*F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          if (ContextFns.count(Callee) && !isKernel(*Callee)) {
            int S = State.lookup(Callee);
            if (S == 1) {
              Fail.add(*Callee, "device function '" + Callee->getName() +
                                    "' is recursive and uses thread-context "
                                    "builtins (thread indices, shared memory, "
                                    "barriers, warp operations or device "
                                    "services): not supported by the "
                                    "SIMT->MIMD lowering");
              return false;
            }
            if (S == 0 && !Visit(Callee))
              return false;
          }
    State[F] = 2;
    return true;
  };
  for (Function *F : ContextFns)
    if (!State.lookup(F) && !Visit(F))
      OK = false;
  return OK;
}

bool Lowering::inlineContextCalls(Function &K) {
  for (;;) {
    CallBase *Site = nullptr;
    for (Instruction &I : instructions(K))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          if (!Callee->isDeclaration() && ContextFns.count(Callee)) {
            Site = CB;
            break;
          }
    if (!Site)
      return true;
    Function *Callee = Site->getCalledFunction();
    if (isKernel(*Callee)) {
      Fail.add(K, "kernel '" + K.getName() + "' calls kernel '" +
                      Callee->getName() + "': not supported");
      return false;
    }
    InlineFunctionInfo IFI;
    InlineResult R = InlineFunction(*Site, IFI);
    if (!R.isSuccess()) {
      Fail.add(K, "kernel '" + K.getName() + "': cannot inline '" +
                      Callee->getName() +
                      "', which uses thread-context "
                      "builtins: " +
                      R.getFailureReason());
      return false;
    }
    ++NumInlined;
  }
}

} // namespace simt
} // namespace hetgpu
