//===- LaunchContracts.cpp - Geometry contracts of the device link --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The contracts of the device link that concern the block a kernel runs
/// in (docs/SeparateCompilation.md, "Contracts"): components that address
/// the same bytes of the dynamic shared segment, and the block sizes,
/// bounds and full-warp assumptions of the components a kernel reaches,
/// checked against each other and the kernel's `__launch_bounds__` and
/// recorded as the kernel's launch rules for the runtime.
///
//===----------------------------------------------------------------------===//

#include "LinkContracts.h"
#include "hetgpu/IR/ComponentUses.h"
#include "hetgpu/IR/Contracts.h"
#include "hetgpu/IR/Metadata.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <map>
#include <optional>
#include <set>

using namespace llvm;

namespace hetgpu {
namespace link {
namespace {

Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

std::optional<size_t> originOf(const Function &F) {
  const MDNode *N = F.getMetadata("hetgpu.origin");
  if (!N || N->getNumOperands() != 1)
    return std::nullopt;
  if (auto *C = mdconst::dyn_extract<ConstantInt>(N->getOperand(0)))
    return C->getZExtValue();
  return std::nullopt;
}

std::string rangeText(const SegmentRange &R) {
  return "bytes " + std::to_string(R.Begin) + " to " +
         (R.End ? std::to_string(*R.End) : std::string("the end"));
}

} // namespace

Geometry readGeometry(const Module &M) {
  Geometry G;
  for (const Fact &F : readFacts(M))
    if (F.K == Fact::BlockSize)
      G.BlockSize = F.Value;
    else if (F.K == Fact::MaxBlockSize)
      G.MaxBlockSize = F.Value;
    else if (F.K == Fact::FullWarps)
      G.FullWarps = true;
  return G;
}

Error checkDynamicShared(Module &M, ArrayRef<Component> Components) {
  Error Err = Error::success();
  for (Function *K : getKernels(M)) {
    struct Use {
      const Function *F;
      size_t Comp;
      SegmentRange R;
    };
    std::vector<Use> Uses;
    for (const Function *F : reachableFunctions(*K))
      if (auto R = dynamicSharedRange(*F))
        if (auto C = originOf(*F))
          Uses.push_back({F, *C, *R});
    std::set<std::pair<size_t, size_t>> Reported;
    for (size_t I = 0; I < Uses.size(); ++I)
      for (size_t J = I + 1; J < Uses.size(); ++J) {
        const Use &A = Uses[I], &B = Uses[J];
        if (A.Comp == B.Comp || !A.R.overlaps(B.R) ||
            !Reported.insert({A.Comp, B.Comp}).second)
          continue;
        Err = joinErrors(
            std::move(Err),
            makeError("contract: kernel " + describeSymbol(K->getName()) +
                      " uses the dynamic shared segment (extern __shared__) "
                      "from two components at overlapping offsets: '" +
                      Components[A.Comp].Origin + "' addresses " +
                      rangeText(A.R) + " in " + describeSymbol(A.F->getName()) +
                      ", '" + Components[B.Comp].Origin + "' " +
                      rangeText(B.R) + " in " + describeSymbol(B.F->getName()) +
                      "; each overwrites the other's data (give them "
                      "disjoint constant offsets, or pass one a pointer)"));
      }
  }
  return Err;
}

namespace {

/// One component's fact as a kernel's call graph reaches it.
struct Reached {
  size_t Comp;
  const Function *Via; ///< the first function of the component reached
};

/// Who a rule or error is about: `'b.o' (through 'f(int)')`.
std::string who(const Reached &R, ArrayRef<Component> Components) {
  return "'" + Components[R.Comp].Origin + "' (" +
         describeSymbol(R.Via->getName()) + ")";
}

/// The launch rules of kernel \p K and the contradictions among the facts
/// its call graph reaches.
Error kernelGeometry(const Function &K, container::KernelInfo &Info,
                     ArrayRef<Component> Components,
                     ArrayRef<Geometry> Geometries) {
  std::map<size_t, const Function *> Comps;
  std::optional<Reached> Warps, Size, Max;
  std::string WarpsWhy;
  for (const Function *F : reachableFunctions(K)) {
    auto C = originOf(*F);
    if (!C)
      continue;
    Comps.try_emplace(*C, F);
    if (auto Op = fullWarpOperation(*F); Op && !Warps) {
      Warps = Reached{*C, F};
      WarpsWhy = "uses a full-mask " + Op->str();
    }
  }
  Error Err = Error::success();
  auto Fail = [&](const Twine &Msg) {
    Err = joinErrors(std::move(Err),
                     makeError("contract: kernel " +
                               describeSymbol(K.getName()) + ": " + Msg));
  };
  for (auto &[C, Via] : Comps) {
    const Geometry &G = Geometries[C];
    Reached R{C, Via};
    if (G.FullWarps && !Warps) {
      Warps = R;
      WarpsWhy = "requires full warps (HETGPU_REQUIRE_FULL_WARPS)";
    }
    if (G.BlockSize && Size && Geometries[Size->Comp].BlockSize != G.BlockSize)
      Fail(who(*Size, Components) + " needs exactly " +
           Twine(Geometries[Size->Comp].BlockSize) + " threads per block, " +
           who(R, Components) + " exactly " + Twine(G.BlockSize));
    else if (G.BlockSize && !Size)
      Size = R;
    if (G.MaxBlockSize &&
        (!Max || G.MaxBlockSize < Geometries[Max->Comp].MaxBlockSize))
      Max = R;
  }
  uint32_t Exact = Size ? Geometries[Size->Comp].BlockSize : 0;
  uint32_t Bound = Max ? Geometries[Max->Comp].MaxBlockSize : 0;
  std::string Kernel = "'" + Components[*originOf(K)].Origin + "'";
  if (Info.MaxThreads && Bound && Bound < Info.MaxThreads)
    Fail("it has __launch_bounds__(" + Twine(Info.MaxThreads) + ") in " +
         Kernel + ", but " + who(*Max, Components) +
         " was compiled for at most " + Twine(Bound) + " threads per block");
  if (Info.MaxThreads && Exact > Info.MaxThreads)
    Fail("it has __launch_bounds__(" + Twine(Info.MaxThreads) + ") in " +
         Kernel + ", but " + who(*Size, Components) + " needs " + Twine(Exact) +
         " threads per block");
  if (Exact && Bound && Exact > Bound)
    Fail(who(*Size, Components) + " needs " + Twine(Exact) +
         " threads per block, but " + who(*Max, Components) +
         " was compiled for at most " + Twine(Bound));
  if (Exact && Warps && Exact % 32)
    Fail(who(*Size, Components) + " needs " + Twine(Exact) +
         " threads per block, which is not a whole number of warps, but " +
         who(*Warps, Components) + " " + WarpsWhy +
         ", which assumes full 32-thread warps");
  using LR = container::LaunchRule;
  Info.LaunchRules.clear();
  if (Size)
    Info.LaunchRules.push_back({LR::Exactly, Exact,
                                who(*Size, Components) +
                                    " needs a fixed block size "
                                    "(HETGPU_REQUIRE_BLOCK_SIZE)"});
  if (Warps)
    Info.LaunchRules.push_back(
        {LR::MultipleOf, 32, who(*Warps, Components) + " " + WarpsWhy});
  if (Max)
    Info.LaunchRules.push_back({LR::AtMost, Bound,
                                who(*Max, Components) +
                                    " was compiled for a bounded block size "
                                    "(HETGPU_MAX_BLOCK_SIZE)"});
  return Err;
}

} // namespace

Error checkLaunchGeometry(Module &M, ArrayRef<Component> Components,
                          ArrayRef<Geometry> Geometries) {
  auto Infos = readKernelInfo(M);
  if (!Infos)
    return Infos.takeError();
  Error Err = Error::success();
  std::set<const Function *> Done; // listed once per defining component
  for (auto &[F, K] : *Infos) {
    if (!originOf(*F) || !Done.insert(F).second)
      continue;
    if (Error E = kernelGeometry(*F, K, Components, Geometries))
      Err = joinErrors(std::move(Err), std::move(E));
    else if (!K.LaunchRules.empty())
      writeKernelMetadata(*F, K);
  }
  return Err;
}

} // namespace link
} // namespace hetgpu
