//===- LowerMemory.cpp - ld, st, atom, red and cvta in inline PTX ----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Memory instructions become LLVM loads, stores, atomicrmw and cmpxchg:
///
///  * state spaces pick the address space (`.global` 1, `.shared` 3,
///    `.const` 4; `.local` and no space are generic). An address operand
///    that is, or was computed from, a pointer (clang passes `"l"(ptr)` as
///    a `ptrtoint`) is used as that pointer, cast to the space, so no
///    integer-to-pointer round trip reaches the targets;
///  * cache operators and eviction hints (`.ca`, `.cg`, `.cs`, `.lu`, `.nc`,
///    `.wb`, `.wt`, `.L1::*`, `.L2::*`) only change performance and are
///    dropped; `.cv`, `.cg` and `.volatile` make the access volatile; `.relaxed`,
///    `.acquire` and `.release` make it atomic with that ordering (scopes
///    are widened to the system scope, as the CUDA atomics of the headers);
///  * `.v2`/`.v4` are one access per element;
///  * `atom`/`red` use atomicrmw (relaxed unless a semantics is given);
///    `inc`/`dec` (wrapping at the operand, as CUDA's atomicInc/Dec) and
///    `cas` use cmpxchg.
///
//===----------------------------------------------------------------------===//

#include "InlinePTX/PTXLowering.h"
#include "hetgpu/IR/Metadata.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace hetgpu {
namespace ptx {

namespace {

/// The address space a state-space modifier names; -1 when it names none.
int stateSpace(const Instr &I, bool &Bad) {
  Bad = I.hasMod("param") || I.hasMod("tex") || I.hasMod("surf");
  if (I.hasMod("global"))
    return AS_Global;
  if (I.hasMod("shared"))
    return AS_Shared;
  if (I.hasMod("const"))
    return AS_Constant;
  return AS_Generic; // generic or .local (reachable generically)
}

/// The pointer an integer operand was computed from, if any.
Value *peelToPointer(Value *V) {
  for (unsigned Depth = 0; Depth < 8 && V; ++Depth) {
    if (V->getType()->isPointerTy())
      return V;
    auto *Op = dyn_cast<Operator>(V);
    if (!Op)
      return nullptr;
    unsigned Opc = Op->getOpcode();
    if (Opc != Instruction::PtrToInt && Opc != Instruction::ZExt &&
        Opc != Instruction::Trunc)
      return nullptr;
    V = Op->getOperand(0);
  }
  return nullptr;
}

AtomicOrdering semantics(const Instr &I) {
  if (I.hasMod("acq_rel"))
    return AtomicOrdering::AcquireRelease;
  if (I.hasMod("acquire"))
    return AtomicOrdering::Acquire;
  if (I.hasMod("release"))
    return AtomicOrdering::Release;
  if (I.hasMod("relaxed"))
    return AtomicOrdering::Monotonic;
  return AtomicOrdering::NotAtomic;
}

unsigned vectorCount(const Instr &I) {
  return I.hasMod("v4") ? 4 : I.hasMod("v2") ? 2 : I.hasMod("v8") ? 8 : 1;
}

} // namespace

Value *Lowerer::address(const Operand &O, unsigned AS) {
  if (O.Kind != Operand::Address) {
    fail("'" + Cur->fullName() + "' expects an address operand '[...]'");
    return nullptr;
  }
  LLVMContext &C = M.getContext();
  PointerType *PT = PointerType::get(C, AS);
  Value *P;
  if (O.Elems.empty()) {
    P = B.CreateIntToPtr(B.getInt64(O.Int), PT);
    return P;
  }
  const Operand &Base = O.Elems[0];
  Value *Raw = nullptr;
  if (Base.Kind == Operand::Arg && Base.ArgNo < ArgSlot.size())
    Raw = Slots[ArgSlot[Base.ArgNo]];
  else if (Base.Kind == Operand::Reg && lookupReg(Base.Name) >= 0)
    Raw = Slots[lookupReg(Base.Name)];
  if (!Raw) {
    if (Base.Kind == Operand::Reg)
      fail("address base '" + Base.Name +
           "' is not a register of the asm (PTX variables cannot be named)");
    else
      fail("bad address operand");
    return nullptr;
  }
  if (Value *Ptr = peelToPointer(Raw))
    P = Ptr->getType() == PT ? Ptr : B.CreateAddrSpaceCast(Ptr, PT);
  else if (Raw->getType()->isIntegerTy())
    P = B.CreateIntToPtr(B.CreateZExtOrTrunc(Raw, B.getInt64Ty()), PT);
  else {
    fail("address operand is not an integer or a pointer");
    return nullptr;
  }
  if (O.Int)
    P = B.CreateGEP(B.getInt8Ty(), P, B.getInt64(O.Int));
  return P;
}

bool Lowerer::lowerMemory(const Instr &I, bool &Handled) {
  StringRef Op = I.Opcode;
  if (Op != "ld" && Op != "ldu" && Op != "st" && Op != "atom" && Op != "red" &&
      Op != "cvta") {
    Handled = false;
    return false;
  }
  bool BadSpace;
  int AS = stateSpace(I, BadSpace);
  if (BadSpace)
    return unsupported("state space");
  PTXType T = instrType();
  if (Op == "cvta") {
    // cvta.to.space.size d, a: generic -> space; cvta.space.size: back.
    if (!expectOps(2))
      return false;
    if (!T.valid() || T.isFloat())
      return unsupported("size must be .u32 or .u64");
    bool To = I.hasMod("to");
    Operand Src = I.Ops[1];
    Operand Addr;
    Addr.Kind = Operand::Address;
    Addr.Elems.push_back(Src);
    Value *P = address(Addr, To ? unsigned(AS_Generic) : unsigned(AS));
    if (!P)
      return false;
    unsigned DstAS = To ? unsigned(AS) : unsigned(AS_Generic);
    if (P->getType()->getPointerAddressSpace() != DstAS)
      P = B.CreateAddrSpaceCast(P, PointerType::get(M.getContext(), DstAS));
    return write(I.Ops[0], B.CreatePtrToInt(P, llvmType(T)));
  }
  if (!T.valid() || T.isPred())
    return unsupported("missing type");
  Type *ETy = llvmType(T);
  unsigned Size = T.Bits / 8;
  AtomicOrdering Sem = semantics(I);
  // `.cg` (cache at L2 only) is how CUDA code polls data that other blocks
  // write (CUB's decoupled look-back reads tile status with ld.cg and
  // writes it with st.cg): a volatile access keeps every poll a real,
  // coherent access where a plain one could be hoisted out of the loop.
  bool Volatile = I.hasMod("volatile") || I.hasMod("cv") || I.hasMod("cg");
  bool Hint = false;
  for (const std::string &Mo : I.Mods)
    Hint |= StringRef(Mo).contains("cache_hint");

  if (Op == "ld" || Op == "ldu" || Op == "st") {
    bool Load = Op != "st";
    if (I.Ops.size() != 2u + Hint)
      return expectOps(2 + Hint);
    unsigned N = vectorCount(I);
    if (N > 1 && Sem != AtomicOrdering::NotAtomic)
      return unsupported("vector accesses cannot be atomic");
    if (Sem == AtomicOrdering::AcquireRelease ||
        (Load && Sem == AtomicOrdering::Release) ||
        (!Load && Sem == AtomicOrdering::Acquire))
      return unsupported("memory order");
    const Operand &Val = Load ? I.Ops[0] : I.Ops[1];
    Value *Ptr = address(Load ? I.Ops[1] : I.Ops[0], AS);
    if (!Ptr)
      return false;
    if ((N > 1) != (Val.Kind == Operand::Vector) ||
        (N > 1 && Val.Elems.size() != N))
      return fail("'" + I.fullName() + "' needs a vector of " + Twine(N) +
                  " registers");
    for (unsigned K = 0; K < N; ++K) {
      const Operand &E = N > 1 ? Val.Elems[K] : Val;
      Value *P = K ? B.CreateGEP(B.getInt8Ty(), Ptr, B.getInt64(K * Size)) : Ptr;
      Align A(K ? Size : Size * N);
      if (Load) {
        LoadInst *L = B.CreateAlignedLoad(ETy, P, A, Volatile);
        if (Sem != AtomicOrdering::NotAtomic)
          L->setAtomic(Sem);
        if (!write(E, L, T.isSigned()))
          return false;
      } else {
        if (E.Kind == Operand::Sink)
          continue;
        Value *V = read(E, T);
        if (!V)
          return false;
        StoreInst *S = B.CreateAlignedStore(V, P, A, Volatile);
        if (Sem != AtomicOrdering::NotAtomic)
          S->setAtomic(Sem);
      }
    }
    return true;
  }

  // atom / red
  bool Red = Op == "red";
  if (vectorCount(I) > 1)
    return unsupported("vector atomics");
  if (Sem == AtomicOrdering::NotAtomic)
    Sem = AtomicOrdering::Monotonic;
  bool Cas = I.hasMod("cas");
  unsigned NOps = (Red ? 2 : 3) + (Cas ? 1 : 0) + Hint;
  if (!expectOps(NOps))
    return false;
  unsigned PI = Red ? 0 : 1;
  Value *Ptr = address(I.Ops[PI], AS);
  Value *V = Ptr ? read(I.Ops[PI + 1], T) : nullptr;
  if (!V)
    return false;
  if (T.isFloat() && !ETy->isFloatTy() && !ETy->isDoubleTy())
    return unsupported("f16 atomics");
  Value *Old;
  if (Cas) {
    if (Red)
      return unsupported();
    Value *New = read(I.Ops[PI + 2], T);
    if (!New)
      return false;
    if (T.isFloat()) {
      Type *IT = B.getIntNTy(T.Bits);
      V = B.CreateBitCast(V, IT);
      New = B.CreateBitCast(New, IT);
    }
    auto *CX = B.CreateAtomicCmpXchg(Ptr, V, New, MaybeAlign(), Sem,
                                     AtomicCmpXchgInst::getStrongestFailureOrdering(Sem));
    Old = B.CreateExtractValue(CX, 0);
  } else if (I.hasMod("inc") || I.hasMod("dec")) {
    if (T.Bits != 32 || T.isFloat())
      return unsupported("inc/dec take .u32");
    bool Inc = I.hasMod("inc");
    Old = casLoop(Ptr, ETy, [&](Value *O) -> Value * {
      if (Inc)
        return B.CreateSelect(B.CreateICmpUGE(O, V), B.getInt32(0),
                              B.CreateAdd(O, B.getInt32(1)));
      Value *Wrap = B.CreateOr(B.CreateICmpEQ(O, B.getInt32(0)), B.CreateICmpUGT(O, V));
      return B.CreateSelect(Wrap, V, B.CreateSub(O, B.getInt32(1)));
    }, Sem);
  } else {
    AtomicRMWInst::BinOp K;
    bool S = T.isSigned();
    if (I.hasMod("add"))
      K = T.isFloat() ? AtomicRMWInst::FAdd : AtomicRMWInst::Add;
    else if (I.hasMod("exch"))
      K = AtomicRMWInst::Xchg;
    else if (I.hasMod("and"))
      K = AtomicRMWInst::And;
    else if (I.hasMod("or"))
      K = AtomicRMWInst::Or;
    else if (I.hasMod("xor"))
      K = AtomicRMWInst::Xor;
    else if (I.hasMod("min"))
      K = T.isFloat() ? AtomicRMWInst::FMin : S ? AtomicRMWInst::Min : AtomicRMWInst::UMin;
    else if (I.hasMod("max"))
      K = T.isFloat() ? AtomicRMWInst::FMax : S ? AtomicRMWInst::Max : AtomicRMWInst::UMax;
    else
      return unsupported("missing operation");
    if (T.isFloat() && K != AtomicRMWInst::FAdd && K != AtomicRMWInst::Xchg)
      return unsupported("floating-point atomic min/max");
    if (T.isFloat() && K == AtomicRMWInst::Xchg)
      V = B.CreateBitCast(V, B.getIntNTy(T.Bits));
    Old = B.CreateAtomicRMW(K, Ptr, V, MaybeAlign(), Sem);
  }
  if (Red)
    return true;
  return write(I.Ops[0], Old, T.isSigned());
}

} // namespace ptx
} // namespace hetgpu
