//===- Contracts.cpp - Named facts components share at the device link ----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `!hetgpu.contract = !{!{!"export", !"TILE", i64 64}, !{!"require",
/// !"TILE", i64 64}, !{!"import", !"STAGES"}}`: read from the variables the
/// macros of <hetgpu/contract.h> define, checked by the device link.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/IR/Contracts.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <map>

using namespace llvm;

namespace hetgpu {
namespace {

/// The fact named by \p G, if it is one of the macros' variables. A require
/// variable is static, so clang mangles it (`_ZL<n>__hetgpu_require_fact_N`)
/// and may append `__static__<hash>` under -fgpu-rdc.
std::optional<Fact> factOf(const GlobalVariable &G) {
  StringRef N = G.getName();
  Fact F;
  // Static variables: clang mangles them (`_ZL19__hetgpu_block_size`).
  auto Geometric = [&](StringRef Var) {
    size_t P = N.find(Var);
    StringRef After = P == StringRef::npos ? "?" : N.drop_front(P + Var.size());
    return After.empty() || After.starts_with("__static__");
  };
  if (Geometric(BlockSizeVar)) {
    F.K = Fact::BlockSize;
  } else if (Geometric(MaxBlockSizeVar)) {
    F.K = Fact::MaxBlockSize;
  } else if (Geometric(FullWarpsVar)) {
    F.K = Fact::FullWarps;
  } else if (N.starts_with(FactPrefix)) {
    F.Name = N.drop_front(FactPrefix.size()).str();
    F.K = G.isDeclaration() ? Fact::Import : Fact::Export;
  } else if (size_t P = N.find(RequireFactPrefix); P != StringRef::npos) {
    StringRef Rest = N.drop_front(P + RequireFactPrefix.size());
    F.Name = Rest.substr(0, Rest.find("__static__")).str();
    F.K = Fact::Require;
  } else {
    return std::nullopt;
  }
  if (F.K == Fact::Import)
    return G.use_empty() ? std::nullopt : std::optional<Fact>(F);
  auto *C = dyn_cast_or_null<ConstantInt>(
      G.hasInitializer() ? G.getInitializer() : nullptr);
  if (!C)
    return std::nullopt;
  F.Value = C->getSExtValue();
  return F;
}

/// The geometric facts of one component contradict each other: a fixed
/// block size above the bound it was compiled for, or not whole warps.
std::string geometryProblem(const std::vector<Fact> &Facts) {
  std::optional<int64_t> Size, Max;
  bool Warps = false;
  for (const Fact &F : Facts) {
    if (F.K == Fact::BlockSize)
      Size = F.Value;
    else if (F.K == Fact::MaxBlockSize)
      Max = F.Value;
    Warps |= F.K == Fact::FullWarps;
  }
  for (const Fact &F : Facts)
    if (F.isGeometric() && F.K != Fact::FullWarps && F.Value <= 0)
      return std::string(factKindName(F.K)) + " is " + std::to_string(F.Value) +
             " (a number of threads must be positive)";
  if (Size && Max && *Size > *Max)
    return "the block size is required to be " + std::to_string(*Size) +
           " but at most " + std::to_string(*Max);
  if (Size && Warps && *Size % 32)
    return "the block size is required to be " + std::to_string(*Size) +
           ", which is not a whole number of 32-thread warps, but full warps "
           "are required too";
  return "";
}

} // namespace

const char *factKindName(Fact::Kind K) {
  switch (K) {
  case Fact::Export:
    return "export";
  case Fact::Require:
    return "require";
  case Fact::Import:
    return "import";
  case Fact::BlockSize:
    return "block.size";
  case Fact::MaxBlockSize:
    return "max.block.size";
  case Fact::FullWarps:
    return "full.warps";
  }
  return "?";
}

std::vector<std::string> recordFacts(Module &M) {
  LLVMContext &C = M.getContext();
  std::vector<Fact> Facts;
  SmallVector<GlobalVariable *, 4> Requires;
  for (GlobalVariable &G : M.globals())
    if (auto F = factOf(G)) {
      Facts.push_back(*F);
      if (F->K == Fact::Require || F->isGeometric())
        Requires.push_back(&G);
    }
  std::vector<std::string> Problems;
  std::map<std::string, int64_t> Exported;
  for (const Fact &F : Facts)
    if (F.K == Fact::Export)
      Exported[F.Name] = F.Value;
  for (const Fact &F : Facts)
    if (F.K == Fact::Require && Exported.count(F.Name) &&
        Exported[F.Name] != F.Value)
      Problems.push_back("fact '" + F.Name + "' is exported as " +
                         std::to_string(Exported[F.Name]) +
                         " but required to be " + std::to_string(F.Value));
  if (std::string P = geometryProblem(Facts); !P.empty())
    Problems.push_back(P);
  SmallPtrSet<Constant *, 4> Erase;
  for (GlobalVariable *G : Requires)
    Erase.insert(G);
  if (!Erase.empty())
    removeFromUsedLists(M, [&](Constant *C) { return Erase.count(C); });
  for (GlobalVariable *G : Requires) {
    G->removeDeadConstantUsers();
    if (G->use_empty())
      G->eraseFromParent();
  }
  if (Facts.empty())
    return Problems;
  NamedMDNode *N = M.getOrInsertNamedMetadata(ContractMD);
  N->clearOperands();
  Type *I64 = Type::getInt64Ty(C);
  for (const Fact &F : Facts) {
    SmallVector<Metadata *, 3> Ops = {MDString::get(C, factKindName(F.K)),
                                      MDString::get(C, F.Name)};
    if (F.K != Fact::Import)
      Ops.push_back(ConstantAsMetadata::get(ConstantInt::get(I64, F.Value)));
    N->addOperand(MDNode::get(C, Ops));
  }
  return Problems;
}

std::vector<Fact> readFacts(const Module &M) {
  std::vector<Fact> Out;
  const NamedMDNode *N = M.getNamedMetadata(ContractMD);
  if (!N)
    return Out;
  for (const MDNode *Op : N->operands()) {
    if (Op->getNumOperands() < 2)
      continue;
    auto *K = dyn_cast<MDString>(Op->getOperand(0));
    auto *Name = dyn_cast<MDString>(Op->getOperand(1));
    if (!K || !Name)
      continue;
    Fact F;
    F.Name = Name->getString().str();
    if (K->getString() == "import") {
      F.K = Fact::Import;
    } else {
      std::optional<Fact::Kind> Kind;
      for (Fact::Kind C : {Fact::Export, Fact::Require, Fact::BlockSize,
                           Fact::MaxBlockSize, Fact::FullWarps})
        if (K->getString() == factKindName(C))
          Kind = C;
      if (!Kind)
        continue; // a later minor version's kind
      F.K = *Kind;
      auto *V = Op->getNumOperands() > 2
                    ? mdconst::dyn_extract<ConstantInt>(Op->getOperand(2))
                    : nullptr;
      if (!V)
        continue;
      F.Value = V->getSExtValue();
    }
    Out.push_back(F);
  }
  return Out;
}

unsigned foldFacts(Module &M) {
  unsigned Folded = 0;
  for (GlobalVariable &G : M.globals()) {
    if (!G.getName().starts_with(FactPrefix) || !G.hasInitializer())
      continue;
    auto *C = dyn_cast<ConstantInt>(G.getInitializer());
    if (!C)
      continue;
    SmallVector<LoadInst *, 8> Loads;
    SmallVector<User *, 8> Work(G.users());
    while (!Work.empty()) {
      User *U = Work.pop_back_val();
      if (auto *L = dyn_cast<LoadInst>(U)) {
        if (L->getType() == C->getType() && !L->isVolatile())
          Loads.push_back(L);
      } else if (isa<ConstantExpr>(U) && cast<ConstantExpr>(U)->getOpcode() ==
                                             Instruction::AddrSpaceCast) {
        Work.append(U->user_begin(), U->user_end());
      } else if (auto *AC = dyn_cast<AddrSpaceCastInst>(U)) {
        Work.append(AC->user_begin(), AC->user_end());
      }
    }
    for (LoadInst *L : Loads) {
      L->replaceAllUsesWith(C);
      L->eraseFromParent();
      ++Folded;
    }
    G.setConstant(true);
    G.setExternallyInitialized(false);
  }
  return Folded;
}

} // namespace hetgpu
