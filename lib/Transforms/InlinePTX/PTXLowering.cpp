//===- PTXLowering.cpp - Operands, mov, special registers, warp, barriers -===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The core of Lowerer (slots, operand conversion, guards, dispatch) and the
/// instruction families that map onto hetIR builtins: `mov` and the special
/// registers, `shfl`/`vote`/`match`/`activemask`/`redux`, `bar`/`barrier`,
/// `membar`/`fence`, `trap`, and the hints that lower to nothing
/// (`nanosleep`, `prefetch`, `pmevent`, ...). docs/InlinePTX.md lists the
/// subset and the choices made for special registers without a builtin.
///
//===----------------------------------------------------------------------===//

#include "InlinePTX/PTXLowering.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace hetgpu {
namespace ptx {

PTXType parseType(StringRef Mod) {
  PTXType T;
  if (Mod == "pred")
    return {'p', 1};
  if (Mod == "bf16")
    return {'h', 16};
  if (Mod.size() < 2 || !StringRef("busf").contains(Mod[0]))
    return T;
  unsigned Bits;
  if (Mod.substr(1).getAsInteger(10, Bits))
    return T;
  if (Mod[0] == 'f' ? (Bits != 16 && Bits != 32 && Bits != 64)
                    : (Bits != 8 && Bits != 16 && Bits != 32 && Bits != 64))
    return T;
  return {Mod[0], Bits};
}

Lowerer::Lowerer(CallInst &Call, ArrayRef<AsmOperandInfo> Operands,
                 std::function<AllocaInst *()> CFSlot)
    : B(&Call), M(*Call.getModule()), Call(Call), Operands(Operands),
      CFSlot(std::move(CFSlot)) {}

bool Lowerer::fail(const Twine &Msg) {
  ErrMsg = Msg.str();
  ErrLine = Cur ? Cur->Line : 0;
  return false;
}

bool Lowerer::unsupported(const Twine &Why) {
  std::string W = Why.str();
  return fail("unsupported PTX instruction '" + Cur->fullName() + "'" +
              (W.empty() ? "" : " (" + W + ")"));
}

Type *Lowerer::llvmType(PTXType T) {
  LLVMContext &C = M.getContext();
  switch (T.Kind) {
  case 'p':
    return Type::getInt1Ty(C);
  case 'h':
    return Type::getBFloatTy(C);
  case 'f':
    return T.Bits == 16 ? Type::getHalfTy(C)
                        : T.Bits == 32 ? Type::getFloatTy(C) : Type::getDoubleTy(C);
  default:
    return IntegerType::get(C, T.Bits);
  }
}

PTXType Lowerer::instrType(unsigned N) {
  for (const std::string &Mo : Cur->Mods)
    if (PTXType T = parseType(Mo); T.valid() && N-- == 0)
      return T;
  return {};
}

bool Lowerer::expectOps(unsigned N) {
  if (Cur->Ops.size() == N)
    return true;
  return fail("'" + Cur->fullName() + "' takes " + Twine(N) + " operands, " +
              Twine(Cur->Ops.size()) + " given");
}

Value *Lowerer::convert(Value *V, Type *Ty, bool Signed) {
  Type *S = V->getType();
  if (S == Ty)
    return V;
  if (S->isPointerTy()) {
    if (Ty->isPointerTy())
      return B.CreateAddrSpaceCast(V, Ty);
    V = B.CreatePtrToInt(V, B.getInt64Ty());
    return convert(V, Ty, Signed);
  }
  if (Ty->isPointerTy())
    return B.CreateIntToPtr(convert(V, B.getInt64Ty(), false), Ty);
  if (S->isIntegerTy() && Ty->isIntegerTy()) {
    if (Ty->isIntegerTy(1))
      return B.CreateICmpNE(V, ConstantInt::get(S, 0));
    if (S->getIntegerBitWidth() > Ty->getIntegerBitWidth())
      return B.CreateTrunc(V, Ty);
    return Signed && !S->isIntegerTy(1) ? B.CreateSExt(V, Ty) : B.CreateZExt(V, Ty);
  }
  unsigned SB = S->getPrimitiveSizeInBits(), TB = Ty->getPrimitiveSizeInBits();
  if (SB == TB)
    return B.CreateBitCast(V, Ty);
  Value *I = S->isIntegerTy() ? V : B.CreateBitCast(V, B.getIntNTy(SB));
  Type *TI = Ty->isIntegerTy() ? Ty : B.getIntNTy(TB);
  I = convert(I, TI, Signed);
  return I->getType() == Ty ? I : B.CreateBitCast(I, Ty);
}

int Lowerer::lookupReg(StringRef Name) {
  for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It)
    if (auto F = It->find(Name); F != It->end())
      return F->second;
  return -1;
}

bool Lowerer::declare(const RegDecl &D) {
  PTXType T = parseType(D.Type);
  if (!T.valid())
    return fail("register type '." + D.Type + "' is not supported");
  if (Scopes.empty())
    Scopes.emplace_back(); // registers declared outside braces
  Type *Ty = llvmType(T);
  for (const std::string &N : D.Names) {
    Scopes.back()[N] = Slots.size();
    Slots.push_back(Constant::getNullValue(Ty));
    SlotTypes.push_back(Ty);
  }
  return true;
}

Value *Lowerer::builtin(BuiltinID ID, ArrayRef<Value *> Args) {
  Function *F = getOrDeclareBuiltin(M, ID);
  return B.CreateCall(F, Args);
}

Value *Lowerer::linearTid() {
  Value *X = builtin(BuiltinID::tid_x), *Y = builtin(BuiltinID::tid_y),
        *Z = builtin(BuiltinID::tid_z);
  Value *NX = builtin(BuiltinID::ntid_x), *NY = builtin(BuiltinID::ntid_y);
  return B.CreateAdd(X, B.CreateMul(NX, B.CreateAdd(Y, B.CreateMul(NY, Z))));
}

Value *Lowerer::laneId() { return builtin(BuiltinID::lane_id); }

Value *Lowerer::specialReg(StringRef N) {
  if (!N.consume_front("%"))
    return nullptr;
  static const struct {
    const char *Name;
    BuiltinID ID;
  } Direct[] = {
      {"tid.x", BuiltinID::tid_x},       {"tid.y", BuiltinID::tid_y},
      {"tid.z", BuiltinID::tid_z},       {"ntid.x", BuiltinID::ntid_x},
      {"ntid.y", BuiltinID::ntid_y},     {"ntid.z", BuiltinID::ntid_z},
      {"ctaid.x", BuiltinID::ctaid_x},   {"ctaid.y", BuiltinID::ctaid_y},
      {"ctaid.z", BuiltinID::ctaid_z},   {"nctaid.x", BuiltinID::nctaid_x},
      {"nctaid.y", BuiltinID::nctaid_y}, {"nctaid.z", BuiltinID::nctaid_z},
      {"laneid", BuiltinID::lane_id},    {"clock", BuiltinID::clock},
      {"clock64", BuiltinID::clock64},   {"globaltimer", BuiltinID::globaltimer},
  };
  for (const auto &D : Direct)
    if (N == D.Name)
      return builtin(D.ID);
  Value *One = B.getInt32(1);
  if (N.starts_with("lanemask_")) {
    StringRef K = N.substr(9);
    if (K != "eq" && K != "le" && K != "lt" && K != "ge" && K != "gt")
      return nullptr;
    Value *L = laneId();
    if (K == "eq")
      return B.CreateShl(One, L);
    bool Le = K == "le" || K == "gt"; // gt = ~le, ge = ~lt
    Value *Mask = B.CreateSub(B.CreateShl(B.getInt32(Le ? 2 : 1), L), One);
    return K == "le" || K == "lt" ? Mask : B.CreateNot(Mask);
  }
  // No builtin: %warpid is the thread's warp within its block (a valid
  // value: PTX only promises an id of a warp the thread may run on),
  // %nwarpid the number of warps of the block, and every block runs on
  // "SM" 0 of 1.
  if (N == "warpid")
    return B.CreateLShr(linearTid(), 5);
  if (N == "nwarpid") {
    Value *T = B.CreateMul(builtin(BuiltinID::ntid_x),
                           B.CreateMul(builtin(BuiltinID::ntid_y),
                                       builtin(BuiltinID::ntid_z)));
    return B.CreateLShr(B.CreateAdd(T, B.getInt32(31)), 5);
  }
  if (N == "smid")
    return B.getInt32(0);
  if (N == "nsmid")
    return B.getInt32(1);
  if (N == "clock_hi")
    return B.CreateTrunc(B.CreateLShr(builtin(BuiltinID::clock64), 32),
                         B.getInt32Ty());
  if (N == "globaltimer_lo")
    return B.CreateTrunc(builtin(BuiltinID::globaltimer), B.getInt32Ty());
  if (N == "globaltimer_hi")
    return B.CreateTrunc(B.CreateLShr(builtin(BuiltinID::globaltimer), 32),
                         B.getInt32Ty());
  return nullptr;
}

Value *Lowerer::operandValue(const Operand &O, Type *Ty, bool Signed) {
  Value *V = nullptr;
  switch (O.Kind) {
  case Operand::Arg:
    if (O.ArgNo >= ArgSlot.size()) {
      fail("operand $" + Twine(O.ArgNo) + " does not exist (the asm has " +
           Twine(ArgSlot.size()) + " operands)");
      return nullptr;
    }
    V = convert(Slots[ArgSlot[O.ArgNo]], Ty, Signed);
    break;
  case Operand::Reg: {
    int S = lookupReg(O.Name);
    if (S >= 0) {
      V = convert(Slots[S], Ty, Signed);
      break;
    }
    V = specialReg(O.Name);
    if (!V) {
      fail("unknown register '" + O.Name + "'");
      return nullptr;
    }
    V = convert(V, Ty, false);
    break;
  }
  case Operand::Imm:
    if (Ty->isIntegerTy(1))
      V = B.getInt1(O.Int != 0);
    else if (Ty->isIntegerTy()) // PTX literals are 64-bit, truncated to the type
      V = ConstantInt::get(Ty, APInt(64, uint64_t(O.Int), /*isSigned=*/true)
                                   .sextOrTrunc(Ty->getIntegerBitWidth()));
    else if (Ty->isFloatingPointTy())
      V = ConstantFP::get(Ty, double(O.Int));
    break;
  case Operand::FImm:
    if (O.FBitsWidth) {
      Type *IT = B.getIntNTy(O.FBitsWidth);
      Type *FT = O.FBitsWidth == 32 ? B.getFloatTy() : B.getDoubleTy();
      Value *C = ConstantInt::get(IT, O.FBits);
      V = convert(Ty->isFloatingPointTy() && Ty != FT
                      ? B.CreateFPCast(B.CreateBitCast(C, FT), Ty)
                      : C,
                  Ty, false);
    } else if (Ty->isFloatingPointTy()) {
      V = ConstantFP::get(Ty, O.FP);
    }
    break;
  default:
    break;
  }
  if (!V) {
    fail("operand '" + (O.Kind == Operand::Reg ? O.Name : std::string("?")) +
         "' has the wrong form for '" + Cur->fullName() + "'");
    return nullptr;
  }
  if (O.Negated) {
    if (!V->getType()->isIntegerTy(1)) {
      fail("'!' applies only to predicates");
      return nullptr;
    }
    V = B.CreateNot(V);
  }
  return V;
}

Value *Lowerer::read(const Operand &O, Type *Ty, bool Signed) {
  return operandValue(O, Ty, Signed);
}

Value *Lowerer::read(const Operand &O, PTXType T) {
  return operandValue(O, llvmType(T), T.isSigned());
}

bool Lowerer::write(const Operand &O, Value *V, bool Signed) {
  if (!V)
    return false;
  int S = -1;
  if (O.Kind == Operand::Sink)
    return true;
  if (O.Kind == Operand::Arg) {
    if (O.ArgNo >= ArgSlot.size())
      return fail("operand $" + Twine(O.ArgNo) + " does not exist");
    S = ArgSlot[O.ArgNo];
  } else if (O.Kind == Operand::Reg) {
    S = lookupReg(O.Name);
    if (S < 0)
      return fail("write to undeclared or read-only register '" + O.Name + "'");
  } else {
    return fail("destination of '" + Cur->fullName() + "' is not a register");
  }
  Value *NV = convert(V, SlotTypes[S], Signed);
  if (Guard)
    NV = B.CreateSelect(Guard, NV, Slots[S]);
  Slots[S] = NV;
  return true;
}

Value *Lowerer::readCF() {
  if (!CF)
    CF = B.CreateLoad(B.getInt1Ty(), CFSlot(), "ptx.cf");
  return CF;
}

void Lowerer::writeCF(Value *V) {
  if (Guard)
    V = B.CreateSelect(Guard, V, readCF());
  CF = V;
  CFWritten = true;
}

Value *Lowerer::shl(Value *X, Value *N) {
  unsigned W = X->getType()->getIntegerBitWidth();
  N = convert(N, X->getType(), false);
  Value *Big = B.CreateICmpUGE(N, ConstantInt::get(X->getType(), W));
  Value *Safe = B.CreateAnd(N, ConstantInt::get(X->getType(), W - 1));
  return B.CreateSelect(Big, ConstantInt::get(X->getType(), 0), B.CreateShl(X, Safe));
}

Value *Lowerer::lshr(Value *X, Value *N) {
  unsigned W = X->getType()->getIntegerBitWidth();
  N = convert(N, X->getType(), false);
  Value *Big = B.CreateICmpUGE(N, ConstantInt::get(X->getType(), W));
  Value *Safe = B.CreateAnd(N, ConstantInt::get(X->getType(), W - 1));
  return B.CreateSelect(Big, ConstantInt::get(X->getType(), 0), B.CreateLShr(X, Safe));
}

Value *Lowerer::ashr(Value *X, Value *N) {
  unsigned W = X->getType()->getIntegerBitWidth();
  N = convert(N, X->getType(), false);
  Value *Max = ConstantInt::get(X->getType(), W - 1);
  Value *Clamped = B.CreateSelect(B.CreateICmpUGT(N, Max), Max, N);
  return B.CreateAShr(X, Clamped);
}

Value *Lowerer::casLoop(Value *Ptr, Type *Ty,
                        const std::function<Value *(Value *)> &NewFn,
                        AtomicOrdering Ord) {
  LoadInst *Init =
      B.CreateAlignedLoad(Ty, Ptr, Align(Ty->getPrimitiveSizeInBits() / 8));
  Init->setAtomic(AtomicOrdering::Monotonic);
  BasicBlock *Head = B.GetInsertBlock();
  BasicBlock *Tail = SplitBlock(Head, B.GetInsertPoint());
  BasicBlock *Loop = BasicBlock::Create(M.getContext(), "ptx.cas", Head->getParent(), Tail);
  Head->getTerminator()->setSuccessor(0, Loop);
  B.SetInsertPoint(Loop);
  PHINode *Old = B.CreatePHI(Ty, 2, "ptx.old");
  Old->addIncoming(Init, Head);
  Value *New = NewFn(Old);
  auto *CX = B.CreateAtomicCmpXchg(Ptr, Old, New, MaybeAlign(),
                                   Ord == AtomicOrdering::NotAtomic
                                       ? AtomicOrdering::Monotonic
                                       : Ord,
                                   AtomicOrdering::Monotonic);
  Value *Seen = B.CreateExtractValue(CX, 0);
  Old->addIncoming(Seen, Loop);
  B.CreateCondBr(B.CreateExtractValue(CX, 1), Tail, Loop);
  B.SetInsertPoint(&*Tail->begin());
  return Seen;
}

// ---- Dispatch ----------------------------------------------------------------

namespace {
/// Instructions whose lowering has no side effects: under a guard they
/// become selects instead of a branch.
bool isPure(StringRef Op) {
  static const char *const Pure[] = {
      "add",  "sub",  "mul",   "mad",   "mul24", "mad24", "sad",  "div",
      "rem",  "abs",  "neg",   "min",   "max",   "popc",  "clz",  "bfind",
      "fns",  "brev", "bfe",   "bfi",   "prmt",  "lop3",  "and",  "or",
      "xor",  "not",  "cnot",  "shl",   "shr",   "shf",   "dp4a", "dp2a",
      "addc", "subc", "madc",  "mov",   "cvt",   "cvta",  "setp", "selp",
      "set",  "slct", "testp", "copysign", "rcp", "sqrt", "rsqrt", "ex2",
      "lg2",  "sin",  "cos",   "tanh",  "fma",   "vadd",  "vsub", "vshl",
      "vshr", "vmin", "vmax",  "vabsdiff"};
  for (const char *P : Pure)
    if (Op == P)
      return true;
  return false;
}

/// Every modifier some family reads; any other one (a rounding mode, a
/// scope, a packed type we do not model) makes the instruction unsupported
/// rather than silently ignored.
bool isKnownModifier(StringRef Mo) {
  if (parseType(Mo).valid() || Mo.contains("::"))
    return true; // types; cache eviction and L2 hints
  static const char *const Known[] = {
      // warp, barrier, fence
      "sync", "up", "down", "bfly", "idx", "all", "any", "uni", "ballot",
      "aligned", "warp", "red", "popc", "arrive", "cta", "gl", "gpu", "sys",
      "cluster", "sc", "acq_rel", "proxy", "mbarrier_init",
      // memory
      "global", "shared", "local", "const", "param", "tex", "surf", "nc",
      "ca", "cg", "cs", "lu", "cv", "wb", "wt", "volatile", "relaxed",
      "acquire", "release", "weak", "v2", "v4", "v8", "to", "exch", "cas",
      "inc", "dec", "noftz", "L1", "L2",
      // arithmetic
      "add", "min", "max", "and", "or", "xor", "lo", "hi", "wide", "cc",
      "sat", "relu", "NaN", "wrap", "clamp", "l", "r", "shiftamt", "f4e",
      "b4e", "rc8", "ecl", "ecr", "rc16",
      // floating point and comparisons
      "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "ftz", "approx",
      "full", "eq", "ne", "lt", "le", "gt", "ge", "ls", "hs", "equ", "neu",
      "ltu", "leu", "gtu", "geu", "num", "nan", "finite", "infinite",
      "number", "notanumber", "normal", "subnormal"};
  for (const char *K : Known)
    if (Mo == K)
      return true;
  return false;
}
} // namespace

bool Lowerer::dispatch(const Instr &I) {
  for (const std::string &Mo : I.Mods)
    if (!isKnownModifier(Mo))
      return unsupported("modifier '." + Mo + "'");
  bool Handled = true;
  using Family = bool (Lowerer::*)(const Instr &, bool &);
  static const Family Families[] = {
      &Lowerer::lowerControl, &Lowerer::lowerWarp,  &Lowerer::lowerInt,
      &Lowerer::lowerBits,    &Lowerer::lowerFloat, &Lowerer::lowerCvt,
      &Lowerer::lowerMemory};
  for (Family F : Families) {
    Handled = true;
    bool Ok = (this->*F)(I, Handled);
    if (Handled)
      return Ok;
  }
  return unsupported();
}

bool Lowerer::lowerInstr(const Instr &I) {
  Cur = &I;
  if (!I.OperandError.empty())
    return unsupported("cannot parse its operands: " + I.OperandError);
  if (!I.Guarded)
    return dispatch(I);
  Value *G = read(I.Guard, B.getInt1Ty());
  if (!G)
    return false;
  if (isPure(I.Opcode)) {
    Guard = G;
    bool Ok = dispatch(I);
    Guard = nullptr;
    return Ok;
  }
  std::vector<Value *> Snap = Slots;
  BasicBlock *Head = B.GetInsertBlock();
  Instruction *Then = SplitBlockAndInsertIfThen(G, Call.getIterator(), false);
  B.SetInsertPoint(Then);
  if (!dispatch(I))
    return false;
  BasicBlock *ThenEnd = B.GetInsertBlock();
  BasicBlock *Tail = Call.getParent();
  IRBuilder<> PB(Tail, Tail->begin());
  for (unsigned S = 0; S < Snap.size(); ++S) {
    if (Slots[S] == Snap[S])
      continue;
    PHINode *P = PB.CreatePHI(SlotTypes[S], 2);
    P->addIncoming(Slots[S], ThenEnd);
    P->addIncoming(Snap[S], Head);
    Slots[S] = P;
  }
  B.SetInsertPoint(&Call);
  return true;
}

bool Lowerer::run(const std::vector<Stmt> &Stmts) {
  Type *RetTy = Call.getType();
  unsigned NumOut = 0;
  for (const AsmOperandInfo &O : Operands)
    NumOut += O.IsOutput;
  unsigned OutIdx = 0, InIdx = 0;
  for (const AsmOperandInfo &O : Operands) {
    if (O.IsOutput) {
      Type *T = NumOut == 1 ? RetTy : cast<StructType>(RetTy)->getElementType(OutIdx);
      ++OutIdx;
      ArgSlot.push_back(Slots.size());
      Slots.push_back(Constant::getNullValue(T));
      SlotTypes.push_back(T);
      continue;
    }
    Value *A = Call.getArgOperand(InIdx++);
    if (O.TiedTo >= 0 && unsigned(O.TiedTo) < ArgSlot.size()) {
      unsigned S = ArgSlot[O.TiedTo];
      Slots[S] = convert(A, SlotTypes[S], false);
      ArgSlot.push_back(S);
      continue;
    }
    ArgSlot.push_back(Slots.size());
    Slots.push_back(A);
    SlotTypes.push_back(A->getType());
  }
  for (const Stmt &St : Stmts) {
    switch (St.Kind) {
    case Stmt::BeginScope:
      Scopes.emplace_back();
      break;
    case Stmt::EndScope:
      if (Scopes.empty()) {
        ErrMsg = "unbalanced '}'";
        ErrLine = St.Line;
        return false;
      }
      Scopes.pop_back();
      break;
    case Stmt::Decl:
      Cur = nullptr;
      if (!declare(St.D)) {
        ErrLine = St.Line;
        return false;
      }
      break;
    case Stmt::Instruction:
      if (!lowerInstr(St.I))
        return false;
      break;
    }
  }
  if (CFWritten)
    B.CreateStore(CF, CFSlot());
  if (NumOut == 1) {
    Call.replaceAllUsesWith(Slots[ArgSlot[0]]);
  } else if (NumOut > 1) {
    Value *Agg = PoisonValue::get(RetTy);
    for (unsigned K = 0; K < NumOut; ++K)
      Agg = B.CreateInsertValue(Agg, Slots[ArgSlot[K]], K);
    Call.replaceAllUsesWith(Agg);
  }
  Call.eraseFromParent();
  return true;
}

// ---- mov, control and hints ------------------------------------------------

bool Lowerer::lowerMov(const Instr &I) {
  PTXType T = instrType();
  if (!T.valid())
    return unsupported("missing type");
  if (!expectOps(2))
    return false;
  const Operand &D = I.Ops[0], &S = I.Ops[1];
  if (D.Kind == Operand::Vector) { // unpack: mov.b64 {lo, hi}, x
    unsigned N = D.Elems.size(), W = T.Bits / N;
    Value *X = read(S, B.getIntNTy(T.Bits));
    for (unsigned K = 0; K < N && X; ++K)
      if (!write(D.Elems[K], B.CreateTrunc(K ? B.CreateLShr(X, K * W) : X,
                                           B.getIntNTy(W))))
        return false;
    return X != nullptr;
  }
  if (S.Kind == Operand::Vector) { // pack: mov.b64 x, {lo, hi}
    unsigned N = S.Elems.size(), W = T.Bits / N;
    Value *Acc = nullptr;
    for (unsigned K = 0; K < N; ++K) {
      Value *E = read(S.Elems[K], B.getIntNTy(W));
      if (!E)
        return false;
      E = B.CreateZExt(E, B.getIntNTy(T.Bits));
      Acc = K ? B.CreateOr(Acc, B.CreateShl(E, K * W)) : E;
    }
    return write(D, Acc);
  }
  return write(D, read(S, T), T.isSigned());
}

bool Lowerer::lowerControl(const Instr &I, bool &Handled) {
  StringRef Op = I.Opcode;
  if (Op == "mov")
    return lowerMov(I);
  if (Op == "bar" || Op == "barrier")
    return lowerBarrier(I);
  if (Op == "membar" || Op == "fence")
    return lowerFence(I);
  if (Op == "trap") {
    builtin(BuiltinID::trap);
    return true;
  }
  if (Op == "exit")
    return unsupported("'exit' is lowered only as a statement of its own, "
                       "`asm(\"exit;\")` in a kernel (a return from it)");
  if (Op == "nanosleep") {
    // Sleeping for any time in [0, 2t] is allowed; hetIR sleeps for none.
    return expectOps(1) && read(I.Ops[0], B.getInt32Ty());
  }
  if (Op == "prefetch" || Op == "prefetchu" || Op == "pmevent" ||
      Op == "discard" || Op == "brkpt")
    return true; // performance hints and debugging aids: no effect to keep
  Handled = false;
  return false;
}

bool Lowerer::lowerBarrier(const Instr &I) {
  bool Red = I.hasMod("red");
  if (I.hasMod("arrive"))
    return unsupported("arrive-only barriers cannot be expressed in hetIR");
  if (!Red && !I.hasMod("sync") && !(I.Opcode == "barrier" && I.Mods.empty()) &&
      !(I.Opcode == "bar" && I.Mods.empty()))
    return unsupported();
  if (I.hasMod("warp")) {
    if (!expectOps(1))
      return false;
    Value *Mask = read(I.Ops[0], B.getInt32Ty());
    if (Mask)
      builtin(BuiltinID::syncwarp, {Mask});
    return Mask != nullptr;
  }
  // The barrier number and the thread count are not kept: every barrier is
  // the block barrier (docs/InlinePTX.md).
  if (!Red) {
    if (I.Ops.empty() || I.Ops.size() > 2)
      return expectOps(1);
    builtin(BuiltinID::barrier);
    return true;
  }
  if (I.Ops.size() < 3 || I.Ops.size() > 4)
    return expectOps(3);
  Value *P = read(I.Ops.back(), B.getInt1Ty());
  if (!P)
    return false;
  Value *P32 = B.CreateZExt(P, B.getInt32Ty());
  if (I.hasMod("popc"))
    return write(I.Ops[0], builtin(BuiltinID::barrier_count, {P32}));
  BuiltinID ID;
  if (I.hasMod("and"))
    ID = BuiltinID::barrier_and;
  else if (I.hasMod("or"))
    ID = BuiltinID::barrier_or;
  else
    return unsupported();
  return write(I.Ops[0], B.CreateICmpNE(builtin(ID, {P32}), B.getInt32(0)));
}

bool Lowerer::lowerFence(const Instr &I) {
  if (I.hasMod("proxy") || I.hasMod("mbarrier_init"))
    return unsupported("proxy fences have no hetIR equivalent");
  if (!I.Ops.empty())
    return expectOps(0);
  if (I.hasMod("cta"))
    builtin(BuiltinID::fence_block);
  else if (I.hasMod("gl") || I.hasMod("gpu") || I.hasMod("cluster"))
    builtin(BuiltinID::fence_device);
  else if (I.hasMod("sys"))
    builtin(BuiltinID::fence_system);
  else
    return unsupported("missing scope");
  return true;
}

// ---- Warp ----------------------------------------------------------------------

bool Lowerer::lowerWarp(const Instr &I, bool &Handled) {
  StringRef Op = I.Opcode;
  if (Op == "shfl")
    return lowerShfl(I);
  if (Op == "vote")
    return lowerVote(I);
  if (Op == "match")
    return lowerMatch(I);
  if (Op == "activemask")
    return expectOps(1) && write(I.Ops[0], builtin(BuiltinID::activemask));
  if (Op == "redux") {
    // redux.sync.<op>.<type> d, a, mask: a butterfly over the warp.
    PTXType T = instrType();
    if (!expectOps(3) || T.Bits != 32 || T.isFloat())
      return T.Bits != 32 || T.isFloat() ? unsupported() : false;
    Value *V = read(I.Ops[1], B.getInt32Ty());
    Value *Mask = read(I.Ops[2], B.getInt32Ty());
    if (!V || !Mask)
      return false;
    bool S = T.isSigned();
    for (unsigned Off = 16; Off; Off /= 2) {
      Value *O = builtin(BuiltinID::shfl_xor_i32,
                         {Mask, V, B.getInt32(Off), B.getInt32(32)});
      if (I.hasMod("add"))
        V = B.CreateAdd(V, O);
      else if (I.hasMod("and"))
        V = B.CreateAnd(V, O);
      else if (I.hasMod("or"))
        V = B.CreateOr(V, O);
      else if (I.hasMod("xor"))
        V = B.CreateXor(V, O);
      else if (I.hasMod("min"))
        V = B.CreateSelect(S ? B.CreateICmpSLT(V, O) : B.CreateICmpULT(V, O), V, O);
      else if (I.hasMod("max"))
        V = B.CreateSelect(S ? B.CreateICmpSGT(V, O) : B.CreateICmpUGT(V, O), V, O);
      else
        return unsupported();
    }
    return write(I.Ops[0], V);
  }
  Handled = false;
  return false;
}

bool Lowerer::lowerShfl(const Instr &I) {
  bool Sync = I.hasMod("sync");
  if (I.Ops.size() != (Sync ? 5u : 4u))
    return expectOps(Sync ? 5 : 4);
  if (!I.hasMod("b32"))
    return unsupported("only .b32 shuffles exist");
  char Mode = I.hasMod("up") ? 'u' : I.hasMod("down") ? 'd'
            : I.hasMod("bfly") ? 'b' : I.hasMod("idx") ? 'i' : 0;
  if (!Mode)
    return unsupported("missing mode");
  Type *I32 = B.getInt32Ty();
  Value *A = read(I.Ops[1], I32), *Bv = read(I.Ops[2], I32), *C = read(I.Ops[3], I32);
  Value *Mask = Sync ? read(I.Ops[4], I32) : builtin(BuiltinID::activemask);
  if (!A || !Bv || !C || !Mask)
    return false;
  const Operand &Dst = I.Ops[0];
  bool WantP = Dst.Kind == Operand::Pair;
  auto *CC = dyn_cast<ConstantInt>(C);
  uint64_t CV = CC ? CC->getZExtValue() : 0;
  unsigned Width = 32 - ((CV >> 8) & 31);
  bool Canonical = CC && (CV >> 13) == 0 && isPowerOf2_32(Width) &&
                   (CV & 31) == (Mode == 'u' ? 0u : 31u);
  Value *BVal = B.CreateAnd(Bv, 31);
  Value *D = nullptr, *P = nullptr;
  if (Canonical) {
    // The form CUDA's __shfl_*_sync(mask, v, b, width) produces.
    BuiltinID ID = Mode == 'u' ? BuiltinID::shfl_up_i32
                 : Mode == 'd' ? BuiltinID::shfl_down_i32
                 : Mode == 'b' ? BuiltinID::shfl_xor_i32 : BuiltinID::shfl_idx_i32;
    D = builtin(ID, {Mask, A, BVal, B.getInt32(Width)});
  }
  if (!Canonical || WantP) {
    // PTX ISA: the source lane j and the in-range predicate.
    Value *Lane = laneId();
    Value *CVal = B.CreateAnd(C, 31);
    Value *Seg = B.CreateAnd(B.CreateLShr(C, 8), 31);
    Value *NotSeg = B.CreateNot(Seg);
    Value *MaxLane = B.CreateOr(B.CreateAnd(Lane, Seg), B.CreateAnd(CVal, NotSeg));
    Value *J;
    switch (Mode) {
    case 'u':
      J = B.CreateSub(Lane, BVal);
      P = B.CreateICmpSGE(J, MaxLane);
      break;
    case 'd':
      J = B.CreateAdd(Lane, BVal);
      P = B.CreateICmpSLE(J, MaxLane);
      break;
    case 'b':
      J = B.CreateXor(Lane, BVal);
      P = B.CreateICmpSLE(J, MaxLane);
      break;
    default:
      J = B.CreateOr(B.CreateAnd(Lane, Seg), B.CreateAnd(BVal, NotSeg));
      P = B.CreateICmpSLE(J, MaxLane);
      break;
    }
    if (!D) {
      Value *Src = B.CreateSelect(P, J, Lane);
      D = builtin(BuiltinID::shfl_idx_i32, {Mask, A, Src, B.getInt32(32)});
    }
  }
  if (WantP)
    return write(Dst.Elems[0], D) && write(Dst.Elems[1], P);
  return write(Dst, D);
}

bool Lowerer::lowerVote(const Instr &I) {
  bool Sync = I.hasMod("sync");
  if (I.Ops.size() != (Sync ? 3u : 2u))
    return expectOps(Sync ? 3 : 2);
  Type *I32 = B.getInt32Ty();
  Value *P = read(I.Ops[1], B.getInt1Ty());
  Value *Mask = Sync ? read(I.Ops[2], I32) : builtin(BuiltinID::activemask);
  if (!P || !Mask)
    return false;
  Value *P32 = B.CreateZExt(P, I32);
  Value *Zero = B.getInt32(0);
  if (I.hasMod("ballot"))
    return write(I.Ops[0], builtin(BuiltinID::vote_ballot, {Mask, P32}));
  if (I.hasMod("all"))
    return write(I.Ops[0],
                 B.CreateICmpNE(builtin(BuiltinID::vote_all, {Mask, P32}), Zero));
  if (I.hasMod("any"))
    return write(I.Ops[0],
                 B.CreateICmpNE(builtin(BuiltinID::vote_any, {Mask, P32}), Zero));
  if (I.hasMod("uni")) {
    Value *All = B.CreateICmpNE(builtin(BuiltinID::vote_all, {Mask, P32}), Zero);
    Value *Any = B.CreateICmpNE(builtin(BuiltinID::vote_any, {Mask, P32}), Zero);
    return write(I.Ops[0], B.CreateOr(All, B.CreateNot(Any)));
  }
  return unsupported("missing mode");
}

bool Lowerer::lowerMatch(const Instr &I) {
  if (!I.hasMod("sync"))
    return unsupported();
  if (!expectOps(3))
    return false;
  PTXType T = instrType();
  if (T.Bits != 32 && T.Bits != 64)
    return unsupported("match takes .b32 or .b64");
  Type *I32 = B.getInt32Ty();
  Value *A = read(I.Ops[1], B.getIntNTy(T.Bits));
  Value *Mask = read(I.Ops[2], I32);
  if (!A || !Mask)
    return false;
  Value *Any;
  if (T.Bits == 32) {
    Any = builtin(BuiltinID::match_any_i32, {Mask, A});
  } else {
    Value *Lo = B.CreateTrunc(A, I32), *Hi = B.CreateTrunc(B.CreateLShr(A, 32), I32);
    Any = B.CreateAnd(builtin(BuiltinID::match_any_i32, {Mask, Lo}),
                      builtin(BuiltinID::match_any_i32, {Mask, Hi}));
  }
  const Operand &Dst = I.Ops[0];
  if (I.hasMod("any"))
    return write(Dst, Any);
  if (!I.hasMod("all"))
    return unsupported("missing mode");
  Value *Eq = B.CreateICmpEQ(Any, Mask);
  Value *D = B.CreateSelect(Eq, Mask, B.getInt32(0));
  if (Dst.Kind == Operand::Pair)
    return write(Dst.Elems[0], D) && write(Dst.Elems[1], Eq);
  return write(Dst, D);
}

} // namespace ptx
} // namespace hetgpu
