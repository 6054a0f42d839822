//===- LowerInlinePTX.cpp - Lower inline PTX to LLVM IR and builtins ------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-lower-inline-ptx` finds every `call asm` in a CUDA device module
/// (triple nvptx*, or hetIR), reads its constraint string (outputs `=r`,
/// `=l`, `=h`, `=c`, `=b`, `=f`, `=d`; inputs of the same letters and `n`;
/// tied inputs `"0"`, which is how clang passes `+r`; the `~{memory}`
/// clobber), parses the PTX (InlinePTX/PTXParser.cpp) and lowers it
/// (InlinePTX/PTXLowering.cpp and its families) in front of the call, which
/// is then removed.
///
/// A `~{memory}` clobber keeps its meaning: unless the asm is a single
/// barrier or fence (already ordered), the lowered code is bracketed by
/// `__hetgpu_fence_block()`, so no memory access moves across it.
///
/// The carry flag of `add.cc`/`addc` chains lives in one i1 variable per
/// function, so a chain may span consecutive asm statements as it may with
/// nvcc; the variables are promoted to SSA at the end.
///
/// Errors (an instruction outside the subset, a malformed string, a memory
/// operand) are DiagnosticInfoInlineAsm reports carrying the `!srcloc`
/// cookie of the asm line, so clang prints them at the asm statement; the
/// call is then removed, so the error is reported once (an asm call that
/// reaches the hetIR verifier, because this pass did not run, is rejected
/// there).
///
/// USAGE: hetgpu-opt -passes=hetgpu-lower-inline-ptx in.ll -S
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Transforms/LowerInlinePTX.h"
#include "InlinePTX/PTXLowering.h"
#include "InlinePTX/PTXParser.h"
#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

#define DEBUG_TYPE "hetgpu-lower-inline-ptx"

STATISTIC(NumLowered, "Inline PTX statements lowered");
STATISTIC(NumRejected, "Inline PTX statements rejected");

namespace hetgpu {
namespace {

void report(CallInst &CI, unsigned Line, const Twine &Msg) {
  uint64_t Cookie = 0;
  if (MDNode *SL = CI.getMetadata("srcloc"); SL && SL->getNumOperands()) {
    unsigned Idx = std::min<unsigned>(Line, SL->getNumOperands() - 1);
    if (auto *C = mdconst::dyn_extract<ConstantInt>(SL->getOperand(Idx)))
      Cookie = C->getZExtValue();
  }
  std::string Full =
      ("in function '" + demangle(CI.getFunction()->getName()) + "': " + Msg)
          .str();
  if (!Cookie)
    Full += " (inline asm line " + std::to_string(Line + 1) + ")";
  CI.getContext().diagnose(DiagnosticInfoInlineAsm(Cookie, Full, DS_Error));
  ++NumRejected;
  // Reported once: the call goes, so the hetIR verifier does not repeat it.
  if (!CI.getType()->isVoidTy())
    CI.replaceAllUsesWith(PoisonValue::get(CI.getType()));
  CI.eraseFromParent();
}

/// The constraint facts Lowerer needs; false (with a message) for operand
/// kinds that cannot be lowered.
bool readConstraints(const InlineAsm &IA,
                     SmallVectorImpl<ptx::AsmOperandInfo> &Ops,
                     bool &MemoryClobber, std::string &Err) {
  for (const InlineAsm::ConstraintInfo &C : IA.ParseConstraints()) {
    std::string Code = C.Codes.empty() ? "" : C.Codes[0];
    if (C.Type == InlineAsm::isClobber) {
      MemoryClobber |= Code == "{memory}";
      continue;
    }
    if (C.Type == InlineAsm::isLabel) {
      Err = "asm goto is not supported";
      return false;
    }
    if (C.isIndirect) {
      Err = "memory operands ('m' constraints) are not supported; pass the "
            "address with \"l\" and use [%N]";
      return false;
    }
    ptx::AsmOperandInfo O;
    O.IsOutput = C.Type == InlineAsm::isOutput;
    if (!O.IsOutput && !Code.empty() && isDigit(Code[0]))
      O.TiedTo = std::stoi(Code);
    else if (Code.size() != 1 || !StringRef("rlhcbfdniqN").contains(Code[0])) {
      Err = "constraint '" + Code + "' is not supported (use r, l, h, c, b, "
            "f, d or n)";
      return false;
    }
    Ops.push_back(O);
  }
  return true;
}

/// The statement's one instruction, or null when it has none or several.
const ptx::Instr *soleInstruction(const std::vector<ptx::Stmt> &Stmts) {
  const ptx::Instr *Only = nullptr;
  for (const ptx::Stmt &S : Stmts)
    if (S.Kind == ptx::Stmt::Instruction) {
      if (Only)
        return nullptr;
      Only = &S.I;
    }
  return Only;
}

/// One barrier or fence: it orders memory itself.
bool isOrderingOnly(const std::vector<ptx::Stmt> &Stmts) {
  const ptx::Instr *I = soleInstruction(Stmts);
  if (!I)
    return false;
  StringRef Op = I->Opcode;
  return Op == "bar" || Op == "barrier" || Op == "membar" || Op == "fence";
}

/// The statement is `exit;` alone, unguarded.
bool isExitOnly(const std::vector<ptx::Stmt> &Stmts) {
  const ptx::Instr *I = soleInstruction(Stmts);
  return I && I->Opcode == "exit" && I->Ops.empty() && !I->Guarded;
}

class ModuleLowering {
public:
  explicit ModuleLowering(Module &M) : M(M) {}

  bool run() {
    bool Changed = false;
    for (Function &F : M) {
      SmallVector<CallInst *, 8> Calls;
      for (Instruction &I : instructions(F))
        if (auto *CI = dyn_cast<CallInst>(&I); CI && CI->isInlineAsm())
          Calls.push_back(CI);
      if (Calls.empty())
        continue;
      CFSlot = nullptr;
      for (CallInst *CI : Calls)
        Changed |= lowerCall(*CI);
      if (CFSlot) {
        DominatorTree DT(F);
        if (isAllocaPromotable(CFSlot))
          PromoteMemToReg({CFSlot}, DT);
      }
      // The lowering computes some values only one form needs (predicate
      // outputs, unused special registers): drop what nothing reads.
      SmallVector<WeakTrackingVH, 64> Dead;
      for (Instruction &I : instructions(F))
        if (isInstructionTriviallyDead(&I))
          Dead.push_back(&I);
      RecursivelyDeleteTriviallyDeadInstructions(Dead);
    }
    return Changed;
  }

private:
  Module &M;
  AllocaInst *CFSlot = nullptr;

  AllocaInst *carryFlag(Function &F) {
    if (CFSlot)
      return CFSlot;
    IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
    CFSlot = B.CreateAlloca(B.getInt1Ty(), nullptr, "ptx.cc.cf");
    B.CreateStore(B.getFalse(), CFSlot);
    return CFSlot;
  }

  /// `exit;` in a kernel (CUB's ThreadExit, inlined by the time hetgpu-raise
  /// runs) ends the thread: the kernel returns there. In any other function
  /// a return would not end the thread, so it is an error there.
  bool lowerExit(CallInst &CI) {
    Function &F = *CI.getFunction();
    if (F.getCallingConv() != CallingConv::PTX_Kernel ||
        !F.getReturnType()->isVoidTy()) {
      report(CI, 0,
             "PTX instruction 'exit' outside a kernel: it ends the thread, "
             "which only a return from the kernel can do in hetIR (make the "
             "function that holds it inline into the kernel)");
      return false;
    }
    BasicBlock *BB = CI.getParent();
    BasicBlock *Rest = BB->splitBasicBlock(std::next(CI.getIterator()));
    BB->getTerminator()->eraseFromParent();
    ReturnInst::Create(F.getContext(), BB);
    CI.eraseFromParent();
    if (pred_empty(Rest))
      DeleteDeadBlock(Rest);
    ++NumLowered;
    return true;
  }

  bool lowerCall(CallInst &CI) {
    auto *IA = cast<InlineAsm>(CI.getCalledOperand());
    SmallVector<ptx::AsmOperandInfo, 8> Ops;
    bool MemoryClobber = false;
    std::string Err;
    if (!readConstraints(*IA, Ops, MemoryClobber, Err)) {
      report(CI, 0, Err);
      return false;
    }
    std::vector<ptx::Stmt> Stmts;
    ptx::ParseError PE;
    if (!ptx::parse(IA->getAsmString(), Stmts, PE)) {
      report(CI, PE.Line, "cannot parse inline PTX: " + PE.Msg);
      return false;
    }
    Function &F = *CI.getFunction();
    if (isExitOnly(Stmts))
      return lowerExit(CI);
    bool Fence = MemoryClobber && !isOrderingOnly(Stmts);
    if (Fence)
      CallInst::Create(getOrDeclareBuiltin(M, BuiltinID::fence_block), "",
                       CI.getIterator());
    CallInst *After = nullptr;
    if (Fence)
      After = CallInst::Create(getOrDeclareBuiltin(M, BuiltinID::fence_block),
                               "", std::next(CI.getIterator()));
    ptx::Lowerer L(CI, Ops, [this, &F] { return carryFlag(F); });
    if (!L.run(Stmts)) {
      report(CI, L.ErrLine, L.ErrMsg);
      return false;
    }
    (void)After;
    ++NumLowered;
    return true;
  }
};

} // namespace

PreservedAnalyses LowerInlinePTXPass::run(Module &M, ModuleAnalysisManager &) {
  const Triple &T = M.getTargetTriple();
  if (!T.isNVPTX() && T.str() != HetIRTriple.str())
    return PreservedAnalyses::all(); // host code's asm is not ours
  return ModuleLowering(M).run() ? PreservedAnalyses::none()
                                 : PreservedAnalyses::all();
}

} // namespace hetgpu
