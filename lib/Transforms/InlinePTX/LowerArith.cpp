//===- LowerArith.cpp - Integer and bit-manipulation PTX instructions -----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Integer arithmetic (`add`/`sub`/`mul`/`mad` with `.lo`/`.hi`/`.wide`,
/// `.sat`, the carry chains `add.cc`/`addc`/`sub.cc`/`subc`/`mad.cc`/`madc`,
/// `mul24`/`mad24`, `sad`, `div`/`rem`, `abs`/`neg`/`min`/`max`), logic and
/// shifts, `dp4a`/`dp2a`, the scalar video instructions CUB uses
/// (`vadd`/`vsub`/`vabsdiff`/`vmin`/`vmax`/`vshl`/`vshr` with a secondary
/// operation), and the bit instructions (`popc`, `clz`, `bfind`, `fns`,
/// `brev`, `bfe`, `bfi`, `prmt`, `lop3`, `shf`). Each follows the pseudo-code
/// of the PTX ISA, including its results for out-of-range shift amounts,
/// positions and lengths (LLVM would give poison).
///
//===----------------------------------------------------------------------===//

#include "InlinePTX/PTXLowering.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace hetgpu {
namespace ptx {

namespace {

Value *extTo(IRBuilder<> &B, Value *V, unsigned Bits, bool Signed) {
  Type *T = B.getIntNTy(Bits);
  return Signed ? B.CreateSExt(V, T) : B.CreateZExt(V, T);
}

Value *minMax(IRBuilder<> &B, Value *A, Value *C, bool Signed, bool Max) {
  Value *Lt = Signed ? B.CreateICmpSLT(A, C) : B.CreateICmpULT(A, C);
  return Max ? B.CreateSelect(Lt, C, A) : B.CreateSelect(Lt, A, C);
}

/// `fns` as the PTX ISA writes it (a loop), once per module.
Function *fnsHelper(Module &M) {
  if (Function *F = M.getFunction("hetgpu.ptx.fns"))
    return F;
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C);
  auto *F = Function::Create(FunctionType::get(I32, {I32, I32, I32}, false),
                             GlobalValue::InternalLinkage, "hetgpu.ptx.fns", M);
  F->addFnAttr(Attribute::AlwaysInline);
  F->setDoesNotAccessMemory();
  Value *Mask = F->getArg(0), *Base = F->getArg(1), *Off = F->getArg(2);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Loop = BasicBlock::Create(C, "loop", F);
  BasicBlock *Body = BasicBlock::Create(C, "body", F);
  BasicBlock *Exit = BasicBlock::Create(C, "exit", F);
  IRBuilder<> B(Entry);
  Value *Zero = B.getInt32(0), *None = B.getInt32(~0u);
  Value *Pos0 = B.CreateAnd(Base, 31);
  Value *IsZero = B.CreateICmpEQ(Off, Zero);
  Value *BaseSet = B.CreateTrunc(B.CreateLShr(Mask, Pos0), B.getInt1Ty());
  Value *ZeroRes = B.CreateSelect(BaseSet, Pos0, None);
  Value *Neg = B.CreateICmpSLT(Off, Zero);
  Value *Inc = B.CreateSelect(Neg, None, B.getInt32(1));
  Value *Count0 = B.CreateSub(B.CreateSelect(Neg, B.CreateNeg(Off), Off), B.getInt32(1));
  B.CreateCondBr(IsZero, Exit, Loop);
  B.SetInsertPoint(Loop);
  PHINode *Pos = B.CreatePHI(I32, 2, "pos");
  PHINode *Count = B.CreatePHI(I32, 2, "count");
  Pos->addIncoming(Pos0, Entry);
  Count->addIncoming(Count0, Entry);
  Value *InRange = B.CreateICmpULT(Pos, B.getInt32(32));
  BasicBlock *Test = BasicBlock::Create(C, "test", F, Body);
  B.CreateCondBr(InRange, Test, Exit);
  B.SetInsertPoint(Test);
  Value *Set = B.CreateTrunc(B.CreateLShr(Mask, Pos), B.getInt1Ty());
  Value *Hit = B.CreateAnd(Set, B.CreateICmpEQ(Count, Zero));
  B.CreateCondBr(Hit, Exit, Body);
  B.SetInsertPoint(Body);
  Value *NextCount = B.CreateSub(Count, B.CreateZExt(Set, I32));
  Pos->addIncoming(B.CreateAdd(Pos, Inc), Body);
  Count->addIncoming(NextCount, Body);
  B.CreateBr(Loop);
  B.SetInsertPoint(Exit);
  PHINode *R = B.CreatePHI(I32, 3);
  R->addIncoming(ZeroRes, Entry);
  R->addIncoming(None, Loop);
  R->addIncoming(Pos, Test);
  B.CreateRet(R);
  return F;
}

} // namespace

// Longer than 150 lines on purpose: one short case per opcode of the
// family, sharing the operand reading at the top; the cases follow the PTX
// ISA's order and read best side by side.
bool Lowerer::lowerInt(const Instr &I, bool &Handled) {
  StringRef Op = I.Opcode;
  static const char *const Ops[] = {
      "add", "sub", "mul", "mad", "addc", "subc", "madc", "mul24", "mad24",
      "sad", "div", "rem", "abs", "neg", "min", "max", "and", "or", "xor",
      "not", "cnot", "shl", "shr", "dp4a", "dp2a", "vadd", "vsub", "vabsdiff",
      "vmin", "vmax", "vshl", "vshr"};
  if (!llvm::is_contained(Ops, Op)) {
    Handled = false;
    return false;
  }
  PTXType T = instrType();
  if (!T.valid())
    return unsupported("missing type");
  if (T.isFloat() && !Op.starts_with("v") && Op != "dp4a" && Op != "dp2a") {
    Handled = false; // floating point: LowerFloat.cpp
    return false;
  }
  unsigned W = T.Bits;
  bool S = T.isSigned();
  Type *Ty = llvmType(T);
  auto Arg = [&](unsigned K, Type *AT = nullptr) {
    return K < I.Ops.size() ? read(I.Ops[K], AT ? AT : Ty, S) : nullptr;
  };
  const Operand &D = I.Ops.empty() ? I.Guard : I.Ops[0];

  if (Op == "add" || Op == "sub" || Op == "addc" || Op == "subc") {
    if (!expectOps(3))
      return false;
    Value *A = Arg(1), *Bv = Arg(2);
    if (!A || !Bv)
      return false;
    bool Add = Op.starts_with("add");
    if (I.hasMod("sat")) {
      if (!S || W != 32 || Op.size() == 4)
        return unsupported(".sat applies to .s32 only");
      Intrinsic::ID ID = Add ? Intrinsic::sadd_sat : Intrinsic::ssub_sat;
      return write(D, B.CreateBinaryIntrinsic(ID, A, Bv));
    }
    bool CarryIn = Op.size() == 4, CarryOut = I.hasMod("cc");
    Value *R = Add ? B.CreateAdd(A, Bv) : B.CreateSub(A, Bv);
    Value *Out = nullptr;
    if (CarryOut)
      Out = Add ? B.CreateICmpULT(R, A) : B.CreateICmpULT(A, Bv);
    if (CarryIn) {
      Value *Cin = B.CreateZExt(readCF(), Ty);
      Value *R2 = Add ? B.CreateAdd(R, Cin) : B.CreateSub(R, Cin);
      if (CarryOut)
        Out = B.CreateOr(Out, Add ? B.CreateICmpULT(R2, R) : B.CreateICmpULT(R, Cin));
      R = R2;
    }
    if (CarryOut)
      writeCF(Out);
    return write(D, R);
  }
  if (Op == "mul" || Op == "mad" || Op == "madc" || Op == "mul24" || Op == "mad24") {
    bool Mad = Op.starts_with("mad");
    if (!expectOps(Mad ? 4 : 3))
      return false;
    Value *A = Arg(1), *Bv = Arg(2);
    if (!A || !Bv)
      return false;
    bool Wide = I.hasMod("wide"), Hi = I.hasMod("hi");
    Value *P;
    if (Op.ends_with("24")) {
      if (W != 32 || Wide)
        return unsupported();
      Value *A24 = B.CreateTrunc(A, B.getIntNTy(24)), *B24 = B.CreateTrunc(Bv, B.getIntNTy(24));
      Value *Prod = B.CreateMul(extTo(B, A24, 64, S), extTo(B, B24, 64, S));
      P = B.CreateTrunc(Hi ? B.CreateLShr(Prod, 16) : Prod, Ty);
    } else if (Wide || Hi) {
      Value *Prod = B.CreateMul(extTo(B, A, 2 * W, S), extTo(B, Bv, 2 * W, S));
      P = Wide ? Prod : B.CreateTrunc(B.CreateLShr(Prod, W), Ty);
    } else {
      P = B.CreateMul(A, Bv);
    }
    if (!Mad)
      return write(D, P, S);
    Value *C = read(I.Ops[3], P->getType(), S);
    if (!C)
      return false;
    if (I.hasMod("sat")) {
      if (!S || W != 32 || !Hi)
        return unsupported(".sat applies to mad.hi.s32 only");
      return write(D, B.CreateBinaryIntrinsic(Intrinsic::sadd_sat, P, C));
    }
    bool CarryOut = I.hasMod("cc");
    Value *R = B.CreateAdd(P, C);
    Value *Out = CarryOut ? B.CreateICmpULT(R, P) : nullptr;
    if (Op == "madc") {
      Value *Cin = B.CreateZExt(readCF(), P->getType());
      Value *R2 = B.CreateAdd(R, Cin);
      if (CarryOut)
        Out = B.CreateOr(Out, B.CreateICmpULT(R2, R));
      R = R2;
    }
    if (CarryOut)
      writeCF(Out);
    return write(D, R, S);
  }
  if (Op == "sad") {
    if (!expectOps(4))
      return false;
    Value *A = Arg(1), *Bv = Arg(2), *C = Arg(3);
    if (!A || !Bv || !C)
      return false;
    Value *Gt = S ? B.CreateICmpSGT(A, Bv) : B.CreateICmpUGT(A, Bv);
    Value *Diff = B.CreateSelect(Gt, B.CreateSub(A, Bv), B.CreateSub(Bv, A));
    return write(D, B.CreateAdd(C, Diff));
  }
  if (Op == "div" || Op == "rem") {
    if (!expectOps(3))
      return false;
    Value *A = Arg(1), *Bv = Arg(2);
    if (!A || !Bv)
      return false;
    // Division by zero (and INT_MIN / -1) is undefined in PTX and must not
    // become LLVM undefined behaviour: divide by one instead.
    Value *One = ConstantInt::get(Ty, 1);
    Value *Bad = B.CreateICmpEQ(Bv, ConstantInt::get(Ty, 0));
    if (S)
      Bad = B.CreateOr(Bad, B.CreateAnd(
                                B.CreateICmpEQ(A, ConstantInt::get(Ty, APInt::getSignedMinValue(W))),
                                B.CreateICmpEQ(Bv, ConstantInt::getSigned(Ty, -1))));
    Value *Dv = B.CreateSelect(Bad, One, Bv);
    Value *R = Op == "div" ? (S ? B.CreateSDiv(A, Dv) : B.CreateUDiv(A, Dv))
                           : (S ? B.CreateSRem(A, Dv) : B.CreateURem(A, Dv));
    return write(D, R);
  }
  if (Op == "abs" || Op == "neg" || Op == "not" || Op == "cnot") {
    if (!expectOps(2))
      return false;
    Value *A = Arg(1);
    if (!A)
      return false;
    if (Op == "abs")
      return write(D, B.CreateBinaryIntrinsic(Intrinsic::abs, A, B.getFalse()));
    if (Op == "neg")
      return write(D, B.CreateNeg(A));
    if (Op == "not")
      return write(D, B.CreateNot(A));
    return write(D, B.CreateZExt(B.CreateICmpEQ(A, ConstantInt::get(Ty, 0)), Ty));
  }
  if (Op == "min" || Op == "max") {
    if (!expectOps(3))
      return false;
    Value *A = Arg(1), *Bv = Arg(2);
    if (!A || !Bv)
      return false;
    Value *R = minMax(B, A, Bv, S, Op == "max");
    if (I.hasMod("relu"))
      R = minMax(B, R, ConstantInt::get(Ty, 0), true, true);
    return write(D, R);
  }
  if (Op == "and" || Op == "or" || Op == "xor") {
    if (!expectOps(3))
      return false;
    Value *A = Arg(1), *Bv = Arg(2);
    if (!A || !Bv)
      return false;
    Value *R = Op == "and" ? B.CreateAnd(A, Bv)
             : Op == "or" ? B.CreateOr(A, Bv) : B.CreateXor(A, Bv);
    return write(D, R);
  }
  if (Op == "shl" || Op == "shr") {
    if (!expectOps(3))
      return false;
    Value *A = Arg(1), *N = read(I.Ops[2], B.getInt32Ty());
    if (!A || !N)
      return false;
    Value *R = Op == "shl" ? shl(A, N) : S ? ashr(A, N) : lshr(A, N);
    return write(D, R);
  }
  if (Op == "dp4a" || Op == "dp2a") {
    // dp4a.atype.btype d, a, b, c; dp2a.{lo,hi}.atype.btype d, a, b, c.
    PTXType TA = instrType(0), TB = instrType(1);
    if (!expectOps(4) || TA.Bits != 32 || TB.Bits != 32)
      return TA.Bits != 32 || TB.Bits != 32 ? unsupported() : false;
    Type *I32 = B.getInt32Ty();
    Value *A = read(I.Ops[1], I32), *Bv = read(I.Ops[2], I32), *C = read(I.Ops[3], I32);
    if (!A || !Bv || !C)
      return false;
    auto Field = [&](Value *X, unsigned Pos, unsigned Bits, bool Sg) {
      Value *F = B.CreateTrunc(B.CreateLShr(X, Pos), B.getIntNTy(Bits));
      return extTo(B, F, 32, Sg);
    };
    Value *Acc = C;
    if (Op == "dp4a") {
      for (unsigned K = 0; K < 4; ++K)
        Acc = B.CreateAdd(Acc, B.CreateMul(Field(A, 8 * K, 8, TA.isSigned()),
                                           Field(Bv, 8 * K, 8, TB.isSigned())));
    } else {
      unsigned First = I.hasMod("hi") ? 2 : 0;
      for (unsigned K = 0; K < 2; ++K)
        Acc = B.CreateAdd(Acc, B.CreateMul(Field(A, 16 * K, 16, TA.isSigned()),
                                           Field(Bv, 8 * (First + K), 8, TB.isSigned())));
    }
    return write(D, Acc);
  }
  // Scalar video instructions: vop.dtype.atype.btype{.sat}{.mode}{.op2}
  // d, a, b{, c}, computed in 64 bits and then saturated or truncated.
  PTXType TD = instrType(0), TA = instrType(1), TB = instrType(2);
  if (TD.Bits != 32 || TA.Bits != 32 || TB.Bits != 32)
    return unsupported("only 32-bit scalar video instructions without byte "
                       "or half-word selectors are supported");
  bool Secondary = I.hasMod("add") || I.hasMod("min") || I.hasMod("max");
  if (!expectOps(Secondary ? 4 : 3))
    return false;
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  Value *A32 = read(I.Ops[1], I32), *B32 = read(I.Ops[2], I32);
  if (!A32 || !B32)
    return false;
  Value *A = extTo(B, A32, 64, TA.isSigned()), *Bv = extTo(B, B32, 64, TB.isSigned());
  Value *R;
  if (Op == "vadd")
    R = B.CreateAdd(A, Bv);
  else if (Op == "vsub")
    R = B.CreateSub(A, Bv);
  else if (Op == "vabsdiff")
    R = B.CreateBinaryIntrinsic(Intrinsic::abs, B.CreateSub(A, Bv), B.getFalse());
  else if (Op == "vmin" || Op == "vmax")
    R = minMax(B, A, Bv, true, Op == "vmax");
  else {
    Value *N = B.CreateZExt(B32, I64);
    N = I.hasMod("wrap") ? B.CreateAnd(N, 31)
                         : minMax(B, N, B.getInt64(32), false, false);
    R = Op == "vshl" ? shl(A, N) : TA.isSigned() ? ashr(A, N) : lshr(A, N);
    if (Op == "vshl")
      R = extTo(B, B.CreateTrunc(R, I32), 64, TA.isSigned());
  }
  if (Secondary) {
    Value *C = read(I.Ops[3], I32);
    if (!C)
      return false;
    Value *C64 = extTo(B, C, 64, TD.isSigned());
    R = I.hasMod("add") ? B.CreateAdd(R, C64)
                        : minMax(B, R, C64, true, I.hasMod("max"));
  }
  if (I.hasMod("sat")) {
    APInt Lo = TD.isSigned() ? APInt::getSignedMinValue(32).sext(64) : APInt(64, 0);
    APInt Hi = TD.isSigned() ? APInt::getSignedMaxValue(32).sext(64)
                             : APInt::getMaxValue(32).zext(64);
    R = minMax(B, R, B.getInt(Lo), true, true);
    R = minMax(B, R, B.getInt(Hi), true, false);
  }
  return write(D, B.CreateTrunc(R, I32));
}

// Longer than 150 lines on purpose: one short case per opcode of the
// family, sharing the operand reading at the top; the cases follow the PTX
// ISA's order and read best side by side.
bool Lowerer::lowerBits(const Instr &I, bool &Handled) {
  StringRef Op = I.Opcode;
  static const char *const Ops[] = {"popc", "clz",  "bfind", "fns", "brev",
                                    "bfe",  "bfi",  "prmt",  "lop3", "shf"};
  if (!llvm::is_contained(Ops, Op)) {
    Handled = false;
    return false;
  }
  PTXType T = instrType();
  if (!T.valid() || T.isFloat() || T.isPred())
    return unsupported("missing or wrong type");
  unsigned W = T.Bits;
  Type *Ty = llvmType(T), *I32 = B.getInt32Ty();
  bool S = T.isSigned();
  auto Arg = [&](unsigned K, Type *AT) { return read(I.Ops[K], AT, S); };
  const Operand &D = I.Ops.empty() ? I.Guard : I.Ops[0];

  if (Op == "popc" || Op == "clz" || Op == "brev" || Op == "bfind") {
    if (!expectOps(2))
      return false;
    Value *A = Arg(1, Ty);
    if (!A)
      return false;
    if (Op == "popc")
      return write(D, B.CreateTrunc(B.CreateUnaryIntrinsic(Intrinsic::ctpop, A), I32));
    if (Op == "clz")
      return write(D, B.CreateTrunc(B.CreateBinaryIntrinsic(Intrinsic::ctlz, A, B.getFalse()), I32));
    if (Op == "brev")
      return write(D, B.CreateUnaryIntrinsic(Intrinsic::bitreverse, A));
    // bfind: the most significant non-sign bit, or 0xffffffff.
    Value *X = A;
    if (S)
      X = B.CreateSelect(B.CreateICmpSLT(A, ConstantInt::get(Ty, 0)), B.CreateNot(A), A);
    Value *Lz = B.CreateTrunc(B.CreateBinaryIntrinsic(Intrinsic::ctlz, X, B.getFalse()), I32);
    Value *Pos = I.hasMod("shiftamt") ? Lz : B.CreateSub(B.getInt32(W - 1), Lz);
    Value *Found = B.CreateICmpNE(X, ConstantInt::get(Ty, 0));
    return write(D, B.CreateSelect(Found, Pos, B.getInt32(~0u)));
  }
  if (Op == "fns") {
    if (!expectOps(4))
      return false;
    Value *Mask = read(I.Ops[1], I32), *Base = read(I.Ops[2], I32),
          *Off = read(I.Ops[3], I32, true);
    if (!Mask || !Base || !Off)
      return false;
    return write(D, B.CreateCall(fnsHelper(M), {Mask, Base, Off}));
  }
  if (Op == "bfe") {
    if (!expectOps(4))
      return false;
    Value *A = Arg(1, Ty), *PosV = read(I.Ops[2], I32), *LenV = read(I.Ops[3], I32);
    if (!A || !PosV || !LenV)
      return false;
    Value *Pos = B.CreateAnd(PosV, 0xff), *Len = B.CreateAnd(LenV, 0xff);
    Value *Zero = ConstantInt::get(Ty, 0);
    Value *LenZero = B.CreateICmpEQ(Len, B.getInt32(0));
    Value *R;
    if (!S) {
      Value *Shifted = lshr(A, B.CreateZExtOrTrunc(Pos, Ty));
      Value *Mask = B.CreateSub(shl(ConstantInt::get(Ty, 1), B.CreateZExtOrTrunc(Len, Ty)),
                                ConstantInt::get(Ty, 1));
      Mask = B.CreateSelect(B.CreateICmpUGE(Len, B.getInt32(W)),
                            ConstantInt::getAllOnesValue(Ty), Mask);
      R = B.CreateAnd(Shifted, Mask);
    } else {
      // Sign-extend the field a[top:pos], top = min(pos + len - 1, msb).
      Value *Msb = B.getInt32(W - 1);
      Value *Top = minMax(B, B.CreateSub(B.CreateAdd(Pos, Len), B.getInt32(1)), Msb, false, false);
      Value *Up = B.CreateSub(Msb, Top);
      Value *Down = minMax(B, B.CreateAdd(Up, Pos), Msb, false, false);
      Value *L = B.CreateShl(A, B.CreateZExtOrTrunc(Up, Ty));
      R = B.CreateAShr(L, B.CreateZExtOrTrunc(Down, Ty));
    }
    return write(D, B.CreateSelect(LenZero, Zero, R));
  }
  if (Op == "bfi") {
    if (!expectOps(5))
      return false;
    Value *F = Arg(1, Ty), *Bv = Arg(2, Ty), *PosV = read(I.Ops[3], I32),
          *LenV = read(I.Ops[4], I32);
    if (!F || !Bv || !PosV || !LenV)
      return false;
    Value *Pos = B.CreateZExtOrTrunc(B.CreateAnd(PosV, 0xff), Ty);
    Value *Len = B.CreateAnd(LenV, 0xff);
    Value *Ones = B.CreateSub(shl(ConstantInt::get(Ty, 1), B.CreateZExtOrTrunc(Len, Ty)),
                              ConstantInt::get(Ty, 1));
    Ones = B.CreateSelect(B.CreateICmpUGE(Len, B.getInt32(W)),
                          ConstantInt::getAllOnesValue(Ty), Ones);
    Value *Mask = shl(Ones, Pos); // zero when pos > msb: b is kept
    Value *R = B.CreateOr(B.CreateAnd(Bv, B.CreateNot(Mask)), B.CreateAnd(shl(F, Pos), Mask));
    return write(D, R);
  }
  if (Op == "prmt") {
    if (!expectOps(4) || W != 32)
      return W != 32 ? unsupported() : false;
    Value *A = read(I.Ops[1], I32), *Bv = read(I.Ops[2], I32), *C = read(I.Ops[3], I32);
    if (!A || !Bv || !C)
      return false;
    Type *I64 = B.getInt64Ty();
    Value *Bytes = B.CreateOr(B.CreateZExt(A, I64), B.CreateShl(B.CreateZExt(Bv, I64), 32));
    static const char *const Modes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
    int Mode = -1;
    for (unsigned K = 0; K < 6; ++K)
      if (I.hasMod(Modes[K]))
        Mode = K;
    Value *N = B.CreateAnd(C, 3);
    Value *R = B.getInt32(0);
    for (unsigned K = 0; K < 4; ++K) {
      Value *Sel, *SignRep = nullptr;
      Value *KV = B.getInt32(K);
      switch (Mode) {
      case -1: {
        Value *Nib = B.CreateAnd(B.CreateLShr(C, 4 * K), 15);
        Sel = B.CreateAnd(Nib, 7);
        SignRep = B.CreateICmpNE(B.CreateAnd(Nib, 8), B.getInt32(0));
        break;
      }
      case 0: // f4e: byte K + n
        Sel = B.CreateAdd(N, KV);
        break;
      case 1: // b4e: byte (n - K) mod 8
        Sel = B.CreateAnd(B.CreateSub(N, KV), 7);
        break;
      case 2: // rc8
        Sel = N;
        break;
      case 3: // ecl: max(K, n)
        Sel = minMax(B, KV, N, false, true);
        break;
      case 4: // ecr: min(K, n)
        Sel = minMax(B, KV, N, false, false);
        break;
      default: // rc16: half-word n & 1, replicated
        Sel = B.CreateOr(B.CreateShl(B.CreateAnd(N, 1), 1), B.getInt32(K & 1));
        break;
      }
      Value *Shift = B.CreateZExt(B.CreateShl(Sel, 3), I64);
      Value *Byte = B.CreateTrunc(B.CreateLShr(Bytes, Shift), B.getInt8Ty());
      if (SignRep)
        Byte = B.CreateSelect(SignRep, B.CreateAShr(Byte, 7), Byte);
      R = B.CreateOr(R, B.CreateShl(B.CreateZExt(Byte, I32), 8 * K));
    }
    return write(D, R);
  }
  if (Op == "lop3") {
    if (I.hasMod("or") || I.hasMod("and"))
      return unsupported("the predicate form of lop3");
    if (!expectOps(5) || W != 32)
      return W != 32 ? unsupported() : false;
    const Operand &L = I.Ops[4];
    Value *LutV = read(L, I32);
    auto *Lut = dyn_cast_or_null<ConstantInt>(LutV);
    if (!Lut)
      return fail("the lookup table of 'lop3' must be an immediate");
    Value *A = read(I.Ops[1], I32), *Bv = read(I.Ops[2], I32), *C = read(I.Ops[3], I32);
    if (!A || !Bv || !C)
      return false;
    // Bit k of the table is F(a, b, c) for a = k>>2&1, b = k>>1&1, c = k&1.
    Value *R = B.getInt32(0);
    uint64_t T8 = Lut->getZExtValue() & 0xff;
    for (unsigned K = 0; K < 8; ++K) {
      if (!(T8 >> K & 1))
        continue;
      Value *X = (K & 4) ? A : B.CreateNot(A);
      Value *Y = (K & 2) ? Bv : B.CreateNot(Bv);
      Value *Z = (K & 1) ? C : B.CreateNot(C);
      R = B.CreateOr(R, B.CreateAnd(X, B.CreateAnd(Y, Z)));
    }
    return write(D, R);
  }
  // shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of b:a.
  if (!expectOps(4) || W != 32)
    return W != 32 ? unsupported() : false;
  bool Left = I.hasMod("l");
  if (!Left && !I.hasMod("r"))
    return unsupported("missing direction");
  Value *A = read(I.Ops[1], I32), *Bv = read(I.Ops[2], I32), *C = read(I.Ops[3], I32);
  if (!A || !Bv || !C)
    return false;
  Value *R;
  if (I.hasMod("clamp")) {
    Value *N = minMax(B, C, B.getInt32(32), false, false);
    Value *F = B.CreateIntrinsic(Left ? Intrinsic::fshl : Intrinsic::fshr, {I32}, {Bv, A, N});
    R = B.CreateSelect(B.CreateICmpEQ(N, B.getInt32(32)), Left ? A : Bv, F);
  } else {
    R = B.CreateIntrinsic(Left ? Intrinsic::fshl : Intrinsic::fshr, {I32},
                          {Bv, A, B.CreateAnd(C, 31)});
  }
  return write(D, R);
}

} // namespace ptx
} // namespace hetgpu
