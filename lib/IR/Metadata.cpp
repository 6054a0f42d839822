//===- Metadata.cpp - hetIR kernel and state metadata ----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads and writes `!hetgpu.ir.version`, `!hetgpu.kernels` and
/// `!hetgpu.state` in the form docs/hetIR.md specifies, and computes the
/// shared-memory layout of a kernel.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/IR/Metadata.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace hetgpu::container;

namespace hetgpu {

namespace {

Metadata *i32MD(LLVMContext &C, uint64_t V) {
  return ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(C), V));
}
Metadata *i64MD(LLVMContext &C, uint64_t V) {
  return ConstantAsMetadata::get(ConstantInt::get(Type::getInt64Ty(C), V));
}
Metadata *strMD(LLVMContext &C, StringRef S) { return MDString::get(C, S); }

/// Replaces the operand of named list \p ListName whose first operand is
/// \p F with \p Node (or appends it).
void replaceEntry(Module &M, StringRef ListName, Function &F, MDNode *Node) {
  NamedMDNode *NMD = M.getOrInsertNamedMetadata(ListName);
  for (unsigned I = 0, E = NMD->getNumOperands(); I != E; ++I) {
    MDNode *Op = NMD->getOperand(I);
    if (Op->getNumOperands() == 0)
      continue;
    auto *VM = dyn_cast_or_null<ValueAsMetadata>(Op->getOperand(0).get());
    if (VM && VM->getValue() == &F) {
      NMD->setOperand(I, Node);
      return;
    }
  }
  NMD->addOperand(Node);
}

Error malformed(const Twine &What, StringRef Kernel) {
  return createStringError(inconvertibleErrorCode(),
                           "malformed hetIR metadata: " + What +
                               (Kernel.empty() ? "" : " (kernel " + Kernel + ")"));
}

std::optional<uint64_t> asInt(const Metadata *MD) {
  if (auto *C = dyn_cast_or_null<ConstantAsMetadata>(MD))
    if (auto *CI = dyn_cast<ConstantInt>(C->getValue()))
      return CI->getZExtValue();
  return std::nullopt;
}

std::optional<StringRef> asStr(const Metadata *MD) {
  if (auto *S = dyn_cast_or_null<MDString>(MD))
    return S->getString();
  return std::nullopt;
}

Function *entryFunction(const MDNode *N) {
  if (!N || N->getNumOperands() == 0)
    return nullptr;
  auto *VM = dyn_cast_or_null<ValueAsMetadata>(N->getOperand(0).get());
  return VM ? dyn_cast<Function>(VM->getValue()) : nullptr;
}

unsigned featureBit(StringRef Name) {
  for (unsigned B = 0; B < NumFeatures; ++B)
    if (Name == featureName(B))
      return 1u << B;
  return 0;
}

} // namespace

void setIRVersion(Module &M) {
  LLVMContext &C = M.getContext();
  NamedMDNode *N = M.getOrInsertNamedMetadata(VersionMD);
  N->clearOperands();
  N->addOperand(MDNode::get(C, {i32MD(C, IRVersionMajor), i32MD(C, IRVersionMinor)}));
}

Expected<std::pair<unsigned, unsigned>> getIRVersion(const Module &M) {
  const NamedMDNode *N = M.getNamedMetadata(VersionMD);
  if (!N || N->getNumOperands() != 1 || N->getOperand(0)->getNumOperands() != 2)
    return malformed("!hetgpu.ir.version is missing (not a hetIR module?)", "");
  auto Ma = asInt(N->getOperand(0)->getOperand(0));
  auto Mi = asInt(N->getOperand(0)->getOperand(1));
  if (!Ma || !Mi)
    return malformed("!hetgpu.ir.version is not two integers", "");
  return std::make_pair(unsigned(*Ma), unsigned(*Mi));
}

bool isRelocatable(const Module &M) {
  return M.getNamedMetadata(RelocatableMD) != nullptr;
}

void setRelocatable(Module &M, bool Relocatable) {
  if (Relocatable)
    M.getOrInsertNamedMetadata(RelocatableMD);
  else if (NamedMDNode *N = M.getNamedMetadata(RelocatableMD))
    M.eraseNamedMetadata(N);
}

bool isKernel(const Function &F) { return F.hasFnAttribute(KernelAttr); }

std::vector<Function *> getKernels(const Module &M) {
  std::vector<Function *> Ks;
  if (const NamedMDNode *N = M.getNamedMetadata(KernelsMD))
    for (const MDNode *Op : N->operands())
      if (Function *F = entryFunction(Op))
        Ks.push_back(F);
  return Ks;
}

void writeKernelMetadata(Function &F, const KernelInfo &Info) {
  LLVMContext &C = F.getContext();
  SmallVector<Metadata *, 8> Params;
  for (const ParamInfo &P : Info.Params)
    Params.push_back(MDNode::get(
        C, {strMD(C, paramKindName(P.Kind)), i32MD(C, P.Size), i32MD(C, P.Align)}));
  SmallVector<Metadata *, 8> Feats;
  for (unsigned B = 0; B < NumFeatures; ++B)
    if (Info.Features & (1u << B))
      Feats.push_back(strMD(C, featureName(B)));
  Metadata *Ops[] = {
      ValueAsMetadata::get(&F),
      strMD(C, "name"),
      strMD(C, Info.Demangled),
      strMD(C, "params"),
      MDNode::get(C, Params),
      strMD(C, "shared.static"),
      i64MD(C, Info.StaticShared),
      strMD(C, "features"),
      MDNode::get(C, Feats),
      strMD(C, "launch.bounds"),
      MDNode::get(C, {i32MD(C, Info.MaxThreads), i32MD(C, Info.MinBlocks)})};
  SmallVector<Metadata *, 12> All(std::begin(Ops), std::end(Ops));
  if (!Info.LaunchRules.empty()) {
    SmallVector<Metadata *, 4> Rules;
    for (const LaunchRule &LR : Info.LaunchRules)
      Rules.push_back(MDNode::get(C, {strMD(C, launchRuleKindName(LR.K)),
                                      i32MD(C, LR.Value), strMD(C, LR.Why)}));
    All.push_back(strMD(C, "launch.rules"));
    All.push_back(MDNode::get(C, Rules));
  }
  replaceEntry(*F.getParent(), KernelsMD, F, MDNode::get(C, All));
}

void writeStateMetadata(Function &F, ArrayRef<SafePointInfo> SafePoints) {
  LLVMContext &C = F.getContext();
  SmallVector<Metadata *, 8> Ops;
  Ops.push_back(ValueAsMetadata::get(&F));
  for (const SafePointInfo &SP : SafePoints) {
    SmallVector<Metadata *, 8> Slots;
    for (const SlotInfo &S : SP.Slots)
      Slots.push_back(MDNode::get(
          C, {strMD(C, slotKindName(S.Kind)), strMD(C, S.Type), i32MD(C, S.Offset),
              i32MD(C, S.Size), i32MD(C, S.Align)}));
    Ops.push_back(MDNode::get(C, {i32MD(C, SP.Id), strMD(C, safePointKindName(SP.Kind)),
                                  i32MD(C, SP.RecordSize), MDNode::get(C, Slots)}));
  }
  replaceEntry(*F.getParent(), StateMD, F, MDNode::get(C, Ops));
}

/// `"launch.rules"`: `!{!{!"multiple-of", i32 32, !"why"}, ...}`.
static Error readLaunchRules(const MDNode *L, KernelInfo &K) {
  if (!L)
    return malformed("\"launch.rules\" is not a list", K.Name);
  for (const MDOperand &RO : L->operands()) {
    auto *R = dyn_cast_or_null<MDNode>(RO.get());
    auto Kind =
        R && R->getNumOperands() == 3 ? asStr(R->getOperand(0)) : std::nullopt;
    auto V = Kind ? asInt(R->getOperand(1)) : std::nullopt;
    auto Why = V ? asStr(R->getOperand(2)) : std::nullopt;
    if (!Why || !*V)
      return malformed("launch rule is not {kind, value > 0, reason}", K.Name);
    LaunchRule LR;
    if (*Kind == "exactly")
      LR.K = LaunchRule::Exactly;
    else if (*Kind == "multiple-of")
      LR.K = LaunchRule::MultipleOf;
    else if (*Kind == "at-most")
      LR.K = LaunchRule::AtMost;
    else
      return malformed("unknown launch rule kind '" + *Kind + "'", K.Name);
    LR.Value = *V;
    LR.Why = Why->str();
    K.LaunchRules.push_back(std::move(LR));
  }
  return Error::success();
}

static Error readKernelNode(const MDNode *N, KernelInfo &K) {
  StringRef Name = K.Name;
  if ((N->getNumOperands() - 1) % 2 != 0)
    return malformed("!hetgpu.kernels entry has an odd key/value list", Name);
  for (unsigned I = 1; I + 1 < N->getNumOperands(); I += 2) {
    auto Key = asStr(N->getOperand(I));
    const Metadata *Val = N->getOperand(I + 1);
    if (!Key)
      return malformed("!hetgpu.kernels key is not a string", Name);
    if (*Key == "name") {
      auto S = asStr(Val);
      if (!S)
        return malformed("\"name\" is not a string", Name);
      K.Demangled = S->str();
    } else if (*Key == "params") {
      auto *L = dyn_cast_or_null<MDNode>(Val);
      if (!L)
        return malformed("\"params\" is not a list", Name);
      uint32_t Off = 0;
      for (const MDOperand &PO : L->operands()) {
        auto *P = dyn_cast_or_null<MDNode>(PO.get());
        if (!P || P->getNumOperands() != 3)
          return malformed("parameter entry is not {kind, size, align}", Name);
        auto Kind = asStr(P->getOperand(0));
        auto Size = asInt(P->getOperand(1));
        auto Align = asInt(P->getOperand(2));
        if (!Kind || !Size || !Align || *Align == 0 || (*Align & (*Align - 1)))
          return malformed("parameter entry has a bad kind, size or alignment", Name);
        ParamInfo PI;
        if (*Kind == "value")
          PI.Kind = ParamKind::Value;
        else if (*Kind == "ptr")
          PI.Kind = ParamKind::Pointer;
        else if (*Kind == "byval")
          PI.Kind = ParamKind::ByVal;
        else
          return malformed("unknown parameter kind '" + *Kind + "'", Name);
        PI.Size = *Size;
        PI.Align = *Align;
        Off = (Off + PI.Align - 1) & ~(PI.Align - 1);
        PI.Offset = Off;
        Off += PI.Size;
        K.Params.push_back(PI);
      }
      K.ParamBufferSize = Off;
    } else if (*Key == "shared.static") {
      auto V = asInt(Val);
      if (!V)
        return malformed("\"shared.static\" is not an integer", Name);
      K.StaticShared = *V;
    } else if (*Key == "features") {
      auto *L = dyn_cast_or_null<MDNode>(Val);
      if (!L)
        return malformed("\"features\" is not a list", Name);
      for (const MDOperand &FO : L->operands()) {
        auto S = asStr(FO.get());
        unsigned Bit = S ? featureBit(*S) : 0;
        if (!Bit)
          return malformed("unknown feature in \"features\"", Name);
        K.Features |= Bit;
      }
    } else if (*Key == "launch.bounds") {
      auto *L = dyn_cast_or_null<MDNode>(Val);
      if (!L || L->getNumOperands() != 2 || !asInt(L->getOperand(0)) ||
          !asInt(L->getOperand(1)))
        return malformed("\"launch.bounds\" is not {i32, i32}", Name);
      K.MaxThreads = *asInt(L->getOperand(0));
      K.MinBlocks = *asInt(L->getOperand(1));
    } else if (*Key == "launch.rules") {
      if (Error E = readLaunchRules(dyn_cast_or_null<MDNode>(Val), K))
        return E;
    }
    // Unknown keys are ignored: minor versions may add fields.
  }
  return Error::success();
}

static Error readStateNode(const MDNode *N, KernelInfo &K) {
  StringRef Name = K.Name;
  for (unsigned I = 1; I < N->getNumOperands(); ++I) {
    auto *SPN = dyn_cast_or_null<MDNode>(N->getOperand(I).get());
    if (!SPN || SPN->getNumOperands() != 4)
      return malformed("safe point is not {id, kind, record size, slots}", Name);
    SafePointInfo SP;
    auto Id = asInt(SPN->getOperand(0));
    auto Kind = asStr(SPN->getOperand(1));
    auto Rec = asInt(SPN->getOperand(2));
    auto *Slots = dyn_cast_or_null<MDNode>(SPN->getOperand(3).get());
    if (!Id || !Kind || !Rec || !Slots)
      return malformed("safe point fields have the wrong types", Name);
    SP.Id = *Id;
    SP.RecordSize = *Rec;
    if (*Kind == "entry")
      SP.Kind = SafePointKind::Entry;
    else if (*Kind == "barrier")
      SP.Kind = SafePointKind::Barrier;
    else if (*Kind == "loop-latch")
      SP.Kind = SafePointKind::LoopLatch;
    else if (*Kind == "thread-loop")
      SP.Kind = SafePointKind::ThreadLoop;
    else
      return malformed("unknown safe point kind '" + *Kind + "'", Name);
    for (const MDOperand &SO : Slots->operands()) {
      auto *S = dyn_cast_or_null<MDNode>(SO.get());
      if (!S || S->getNumOperands() != 5)
        return malformed("slot is not {kind, type, offset, size, align}", Name);
      auto SK = asStr(S->getOperand(0));
      auto Ty = asStr(S->getOperand(1));
      auto Off = asInt(S->getOperand(2));
      auto Size = asInt(S->getOperand(3));
      auto Al = asInt(S->getOperand(4));
      if (!SK || !Ty || !Off || !Size || !Al)
        return malformed("slot fields have the wrong types", Name);
      SlotInfo SI;
      if (*SK == "value")
        SI.Kind = SlotKind::Value;
      else if (*SK == "private-ptr")
        SI.Kind = SlotKind::PrivatePtr;
      else if (*SK == "shared-ptr")
        SI.Kind = SlotKind::SharedPtr;
      else if (*SK == "memory")
        SI.Kind = SlotKind::Memory;
      else
        return malformed("unknown slot kind '" + *SK + "'", Name);
      SI.Type = Ty->str();
      SI.Offset = *Off;
      SI.Size = *Size;
      SI.Align = *Al;
      if (uint64_t(SI.Offset) + SI.Size > SP.RecordSize)
        return malformed("slot lies outside its record at safe point " +
                             Twine(SP.Id),
                         Name);
      SP.Slots.push_back(std::move(SI));
    }
    K.StateRecordSize = std::max(K.StateRecordSize, SP.RecordSize);
    K.SafePoints.push_back(std::move(SP));
  }
  return Error::success();
}

Expected<std::vector<std::pair<Function *, KernelInfo>>>
readKernelInfo(const Module &M) {
  std::vector<std::pair<Function *, KernelInfo>> Out;
  if (const NamedMDNode *N = M.getNamedMetadata(KernelsMD)) {
    for (const MDNode *Op : N->operands()) {
      Function *F = entryFunction(Op);
      if (!F)
        return malformed("!hetgpu.kernels entry does not name a function", "");
      KernelInfo K;
      K.Name = F->getName().str();
      if (Error E = readKernelNode(Op, K))
        return std::move(E);
      Out.emplace_back(F, std::move(K));
    }
  }
  if (const NamedMDNode *N = M.getNamedMetadata(StateMD)) {
    for (const MDNode *Op : N->operands()) {
      Function *F = entryFunction(Op);
      auto It = llvm::find_if(Out, [&](auto &P) { return P.first == F; });
      if (!F || It == Out.end())
        return malformed("!hetgpu.state entry names no kernel", "");
      if (Error E = readStateNode(Op, It->second))
        return std::move(E);
    }
  }
  return Out;
}

std::vector<GlobalInfo> collectGlobals(const Module &M) {
  std::vector<GlobalInfo> Gs;
  const DataLayout &DL = M.getDataLayout();
  for (const GlobalVariable &G : M.globals()) {
    unsigned AS = G.getAddressSpace();
    if ((AS != AS_Global && AS != AS_Constant) || G.hasLocalLinkage() ||
        G.getName().starts_with("llvm."))
      continue;
    GlobalInfo GI;
    GI.Name = G.getName().str();
    GI.Size = DL.getTypeAllocSize(G.getValueType());
    GI.AddrSpace = AS;
    Gs.push_back(std::move(GI));
  }
  return Gs;
}

int getSafePointId(const CallBase &CB) {
  if (MDNode *N = CB.getMetadata(SafePointMD))
    if (N->getNumOperands() == 1)
      if (auto V = asInt(N->getOperand(0)))
        return int(*V);
  return -1;
}

/// Collects the addrspace(3) globals used (directly or through constant
/// expressions) by instructions of \p F.
static void collectSharedUses(const Function &F,
                              SmallPtrSetImpl<const GlobalVariable *> &Out) {
  SmallVector<const Value *, 16> Work;
  SmallPtrSet<const Value *, 32> Seen;
  for (const Instruction &I : instructions(F))
    for (const Value *Op : I.operands())
      Work.push_back(Op);
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    if (auto *GV = dyn_cast<GlobalVariable>(V)) {
      if (GV->getAddressSpace() == AS_Shared)
        Out.insert(GV);
      continue;
    }
    if (auto *CE = dyn_cast<ConstantExpr>(V))
      for (const Value *Op : CE->operands())
        Work.push_back(Op);
  }
}

std::vector<const Function *> reachableFunctions(const Function &Root) {
  SetVector<const Function *> Reach;
  Reach.insert(&Root);
  for (unsigned I = 0; I < Reach.size(); ++I)
    for (const Instruction &Inst : instructions(*Reach[I]))
      if (auto *CB = dyn_cast<CallBase>(&Inst))
        if (const Function *Callee = CB->getCalledFunction())
          if (!Callee->isDeclaration())
            Reach.insert(Callee);
  return {Reach.begin(), Reach.end()};
}

SharedLayout computeSharedLayout(const Function &Kernel) {
  std::vector<const Function *> Reach = reachableFunctions(Kernel);
  SmallPtrSet<const GlobalVariable *, 16> Used;
  for (const Function *F : Reach)
    collectSharedUses(*F, Used);

  SharedLayout L;
  const Module &M = *Kernel.getParent();
  const DataLayout &DL = M.getDataLayout();
  for (const GlobalVariable &G : M.globals()) {
    if (!Used.count(&G) || G.isDeclaration())
      continue;
    uint64_t Align = G.getAlign() ? G.getAlign()->value()
                                  : DL.getPrefTypeAlign(G.getValueType()).value();
    L.Size = (L.Size + Align - 1) & ~(Align - 1);
    L.Vars.emplace_back(const_cast<GlobalVariable *>(&G), L.Size);
    L.Size += DL.getTypeAllocSize(G.getValueType());
  }
  return L;
}

} // namespace hetgpu
