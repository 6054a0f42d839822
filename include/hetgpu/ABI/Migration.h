//===- Migration.h - What instrumented kernels share with the runtime -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The live-migration contract between `hetgpu-instrument-state`
/// (lib/Transforms/InstrumentState.cpp), which writes it into every
/// instrumented kernel, and the runtime (runtime/lib/Migration), which
/// allocates, fills and reads it: the hidden parameters, the control block
/// and the byte layout of a launch's state buffer (docs/Migration.md,
/// docs/StateMetadata.md). Plain C++, no LLVM.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_ABI_MIGRATION_H
#define HETGPU_ABI_MIGRATION_H

#include <cstddef>
#include <cstdint>

namespace hetgpu {
namespace abi {

/// Parameters appended to every instrumented kernel after the user's: the
/// state buffer and the control block (pointers, 8-aligned) and the launch's
/// round (u32).
constexpr size_t MigrationHiddenParams = 3;

/// Control block shared by host and device (32 bytes, 8-aligned). Every
/// thread reads Yield and YieldAfter with one volatile 64-bit load at a loop
/// safe point. (The launch's round is the third hidden parameter, not a
/// word here: a parameter costs no memory access at entry.)
struct MigrationControl {
  uint32_t Yield;      ///< nonzero: suspend at the next safe point
  uint32_t YieldAfter; ///< 0: off; else set Yield at this visit count
  uint32_t Visits;     ///< safe-point visits (thread 0 of each block)
  uint32_t DynShared;  ///< dynamic shared bytes of the launch
  uint32_t Reserved[4];
};
static_assert(sizeof(MigrationControl) == 32, "the control block is 32 bytes");

/// Word indices of MigrationControl, as the instrumentation addresses them.
enum MigrationControlWord : unsigned {
  MCW_Yield = offsetof(MigrationControl, Yield) / 4,
  MCW_YieldAfter = offsetof(MigrationControl, YieldAfter) / 4,
  MCW_Visits = offsetof(MigrationControl, Visits) / 4,
  MCW_DynShared = offsetof(MigrationControl, DynShared) / 4,
};

/// Set in the round parameter of a watched launch (the round is the low 31
/// bits): only then do blocks read the control block at entry and take the
/// block-entry decision (below). An unwatched launch passes round 0 and its
/// blocks touch no memory before the body.
constexpr uint32_t RoundWatched = 0x80000000u;

/// The safe point id of the block-entry safe point: a block that starts
/// after the yield flag is raised writes {R + 1, BlockStartId} and returns
/// without running anything; the resumed launch runs it from the start.
/// Above every id the state layout assigns (1, 2, ...).
constexpr uint32_t BlockStartId = 0xffffffffu;

/// The safe point id in the header of a block some of whose threads
/// suspended at per-thread safe points (kind ThreadLoop): each thread's own
/// word (below) says where it is. Below BlockStartId, above every id the
/// state layout assigns.
constexpr uint32_t ThreadSuspendedId = 0xfffffffeu;

/// Per-thread word at the start of each thread record of a kernel with
/// per-thread safe points: `{u32 state, u32 safe point id}`, no round
/// (every thread of a block resumed per thread writes it again before it
/// leaves). Slots of per-thread safe points start after it.
constexpr uint64_t ThreadWordOffset = 0;
constexpr uint64_t ThreadWordBytes = 8;
/// Values of the word's state: 0 never written (the thread starts from the
/// block entry), suspended at the word's safe point, ran to its end.
enum ThreadWordState : uint32_t {
  TW_None = 0,
  TW_Suspended = 1,
  TW_Finished = 2,
};

/// Byte offset in a block's header of its block-entry decision word:
/// `(R + 1) << 1 | suspend`, written once per round by the first thread of
/// the block that reaches the entry of a watched launch (a compare and
/// swap), so every thread of the block takes the same decision. The host
/// clears it when it normalises a state image.
constexpr uint64_t StateEntryDecisionOffset = 8;

/// Bytes of the header that starts every block's area in the state buffer:
/// `{u32 status, u32 safe point, u32 entry decision, u32 reserved}`. A
/// fresh launch (round 0) never reads or writes it unless it is watched; a
/// block that suspends in round R writes status R + 1 and its safe point id.
/// The host clears the headers before a launch it watches, so status 0 means
/// "ran to its end" and a resumed launch of round R continues exactly the
/// blocks whose status is R.
constexpr uint64_t StateBlockHeaderBytes = 16;

/// Bytes of one block in a launch's state buffer: the header, shared memory
/// (static rounded to 16, then dynamic, total rounded to 16), then
/// \p Threads records of \p RecordSize bytes.
inline uint64_t stateBlockBytes(uint64_t StaticShared, uint64_t DynShared,
                                uint64_t Threads, uint64_t RecordSize) {
  uint64_t Shared = (((StaticShared + 15) & ~uint64_t(15)) + DynShared + 15) &
                    ~uint64_t(15);
  return StateBlockHeaderBytes + Shared + Threads * RecordSize;
}

} // namespace abi
} // namespace hetgpu

#endif // HETGPU_ABI_MIGRATION_H
