//===- LinkContracts.cpp - Contract checks of the device link -------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// What the device link checks between components besides symbols
/// (docs/SeparateCompilation.md, "Contracts"): named facts, each kernel's
/// static shared memory over components, and barriers that a component
/// executes on behalf of a caller in another component that may not reach
/// them with every thread.
///
//===----------------------------------------------------------------------===//

#include "LinkContracts.h"
#include "hetgpu/ABI/Profile.h"
#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Contracts.h"
#include "hetgpu/IR/Metadata.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <map>
#include <optional>

using namespace llvm;

namespace hetgpu {
namespace link {
namespace {

constexpr StringLiteral OriginMD = "hetgpu.origin";

Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

std::optional<size_t> originOf(const MDNode *N) {
  if (!N || N->getNumOperands() != 1)
    return std::nullopt;
  if (auto *C = mdconst::dyn_extract<ConstantInt>(N->getOperand(0)))
    return C->getZExtValue();
  return std::nullopt;
}

bool isBarrierCall(const Instruction &I) {
  auto *CB = dyn_cast<CallBase>(&I);
  auto BI = CB ? getCalledBuiltin(*CB) : std::nullopt;
  return BI && BI->Group == "barrier";
}

} // namespace

void tagOrigins(Module &M, size_t I) {
  LLVMContext &C = M.getContext();
  MDNode *Tag = MDNode::get(
      C, ConstantAsMetadata::get(ConstantInt::get(Type::getInt64Ty(C), I)));
  for (GlobalVariable &G : M.globals())
    if (G.getAddressSpace() == AS_Shared && !G.isDeclaration())
      G.setMetadata(OriginMD, Tag);
  for (Function &F : M)
    if (!F.isDeclaration())
      F.setMetadata(OriginMD, Tag);
}

void clearOrigins(Module &M) {
  for (GlobalVariable &G : M.globals())
    G.setMetadata(OriginMD, nullptr);
  for (Function &F : M)
    F.setMetadata(OriginMD, nullptr);
}

/// The facts every component states (hetgpu/IR/Contracts.h) agree: one
/// export per fact, and every requirement and import met by it.
Error checkFacts(ArrayRef<std::unique_ptr<Module>> Mods,
                 ArrayRef<Component> Components) {
  struct Source {
    int64_t Value;
    size_t Comp;
  };
  std::map<std::string, Source> Exports;
  Error Err = Error::success();
  std::vector<std::vector<Fact>> Facts;
  for (size_t I = 0; I < Mods.size(); ++I) {
    Facts.push_back(readFacts(*Mods[I]));
    for (const Fact &F : Facts.back()) {
      if (F.K != Fact::Export)
        continue;
      auto [It, New] = Exports.try_emplace(F.Name, Source{F.Value, I});
      if (!New)
        Err = joinErrors(
            std::move(Err),
            makeError("contract: fact '" + F.Name + "' is exported by '" +
                      Components[It->second.Comp].Origin + "' (" +
                      Twine(It->second.Value) + ") and by '" +
                      Components[I].Origin + "' (" + Twine(F.Value) + ")"));
    }
  }
  for (size_t I = 0; I < Mods.size(); ++I)
    for (const Fact &F : Facts[I]) {
      if (F.K == Fact::Export || F.isGeometric())
        continue;
      auto It = Exports.find(F.Name);
      const char *Verb = F.K == Fact::Require ? "requires" : "imports";
      if (It == Exports.end())
        Err = joinErrors(std::move(Err),
                         makeError("contract: '" + Components[I].Origin + "' " +
                                   Verb + " fact '" + F.Name +
                                   "', which no component exports"));
      else if (F.K == Fact::Require && It->second.Value != F.Value)
        Err = joinErrors(
            std::move(Err),
            makeError("contract: fact '" + F.Name + "' is " +
                      Twine(It->second.Value) + " in '" +
                      Components[It->second.Comp].Origin +
                      "' (exported), but '" + Components[I].Origin +
                      "' was compiled for " + Twine(F.Value) +
                      " (rebuild it with the same value, or import the "
                      "fact where it need not be a compile-time constant)"));
    }
  return Err;
}

Error checkJointSharedMemory(Module &M, ArrayRef<Component> Components) {
  Error Err = Error::success();
  for (Function *K : getKernels(M)) {
    SharedLayout L = computeSharedLayout(*K);
    if (L.Size <= abi::StaticSharedLimit)
      continue;
    std::map<size_t, uint64_t> Bytes;
    const DataLayout &DL = M.getDataLayout();
    for (auto &[G, Off] : L.Vars)
      if (auto I = originOf(G->getMetadata(OriginMD)))
        Bytes[*I] += DL.getTypeAllocSize(G->getValueType());
    std::string Parts;
    for (auto &[I, B] : Bytes)
      Parts += (Parts.empty() ? "" : ", ") + std::to_string(B) + " from '" +
               Components[I].Origin + "'";
    Err = joinErrors(
        std::move(Err),
        makeError("contract: kernel " + describeSymbol(K->getName()) +
                  " needs " + Twine(L.Size) +
                  " bytes of static shared memory over its call graph (" +
                  Parts + "), more than the " + Twine(abi::StaticSharedLimit) +
                  " a block has on every device"));
  }
  return Err;
}

namespace {

/// Functions that execute a barrier, directly or through their callees.
SmallPtrSet<const Function *, 16> barrierFunctions(const Module &M) {
  SmallPtrSet<const Function *, 16> Set;
  for (const Function &F : M)
    for (const Instruction &I : instructions(F))
      if (isBarrierCall(I)) {
        Set.insert(&F);
        break;
      }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Function &F : M)
      if (!Set.count(&F))
        for (const Instruction &I : instructions(F))
          if (auto *CB = dyn_cast<CallBase>(&I))
            if (CB->getCalledFunction() && Set.count(CB->getCalledFunction())) {
              Set.insert(&F);
              Changed = true;
              break;
            }
  }
  return Set;
}

/// Values of \p F that may differ between the threads of a block: the
/// thread and lane indices and what is computed from them (data flow only).
SmallPtrSet<const Value *, 32> divergentValues(const Function &F) {
  SmallVector<const Value *, 16> Work;
  for (const Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (auto BI = getCalledBuiltin(*CB))
        if (BI->ID == BuiltinID::tid_x || BI->ID == BuiltinID::tid_y ||
            BI->ID == BuiltinID::tid_z || BI->ID == BuiltinID::lane_id)
          Work.push_back(CB);
  SmallPtrSet<const Value *, 32> Div(Work.begin(), Work.end());
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users())
      if (isa<Instruction>(U) && !isa<StoreInst>(U) && Div.insert(U).second)
        Work.push_back(U);
  }
  return Div;
}

/// The blocks whose execution depends on the branch ending \p X: reachable
/// from its successors without passing its immediate post-dominator. Empty
/// when the threads that skip a block only leave the kernel (the early-exit
/// idiom `if (i >= n) return;`): the paths meet at a lone `ret`, or only at
/// the exit.
SetVector<const BasicBlock *> controlledBlocks(const BasicBlock *X,
                                               const PostDominatorTree &PDT) {
  const DomTreeNode *N = PDT.getNode(X);
  const BasicBlock *Join =
      N && N->getIDom() ? N->getIDom()->getBlock() : nullptr;
  SetVector<const BasicBlock *> Region;
  if (!Join ||
      (isa<ReturnInst>(Join->getTerminator()) &&
       &*Join->getFirstNonPHIOrDbgOrLifetime() == Join->getTerminator()))
    return Region;
  SmallVector<const BasicBlock *, 8> Work(successors(X));
  while (!Work.empty()) {
    const BasicBlock *B = Work.pop_back_val();
    if (B == Join || !Region.insert(B))
      continue;
    Work.append(succ_begin(B), succ_end(B));
  }
  return Region;
}

std::string lineOf(const Instruction &I) {
  if (const DebugLoc &DL = I.getDebugLoc())
    return " (line " + std::to_string(DL.getLine()) + ")";
  return "";
}

} // namespace

Error checkUniformBarriers(Module &M, ArrayRef<Component> Components) {
  SmallPtrSet<const Function *, 16> Barriers = barrierFunctions(M);
  Error Err = Error::success();
  for (Function &F : M) {
    auto Caller = originOf(F.getMetadata(OriginMD));
    if (F.isDeclaration() || !Caller || Barriers.empty())
      continue;
    SmallPtrSet<const Value *, 32> Div = divergentValues(F);
    if (Div.empty())
      continue;
    PostDominatorTree PDT(F);
    for (const BasicBlock &X : F) {
      const Instruction *T = X.getTerminator();
      const Value *Cond = nullptr;
      if (auto *Br = dyn_cast<BranchInst>(T); Br && Br->isConditional())
        Cond = Br->getCondition();
      else if (auto *Sw = dyn_cast<SwitchInst>(T))
        Cond = Sw->getCondition();
      if (!Cond || !Div.count(Cond))
        continue;
      for (const BasicBlock *B : controlledBlocks(&X, PDT))
        for (const Instruction &I : *B) {
          auto *CB = dyn_cast<CallBase>(&I);
          const Function *Callee = CB ? CB->getCalledFunction() : nullptr;
          auto Defined =
              Callee ? originOf(Callee->getMetadata(OriginMD)) : std::nullopt;
          if (!Defined || *Defined == *Caller || !Barriers.count(Callee))
            continue;
          Err = joinErrors(
              std::move(Err),
              makeError("contract: " + describeSymbol(F.getName()) + " in '" +
                        Components[*Caller].Origin + "' calls " +
                        describeSymbol(Callee->getName()) + " of '" +
                        Components[*Defined].Origin +
                        "', which executes a block-wide barrier, under a "
                        "branch on the thread index" +
                        lineOf(*T) +
                        ": the threads that skip it leave the others "
                        "waiting at the barrier"));
        }
    }
  }
  return Err;
}

} // namespace link
} // namespace hetgpu
