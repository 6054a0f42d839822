//===- Lowering.h - Pieces of the SIMT -> MIMD lowering ---------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Private to `hetgpu-simt-to-mimd` (include/hetgpu/Transforms/SIMTToMIMD.h
/// is the pass's public header). The lowering is one class, `Lowering`,
/// whose parts live one per file next to this header:
///
/// * SyncPoints.cpp: which builtins are sync points, warp regrouping points
///   before volatile shared accesses;
/// * ContextFunctions.cpp: which device functions need a thread's context,
///   and their inlining into the kernels;
/// * Liveness.cpp: SSA values live across a sync point, allocations whose
///   address escapes;
/// * ThreadFunction.cpp: the thread function and its setup block;
/// * ContextBuiltins.cpp: index, shared-memory, fence and service builtins
///   lowered against the block context;
/// * Resumable.cpp: the resumable form (spills, frame, resume dispatch);
/// * BlockFunction.cpp: `__hetgpu_block_K`, a thread loop or a call of the
///   block executor;
/// * lib/Transforms/SIMTToMIMD.cpp: the driver (`Lowering::run`) and the pass.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_LIB_TRANSFORMS_SIMTTOMIMD_LOWERING_H
#define HETGPU_LIB_TRANSFORMS_SIMTTOMIMD_LOWERING_H

#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace hetgpu {
namespace simt {

using container::KernelInfo;
using container::SafePointInfo;

// ---- Classification of builtins (SyncPoints.cpp) --------------------------

/// The executor's operation for a sync builtin, or EXIT when \p ID is none.
uint32_t syncKind(BuiltinID ID);
/// syncKind of the builtin \p I calls; EXIT for anything else.
uint32_t syncKindOf(const llvm::Instruction &I);
/// Adds an __activemask() sync point before every volatile access of \p K
/// that may touch shared memory; returns how many.
unsigned addVolatileWarpSyncPoints(llvm::Function &K);
/// Warp regrouping points before findUnorderedSharedExchanges' accesses.
unsigned addSharedExchangeSyncPoints(llvm::Function &K);

// ---- Errors ---------------------------------------------------------------

/// The messages the lowering collected, with the function each names.
struct Failures {
  llvm::SmallVector<std::pair<const llvm::Function *, std::string>, 4> List;
  void add(const llvm::Function &F, const llvm::Twine &Msg) {
    List.emplace_back(&F, Msg.str());
  }
  bool empty() const { return List.empty(); }
};

// ---- Liveness of SSA values, setup-block values excluded (Liveness.cpp) ---

class Liveness {
public:
  Liveness(llvm::Function &F, const llvm::BasicBlock *Setup);

  /// Values live immediately after \p At (not including \p At itself), in
  /// definition order.
  llvm::SmallVector<llvm::Instruction *, 16> liveAfter(llvm::Instruction &At);

private:
  void mark(llvm::Value *V, llvm::BitVector &L);
  /// Backward transfer over one instruction. Operand bundles record
  /// liveness and do not create it.
  void step(llvm::Instruction &I, llvm::BitVector &L);

  llvm::DenseMap<llvm::Instruction *, unsigned> Index;
  llvm::SmallVector<llvm::Instruction *, 64> Values;
  llvm::DenseMap<llvm::BasicBlock *, llvm::BitVector> In, Out;
};

/// True when the pointer \p Root (an alloca) may be stored, compared as an
/// integer or passed to a call that keeps it: then pointers to it can come
/// back from memory and every allocation must stay in the frame.
bool allocaEscapes(llvm::Instruction *Root);

// ---- The lowering ---------------------------------------------------------

class Lowering {
public:
  Lowering(llvm::Module &M, Failures &Fail)
      : M(M), C(M.getContext()), DL(M.getDataLayout()), Fail(Fail),
        I8(llvm::Type::getInt8Ty(C)), I32(llvm::Type::getInt32Ty(C)),
        I64(llvm::Type::getInt64Ty(C)), Ptr(llvm::PointerType::get(C, 0)) {}

  bool run();

private:
  /// Everything a thread function knows about its thread.
  struct Env {
    llvm::Function *T = nullptr;
    llvm::BasicBlock *Setup = nullptr;
    llvm::Value *Ctx = nullptr;
    llvm::Value *TS = nullptr; ///< thread state (resumable form only)
    llvm::Value *Tid[3] = {nullptr, nullptr, nullptr};
    llvm::Value *Linear = nullptr;
    llvm::Value *Frame = nullptr;
    llvm::DenseMap<unsigned, llvm::Value *> Fields;
  };

  /// A sync point of a resumable thread function.
  struct Sync {
    llvm::CallInst *Call = nullptr;
    uint32_t Kind = 0;
    unsigned Id = 0;
    const SafePointInfo *SP = nullptr;
    llvm::SmallVector<llvm::Value *, 8> Bundle;
    llvm::SmallVector<llvm::Instruction *, 16> Live;
    llvm::BasicBlock *Resume = nullptr;
    llvm::SmallVector<std::pair<llvm::Instruction *, llvm::Instruction *>, 16>
        Reloads;
  };

  /// The thread frame of a resumable kernel past its state record: the
  /// allocations moved there and the spill slots of values the record does
  /// not place.
  struct FrameLayout {
    uint64_t Cursor = 0;    ///< first free byte
    uint64_t MaxAlign = 16; ///< frames are 16-byte aligned, up to 64 on request
    llvm::DenseMap<llvm::Instruction *, uint64_t> Extra;
    /// The spill slot of \p V, allocated on first use.
    uint64_t extraSlot(llvm::Instruction *V, const llvm::DataLayout &DL);
  };

  /// Values computed from the thread's setup values alone (addresses of
  /// shared or frame memory from thread indices, say) are recomputed after
  /// a sync point instead of being stored and reloaded.
  class Rematerializer {
  public:
    explicit Rematerializer(const llvm::BasicBlock *Setup) : Setup(Setup) {}
    bool canRemat(llvm::Value *V, unsigned Depth = 0);
    /// A copy of \p V (and of the operands it needs) at the end of \p BB.
    llvm::Instruction *remat(llvm::Instruction *V, llvm::BasicBlock *BB);

  private:
    llvm::Instruction *
    clone(llvm::Instruction *I, llvm::BasicBlock *BB,
          llvm::DenseMap<llvm::Instruction *, llvm::Instruction *> &Done);
    const llvm::BasicBlock *Setup;
    llvm::DenseMap<llvm::Instruction *, bool> Memo;
  };

  // ContextFunctions.cpp
  bool computeContextFunctions();
  bool inlineContextCalls(llvm::Function &K);

  // ThreadFunction.cpp
  void copyWrittenByVal(llvm::Function &K);
  llvm::Function *makeThreadFunction(llvm::Function &K, bool Resumable, Env &E);
  void bindResumableParams(llvm::Function &K, Env &E, llvm::IRBuilder<> &B,
                           llvm::SmallVectorImpl<llvm::Value *> &ParamVals);
  void bindLoopParams(llvm::Function &K, Env &E,
                      llvm::SmallVectorImpl<llvm::Value *> &ParamVals);
  llvm::Value *ctxField(Env &E, size_t Offset, llvm::Type *Ty);
  llvm::Value *linearId(Env &E);
  llvm::Value *sharedBase(Env &E);

  // ContextBuiltins.cpp
  bool lowerBuiltins(llvm::Function &K, Env &E, const SharedLayout &SL);
  bool rewriteSharedVariables(llvm::Function &K, Env &E,
                              const SharedLayout &SL);
  bool lowerBuiltinCall(llvm::Function &K, Env &E, llvm::CallInst *CI,
                        const BuiltinInfo &BI);
  llvm::CallInst *callService(Env &E, llvm::IRBuilder<> &B, size_t Off,
                              llvm::FunctionType *FTy,
                              llvm::ArrayRef<llvm::Value *> Args);

  // Resumable.cpp
  /// Where a value live across a sync point sits in the safe point's state
  /// record: its frame offset, and whether it is stored as an offset from
  /// the block's shared memory.
  using RecordSlots =
      llvm::DenseMap<llvm::Instruction *, std::pair<uint64_t, bool>>;
  bool
  makeResumable(llvm::Function &K, Env &E, const KernelInfo *KI,
                const llvm::SmallPtrSetImpl<llvm::CallInst *> &KernelBarriers,
                uint64_t &FrameSize);
  bool
  collectSyncs(llvm::Function &K, const KernelInfo *KI,
               const llvm::SmallPtrSetImpl<llvm::CallInst *> &KernelBarriers,
               llvm::Function &T, llvm::SmallVectorImpl<Sync> &Syncs);
  llvm::SmallSetVector<llvm::AllocaInst *, 8>
  allocasLiveAcrossSyncs(Env &E, llvm::ArrayRef<Sync> Syncs);
  bool moveAllocasToFrame(llvm::Function &K, Env &E, llvm::BasicBlock *OldEntry,
                          llvm::ArrayRef<Sync> Syncs, FrameLayout &FL);
  void splitSyncPoint(Env &E, Sync &S, FrameLayout &FL, Rematerializer &RM,
                      llvm::DenseMap<llvm::Value *, llvm::Value *> &Replaced);
  RecordSlots storeRecordSlots(Env &E, Sync &S, llvm::IRBuilder<> &B,
                               Rematerializer &RM, llvm::MDNode *Tag);
  void reloadLiveValues(Env &E, Sync &S, llvm::IRBuilder<> &B,
                        llvm::IRBuilder<> &RB, FrameLayout &FL,
                        Rematerializer &RM, const RecordSlots &InRecord,
                        llvm::MDNode *Tag);
  void storeSyncOperation(Env &E, const Sync &S, llvm::IRBuilder<> &B);
  llvm::Value *tsField(Env &E, llvm::IRBuilder<> &B, size_t Off);
  void emitResumeDispatch(Env &E, llvm::BasicBlock *OldEntry,
                          llvm::ArrayRef<Sync> Syncs);
  void repairSSA(llvm::ArrayRef<Sync> Syncs);
  void separateSpillSlots(llvm::Function &T);

  // BlockFunction.cpp
  llvm::Function *createBlockFunction(llvm::Function &K);
  void buildLoopBlockFunction(llvm::Function &K, llvm::Function &T);
  void buildExecBlockFunction(llvm::Function &K, llvm::Function &T,
                              uint64_t FrameSize);

  // lib/Transforms/SIMTToMIMD.cpp
  bool lowerKernel(llvm::Function &K);
  void finish();

  llvm::Module &M;
  llvm::LLVMContext &C;
  const llvm::DataLayout &DL;
  Failures &Fail;
  llvm::Type *I8, *I32, *I64;
  llvm::PointerType *Ptr;
  llvm::SetVector<llvm::Function *> ContextFns;
  std::map<llvm::Function *, KernelInfo> Infos;
};

} // namespace simt
} // namespace hetgpu

#endif // HETGPU_LIB_TRANSFORMS_SIMTTOMIMD_LOWERING_H
