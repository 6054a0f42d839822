//===- HostUniformWarpOps.cpp - Full-warp operations as vector code -------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// findUniformWarpOps and inlineUniformWarpOps (HostLaneLoops.h): a warp
/// operation with the full mask whose kind and control operands are
/// constants (`__ballot_sync(0xffffffff, p)`, `__shfl_down_sync(~0u, v,
/// 16)`, ...) is computed inside the lane-loop function, on its per-warp
/// arrays, when all 32 lanes of the warp stopped at it: a ballot is one
/// vector compare and a bit cast, a shuffle one shufflevector with a
/// constant mask. Whether all lanes stopped there is checked at run time
/// (the mask of the call and one vector compare of the returned sync ids);
/// when they did not, __hetgpu_exec_fuse_soa or the executor performs the
/// operation as before, so divergence and partial masks keep CUDA's
/// results. HETGPU_HOST_UNIFORM_WARP_OPS=0 turns this off (comparisons).
///
//===----------------------------------------------------------------------===//

#include "HostLaneLoops.h"

#include "hetgpu/ABI/BlockExecutor.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <cstddef>
#include <cstdlib>
#include <optional>
#include <set>

using namespace llvm;

namespace hetgpu {
namespace host {

namespace {

static_assert(offsetof(hetgpu_thread_state, arg) ==
                  offsetof(hetgpu_thread_state, kind) + 4,
              "kind and arg[0..3] are five consecutive 32-bit fields");

bool isVote(uint32_t K) {
  return K == HETGPU_SYNC_VOTE_ANY || K == HETGPU_SYNC_VOTE_ALL ||
         K == HETGPU_SYNC_VOTE_BALLOT;
}

bool isShuffle(uint32_t K) {
  return K >= HETGPU_SYNC_SHFL_IDX && K <= HETGPU_SYNC_SHFL_XOR;
}

/// What the block \p BB of a thread function with state \p TS stores into
/// ts->kind and ts->arg[0..3] (fields 0..4): the last stored value of each,
/// or null where the block stores none.
void storedFields(BasicBlock &BB, Value *TS, const DataLayout &DL,
                  Value *(&Fields)[5]) {
  for (Value *&V : Fields)
    V = nullptr;
  constexpr uint64_t KindOff = offsetof(hetgpu_thread_state, kind);
  for (Instruction &I : BB) {
    auto *SI = dyn_cast<StoreInst>(&I);
    if (!SI || !SI->isSimple() ||
        SI->getValueOperand()->getType()->getPrimitiveSizeInBits() != 32)
      continue;
    APInt Off(DL.getIndexTypeSizeInBits(SI->getPointerOperandType()), 0);
    Value *Base = SI->getPointerOperand()->stripAndAccumulateConstantOffsets(
        DL, Off, /*AllowNonInbounds=*/true);
    if (Base != TS || Off.isNegative())
      continue;
    uint64_t O = Off.getZExtValue();
    if (O >= KindOff && O < KindOff + 20 && O % 4 == 0)
      Fields[(O - KindOff) / 4] = SI->getValueOperand();
  }
}

/// The uniform warp operation a sync point's block stores, if it is one.
std::optional<UniformWarpOp> uniformOp(Value *(&Fields)[5]) {
  auto Const = [&](unsigned I) -> std::optional<int32_t> {
    if (auto *CI = dyn_cast_or_null<ConstantInt>(Fields[I]))
      return int32_t(CI->getSExtValue());
    return std::nullopt;
  };
  std::optional<int32_t> Kind = Const(0), Mask = Const(1);
  if (!Kind)
    return std::nullopt;
  UniformWarpOp Op{uint32_t(*Kind)};
  if (Op.Kind == HETGPU_SYNC_ACTIVEMASK)
    return Op;
  if (!Mask || *Mask != -1)
    return std::nullopt;
  if (Op.Kind == HETGPU_SYNC_SYNCWARP || isVote(Op.Kind))
    return Op;
  std::optional<int32_t> Src = Const(3), Width = Const(4);
  if (!isShuffle(Op.Kind) || !Src || !Width)
    return std::nullopt;
  Op.Src = *Src;
  Op.Width = *Width;
  return Op;
}

bool sameOp(const UniformWarpOp &A, const UniformWarpOp &B) {
  return A.Kind == B.Kind && A.Src == B.Src && A.Width == B.Width;
}

/// The source lane of every lane of a full-warp shuffle \p Op: PTX
/// shfl.sync with segment mask 32 - width (a width that is not a power of
/// two up to 32 means 32); a source outside the lane's segment gives the
/// lane's own value (as hetgpu_sched_shfl_source in hetgpu_warp_sched.h).
SmallVector<int, 32> shuffleSources(const UniformWarpOp &Op) {
  uint32_t W = uint32_t(Op.Width);
  if (W == 0 || W > 32 || (W & (W - 1)))
    W = 32;
  int Seg = int((32 - W) & 31), B = Op.Src & 31;
  SmallVector<int, 32> Src;
  for (int L = 0; L < 32; ++L) {
    int Min = L & Seg, Max = Min | (31 & ~Seg), J;
    bool In;
    switch (Op.Kind) {
    case HETGPU_SYNC_SHFL_UP:
      J = L - B;
      In = J >= Min;
      break;
    case HETGPU_SYNC_SHFL_DOWN:
      J = L + B;
      In = J <= Max;
      break;
    case HETGPU_SYNC_SHFL_XOR:
      J = L ^ B;
      In = J <= Max;
      break;
    default: // HETGPU_SYNC_SHFL_IDX
      J = Min | (B & ~Seg);
      In = J <= Max;
      break;
    }
    Src.push_back(In ? J : L);
  }
  return Src;
}

/// Lanes per piece in which the votes read the operand array and every
/// uniform result is stored: the vectorised region loops store the operands
/// as <8 x i32> (emit() prefers 256-bit vectors) and the next region copies
/// results in at most that wide. A load wider than the stores it reads is
/// not store-forwarded: it waits until they reach the cache (warpVote:
/// about a third of its lane-loop time, docs/Benchmarks-CPU.md).
constexpr unsigned PieceLanes = 8;

/// The ballot of the 32 operands at \p Opnds (lane i at Opnds[i]), read in
/// pieces of PieceLanes lanes.
Value *ballotInPieces(IRBuilder<> &B, Value *Opnds) {
  Type *I32 = B.getInt32Ty();
  auto *Piece = FixedVectorType::get(I32, PieceLanes);
  Value *Bits = nullptr;
  for (unsigned K = 0; K < 32; K += PieceLanes) {
    Value *At = K ? B.CreateConstInBoundsGEP1_64(I32, Opnds, K) : Opnds;
    Value *P =
        B.CreateAlignedLoad(Piece, At, Align(4 * PieceLanes), "warp.vals");
    Value *M = B.CreateZExt(
        B.CreateBitCast(B.CreateICmpNE(P, Constant::getNullValue(Piece)),
                        B.getIntNTy(PieceLanes)),
        I32);
    Bits = K ? B.CreateOr(Bits, B.CreateShl(M, K)) : M;
  }
  Bits->setName("warp.ballot");
  return Bits;
}

/// Stores the results \p R of the 32 lanes (a <32 x i32> vector, or an i32
/// that every lane gets) into \p ResA in pieces of PieceLanes lanes.
void storeResults(IRBuilder<> &B, Value *R, AllocaInst *ResA) {
  Type *I32 = B.getInt32Ty();
  Value *Splat = R->getType()->isVectorTy()
                     ? nullptr
                     : B.CreateVectorSplat(PieceLanes, R, "warp.splat");
  for (unsigned K = 0; K < 32; K += PieceLanes) {
    Value *P = Splat;
    if (!P) {
      SmallVector<int, PieceLanes> Lanes;
      for (unsigned L = 0; L < PieceLanes; ++L)
        Lanes.push_back(int(K + L));
      P = B.CreateShuffleVector(R, Lanes);
    }
    B.CreateAlignedStore(P,
                         K ? B.CreateConstInBoundsGEP1_64(I32, ResA, K) : ResA,
                         Align(4 * PieceLanes));
  }
}

/// The results of the 32 lanes of \p Op computed from the operand array
/// \p ArgA: a <32 x i32> vector (shuffles), one i32 for every lane (votes,
/// activemask), or null (__syncwarp: no result).
Value *computeOp(IRBuilder<> &B, const UniformWarpOp &Op, AllocaInst *ArgA) {
  Type *I32 = B.getInt32Ty();
  auto *V32 = FixedVectorType::get(I32, 32);
  if (Op.Kind == HETGPU_SYNC_SYNCWARP)
    return nullptr;
  if (Op.Kind == HETGPU_SYNC_ACTIVEMASK)
    return B.getInt32(-1);
  // Operand 1 (the value or predicate) of lane i at ArgA[32 + i].
  Value *Opnds = B.CreateConstInBoundsGEP1_64(I32, ArgA, 32);
  if (isShuffle(Op.Kind))
    return B.CreateShuffleVector(
        B.CreateAlignedLoad(V32, Opnds, Align(64), "warp.vals"),
        shuffleSources(Op), "warp.shfl");
  Value *Bits = ballotInPieces(B, Opnds);
  if (Op.Kind == HETGPU_SYNC_VOTE_ANY)
    return B.CreateZExt(B.CreateICmpNE(Bits, B.getInt32(0)), I32, "warp.any");
  if (Op.Kind == HETGPU_SYNC_VOTE_ALL)
    return B.CreateZExt(B.CreateICmpEQ(Bits, B.getInt32(-1)), I32, "warp.all");
  return Bits;
}

} // namespace

std::map<uint32_t, UniformWarpOp> findUniformWarpOps(Function &T) {
  std::map<uint32_t, UniformWarpOp> Ops;
  if (const char *Env = std::getenv("HETGPU_HOST_UNIFORM_WARP_OPS"))
    if (StringRef(Env) == "0")
      return Ops;
  if (T.arg_size() != 3)
    return Ops;
  const DataLayout &DL = T.getParent()->getDataLayout();
  std::set<uint32_t> Mixed; // ids returned with different operations
  for (BasicBlock &BB : T) {
    auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator());
    auto *Id =
        Ret ? dyn_cast_or_null<ConstantInt>(Ret->getReturnValue()) : nullptr;
    if (!Id || Id->isZero())
      continue;
    uint32_t S = uint32_t(Id->getZExtValue());
    Value *Fields[5];
    storedFields(BB, T.getArg(2), DL, Fields);
    std::optional<UniformWarpOp> Op = uniformOp(Fields);
    auto It = Ops.find(S);
    if (!Op || Mixed.count(S) ||
        (It != Ops.end() && !sameOp(It->second, *Op))) {
      Mixed.insert(S);
      Ops.erase(S);
      continue;
    }
    Ops.emplace(S, *Op);
  }
  return Ops;
}

void inlineUniformWarpOps(Module &M, LaneLoopFunction &L, CallInst *FuseSoA,
                          AllocaInst *ArgA, AllocaInst *ResA) {
  auto *SW = cast<SwitchInst>(L.Dispatch->getTerminator());
  SmallVector<std::pair<uint32_t, UniformWarpOp>, 8> Ops;
  for (auto &[S, Op] : L.Uniform)
    if (SW->findCaseValue(ConstantInt::get(
            cast<IntegerType>(SW->getCondition()->getType()), S)) !=
        SW->case_default())
      Ops.push_back({S, Op});
  if (Ops.empty())
    return;
  LLVMContext &C = M.getContext();
  Function &F = *L.F;
  Type *I32 = Type::getInt32Ty(C);
  auto *V32 = FixedVectorType::get(I32, 32);
  Value *Mask = F.getArg(3), *Ids = F.getArg(5);
  BasicBlock *Try = FuseSoA->getParent();
  BasicBlock *Call = Try->splitBasicBlock(FuseSoA->getIterator(), "fuse.call");
  Try->getTerminator()->eraseFromParent();
  BasicBlock *Same = BasicBlock::Create(C, "uniform.ids", &F, Call);
  BasicBlock *Pick = BasicBlock::Create(C, "uniform.pick", &F, Call);
  IRBuilder<> B(Try);
  B.CreateCondBr(B.CreateICmpEQ(Mask, B.getInt32(-1)), Same, Call);
  // All 32 lanes returned the same sync id (at the end of a kernel 0: no
  // case of the switch below). When the fuse block is reached only from
  // the inlined loops' end, their AND and OR of the ids say it (equal);
  // otherwise the ids are read back.
  B.SetInsertPoint(Same);
  Value *Id0, *AllSame;
  if (L.IdsOr && L.Done->getSinglePredecessor() == L.IdsOr->getParent() &&
      Try->getSinglePredecessor() == L.Done) {
    Id0 = L.IdsOr;
    AllSame = B.CreateICmpEQ(L.IdsAnd, L.IdsOr, "same");
  } else {
    Value *IdV = B.CreateAlignedLoad(V32, Ids, Align(4), "ids");
    Id0 = B.CreateExtractElement(IdV, uint64_t(0), "id0");
    Value *Eq = B.CreateBitCast(
        B.CreateICmpEQ(IdV, B.CreateVectorSplat(32, Id0)), I32, "same");
    AllSame = B.CreateICmpEQ(Eq, B.getInt32(-1));
  }
  B.CreateCondBr(AllSame, Pick, Call);
  B.SetInsertPoint(Pick);
  SwitchInst *Which = B.CreateSwitch(Id0, Call, Ops.size());
  for (auto &[S, Op] : Ops) {
    BasicBlock *Case =
        BasicBlock::Create(C, "uniform.sync" + Twine(S), &F, Call);
    Which->addCase(B.getInt32(S), Case);
    IRBuilder<> CB(Case);
    if (Value *R = computeOp(CB, Op, ArgA))
      storeResults(CB, R, ResA);
    CB.CreateBr(L.Dispatch);
    L.At->addIncoming(CB.getInt32(S), Case);
  }
}

} // namespace host
} // namespace hetgpu
