//===- FuseKernels.cpp - K kernels as one block-dispatched kernel --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements hetgpu/Transforms/FuseKernels.h: the checks that refuse a
/// fusion, the per-component copies with their block indices rewritten,
/// the dispatcher and its `!hetgpu.kernels` entry, and the link of
/// components from several modules.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Transforms/FuseKernels.h"

#include "hetgpu/ABI/Container.h"
#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Transforms/ExtractKernel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <algorithm>
#include <map>

#define DEBUG_TYPE "hetgpu-fuse-kernels"

using namespace llvm;

static cl::opt<std::string>
    FusePlan("hetgpu-fuse-plan", cl::Hidden,
             cl::desc("hetgpu-fuse-kernels: the components, "
                      "'kernel:gx,gy,gz:bx,by,bz;...'"));
static cl::opt<std::string>
    FuseName("hetgpu-fuse-name", cl::Hidden, cl::init("hetgpu_fused_kernel"),
             cl::desc("hetgpu-fuse-kernels: the fused kernel's name"));

namespace hetgpu {

namespace {

Error fuseError(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), "fusing kernels: " + Why);
}

/// A component with what the fusion needs of it.
struct Part {
  const FuseComponent *C = nullptr;
  Function *K = nullptr;
  const container::KernelInfo *Info = nullptr;
  uint64_t Start = 0, Blocks = 0;
  /// Its block is smaller than the fused one: the threads past it skip it.
  bool Guarded = false;
};

/// The global variables \p C refers to, through constant expressions.
void collectGlobals(const Constant *C, SmallPtrSetImpl<const Constant *> &Seen,
                    SmallPtrSetImpl<const GlobalVariable *> &Out) {
  if (!Seen.insert(C).second)
    return;
  if (auto *GV = dyn_cast<GlobalVariable>(C)) {
    Out.insert(GV);
    return;
  }
  if (isa<GlobalValue>(C))
    return;
  for (const Use &U : C->operands())
    if (auto *Op = dyn_cast<Constant>(U.get()))
      collectGlobals(Op, Seen, Out);
}

/// \p Name without the prefix linkForFusion gave it.
std::string sourceName(StringRef Name) {
  if (Name.consume_front("m")) {
    size_t Dot = Name.find('.');
    if (Dot != StringRef::npos && Dot > 0 &&
        all_of(Name.take_front(Dot), isDigit))
      return Name.drop_front(Dot + 1).str();
    return ("m" + Name).str();
  }
  return Name.str();
}

/// Why component \p P cannot be fused, or "" (the geometry is checked by
/// the caller).
std::string refusal(const Part &P) {
  if (P.Info->Features & container::FeatGrid)
    return "it uses grid-wide barriers (grid_group::sync), which would wait "
           "for the blocks of the other components";
  SmallPtrSet<const Constant *, 32> Seen;
  SmallPtrSet<const GlobalVariable *, 8> Globals;
  for (const Function *F : reachableFunctions(*P.K))
    for (const Instruction &I : instructions(*F)) {
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (!CB->getCalledFunction() && !CB->isInlineAsm())
          return "'" + sourceName(F->getName()) +
                 "' makes an indirect call, whose callee's block indices "
                 "cannot be rewritten";
      for (const Use &U : I.operands())
        if (auto *C = dyn_cast<Constant>(U.get()))
          collectGlobals(C, Seen, Globals);
    }
  for (const GlobalVariable *GV : Globals)
    if (GV->getAddressSpace() != AS_Shared && !GV->isConstant())
      return "it uses device variable '" + sourceName(GV->getName()) +
             "', which a fused module would hold a copy of";
  return "";
}

/// The fused block: the largest size of the components in each dimension.
void fusedBlock(ArrayRef<FuseComponent> Parts, uint32_t Out[3]) {
  for (unsigned D = 0; D < 3; ++D) {
    Out[D] = 0;
    for (const FuseComponent &C : Parts)
      Out[D] = std::max(Out[D], C.Block[D]);
  }
}

/// Why \p P cannot run in a larger block with its extra threads idle, or
/// "": a barrier would wait for them, a warp operation or the lane index
/// would see other lanes than the component's own.
std::string guardRefusal(const Part &P) {
  for (const Function *F : reachableFunctions(*P.K))
    for (const Instruction &I : instructions(*F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (auto BI = getCalledBuiltin(*CB))
          if (BI->Group == "barrier" || BI->Group == "warp" ||
              BI->Group == "grid" || BI->ID == BuiltinID::lane_id)
            return "'" + sourceName(F->getName()) + "' calls " + BI->Name.str();
  return "";
}

std::string dims(const uint32_t D[3]) {
  return std::to_string(D[0]) + "x" + std::to_string(D[1]) + "x" +
         std::to_string(D[2]);
}

/// Checks every component and lays out the block ranges.
Expected<std::vector<Part>>
planParts(Module &M, ArrayRef<FuseComponent> Parts,
          const std::map<Function *, container::KernelInfo> &Infos,
          long &Refused) {
  if (Parts.size() < 2)
    return fuseError("a fusion needs at least two components, got " +
                     Twine(Parts.size()));
  std::vector<Part> Out;
  uint64_t Start = 0, ParamBytes = 0;
  uint32_t Fused[3];
  fusedBlock(Parts, Fused);
  for (const FuseComponent &C : Parts) {
    Part P;
    P.C = &C;
    Refused = long(Out.size());
    P.K = M.getFunction(C.Kernel);
    auto It = P.K ? Infos.find(P.K) : Infos.end();
    if (It == Infos.end())
      return fuseError("the module has no kernel '" + C.Kernel + "'");
    P.Info = &It->second;
    std::string Name = "component " + std::to_string(Out.size()) + " ('" +
                       P.Info->Demangled + "')";
    for (unsigned D = 0; D < 3; ++D) {
      if (!C.Grid[D] || !C.Block[D])
        return fuseError(Name + ": a grid or block dimension is 0");
      P.Guarded |= C.Block[D] != Fused[D];
    }
    if (std::string Why = refusal(P); !Why.empty())
      return fuseError(Name + " is not fused: " + Why);
    if (P.Guarded)
      if (std::string Why = guardRefusal(P); !Why.empty())
        return fuseError(Name + " has block " + dims(C.Block) +
                         ", the fused block is " + dims(Fused) +
                         ": a smaller block runs with idle threads only "
                         "without barriers and warp operations, and " +
                         Why);
    P.Start = Start;
    P.Blocks = uint64_t(C.Grid[0]) * C.Grid[1] * C.Grid[2];
    Start += P.Blocks;
    ParamBytes += P.Info->ParamBufferSize + 8;
    Out.push_back(P);
  }
  Refused = -1;
  if (uint64_t(Fused[0]) * Fused[1] * Fused[2] > 1024)
    return fuseError("the fused block " + dims(Fused) +
                     " would have more than 1024 threads");
  if (Start > 0x7fffffffu)
    return fuseError("the fused grid would have " + Twine(Start) +
                     " blocks, more than 2^31-1");
  if (ParamBytes > container::MaxParamBufferSize)
    return fuseError("the fused kernel would take about " + Twine(ParamBytes) +
                     " bytes of parameters, more than CUDA's " +
                     Twine(container::MaxParamBufferSize));
  return Out;
}

/// The block index of a component, from the fused one: \p D is 0, 1 or 2.
Value *componentIndex(IRBuilder<> &B, Function *CtaX, const Part &P,
                      unsigned D) {
  Value *Local =
      B.CreateSub(B.CreateCall(CtaX), B.getInt32(P.Start), "fuse.block");
  uint32_t GX = P.C->Grid[0], GY = P.C->Grid[1];
  if (D == 0)
    return B.CreateURem(Local, B.getInt32(GX), "fuse.ctaid.x");
  if (D == 1)
    return B.CreateURem(B.CreateUDiv(Local, B.getInt32(GX)), B.getInt32(GY),
                        "fuse.ctaid.y");
  return B.CreateUDiv(Local, B.getInt32(GX * GY), "fuse.ctaid.z");
}

/// Rewrites the block-index builtins called in \p Fns for component \p P.
void rewriteIndices(ArrayRef<Function *> Fns, const Part &P, Function *CtaX) {
  static constexpr BuiltinID Ids[] = {
      BuiltinID::ctaid_x,  BuiltinID::ctaid_y,  BuiltinID::ctaid_z,
      BuiltinID::nctaid_x, BuiltinID::nctaid_y, BuiltinID::nctaid_z,
      BuiltinID::ntid_x,   BuiltinID::ntid_y,   BuiltinID::ntid_z};
  std::map<StringRef, unsigned> Which;
  for (unsigned I = 0; I < (P.Guarded ? 9u : 6u); ++I)
    Which[getBuiltinInfo(Ids[I]).Name] = I;
  for (Function *F : Fns) {
    SmallVector<CallInst *, 16> Calls;
    for (Instruction &I : instructions(*F))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (Function *Callee = CI->getCalledFunction())
          if (Which.count(Callee->getName()))
            Calls.push_back(CI);
    for (CallInst *CI : Calls) {
      unsigned W = Which[CI->getCalledFunction()->getName()];
      IRBuilder<> B(CI);
      Value *V =
          W < 3 ? componentIndex(B, CtaX, P, W) : B.getInt32(P.C->Grid[W - 3]);
      CI->replaceAllUsesWith(V);
      CI->eraseFromParent();
    }
  }
}

/// A copy of \p P's kernel and of every function it reaches, internal and
/// named after component \p I, its indices rewritten. Returns the kernel's.
Function *cloneComponent(Module &M, const Part &P, unsigned I, Function *CtaX) {
  std::vector<const Function *> Reach = reachableFunctions(*P.K);
  ValueToValueMapTy VMap;
  std::vector<Function *> Clones;
  for (const Function *F : Reach) {
    Function *NF = Function::Create(
        F->getFunctionType(), GlobalValue::InternalLinkage,
        F->getAddressSpace(), "fuse.c" + Twine(I) + "." + F->getName(), &M);
    VMap[F] = NF;
    Clones.push_back(NF);
  }
  for (size_t N = 0; N < Reach.size(); ++N) {
    Function *NF = Clones[N];
    auto DestArg = NF->arg_begin();
    for (const Argument &A : Reach[N]->args())
      VMap[&A] = &*DestArg++;
    SmallVector<ReturnInst *, 4> Returns;
    CloneFunctionInto(NF, Reach[N], VMap,
                      CloneFunctionChangeType::LocalChangesOnly, Returns);
    NF->setLinkage(GlobalValue::InternalLinkage);
    NF->setComdat(nullptr);
  }
  Clones.front()->removeFnAttr(KernelAttr);
  rewriteIndices(Clones, P, CtaX);
  return Clones.front();
}

/// The fused kernel's table entry: the components' parameters one after
/// another (each at its alignment), features and launch rules of all.
container::KernelInfo fusedInfo(ArrayRef<Part> Parts, StringRef Name) {
  container::KernelInfo Info;
  Info.Name = Name.str();
  Info.Demangled = "fused(";
  uint32_t Off = 0;
  for (const Part &P : Parts) {
    Info.Demangled += (&P == &Parts.front() ? "" : ", ") + P.Info->Demangled;
    for (container::ParamInfo Param : P.Info->Params) {
      uint32_t A = Param.Align ? Param.Align : 1;
      Off = (Off + A - 1) / A * A;
      Param.Offset = Off;
      Off += Param.Size;
      Info.Params.push_back(Param);
    }
    Info.Features |= P.Info->Features;
    if (P.Info->MaxThreads &&
        (!Info.MaxThreads || P.Info->MaxThreads < Info.MaxThreads))
      Info.MaxThreads = P.Info->MaxThreads;
    llvm::append_range(Info.LaunchRules, P.Info->LaunchRules);
  }
  Info.Demangled += ")";
  Info.ParamBufferSize = Off;
  return Info;
}

/// The dispatcher: block b calls the component whose range holds b; the
/// calls are inlined.
Function *buildDispatcher(Module &M, ArrayRef<Part> Parts,
                          ArrayRef<Function *> Comps, StringRef Name,
                          Function *CtaX) {
  SmallVector<Type *, 16> Params;
  for (const Part &P : Parts)
    llvm::append_range(Params, P.K->getFunctionType()->params());
  LLVMContext &C = M.getContext();
  auto *FT = FunctionType::get(Type::getVoidTy(C), Params, false);
  Function *F = Function::Create(FT, GlobalValue::ExternalLinkage, Name, &M);
  F->addFnAttr(KernelAttr);
  BasicBlock *BB = BasicBlock::Create(C, "entry", F);
  IRBuilder<> B(BB);
  Value *Block = B.CreateCall(CtaX, {}, "fuse.b");
  SmallVector<CallInst *, 16> Calls;
  unsigned ArgNo = 0;
  for (size_t I = 0; I < Parts.size(); ++I) {
    BasicBlock *Run = BasicBlock::Create(C, "fuse.run" + Twine(I), F);
    BasicBlock *Next = nullptr;
    if (I + 1 < Parts.size()) {
      Next = BasicBlock::Create(C, "fuse.next" + Twine(I), F);
      uint64_t End = Parts[I].Start + Parts[I].Blocks;
      B.CreateCondBr(B.CreateICmpULT(Block, B.getInt32(End)), Run, Next);
    } else {
      B.CreateBr(Run);
    }
    B.SetInsertPoint(Run);
    if (Parts[I].Guarded) {
      // Threads past the component's block skip it.
      static constexpr BuiltinID Tid[] = {BuiltinID::tid_x, BuiltinID::tid_y,
                                          BuiltinID::tid_z};
      Value *In = B.getTrue();
      for (unsigned D = 0; D < 3; ++D)
        In = B.CreateAnd(
            In,
            B.CreateICmpULT(B.CreateCall(getOrDeclareBuiltin(M, Tid[D])),
                            B.getInt32(Parts[I].C->Block[D])),
            "fuse.in");
      BasicBlock *Call = BasicBlock::Create(C, "fuse.call" + Twine(I), F);
      BasicBlock *Idle = BasicBlock::Create(C, "fuse.idle" + Twine(I), F);
      B.CreateCondBr(In, Call, Idle);
      B.SetInsertPoint(Idle);
      B.CreateRetVoid();
      B.SetInsertPoint(Call);
    }
    SmallVector<Value *, 8> Args;
    for (unsigned A = 0; A < Comps[I]->arg_size(); ++A)
      Args.push_back(F->getArg(ArgNo++));
    Calls.push_back(B.CreateCall(Comps[I], Args));
    B.CreateRetVoid();
    if (Next)
      B.SetInsertPoint(Next);
  }
  for (CallInst *CI : Calls) {
    InlineFunctionInfo IFI;
    (void)InlineFunction(*CI, IFI); // a recursive component stays a call
  }
  return F;
}

} // namespace

Expected<Function *> fuseKernels(Module &M, ArrayRef<FuseComponent> Parts,
                                 StringRef FusedName, long *Refused) {
  long Dummy;
  long &R = Refused ? *Refused : Dummy;
  R = -1;
  if (M.getFunction(FusedName))
    return fuseError("the module already has a symbol '" + FusedName + "'");
  auto All = readKernelInfo(M);
  if (!All)
    return All.takeError();
  std::map<Function *, container::KernelInfo> Infos(All->begin(), All->end());
  auto Planned = planParts(M, Parts, Infos, R);
  if (!Planned)
    return Planned.takeError();
  Function *CtaX = getOrDeclareBuiltin(M, BuiltinID::ctaid_x);
  std::vector<Function *> Comps;
  for (size_t I = 0; I < Planned->size(); ++I)
    Comps.push_back(cloneComponent(M, (*Planned)[I], I, CtaX));
  Function *F = buildDispatcher(M, *Planned, Comps, FusedName, CtaX);
  container::KernelInfo Info = fusedInfo(*Planned, FusedName);
  Info.StaticShared = computeSharedLayout(*F).Size;
  writeKernelMetadata(*F, Info);
  if (Error E = extractKernels(M, {FusedName}))
    return std::move(E);
  return F;
}

std::string fusedSymbol(unsigned J, StringRef Name) {
  return ("m" + Twine(J) + "." + Name).str();
}

Expected<std::unique_ptr<Module>>
linkForFusion(std::vector<std::unique_ptr<Module>> Mods) {
  if (Mods.empty())
    return fuseError("no modules to link");
  // Renamed, the definitions cannot collide; they stay external until the
  // link is done (the linker brings a local symbol of a source module only
  // when something it links refers to it, and metadata does not count).
  for (unsigned J = 0; J < Mods.size(); ++J)
    for (GlobalValue &GV : Mods[J]->global_values()) {
      if (GV.isDeclaration() || GV.getName().starts_with("llvm."))
        continue;
      GV.setName(fusedSymbol(J, GV.getName()));
      if (auto *GO = dyn_cast<GlobalObject>(&GV))
        GO->setComdat(nullptr);
    }
  std::unique_ptr<Module> Dest = std::move(Mods[0]);
  Linker L(*Dest);
  for (size_t J = 1; J < Mods.size(); ++J)
    if (L.linkInModule(std::move(Mods[J])))
      return fuseError("linking component module " + Twine(J) + " failed");
  for (GlobalValue &GV : Dest->global_values())
    if (!GV.isDeclaration() && !GV.getName().starts_with("llvm.")) {
      GV.setLinkage(GlobalValue::InternalLinkage);
      GV.setVisibility(GlobalValue::DefaultVisibility);
    }
  // Each module brought its version entry: one is kept.
  if (NamedMDNode *V = Dest->getNamedMetadata(VersionMD))
    Dest->eraseNamedMetadata(V);
  setIRVersion(*Dest);
  return std::move(Dest);
}

Expected<std::vector<FuseComponent>> parseFusePlan(StringRef Plan) {
  std::vector<FuseComponent> Out;
  SmallVector<StringRef, 8> Items;
  Plan.split(Items, ';', -1, false);
  for (StringRef Item : Items) {
    SmallVector<StringRef, 3> Fields;
    Item.split(Fields, ':');
    if (Fields.size() != 3)
      return fuseError("plan entry '" + Item +
                       "' is not 'kernel:gx,gy,gz:bx,by,bz'");
    FuseComponent C;
    C.Kernel = Fields[0].trim().str();
    for (unsigned W = 0; W < 2; ++W) {
      SmallVector<StringRef, 3> Dims;
      Fields[W + 1].split(Dims, ',');
      uint32_t *Dst = W ? C.Block : C.Grid;
      if (Dims.size() != 3)
        return fuseError("plan entry '" + Item + "' needs three dimensions");
      for (unsigned D = 0; D < 3; ++D)
        if (Dims[D].trim().getAsInteger(10, Dst[D]))
          return fuseError("plan entry '" + Item + "': '" + Dims[D] +
                           "' is no number");
    }
    Out.push_back(C);
  }
  return Out;
}

PreservedAnalyses FuseKernelsPass::run(Module &M, ModuleAnalysisManager &) {
  if (FusePlan.empty())
    return PreservedAnalyses::all();
  auto Parts = parseFusePlan(FusePlan);
  if (Parts) {
    auto F = fuseKernels(M, *Parts, FuseName);
    if (F)
      return PreservedAnalyses::none();
    M.getContext().emitError(toString(F.takeError()));
  } else {
    M.getContext().emitError(toString(Parts.takeError()));
  }
  return PreservedAnalyses::all();
}

} // namespace hetgpu
