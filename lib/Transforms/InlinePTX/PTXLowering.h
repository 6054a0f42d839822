//===- PTXLowering.h - Lower parsed inline PTX to LLVM IR -------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Lowerer turns the statements of one `call asm` into plain LLVM IR and
/// `__hetgpu_*` builtin calls, inserted before the call. Every register the
/// asm names is an SSA value in a slot (asm operands, `.reg` registers of the
/// open scopes); an instruction reads its operands from slots and writes its
/// results back, so the lowered code is straight-line SSA. Guarded
/// instructions (`@p`) without side effects become selects; guarded ones with
/// side effects (stores, atomics, warp and barrier operations) get a branch,
/// and the slots they change are merged with phis.
///
/// The instruction families are split over PTXLowering.cpp (operands, mov,
/// special registers, warp, barriers, fences), LowerArith.cpp (integer,
/// bit, floating-point, conversion and comparison instructions) and
/// LowerMemory.cpp (ld, st, atom, red, cvta).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_LIB_TRANSFORMS_INLINEPTX_PTXLOWERING_H
#define HETGPU_LIB_TRANSFORMS_INLINEPTX_PTXLOWERING_H

#include "InlinePTX/PTXParser.h"
#include "hetgpu/IR/Builtins.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

#include <functional>

namespace hetgpu {
namespace ptx {

/// A PTX type suffix: Kind is 'b', 'u', 's', 'f' (f16/f32/f64), 'h' (bf16)
/// or 'p' (pred).
struct PTXType {
  char Kind = 0;
  unsigned Bits = 0;
  bool valid() const { return Kind != 0; }
  bool isFloat() const { return Kind == 'f' || Kind == 'h'; }
  bool isSigned() const { return Kind == 's'; }
  bool isPred() const { return Kind == 'p'; }
};

/// The type a modifier names (`u32`, `pred`, ...), or an invalid one.
PTXType parseType(llvm::StringRef Mod);

/// Constraint-string facts of one asm operand (`$N`).
struct AsmOperandInfo {
  bool IsOutput = false;
  int TiedTo = -1; ///< output this input shares its register with
};

class Lowerer {
public:
  /// \p CFSlot gives the function's carry-flag variable (created on first
  /// use), so carry chains may span consecutive asm statements.
  Lowerer(llvm::CallInst &Call, llvm::ArrayRef<AsmOperandInfo> Operands,
          std::function<llvm::AllocaInst *()> CFSlot);

  /// Lowers \p Stmts before the call and replaces the call's uses with the
  /// output values. On failure returns false with the message in ErrMsg and
  /// the asm line in ErrLine; the call is left in place.
  bool run(const std::vector<Stmt> &Stmts);

  std::string ErrMsg;
  unsigned ErrLine = 0;

  // ---- Used by the instruction families -------------------------------
  llvm::IRBuilder<> B;
  llvm::Module &M;
  llvm::CallInst &Call;
  const Instr *Cur = nullptr;

  bool fail(const llvm::Twine &Msg);
  bool unsupported(const llvm::Twine &Why = "");

  llvm::Type *llvmType(PTXType T);
  /// The instruction's first type modifier (or the \p N-th one).
  PTXType instrType(unsigned N = 0);
  /// Reads \p O as a value of type \p T (registers are converted as PTX
  /// allows: same size bitcast, wider truncated, narrower extended).
  llvm::Value *read(const Operand &O, PTXType T);
  llvm::Value *read(const Operand &O, llvm::Type *Ty, bool Signed = false);
  /// Writes \p V to \p O, extending with \p Signed when the register is wider.
  bool write(const Operand &O, llvm::Value *V, bool Signed = false);
  /// An operand as an address in \p AS (from a pointer or an integer).
  llvm::Value *address(const Operand &O, unsigned AS);
  /// Number of operands \p I must have.
  bool expectOps(unsigned N);
  llvm::Value *convert(llvm::Value *V, llvm::Type *Ty, bool Signed);

  /// Carry flag (CC.CF) of the current statement.
  llvm::Value *readCF();
  void writeCF(llvm::Value *V);

  /// Calls builtin \p ID (a `__hetgpu_*` function of Builtins.def).
  llvm::Value *builtin(BuiltinID ID, llvm::ArrayRef<llvm::Value *> Args = {});
  llvm::Value *linearTid();
  llvm::Value *laneId();

  /// Shift helpers with PTX semantics for amounts >= the width.
  llvm::Value *shl(llvm::Value *X, llvm::Value *N);
  llvm::Value *lshr(llvm::Value *X, llvm::Value *N);
  llvm::Value *ashr(llvm::Value *X, llvm::Value *N);

  /// Emits a compare-and-swap loop at the current point: Old -> NewFn(Old).
  llvm::Value *casLoop(llvm::Value *Ptr, llvm::Type *Ty,
                       const std::function<llvm::Value *(llvm::Value *)> &NewFn,
                       llvm::AtomicOrdering Ord);

  // Families; each returns true when it lowered the instruction, and sets
  // Handled to false when the opcode is not one of its own.
  bool lowerControl(const Instr &I, bool &Handled); // PTXLowering.cpp
  bool lowerWarp(const Instr &I, bool &Handled);    // PTXLowering.cpp
  bool lowerInt(const Instr &I, bool &Handled);     // LowerArith.cpp
  bool lowerBits(const Instr &I, bool &Handled);    // LowerArith.cpp
  bool lowerFloat(const Instr &I, bool &Handled);   // LowerFloat.cpp
  bool lowerCvt(const Instr &I, bool &Handled);     // LowerFloat.cpp
  bool lowerMemory(const Instr &I, bool &Handled);  // LowerMemory.cpp

  /// f32 result of rounding the exact value Hi + Lo (doubles, |Lo| tiny)
  /// in direction \p Mode ('n', 'z', 'm', 'p').
  llvm::Value *roundToF32(llvm::Value *Hi, llvm::Value *Lo, char Mode);
  /// Flushes a subnormal f32 to a zero of the same sign (`.ftz`).
  llvm::Value *flushF32(llvm::Value *V);

private:
  llvm::ArrayRef<AsmOperandInfo> Operands;
  std::function<llvm::AllocaInst *()> CFSlot;
  std::vector<llvm::Value *> Slots;
  std::vector<llvm::Type *> SlotTypes;
  std::vector<unsigned> ArgSlot;
  llvm::SmallVector<llvm::StringMap<unsigned>, 4> Scopes;
  llvm::Value *CF = nullptr;
  bool CFWritten = false;
  llvm::Value *Guard = nullptr; ///< set while lowering a guarded pure op

  bool lowerInstr(const Instr &I);
  bool dispatch(const Instr &I);
  bool declare(const RegDecl &D);
  int lookupReg(llvm::StringRef Name);
  llvm::Value *specialReg(llvm::StringRef Name);
  llvm::Value *operandValue(const Operand &O, llvm::Type *Ty, bool Signed);
  bool lowerMov(const Instr &I);
  bool lowerShfl(const Instr &I);
  bool lowerVote(const Instr &I);
  bool lowerMatch(const Instr &I);
  bool lowerBarrier(const Instr &I);
  bool lowerFence(const Instr &I);
};

} // namespace ptx
} // namespace hetgpu

#endif // HETGPU_LIB_TRANSFORMS_INLINEPTX_PTXLOWERING_H
