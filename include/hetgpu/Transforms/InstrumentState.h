//===- InstrumentState.h - Checkpoint/resume code at safe points -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-instrument-state`: hetIR -> hetIR instrumentation for live
/// migration (docs/Migration.md). Every kernel gets three hidden trailing
/// parameters (the launch's state buffer, its control block and its round),
/// entry checks (in a resumed launch finished blocks return, suspended
/// blocks restore their shared memory and live values and jump back to
/// their safe point), and at every loop safe point a block-uniform yield
/// test that saves the state laid out by `hetgpu-state-layout` and returns.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TRANSFORMS_INSTRUMENTSTATE_H
#define HETGPU_TRANSFORMS_INSTRUMENTSTATE_H

#include "hetgpu/Support/PassCompat.h"
#include "llvm/IR/PassManager.h"

#include <cstdint>

namespace hetgpu {

/// Control block shared by host and device (32 bytes, 8-aligned). Every
/// thread reads Yield and YieldAfter with one volatile 64-bit load at a loop
/// safe point. (The launch's round is the third hidden parameter, not a
/// word here: a parameter costs no memory access at entry.)
struct MigrationControl {
  uint32_t Yield;       ///< nonzero: suspend at the next safe point
  uint32_t YieldAfter;  ///< 0: off; else set Yield at this visit count
  uint32_t Visits;      ///< safe-point visits (thread 0 of each block)
  uint32_t DynShared;   ///< dynamic shared bytes of the launch
  uint32_t Reserved[4];
};
static_assert(sizeof(MigrationControl) == 32,
              "the runtime's ControlBlock has the same 32 bytes");

/// Block header of the state buffer (docs/StateMetadata.md): `{u32 status,
/// u32 safe point, u64 reserved}`. A fresh launch (Round 0) never reads or
/// writes it unless a block suspends; a block that suspends in round R
/// writes status R + 1 and its safe point id. The host clears the headers
/// before a launch it watches, so status 0 means "ran to its end" and a
/// resumed launch of round R continues exactly the blocks whose status is R.
///
/// Bytes of one block in a launch's state buffer: 16-byte header, shared
/// memory (static rounded to 16, then dynamic, total rounded to 16), then
/// \p Threads records of \p RecordSize bytes.
inline uint64_t migrationBlockBytes(uint64_t StaticShared, uint64_t DynShared,
                                    uint64_t Threads, uint64_t RecordSize) {
  uint64_t Shared = (((StaticShared + 15) & ~uint64_t(15)) + DynShared + 15) &
                    ~uint64_t(15);
  return 16 + Shared + Threads * RecordSize;
}

class InstrumentStatePass : public RequiredPass<InstrumentStatePass> {
public:
  /// \p EarlyFlagRead: a chunked loop reads the yield flag when a chunk
  /// starts (`hetgpu-instrument-state`), else at its safe point
  /// (`hetgpu-instrument-state<late-flag>`;
  /// LoweringTarget::readsYieldFlagEarly).
  explicit InstrumentStatePass(bool EarlyFlagRead = true)
      : EarlyFlagRead(EarlyFlagRead) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);

private:
  bool EarlyFlagRead;
};

} // namespace hetgpu

#endif // HETGPU_TRANSFORMS_INSTRUMENTSTATE_H
