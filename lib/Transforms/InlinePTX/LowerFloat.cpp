//===- LowerFloat.cpp - Floating-point, conversion and compare PTX --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Floating-point arithmetic (`add`/`sub`/`mul`/`fma`/`mad`/`div`, the
/// `rcp`/`sqrt`/`rsqrt`/`ex2`/`lg2`/`sin`/`cos`/`tanh` approximations,
/// `abs`/`neg`/`min`/`max`/`copysign`/`testp`), `cvt` with every integer and
/// floating rounding mode and `.sat`, and the comparisons `setp`, `selp`,
/// `set` and `slct` (integer and floating point).
///
/// Directed rounding (`.rz`, `.rm`, `.rp`) of f32 results is exact: the
/// operation is done in double, its rounding error recovered (TwoSum; f32
/// products are exact in double), and the f32 neighbour on the right side
/// of the exact value chosen. `.approx` instructions use the correctly
/// rounded operation or the math builtin, which is within their error bound.
/// `.ftz` flushes f32 subnormal inputs and results to zero.
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

char roundingMode(const Instr &I) {
  for (const char *M : {"rz", "rm", "rp"})
    if (I.hasMod(M))
      return M[1];
  return 'n';
}

char intRounding(const Instr &I) {
  for (const char *M : {"rni", "rzi", "rmi", "rpi"})
    if (I.hasMod(M))
      return M[1];
  return 0;
}

Value *saturate01(IRBuilder<> &B, Value *V) {
  Type *T = V->getType();
  Value *Zero = ConstantFP::get(T, 0.0), *One = ConstantFP::get(T, 1.0);
  Value *Hi = B.CreateSelect(B.CreateFCmpOLT(V, One), V, One);
  return B.CreateSelect(B.CreateFCmpOGT(V, Zero), Hi, Zero);
}

} // namespace

Value *Lowerer::flushF32(Value *V) {
  if (!V->getType()->isFloatTy())
    return V;
  Value *Small = B.CreateFCmpOLT(B.CreateUnaryIntrinsic(Intrinsic::fabs, V),
                                 ConstantFP::get(V->getType(), 0x1p-126));
  Value *Zero = B.CreateBinaryIntrinsic(Intrinsic::copysign,
                                        ConstantFP::get(V->getType(), 0.0), V);
  return B.CreateSelect(Small, Zero, V);
}

Value *Lowerer::roundToF32(Value *Hi, Value *Lo, char Mode) {
  Type *F32 = B.getFloatTy(), *I32 = B.getInt32Ty();
  Value *F = B.CreateFPTrunc(Hi, F32);
  if (Mode == 'n')
    return F;
  Value *G = B.CreateFPExt(F, Hi->getType());
  Value *Zero = ConstantFP::get(Hi->getType(), 0.0);
  Value *Same = B.CreateFCmpOEQ(G, Hi);
  // G above / below the exact value Hi + Lo.
  Value *Above = B.CreateOr(B.CreateFCmpOGT(G, Hi), B.CreateAnd(Same, B.CreateFCmpOLT(Lo, Zero)));
  Value *Below = B.CreateOr(B.CreateFCmpOLT(G, Hi), B.CreateAnd(Same, B.CreateFCmpOGT(Lo, Zero)));
  Value *Bits = B.CreateBitCast(F, I32);
  Value *IsZero = B.CreateFCmpOEQ(F, ConstantFP::get(F32, 0.0));
  Value *Pos = B.CreateFCmpOGT(F, ConstantFP::get(F32, 0.0));
  Value *Inc = B.CreateAdd(Bits, B.getInt32(1)), *Dec = B.CreateSub(Bits, B.getInt32(1));
  Value *Up = B.CreateSelect(IsZero, B.getInt32(1), B.CreateSelect(Pos, Inc, Dec));
  Value *Down = B.CreateSelect(IsZero, B.getInt32(0x80000001u), B.CreateSelect(Pos, Dec, Inc));
  Value *R = Bits;
  if (Mode == 'm')
    R = B.CreateSelect(Above, Down, Bits);
  else if (Mode == 'p')
    R = B.CreateSelect(Below, Up, Bits);
  else {
    Value *ExactPos = B.CreateFCmpOGT(Hi, Zero), *ExactNeg = B.CreateFCmpOLT(Hi, Zero);
    R = B.CreateSelect(B.CreateAnd(ExactPos, Above), Down,
                       B.CreateSelect(B.CreateAnd(ExactNeg, Below), Up, Bits));
  }
  return B.CreateBitCast(R, F32);
}

// Longer than 150 lines on purpose: one short case per opcode of the
// family, sharing the operand reading at the top; the cases follow the PTX
// ISA's order and read best side by side.
bool Lowerer::lowerFloat(const Instr &I, bool &Handled) {
  StringRef Op = I.Opcode;
  static const char *const Cmp[] = {"setp", "selp", "set", "slct"};
  static const char *const Ops[] = {
      "add", "sub", "mul", "fma", "mad", "div", "abs", "neg", "min", "max",
      "rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh", "copysign",
      "testp"};
  bool IsCmp = llvm::is_contained(Cmp, Op);
  if (!IsCmp && !llvm::is_contained(Ops, Op)) {
    Handled = false;
    return false;
  }
  bool Ftz = I.hasMod("ftz");
  auto In = [&](unsigned K, PTXType T) -> Value * {
    if (K >= I.Ops.size())
      return nullptr;
    Value *V = read(I.Ops[K], T);
    return V && Ftz ? flushF32(V) : V;
  };
  const Operand &D = I.Ops.empty() ? I.Guard : I.Ops[0];

  if (IsCmp) {
    // The compared type is the last type modifier (set/slct name two).
    PTXType T = instrType(Op == "set" || Op == "slct" ? 1 : 0);
    if (!T.valid())
      return unsupported("missing type");
    if (Op == "selp") {
      if (!expectOps(4))
        return false;
      Value *A = In(1, T), *Bv = In(2, T), *C = read(I.Ops[3], B.getInt1Ty());
      return A && Bv && C && write(D, B.CreateSelect(C, A, Bv));
    }
    if (Op == "slct") {
      PTXType DT = instrType(0);
      if (!expectOps(4))
        return false;
      Value *A = read(I.Ops[1], DT), *Bv = read(I.Ops[2], DT), *C = In(3, T);
      if (!A || !Bv || !C)
        return false;
      Value *Ge = T.isFloat() ? B.CreateFCmpOGE(C, ConstantFP::get(C->getType(), 0.0))
                              : B.CreateICmpSGE(C, ConstantInt::get(C->getType(), 0));
      return write(D, B.CreateSelect(Ge, A, Bv));
    }
    static const struct {
      const char *Name;
      CmpInst::Predicate S, U, F;
    } Preds[] = {
        {"eq", CmpInst::ICMP_EQ, CmpInst::ICMP_EQ, CmpInst::FCMP_OEQ},
        {"ne", CmpInst::ICMP_NE, CmpInst::ICMP_NE, CmpInst::FCMP_ONE},
        {"lt", CmpInst::ICMP_SLT, CmpInst::ICMP_ULT, CmpInst::FCMP_OLT},
        {"le", CmpInst::ICMP_SLE, CmpInst::ICMP_ULE, CmpInst::FCMP_OLE},
        {"gt", CmpInst::ICMP_SGT, CmpInst::ICMP_UGT, CmpInst::FCMP_OGT},
        {"ge", CmpInst::ICMP_SGE, CmpInst::ICMP_UGE, CmpInst::FCMP_OGE},
        {"lo", CmpInst::ICMP_ULT, CmpInst::ICMP_ULT, CmpInst::BAD_FCMP_PREDICATE},
        {"ls", CmpInst::ICMP_ULE, CmpInst::ICMP_ULE, CmpInst::BAD_FCMP_PREDICATE},
        {"hi", CmpInst::ICMP_UGT, CmpInst::ICMP_UGT, CmpInst::BAD_FCMP_PREDICATE},
        {"hs", CmpInst::ICMP_UGE, CmpInst::ICMP_UGE, CmpInst::BAD_FCMP_PREDICATE},
        {"equ", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, CmpInst::FCMP_UEQ},
        {"neu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, CmpInst::FCMP_UNE},
        {"ltu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, CmpInst::FCMP_ULT},
        {"leu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, CmpInst::FCMP_ULE},
        {"gtu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, CmpInst::FCMP_UGT},
        {"geu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, CmpInst::FCMP_UGE},
        {"num", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, CmpInst::FCMP_ORD},
        {"nan", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, CmpInst::FCMP_UNO},
    };
    CmpInst::Predicate P = CmpInst::BAD_ICMP_PREDICATE;
    for (const auto &E : Preds)
      if (I.hasMod(E.Name))
        P = T.isFloat() ? E.F : T.isSigned() ? E.S : E.U;
    if (P == CmpInst::BAD_ICMP_PREDICATE || P == CmpInst::BAD_FCMP_PREDICATE)
      return unsupported("missing or wrong comparison for the type");
    bool HasBool = I.hasMod("and") || I.hasMod("or") || I.hasMod("xor");
    if (!expectOps(HasBool ? 4 : 3))
      return false;
    Value *A = In(1, T), *Bv = In(2, T);
    if (!A || !Bv)
      return false;
    Value *R = T.isFloat() ? B.CreateFCmp(P, A, Bv) : B.CreateICmp(P, A, Bv);
    bool Pair = D.Kind == Operand::Pair;
    Value *NotR = Pair ? B.CreateNot(R) : nullptr;
    if (HasBool) {
      Value *C = read(I.Ops[3], B.getInt1Ty());
      if (!C)
        return false;
      auto Combine = [&](Value *X) {
        return I.hasMod("and") ? B.CreateAnd(X, C)
               : I.hasMod("or") ? B.CreateOr(X, C) : B.CreateXor(X, C);
      };
      R = Combine(R);
      if (Pair)
        NotR = Combine(NotR);
    }
    if (Op == "set") {
      PTXType DT = instrType(0);
      Value *True = DT.isFloat() ? ConstantFP::get(llvmType(DT), 1.0)
                                 : ConstantInt::getAllOnesValue(llvmType(DT));
      return write(D, B.CreateSelect(R, True, Constant::getNullValue(llvmType(DT))));
    }
    if (Pair)
      return write(D.Elems[0], R) && write(D.Elems[1], NotR);
    return write(D, R);
  }

  PTXType T = instrType();
  if (!T.valid() || !T.isFloat())
    return unsupported("missing or wrong type");
  bool MinMax = Op == "min" || Op == "max";
  if (I.hasMod("relu") || (I.hasMod("NaN") && !MinMax))
    return unsupported();
  Type *Ty = llvmType(T);
  char Mode = roundingMode(I);
  if (Mode != 'n' && !Ty->isFloatTy())
    return unsupported("directed rounding is supported for .f32 only");
  auto Out = [&](Value *V) {
    if (!V)
      return false;
    if (Ftz)
      V = flushF32(V);
    if (I.hasMod("sat"))
      V = saturate01(B, V);
    return write(D, V);
  };
  Type *F64 = B.getDoubleTy();
  auto Ext = [&](Value *V) { return B.CreateFPExt(V, F64); };
  // Error of Hi = fl(X + Y) in double (TwoSum, exact without overflow).
  auto TwoSum = [&](Value *X, Value *Y, Value *&Hi) {
    Hi = B.CreateFAdd(X, Y);
    Value *Bb = B.CreateFSub(Hi, X);
    return B.CreateFAdd(B.CreateFSub(X, B.CreateFSub(Hi, Bb)), B.CreateFSub(Y, Bb));
  };
  // An exact zero sum is -0 when rounding down, unless both terms are +0.
  auto ZeroSign = [&](Value *R, Value *Hi, Value *X, Value *Y) {
    if (Mode != 'm')
      return R;
    Value *Zero = ConstantFP::get(F64, 0.0);
    Value *ExactZero = B.CreateFCmpOEQ(Hi, Zero);
    Value *XPos = B.CreateICmpSGE(B.CreateBitCast(X, B.getInt64Ty()), B.getInt64(0));
    Value *YPos = B.CreateICmpSGE(B.CreateBitCast(Y, B.getInt64Ty()), B.getInt64(0));
    Value *NegZero = ConstantFP::get(B.getFloatTy(), -0.0);
    return B.CreateSelect(B.CreateAnd(ExactZero, B.CreateNot(B.CreateAnd(XPos, YPos))),
                          NegZero, R);
  };

  if (Op == "add" || Op == "sub" || Op == "mul") {
    if (!expectOps(3))
      return false;
    Value *A = In(1, T), *Bv = In(2, T);
    if (!A || !Bv)
      return false;
    if (Mode == 'n')
      return Out(Op == "add" ? B.CreateFAdd(A, Bv)
                 : Op == "sub" ? B.CreateFSub(A, Bv) : B.CreateFMul(A, Bv));
    Value *X = Ext(A), *Y = Ext(Bv);
    if (Op == "mul")
      return Out(roundToF32(B.CreateFMul(X, Y), ConstantFP::get(F64, 0.0), Mode));
    if (Op == "sub")
      Y = B.CreateFNeg(Y);
    Value *Hi;
    Value *Lo = TwoSum(X, Y, Hi);
    return Out(ZeroSign(roundToF32(Hi, Lo, Mode), Hi, X, Y));
  }
  if (Op == "fma" || Op == "mad") {
    if (!expectOps(4))
      return false;
    Value *A = In(1, T), *Bv = In(2, T), *C = In(3, T);
    if (!A || !Bv || !C)
      return false;
    if (Mode == 'n')
      return Out(B.CreateIntrinsic(Intrinsic::fma, {Ty}, {A, Bv, C}));
    Value *P = B.CreateFMul(Ext(A), Ext(Bv)), *Z = Ext(C), *Hi;
    Value *Lo = TwoSum(P, Z, Hi);
    return Out(ZeroSign(roundToF32(Hi, Lo, Mode), Hi, P, Z));
  }
  if (Op == "div" || Op == "rcp" || Op == "sqrt" || Op == "rsqrt") {
    if (Mode != 'n')
      return unsupported("directed rounding of division and square root");
    bool Two = Op == "div";
    if (!expectOps(Two ? 3 : 2))
      return false;
    Value *A = In(1, T);
    Value *Bv = Two ? In(2, T) : nullptr;
    if (!A || (Two && !Bv))
      return false;
    Value *One = ConstantFP::get(Ty, 1.0);
    if (Op == "div")
      return Out(B.CreateFDiv(A, Bv));
    if (Op == "rcp")
      return Out(B.CreateFDiv(One, A));
    Value *Sq = B.CreateUnaryIntrinsic(Intrinsic::sqrt, A);
    return Out(Op == "sqrt" ? Sq : B.CreateFDiv(One, Sq));
  }
  if (Op == "ex2" || Op == "lg2" || Op == "sin" || Op == "cos" || Op == "tanh") {
    if (!expectOps(2))
      return false;
    if (!Ty->isFloatTy() && !Ty->isDoubleTy())
      return unsupported("f16 transcendental approximations");
    Value *A = In(1, T);
    if (!A)
      return false;
    bool F = Ty->isFloatTy();
    BuiltinID ID = Op == "ex2" ? (F ? BuiltinID::math_exp2f : BuiltinID::math_exp2)
                 : Op == "lg2" ? (F ? BuiltinID::math_log2f : BuiltinID::math_log2)
                 : Op == "sin" ? (F ? BuiltinID::math_sinf : BuiltinID::math_sin)
                 : Op == "cos" ? (F ? BuiltinID::math_cosf : BuiltinID::math_cos)
                               : (F ? BuiltinID::math_tanhf : BuiltinID::math_tanh);
    return Out(builtin(ID, {A}));
  }
  if (Op == "abs" || Op == "neg") {
    if (!expectOps(2))
      return false;
    Value *A = In(1, T);
    if (!A)
      return false;
    return Out(Op == "abs" ? B.CreateUnaryIntrinsic(Intrinsic::fabs, A) : B.CreateFNeg(A));
  }
  if (Op == "min" || Op == "max" || Op == "copysign") {
    if (!expectOps(3))
      return false;
    Value *A = In(1, T), *Bv = In(2, T);
    if (!A || !Bv)
      return false;
    if (Op == "copysign") // d = b with the sign of a
      return Out(B.CreateBinaryIntrinsic(Intrinsic::copysign, Bv, A));
    Intrinsic::ID ID = I.hasMod("NaN") ? (Op == "min" ? Intrinsic::minimum : Intrinsic::maximum)
                                      : (Op == "min" ? Intrinsic::minnum : Intrinsic::maxnum);
    return Out(B.CreateBinaryIntrinsic(ID, A, Bv));
  }
  // testp.<op>.type p, a
  if (!expectOps(2))
    return false;
  Value *A = read(I.Ops[1], T);
  if (!A)
    return false;
  const fltSemantics &Sem = Ty->getFltSemantics();
  Value *Abs = B.CreateUnaryIntrinsic(Intrinsic::fabs, A);
  Value *Inf = ConstantFP::getInfinity(Ty);
  Value *MinNorm = ConstantFP::get(Ty, APFloat::getSmallestNormalized(Sem));
  Value *R;
  if (I.hasMod("finite"))
    R = B.CreateFCmpOLT(Abs, Inf);
  else if (I.hasMod("infinite"))
    R = B.CreateFCmpOEQ(Abs, Inf);
  else if (I.hasMod("number"))
    R = B.CreateFCmpORD(A, A);
  else if (I.hasMod("notanumber"))
    R = B.CreateFCmpUNO(A, A);
  else if (I.hasMod("normal"))
    R = B.CreateAnd(B.CreateFCmpOGE(Abs, MinNorm), B.CreateFCmpOLT(Abs, Inf));
  else if (I.hasMod("subnormal"))
    R = B.CreateAnd(B.CreateFCmpOLT(Abs, MinNorm),
                    B.CreateFCmpONE(Abs, ConstantFP::get(Ty, 0.0)));
  else
    return unsupported("missing test");
  return write(D, R);
}

bool Lowerer::lowerCvt(const Instr &I, bool &Handled) {
  if (I.Opcode != "cvt") {
    Handled = false;
    return false;
  }
  PTXType DT = instrType(0), AT = instrType(1);
  if (!DT.valid() || !AT.valid() || DT.isPred() || AT.isPred())
    return unsupported("needs a destination and a source type");
  if (I.hasMod("relu"))
    return unsupported();
  if (!expectOps(2))
    return false;
  Type *DTy = llvmType(DT), *ATy = llvmType(AT);
  bool Ftz = I.hasMod("ftz"), Sat = I.hasMod("sat");
  char IRnd = intRounding(I), FRnd = roundingMode(I);
  Value *A = read(I.Ops[1], AT);
  if (!A)
    return false;
  if (Ftz)
    A = flushF32(A);
  const Operand &D = I.Ops[0];
  auto RoundInt = [&](Value *V, char R) {
    Intrinsic::ID ID = R == 'n' ? Intrinsic::roundeven : R == 'm' ? Intrinsic::floor
                     : R == 'p' ? Intrinsic::ceil : Intrinsic::trunc;
    return B.CreateUnaryIntrinsic(ID, V);
  };

  if (!DT.isFloat() && !AT.isFloat()) { // integer -> integer
    Value *R;
    if (Sat) {
      Type *I128 = B.getInt128Ty();
      Value *Wide = AT.isSigned() ? B.CreateSExt(A, I128) : B.CreateZExt(A, I128);
      APInt Lo = DT.isSigned() ? APInt::getSignedMinValue(DT.Bits).sext(128) : APInt(128, 0);
      APInt Hi = DT.isSigned() ? APInt::getSignedMaxValue(DT.Bits).sext(128)
                               : APInt::getMaxValue(DT.Bits).zext(128);
      Value *LoV = B.getInt(Lo), *HiV = B.getInt(Hi);
      Wide = B.CreateSelect(B.CreateICmpSLT(Wide, LoV), LoV, Wide);
      Wide = B.CreateSelect(B.CreateICmpSGT(Wide, HiV), HiV, Wide);
      R = B.CreateTrunc(Wide, DTy);
    } else {
      R = convert(A, DTy, AT.isSigned());
    }
    return write(D, R, DT.isSigned());
  }
  if (AT.isFloat() && !DT.isFloat()) { // float -> integer (saturating)
    if (ATy->isHalfTy() || ATy->isBFloatTy())
      A = B.CreateFPExt(A, B.getFloatTy());
    Value *R = RoundInt(A, IRnd ? IRnd : 'z');
    Intrinsic::ID ID = DT.isSigned() ? Intrinsic::fptosi_sat : Intrinsic::fptoui_sat;
    return write(D, B.CreateIntrinsic(ID, {DTy, R->getType()}, {R}), DT.isSigned());
  }
  Value *R;
  if (!AT.isFloat()) { // integer -> float
    bool Exact32 = AT.Bits <= 32;
    if (FRnd == 'n' || (DTy->isDoubleTy() && Exact32)) {
      R = AT.isSigned() ? B.CreateSIToFP(A, DTy) : B.CreateUIToFP(A, DTy);
    } else if (DTy->isFloatTy() && Exact32) {
      Value *X = AT.isSigned() ? B.CreateSIToFP(A, B.getDoubleTy())
                               : B.CreateUIToFP(A, B.getDoubleTy());
      R = roundToF32(X, ConstantFP::get(B.getDoubleTy(), 0.0), FRnd);
    } else {
      return unsupported("directed rounding of 64-bit integers or to f16");
    }
  } else if (DT.Bits == AT.Bits && DT.Kind == AT.Kind) { // round to integral
    R = IRnd ? RoundInt(A, IRnd) : A;
  } else if (DT.Bits > AT.Bits) {
    R = B.CreateFPExt(A, DTy);
  } else if (DTy->isFloatTy() && ATy->isDoubleTy()) {
    R = roundToF32(A, ConstantFP::get(ATy, 0.0), FRnd);
  } else if (FRnd == 'n') {
    R = B.CreateFPTrunc(A, DTy);
  } else {
    return unsupported("directed rounding to f16/bf16");
  }
  if (Ftz)
    R = flushF32(R);
  if (Sat)
    R = saturate01(B, R);
  return write(D, R);
}

} // namespace ptx
} // namespace hetgpu
