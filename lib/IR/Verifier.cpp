//===- Verifier.cpp - Check that a module is portable hetIR ---------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The hetIR verifier. It runs at the end of hetgpu-cc's device pipeline and
/// again in the translator before any target sees a module, so a target can
/// rely on docs/hetIR.md holding.
///
/// USAGE: hetgpu-opt -passes=hetgpu-verify in.ll -disable-output
///
//===----------------------------------------------------------------------===//

#include "hetgpu/IR/Verifier.h"
#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"
#include "hetgpu/Support/Diagnostics.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace hetgpu {
namespace {

/// Target-independent intrinsics that every target lowers (docs/hetIR.md).
bool isPortableIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::memcpy:
  case Intrinsic::memcpy_inline:
  case Intrinsic::memmove:
  case Intrinsic::memset:
  case Intrinsic::memset_inline:
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::expect:
  case Intrinsic::expect_with_probability:
  case Intrinsic::sqrt:
  case Intrinsic::fabs:
  case Intrinsic::floor:
  case Intrinsic::ceil:
  case Intrinsic::trunc:
  case Intrinsic::round:
  case Intrinsic::roundeven:
  case Intrinsic::rint:
  case Intrinsic::nearbyint:
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
  case Intrinsic::minnum:
  case Intrinsic::maxnum:
  case Intrinsic::minimum:
  case Intrinsic::maximum:
  case Intrinsic::minimumnum:
  case Intrinsic::maximumnum:
  case Intrinsic::copysign:
  case Intrinsic::ldexp:
  case Intrinsic::frexp:
  case Intrinsic::ctpop:
  case Intrinsic::ctlz:
  case Intrinsic::cttz:
  case Intrinsic::bitreverse:
  case Intrinsic::bswap:
  case Intrinsic::fshl:
  case Intrinsic::fshr:
  case Intrinsic::abs:
  case Intrinsic::smin:
  case Intrinsic::smax:
  case Intrinsic::umin:
  case Intrinsic::umax:
  case Intrinsic::sadd_with_overflow:
  case Intrinsic::uadd_with_overflow:
  case Intrinsic::ssub_with_overflow:
  case Intrinsic::usub_with_overflow:
  case Intrinsic::smul_with_overflow:
  case Intrinsic::umul_with_overflow:
  case Intrinsic::sadd_sat:
  case Intrinsic::uadd_sat:
  case Intrinsic::ssub_sat:
  case Intrinsic::usub_sat:
  case Intrinsic::is_fpclass:
  case Intrinsic::lround:
  case Intrinsic::llround:
  case Intrinsic::lrint:
  case Intrinsic::llrint:
  case Intrinsic::stacksave:
  case Intrinsic::stackrestore:
  case Intrinsic::vector_reduce_add:
  case Intrinsic::vector_reduce_mul:
  case Intrinsic::vector_reduce_and:
  case Intrinsic::vector_reduce_or:
  case Intrinsic::vector_reduce_xor:
  case Intrinsic::vector_reduce_smax:
  case Intrinsic::vector_reduce_smin:
  case Intrinsic::vector_reduce_umax:
  case Intrinsic::vector_reduce_umin:
  case Intrinsic::vector_reduce_fadd:
  case Intrinsic::vector_reduce_fmul:
  case Intrinsic::vector_reduce_fmax:
  case Intrinsic::vector_reduce_fmin:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_label:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::launder_invariant_group:
  case Intrinsic::strip_invariant_group:
  case Intrinsic::umul_fix:
  case Intrinsic::smul_fix:
  case Intrinsic::scmp:
  case Intrinsic::ucmp:
  case Intrinsic::fptosi_sat:
  case Intrinsic::fptoui_sat:
  case Intrinsic::ptrmask:
  case Intrinsic::threadlocal_address:
  case Intrinsic::trap:
  case Intrinsic::ubsantrap:
  case Intrinsic::donothing:
  case Intrinsic::objectsize:
  case Intrinsic::is_constant:
  case Intrinsic::allow_runtime_check:
  case Intrinsic::allow_ubsan_check:
  case Intrinsic::fake_use:
  case Intrinsic::canonicalize:
    return true;
  default:
    return false;
  }
}

class HetIRChecker {
public:
  explicit HetIRChecker(const Module &M)
      : M(M), Relocatable(isRelocatable(M)) {}

  void problem(const Function *F, const Twine &Msg, const Instruction *I = nullptr) {
    std::string S = F ? ("in function '" + F->getName() + "': " + Msg).str()
                      : Msg.str();
    if (I && I->getDebugLoc()) {
      const DebugLoc &DL = I->getDebugLoc();
      S += " (line " + std::to_string(DL.getLine()) + ")";
    }
    Problems.push_back(S);
  }

  void run() {
    checkModule();
    for (const Function &F : M)
      checkFunction(F);
    checkMetadata();
  }

  std::vector<std::string> Problems;

private:
  const Module &M;
  bool Relocatable;

  void checkModule() {
    if (M.getTargetTriple().str() != HetIRTriple.str())
      problem(nullptr, "module triple is '" + M.getTargetTriple().str() +
                           "', hetIR requires '" + HetIRTriple + "'");
    auto V = getIRVersion(M);
    if (!V)
      problem(nullptr, toString(V.takeError()));
    else if (V->first != IRVersionMajor)
      problem(nullptr, "hetIR version " + Twine(V->first) + "." +
                           Twine(V->second) + " is not supported (expected " +
                           Twine(IRVersionMajor) + ".x)");
    if (!M.getModuleInlineAsm().empty())
      problem(nullptr, "module-level inline assembly is not portable");
    for (const GlobalVariable &G : M.globals()) {
      unsigned AS = G.getAddressSpace();
      if (AS != AS_Generic && AS != AS_Global && AS != AS_Shared &&
          AS != AS_Constant)
        problem(nullptr, "global '" + G.getName() + "' is in address space " +
                             Twine(AS) + ", which hetIR does not define");
      if (AS == AS_Shared && G.isDeclaration())
        problem(nullptr, "shared variable '" + G.getName() +
                             "' is a declaration; dynamic shared memory must "
                             "use __hetgpu_dynamic_shared()");
    }
  }

  void checkCall(const Function &F, const CallBase &CB) {
    if (CB.isInlineAsm()) {
      std::string Asm = cast<InlineAsm>(CB.getCalledOperand())->getAsmString().str();
      if (Asm.size() > 40)
        Asm = Asm.substr(0, 40) + "...";
      problem(&F, "inline assembly '" + Asm + "' is not portable", &CB);
      return;
    }
    const Function *Callee = CB.getCalledFunction();
    if (!Callee)
      return; // indirect call: fine
    StringRef N = Callee->getName();
    if (Callee->isIntrinsic()) {
      if (Callee->isTargetIntrinsic())
        problem(&F, "target intrinsic '" + N + "' is not portable", &CB);
      else if (!isPortableIntrinsic(Callee->getIntrinsicID()))
        problem(&F, "intrinsic '" + N + "' is not in hetIR's portable subset",
                &CB);
      return;
    }
    if (N.starts_with(BuiltinPrefix)) {
      auto BI = lookupBuiltin(N);
      if (!BI)
        problem(&F, "'" + N + "' is not a hetIR builtin (Builtins.def)", &CB);
      else if (!hasBuiltinType(*Callee, BI->ID))
        problem(&F, "builtin '" + N + "' is declared with the wrong type", &CB);
      return;
    }
    // Relocatable hetIR (-dc) may call what another component defines; the
    // device link reports what stays undefined.
    if (Callee->isDeclaration() && !Relocatable)
      problem(&F,
              "call of undefined function '" + N +
                  "' (device code can only call device functions "
                  "defined in the same translation unit and builtins; "
                  "compile with -dc / -rdc=true to link device code "
                  "across files)",
              &CB);
  }

  void checkFunction(const Function &F) {
    if (F.isDeclaration())
      return;
    if (F.isVarArg())
      problem(&F, "variadic device functions are not supported");
    if (F.hasFnAttribute("target-cpu") || F.hasFnAttribute("target-features"))
      problem(&F, "carries target-specific attributes");
    for (const Instruction &I : instructions(F)) {
      if (auto *CB = dyn_cast<CallBase>(&I))
        checkCall(F, *CB);
      if (auto *AI = dyn_cast<AllocaInst>(&I))
        if (AI->getAddressSpace() != AS_Generic)
          problem(&F, "alloca in address space " +
                          Twine(AI->getAddressSpace()) +
                          " (hetIR allocas are in address space 0)",
                  &I);
      for (const Value *Op : I.operands())
        if (auto *PT = dyn_cast<PointerType>(Op->getType())) {
          unsigned AS = PT->getAddressSpace();
          if (AS > AS_Private || AS == 2) {
            problem(&F, "pointer in address space " + Twine(AS) +
                            ", which hetIR does not define",
                    &I);
            break;
          }
        }
    }
  }

  /// Each parameter of \p K as the IR has it: pointers are pointers,
  /// byval parameters carry `byval(T)` with T's alloc size, values their
  /// type's alloc size.
  void checkParams(const Function &F, const container::KernelInfo &K) {
    const DataLayout &DL = M.getDataLayout();
    for (const Argument &A : F.args()) {
      const container::ParamInfo &P = K.Params[A.getArgNo()];
      Type *BT = A.getParamByValType();
      bool KindOK = BT ? P.Kind == container::ParamKind::ByVal
                       : P.Kind == (A.getType()->isPointerTy()
                                        ? container::ParamKind::Pointer
                                        : container::ParamKind::Value);
      uint64_t Size = DL.getTypeAllocSize(BT ? BT : A.getType());
      if (!KindOK)
        problem(&F, "!hetgpu.kernels gives parameter " + Twine(A.getArgNo()) +
                        " kind " + container::paramKindName(P.Kind) +
                        ", which its IR type contradicts");
      else if (P.Size != Size)
        problem(&F, "!hetgpu.kernels gives parameter " + Twine(A.getArgNo()) +
                        " " + Twine(P.Size) + " bytes, its IR type has " +
                        Twine(Size));
    }
  }

  void checkMetadata() {
    auto Infos = readKernelInfo(M);
    if (!Infos) {
      problem(nullptr, toString(Infos.takeError()));
      return;
    }
    for (auto &[F, K] : *Infos) {
      if (!isKernel(*F))
        problem(F, "listed in !hetgpu.kernels without the \"hetgpu-kernel\" attribute");
      if (K.Params.size() != F->arg_size())
        problem(F, "!hetgpu.kernels lists " + Twine(K.Params.size()) +
                       " parameters, the function has " + Twine(F->arg_size()));
      else
        checkParams(*F, K);
      if (K.SafePoints.empty())
        continue;
      // Every safe-point call must match its metadata entry.
      unsigned Seen = 0;
      for (const Instruction &I : instructions(*F)) {
        auto *CB = dyn_cast<CallBase>(&I);
        if (!CB)
          continue;
        auto BI = getCalledBuiltin(*CB);
        if (!BI || !(BI->Flags & BF_SafePoint))
          continue;
        ++Seen;
        int Id = getSafePointId(*CB);
        auto SP = llvm::find_if(K.SafePoints, [&](auto &S) {
          return Id >= 0 && S.Id == unsigned(Id);
        });
        if (SP == K.SafePoints.end()) {
          problem(F, "barrier without a safe-point id in !hetgpu.state", CB);
          continue;
        }
        auto Bundle = CB->getOperandBundle(LiveBundle);
        size_t N = Bundle ? Bundle->Inputs.size() : 0;
        if (N != SP->Slots.size())
          problem(F, "safe point " + Twine(Id) + " has " + Twine(N) +
                         " live values but !hetgpu.state lists " +
                         Twine(SP->Slots.size()) + " slots",
                  CB);
      }
      if (Seen + 1 != K.SafePoints.size())
        problem(F, "!hetgpu.state lists " + Twine(K.SafePoints.size()) +
                       " safe points, the kernel has " + Twine(Seen + 1));
    }
  }
};

} // namespace

Error verifyHetIR(const Module &M) {
  HetIRChecker C(M);
  C.run();
  Error Err = Error::success();
  for (const std::string &P : C.Problems)
    Err = joinErrors(std::move(Err),
                     createStringError(inconvertibleErrorCode(), "hetIR: " + P));
  return Err;
}

PreservedAnalyses VerifyHetIRPass::run(Module &M, ModuleAnalysisManager &) {
  HetIRChecker C(M);
  C.run();
  if (C.Problems.empty())
    return PreservedAnalyses::all();
  // One diagnostic listing every problem, so a single run shows them all.
  std::string Msg = "hetIR verification failed:";
  for (const std::string &P : C.Problems)
    Msg += "\n  " + P;
  M.getContext().diagnose(DiagnosticInfoGeneric(Msg, DS_Error));
  return PreservedAnalyses::all();
}

} // namespace hetgpu
