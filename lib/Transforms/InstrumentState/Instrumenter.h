//===- Instrumenter.h - Pieces of hetgpu-instrument-state -------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Private to `hetgpu-instrument-state` (include/hetgpu/Transforms/
/// InstrumentState.h is the pass's public header). One kernel is
/// instrumented by one `KernelInstrumenter`, whose parts live one per file
/// next to this header:
///
/// * Planning.cpp: the loop safe points to instrument and their layouts,
///   the chunk header whose start reads a chunked loop's yield flag;
/// * BlockEntry.cpp: the block-entry safe point (a block that starts after
///   the yield flag was raised suspends before running anything);
/// * SafePoint.cpp: at each safe point, the yield-flag read and the
///   block-uniform yield test, the save path and the resume landing;
/// * BarrierPoint.cpp: block barriers as safe points of watched launches
///   (unwatched launches run a copy of the body with plain barriers);
/// * ThreadSafePoint.cpp: the per-thread safe points of divergent loops
///   (kind ThreadLoop): a test and save path each thread takes alone, the
///   thread's word, "finished" marks, and the per-thread resume dispatch;
/// * SavePaths.cpp: addressing in the state buffer, saving and restoring
///   live values and shared memory;
/// * ResumeDispatch.cpp: the entry dispatch of a resumed launch, copies of
///   the loop nests around resumed safe points, SSA repair;
/// * lib/Transforms/InstrumentState.cpp: the driver (`run`), the hidden
///   parameters, and the pass.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_LIB_TRANSFORMS_INSTRUMENTSTATE_INSTRUMENTER_H
#define HETGPU_LIB_TRANSFORMS_INSTRUMENTSTATE_INSTRUMENTER_H

#include "hetgpu/ABI/Migration.h"
#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <memory>

namespace hetgpu {
namespace instrument {

using container::KernelInfo;
using container::SafePointInfo;

/// Marks the yield-flag read that instrumentSafePoint moved to the header of
/// a chunked loop.
inline constexpr llvm::StringLiteral EarlyFlagMD = "hetgpu.early.flag";

/// The key of `!hetgpu.kernels` entries of instrumented kernels.
inline constexpr llvm::StringLiteral InstrumentedKey = "instrumented";

struct SafePointPlan {
  llvm::CallBase *Call = nullptr;
  const SafePointInfo *Info = nullptr;
  llvm::SmallVector<llvm::Value *, 16> Values; ///< bundle operands, slot order
  /// The chunk header the safe point's block returns to, when it dominates
  /// the safe point (a chunked loop): the yield flag is read there.
  llvm::BasicBlock *ChunkHeader = nullptr;
  /// A per-thread safe point (SafePointKind::ThreadLoop).
  bool PerThread = false;
  /// A block barrier (SafePointKind::Barrier), tested in watched launches
  /// only (BarrierPoint.cpp).
  bool Barrier = false;
};

/// A shared-memory region of the kernel's layout, as seen from one address
/// space: Base points at its first byte, Offset is its layout offset, Size
/// 0 means "unbounded" (dynamic shared memory).
struct SharedRegion {
  llvm::Value *Base;
  uint64_t Offset;
  uint64_t Size;
};

class KernelInstrumenter {
public:
  KernelInstrumenter(llvm::Function &K, const KernelInfo &KI,
                     bool EarlyFlagRead, bool GridSync = false)
      : K(&K), KI(KI), EarlyFlagRead(EarlyFlagRead), GridSync(GridSync) {}

  /// False (after a diagnostic) when the kernel cannot be instrumented.
  bool run();

private:
  llvm::Function *K;
  const KernelInfo &KI;
  bool EarlyFlagRead; ///< see InstrumentStatePass
  /// The grid barriers are the safe points, each one suspends the block
  /// (InstrumentStatePass's GridSync).
  bool GridSync;
  llvm::Module *M = nullptr;
  llvm::LLVMContext *C = nullptr;
  llvm::Type *I8 = nullptr, *I32 = nullptr, *I64 = nullptr, *Ptr = nullptr;
  llvm::SmallVector<SafePointPlan, 8> Plans;
  uint64_t RecordSize = 0;

  llvm::Function *NF = nullptr;
  llvm::Value *State = nullptr, *Ctrl = nullptr, *Round = nullptr;
  /// The round parameter as passed: Round | abi::RoundWatched when the
  /// launch is watched (Round is its low 31 bits, buildEntry).
  llvm::Value *RoundArg = nullptr;
  llvm::Value *TLin = nullptr, *NThreads = nullptr, *DynShared = nullptr;
  llvm::Value *Header = nullptr, *SharedSave = nullptr, *Record = nullptr;
  llvm::Value *DynBase = nullptr; ///< __hetgpu_dynamic_shared(), when used
  llvm::BasicBlock *RetBB = nullptr;
  /// Resume path of one safe point: the block that ends the shared-memory
  /// restore (entered from the entry dispatch), the landing blocks that
  /// reload the live values (first and last), the safe point's block, the
  /// map to the copy of its loop nest (wireResumes; null outside loops), and
  /// the reloaded value of each live SSA value.
  struct ResumePath {
    llvm::BasicBlock *RestoreEnd;
    llvm::BasicBlock *Land, *LandEnd;
    llvm::BasicBlock *SP;
    unsigned Id;
    llvm::ValueToValueMapTy *Copy = nullptr;
    llvm::SmallVector<std::pair<llvm::Instruction *, llvm::Value *>, 16>
        Reloaded;
  };
  llvm::SmallVector<ResumePath, 8> ResumePaths;
  /// Safe point id being resumed (0: none); promoted to SSA with the rest.
  llvm::AllocaInst *ResumeId = nullptr;
  /// Stack slots of values that leave a loop copied for resumption, by
  /// value (the original; its copy stores to the same slot).
  llvm::MapVector<llvm::Instruction *, llvm::AllocaInst *> EscapeSlots;
  /// Original -> copy, per loop nest copied for resumption.
  llvm::SmallVector<std::unique_ptr<llvm::ValueToValueMapTy>, 4> CopyMaps;

  bool UsesDynShared = false;
  /// The body unwatched launches run when the kernel has barrier or
  /// per-thread safe points (BarrierPoint.cpp), and its blocks; null /
  /// empty otherwise.
  llvm::BasicBlock *PlainBody = nullptr;
  llvm::SmallPtrSet<llvm::BasicBlock *, 32> PlainBlocks;

  /// The resume landing and yield test of one safe point, as
  /// instrumentSafePoint builds them: the safe point's block (which the
  /// landing re-enters), the phi of the yield flag there, and the
  /// barrier_or that decides; Loc, the safe point call's location, is
  /// that of the save and resume code too.
  struct YieldTest {
    llvm::BasicBlock *SP;
    llvm::PHINode *Y;
    llvm::Instruction *Any;
    llvm::DebugLoc Loc;
  };

  // Planning.cpp
  bool collectPlans();
  void findChunkHeaders();
  bool checkLiveAllocas();

  // BlockEntry.cpp
  /// The block-entry test in front of \p Body; returns its first block.
  llvm::BasicBlock *emitBlockEntry(llvm::BasicBlock *Body);

  // SafePoint.cpp
  void instrumentSafePoint(SafePointPlan &P, llvm::BasicBlock *RestoreBB);
  llvm::LoadInst *readControlWord(SafePointPlan &P, llvm::BasicBlock *Pre);
  YieldTest emitYieldTest(SafePointPlan &P);
  YieldTest emitGridSyncTest(SafePointPlan &P);
  void emitSavePath(SafePointPlan &P, const YieldTest &YT);
  /// Splits the safe point's block after the test and branches to a new
  /// block named \p Prefix.<id> when it says yield; \p B is left there,
  /// after the save's addressing (emitAddressing).
  void branchToSave(unsigned Id, const YieldTest &YT, llvm::StringRef Prefix,
                    llvm::IRBuilder<> &B);
  void emitResumePath(SafePointPlan &P, const YieldTest &YT,
                      llvm::BasicBlock *RestoreBB);

  // BarrierPoint.cpp
  bool hasBarrierPlans() const {
    return llvm::any_of(Plans,
                        [](const SafePointPlan &P) { return P.Barrier; });
  }
  /// Copies the body (every block but the entry) for unwatched launches:
  /// PlainBody, PlainBlocks.
  void clonePlainBody(llvm::BasicBlock *Body);
  YieldTest emitBarrierYieldTest(SafePointPlan &P);

  // SavePaths.cpp
  void emitAddressing(llvm::IRBuilder<> &B);
  void emitSave(llvm::IRBuilder<> &B, SafePointPlan &P);
  void emitRestore(
      llvm::IRBuilder<> &B, SafePointPlan &P,
      llvm::SmallVectorImpl<std::pair<llvm::Instruction *, llvm::Value *>>
          &Out);
  void emitSharedCopy(llvm::IRBuilder<> &B, bool ToBuffer);
  void emitStridedCopy(llvm::IRBuilder<> &B, llvm::Value *Dst, llvm::Value *Src,
                       llvm::Value *N);
  llvm::SmallVector<SharedRegion, 4> sharedRegions(llvm::IRBuilder<> &B,
                                                   unsigned AS);

  // ResumeDispatch.cpp
  void buildEntry();
  void wireResumes();
  llvm::ValueToValueMapTy &copyLoopNest(llvm::Loop *L);
  void hoistRecomputable();
  void repairSSA();

  // ThreadSafePoint.cpp
  bool hasThreadPlans() const {
    return llvm::any_of(Plans,
                        [](const SafePointPlan &P) { return P.PerThread; });
  }
  YieldTest emitThreadYieldTest(SafePointPlan &P);
  void emitThreadSavePath(SafePointPlan &P, const YieldTest &YT);
  void markThreadsFinished();
  llvm::SwitchInst *emitThreadDispatch(llvm::BasicBlock *BB,
                                       llvm::BasicBlock *Body);
  /// The thread's word in its record (abi::ThreadWordOffset), as global
  /// memory; emitAddressing must have run at \p B's position.
  llvm::Value *threadWord(llvm::IRBuilder<> &B) {
    return castTo(B, byteGEP(B, Record, abi::ThreadWordOffset), AS_Global);
  }

  // lib/Transforms/InstrumentState.cpp
  void cloneWithHiddenParams();
  void stripBundles();
  void markInstrumented();

  llvm::Value *builtin(llvm::IRBuilder<> &B, BuiltinID ID,
                       llvm::ArrayRef<llvm::Value *> Args = {}) {
    return B.CreateCall(getOrDeclareBuiltin(*M, ID), Args);
  }
  llvm::Value *byteGEP(llvm::IRBuilder<> &B, llvm::Value *P, llvm::Value *Off,
                       const llvm::Twine &N = "") {
    return B.CreateGEP(I8, P, Off, N);
  }
  llvm::Value *byteGEP(llvm::IRBuilder<> &B, llvm::Value *P, uint64_t Off,
                       const llvm::Twine &N = "") {
    return B.CreateGEP(I8, P, B.getInt64(Off), N);
  }
  /// Words of the control block (abi::MigrationControl).
  enum ControlField : unsigned {
    CF_Yield = abi::MCW_Yield,
    CF_YieldAfter = abi::MCW_YieldAfter,
    CF_Visits = abi::MCW_Visits,
    CF_DynShared = abi::MCW_DynShared,
  };
  /// A word of the control block, addressed as global memory: the CPU
  /// device's SIMT -> MIMD lowering regroups warps at volatile accesses
  /// that may touch shared memory, which a generic pointer could.
  llvm::Value *ctrlField(llvm::IRBuilder<> &B, unsigned Index) {
    llvm::Value *G = castTo(B, Ctrl, AS_Global);
    return Index ? B.CreateGEP(I8, G, B.getInt64(Index * 4)) : G;
  }
  /// Whether this is thread (0, 0, 0) of its block.
  llvm::Value *isFirstThread(llvm::IRBuilder<> &B, const llvm::Twine &Name) {
    llvm::Value *Any = B.CreateOr(
        builtin(B, BuiltinID::tid_x),
        B.CreateOr(builtin(B, BuiltinID::tid_y), builtin(B, BuiltinID::tid_z)));
    return B.CreateICmpEQ(Any, B.getInt32(0), Name);
  }
  /// Fills \p Count and \p Set, which both continue at \p Next: the random
  /// trigger's visit count (\p Count adds one to the control block's visits
  /// and goes to \p Set at the \p After-th, which raises the yield flag).
  void emitVisitCount(llvm::IRBuilder<> &B, llvm::BasicBlock *Count,
                      llvm::BasicBlock *Set, llvm::BasicBlock *Next,
                      llvm::Value *After) {
    B.SetInsertPoint(Count);
    llvm::Value *Old = B.CreateAtomicRMW(
        llvm::AtomicRMWInst::Add, ctrlField(B, CF_Visits), B.getInt32(1),
        llvm::MaybeAlign(4), llvm::AtomicOrdering::Monotonic);
    B.CreateCondBr(B.CreateICmpUGE(B.CreateAdd(Old, B.getInt32(1)), After), Set,
                   Next);
    B.SetInsertPoint(Set);
    B.CreateStore(B.getInt32(1), ctrlField(B, CF_Yield), /*isVolatile=*/true);
    B.CreateBr(Next);
  }
  llvm::Value *castTo(llvm::IRBuilder<> &B, llvm::Value *P, unsigned AS) {
    if (P->getType()->getPointerAddressSpace() == AS)
      return P;
    return B.CreateAddrSpaceCast(P, llvm::PointerType::get(*C, AS));
  }
};

} // namespace instrument
} // namespace hetgpu

#endif // HETGPU_LIB_TRANSFORMS_INSTRUMENTSTATE_INSTRUMENTER_H
