//===- InstrumentMemCheck.cpp - Portable memcheck instrumentation ---------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements `hetgpu-instrument-memcheck` (InstrumentMemCheck.h). The
/// checks are plain hetIR: three internal helper functions read the table
/// (include/hetgpu/ABI/MemCheck.h) through `__hetgpu_memcheck`, and every
/// checked access is split into "check, then access or skip", so a refused
/// load gives zero and nothing else changes on any target.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/Transforms/InstrumentMemCheck.h"

#include "hetgpu/ABI/MemCheck.h"
#include "hetgpu/IR/Builtins.h"
#include "hetgpu/IR/Metadata.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <array>
#include <cstddef>

using namespace llvm;

namespace hetgpu {
namespace {

using namespace abi;

/// Offsets in the table, as the helpers address it.
constexpr uint64_t HeaderBytes = sizeof(MemCheckHeader);
constexpr uint64_t RangeBytes = sizeof(MemCheckRange);
constexpr uint64_t ReportBytes = sizeof(MemCheckReport);

/// Bytes of each half of the sink refused global accesses go to.
constexpr uint64_t SinkHalf = 256;

/// What one access's address is based on.
struct AddressBase {
  enum Kind {
    Unknown,
    Private,
    SharedVar,
    DynamicShared,
    InBoundsGlobal
  } K = Unknown;
  Value *Base = nullptr; ///< the shared variable or dynamic_shared call
  uint64_t Size = 0;     ///< bytes of a shared variable
};

bool isDynamicShared(const Value *V) {
  if (auto *CB = dyn_cast<CallBase>(V))
    if (auto BI = getCalledBuiltin(*CB))
      return BI->ID == BuiltinID::dynamic_shared;
  return false;
}

/// A variable at a constant in-bounds offset needs no check. Else follows
/// GEPs and address-space casts (as hetgpu-wrap-shared-addresses does) to a
/// shared base; else asks ValueTracking for the underlying objects: all
/// allocas is private memory.
AddressBase classify(Value *Ptr, uint64_t Bytes, const DataLayout &DL) {
  AddressBase R;
  // A constant offset from a variable that stays inside it.
  APInt Off(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  const Value *Stripped = Ptr->stripAndAccumulateConstantOffsets(
      DL, Off, /*AllowNonInbounds=*/true);
  if (auto *G = dyn_cast<GlobalVariable>(Stripped->stripPointerCasts()))
    if (!Off.isNegative() &&
        Off.getZExtValue() + Bytes <= DL.getTypeAllocSize(G->getValueType())) {
      R.K = AddressBase::InBoundsGlobal;
      return R;
    }
  Value *V = Ptr;
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    if (auto *G = dyn_cast<GlobalVariable>(V);
        G && G->getAddressSpace() == AS_Shared) {
      R.K = AddressBase::SharedVar;
      R.Base = G;
      R.Size = DL.getTypeAllocSize(G->getValueType());
      return R;
    }
    if (isDynamicShared(V)) {
      R.K = AddressBase::DynamicShared;
      R.Base = V;
      return R;
    }
    if (auto *GEP = dyn_cast<GEPOperator>(V)) {
      V = GEP->getPointerOperand();
      continue;
    }
    if (auto *ASC = dyn_cast<AddrSpaceCastOperator>(V)) {
      V = ASC->getPointerOperand();
      continue;
    }
    break;
  }
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  if (!Objects.empty() &&
      all_of(Objects, [](const Value *O) { return isa<AllocaInst>(O); })) {
    R.K = AddressBase::Private;
    return R;
  }
  return R;
}

bool isSharedBased(Value *Ptr) {
  Value *V = Ptr;
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    if (auto *G = dyn_cast<GlobalVariable>(V))
      return G->getAddressSpace() == AS_Shared;
    if (isDynamicShared(V))
      return true;
    if (auto *GEP = dyn_cast<GEPOperator>(V))
      V = GEP->getPointerOperand();
    else if (auto *ASC = dyn_cast<AddrSpaceCastOperator>(V))
      V = ASC->getPointerOperand();
    else
      return false;
  }
  return false;
}

class MemCheckInstrumenter {
public:
  explicit MemCheckInstrumenter(Module &M)
      : M(M), Ctx(M.getContext()), DL(M.getDataLayout()),
        I32(Type::getInt32Ty(Ctx)), I64(Type::getInt64Ty(Ctx)),
        Ptr(PointerType::get(Ctx, 0)) {}

  bool run();

private:
  Module &M;
  LLVMContext &Ctx;
  const DataLayout &DL;
  IntegerType *I32, *I64;
  PointerType *Ptr;
  GlobalVariable *Table = nullptr;
  Function *Report = nullptr, *CheckGlobal = nullptr, *CheckShared = nullptr;
  std::string Sites;
  unsigned NumSites = 0;
  DenseMap<const Function *, unsigned> FunctionIds;

  void createTable();
  void createReport();
  void createCheckGlobal();
  void createCheckShared();
  Value *loadHeader(IRBuilder<> &B);
  Value *field(IRBuilder<> &B, Value *Hdr, uint64_t Offset);
  Value *reportsOffset(IRBuilder<> &B, Value *Hdr);
  void emitRangeTest(IRBuilder<> &B, Value *Hdr, Value *Range, Value *Addr,
                     ArrayRef<Value *> Who, Value *Size, Value *Site,
                     BasicBlock *Ok, BasicBlock *Next);
  unsigned addSite(Instruction &I, MemCheckAccess Kind, uint64_t Bytes);
  Value *emitCheck(Instruction &I, Value *Addr, Value *Bytes, Align A,
                   MemCheckAccess Kind, uint64_t StaticBytes);
  void guard(Instruction &I, Value *Ok);
  ArrayRef<Value *> whoAmI(Function &F);
  DenseMap<Function *, std::array<Value *, 3>> WhoOf;
  bool redirect(Instruction &I, Value *Ok);
  GlobalVariable *Sink = nullptr;
  bool instrument(Instruction &I);
  void instrumentHeap(CallBase &CB, BuiltinID ID);
};

void MemCheckInstrumenter::createTable() {
  Table = new GlobalVariable(M, I64, /*isConstant=*/false,
                             GlobalValue::ExternalLinkage,
                             ConstantInt::get(I64, 0), MemCheckTableVar,
                             nullptr, GlobalValue::NotThreadLocal, AS_Global);
  Table->setAlignment(Align(8));
}

Value *MemCheckInstrumenter::loadHeader(IRBuilder<> &B) {
  return B.CreateLoad(I64, Table, "memcheck.table");
}

/// Byte offset of the reports: after the header and the heap ranges.
Value *MemCheckInstrumenter::reportsOffset(IRBuilder<> &B, Value *Hdr) {
  Value *Cap =
      B.CreateLoad(I32, field(B, Hdr, offsetof(MemCheckHeader, HeapCapacity)));
  return B.CreateAdd(
      B.getInt64(HeaderBytes),
      B.CreateMul(B.CreateZExt(Cap, I64), B.getInt64(RangeBytes)));
}

Value *MemCheckInstrumenter::field(IRBuilder<> &B, Value *Hdr,
                                   uint64_t Offset) {
  return B.CreateGEP(B.getInt8Ty(), Hdr, B.getInt64(Offset));
}

/// void report(ptr hdr, i32 site, i32 problem, i64 addr, i64 size): counts
/// the report and writes it when there is room, with the block and thread.
void MemCheckInstrumenter::createReport() {
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx),
                               {Ptr, I32, I32, I64, I64, I64, I64, I64}, false);
  Report = Function::Create(FT, GlobalValue::InternalLinkage,
                            "hetgpu_memcheck_report", M);
  Report->addFnAttr(Attribute::NoInline);
  Argument *Hdr = Report->getArg(0);
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", Report);
  BasicBlock *Write = BasicBlock::Create(Ctx, "write", Report);
  BasicBlock *Done = BasicBlock::Create(Ctx, "done", Report);
  IRBuilder<> B(Entry);
  Value *Slot = B.CreateAtomicRMW(
      AtomicRMWInst::Add, field(B, Hdr, offsetof(MemCheckHeader, NumReports)),
      B.getInt32(1), Align(4), AtomicOrdering::Monotonic);
  Value *Max =
      B.CreateLoad(I32, field(B, Hdr, offsetof(MemCheckHeader, MaxReports)));
  B.CreateCondBr(B.CreateICmpULT(Slot, Max), Write, Done);
  B.SetInsertPoint(Write);
  Value *At =
      B.CreateAdd(reportsOffset(B, Hdr), B.CreateMul(B.CreateZExt(Slot, I64),
                                                     B.getInt64(ReportBytes)));
  Value *Rec = B.CreateGEP(B.getInt8Ty(), Hdr, At, "report");
  auto Store = [&](Value *V, uint64_t Off) {
    B.CreateStore(V, field(B, Rec, Off));
  };
  Store(Report->getArg(1), offsetof(MemCheckReport, Site));
  Store(Report->getArg(2), offsetof(MemCheckReport, Problem));
  Store(Report->getArg(3), offsetof(MemCheckReport, Address));
  Store(Report->getArg(4), offsetof(MemCheckReport, Size));
  // Block and thread, packed two 32-bit words per argument by the caller
  // (whoAmI): the helpers use no thread-context builtin, so the CPU
  // device's SIMT->MIMD lowering need not inline them at every access.
  for (unsigned D = 0; D < 6; ++D) {
    Value *W = Report->getArg(5 + D / 2);
    if (D % 2)
      W = B.CreateLShr(W, 32);
    Store(B.CreateTrunc(W, I32), (D < 3 ? offsetof(MemCheckReport, Block)
                                        : offsetof(MemCheckReport, Thread)) +
                                     4 * (D % 3));
  }
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
}

/// One range test of check_global: when [Addr, Addr + Size) starts inside
/// \p Range, it is reported (freed, or running past the end) or accepted;
/// otherwise control goes on to \p Next.
void MemCheckInstrumenter::emitRangeTest(IRBuilder<> &B, Value *Hdr,
                                         Value *Range, Value *Addr,
                                         ArrayRef<Value *> Who, Value *Size,
                                         Value *Site, BasicBlock *Ok,
                                         BasicBlock *Next) {
  Function *F = B.GetInsertBlock()->getParent();
  BasicBlock *Inside = BasicBlock::Create(Ctx, "inside", F);
  BasicBlock *Live = BasicBlock::Create(Ctx, "live", F);
  BasicBlock *Bad = BasicBlock::Create(Ctx, "bad", F);
  Value *Begin = B.CreateLoad(I64, field(B, Range, 0));
  Value *End = B.CreateLoad(I64, field(B, Range, 8));
  Value *State = B.CreateLoad(I32, field(B, Range, 16));
  B.CreateCondBr(
      B.CreateAnd(B.CreateICmpUGE(Addr, Begin), B.CreateICmpULT(Addr, End)),
      Inside, Next);
  B.SetInsertPoint(Inside);
  B.CreateCondBr(B.CreateICmpEQ(State, B.getInt32(MRS_Live)), Live, Bad);
  B.SetInsertPoint(Live);
  // Size bytes from Addr stay inside: Size <= End - Addr.
  B.CreateCondBr(B.CreateICmpULE(Size, B.CreateSub(End, Addr)), Ok, Bad);
  B.SetInsertPoint(Bad);
  Value *Problem =
      B.CreateSelect(B.CreateICmpEQ(State, B.getInt32(MRS_Live)),
                     B.getInt32(MCP_OutOfBounds), B.getInt32(MCP_Freed));
  B.CreateCall(Report,
               {Hdr, Site, Problem, Addr, Size, Who[0], Who[1], Who[2]});
  B.CreateRet(B.getFalse());
}

/// i1 check_global(i64 addr, i64 size, i64 align, i32 site): the table's
/// verdict on a non-shared access (true: make it). Misalignment first, then
/// a binary search of the sorted ranges, then the heap ranges (the live
/// ones before the freed ones, as free() keeps its range for reports).
void MemCheckInstrumenter::createCheckGlobal() {
  auto *FT = FunctionType::get(Type::getInt1Ty(Ctx),
                               {I64, I64, I64, I32, I64, I64, I64}, false);
  CheckGlobal = Function::Create(FT, GlobalValue::InternalLinkage,
                                 "hetgpu_memcheck_global", M);
  // One copy: inlined at thousands of accesses it made the translation of
  // a CUB module take minutes.
  CheckGlobal->addFnAttr(Attribute::NoInline);
  Function *F = CheckGlobal;
  Value *Addr = F->getArg(0), *Size = F->getArg(1), *Al = F->getArg(2),
        *Site = F->getArg(3);
  Value *Who[3] = {F->getArg(4), F->getArg(5), F->getArg(6)};
  auto BB = [&](const char *N) { return BasicBlock::Create(Ctx, N, F); };
  BasicBlock *Entry = BB("entry"), *On = BB("on"),
             *Misaligned = BB("misaligned"), *Search = BB("search"),
             *Loop = BB("loop"), *Step = BB("step"), *Found = BB("found"),
             *HeapScan = BB("heap"), *HeapLoop = BB("heap.loop"),
             *HeapNext = BB("heap.next"), *Unknown = BB("unknown"),
             *Ok = BB("ok");
  IRBuilder<> B(Entry);
  Value *T = loadHeader(B);
  B.CreateCondBr(B.CreateOr(B.CreateICmpEQ(T, B.getInt64(0)),
                            B.CreateICmpEQ(Size, B.getInt64(0))),
                 Ok, On);
  B.SetInsertPoint(On);
  Value *Hdr = B.CreateIntToPtr(T, Ptr, "hdr");
  Value *Mis = B.CreateAnd(Addr, B.CreateSub(Al, B.getInt64(1)));
  B.CreateCondBr(B.CreateICmpNE(Mis, B.getInt64(0)), Misaligned, Search);
  B.SetInsertPoint(Misaligned);
  B.CreateCall(Report, {Hdr, Site, B.getInt32(MCP_Misaligned), Addr, Size,
                        Who[0], Who[1], Who[2]});
  B.CreateRet(B.getFalse());

  // Binary search: the last range whose Begin <= Addr.
  B.SetInsertPoint(Search);
  Value *N = B.CreateZExt(
      B.CreateLoad(I32, field(B, Hdr, offsetof(MemCheckHeader, NumRanges))),
      I64, "n");
  Value *Ranges = B.CreateGEP(
      B.getInt8Ty(), Hdr,
      B.CreateAdd(
          reportsOffset(B, Hdr),
          B.CreateMul(
              B.CreateZExt(
                  B.CreateLoad(
                      I32, field(B, Hdr, offsetof(MemCheckHeader, MaxReports))),
                  I64),
              B.getInt64(ReportBytes))),
      "ranges");
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *Lo = B.CreatePHI(I64, 2, "lo"), *Hi = B.CreatePHI(I64, 2, "hi");
  Lo->addIncoming(B.getInt64(0), Search);
  Hi->addIncoming(N, Search);
  BasicBlock *Probe = BB("probe");
  B.CreateCondBr(B.CreateICmpULT(Lo, Hi), Probe, Step);
  B.SetInsertPoint(Probe);
  Value *Mid = B.CreateLShr(B.CreateAdd(Lo, Hi), 1, "mid");
  Value *MidBegin =
      B.CreateLoad(I64, B.CreateGEP(B.getInt8Ty(), Ranges,
                                    B.CreateMul(Mid, B.getInt64(RangeBytes))));
  Value *Below = B.CreateICmpULE(MidBegin, Addr);
  Lo->addIncoming(B.CreateSelect(Below, B.CreateAdd(Mid, B.getInt64(1)), Lo),
                  Probe);
  Hi->addIncoming(B.CreateSelect(Below, Hi, Mid), Probe);
  B.CreateBr(Loop);
  B.SetInsertPoint(Step);
  B.CreateCondBr(B.CreateICmpEQ(Lo, B.getInt64(0)), HeapScan, Found);
  B.SetInsertPoint(Found);
  Value *Range = B.CreateGEP(
      B.getInt8Ty(), Ranges,
      B.CreateMul(B.CreateSub(Lo, B.getInt64(1)), B.getInt64(RangeBytes)),
      "range");
  // Just past the range's end (its red zone): out of bounds if no other
  // range holds the address.
  Value *RangeEnd = B.CreateLoad(I64, field(B, Range, 8));
  Value *NearRange = B.CreateICmpULT(B.CreateSub(Addr, RangeEnd),
                                     B.getInt64(MemCheckNearBytes));
  emitRangeTest(B, Hdr, Range, Addr, Who, Size, Site, Ok, HeapScan);

  // Heap ranges: unsorted, appended by malloc; a live one containing Addr
  // wins over a freed one (the allocator may reuse freed blocks).
  B.SetInsertPoint(HeapScan);
  PHINode *NearTable = B.CreatePHI(B.getInt1Ty(), 2, "near.table");
  NearTable->addIncoming(B.getFalse(), Step);
  NearTable->addIncoming(NearRange, Found);
  Value *Heap = field(B, Hdr, HeaderBytes);
  Value *Cap = B.CreateZExt(
      B.CreateLoad(I32, field(B, Hdr, offsetof(MemCheckHeader, HeapCapacity))),
      I64);
  LoadInst *UsedLoad =
      B.CreateLoad(I32, field(B, Hdr, offsetof(MemCheckHeader, NumHeap)));
  UsedLoad->setAtomic(AtomicOrdering::Monotonic);
  UsedLoad->setAlignment(Align(4));
  Value *Used = B.CreateZExt(UsedLoad, I64);
  Value *Count = B.CreateSelect(B.CreateICmpULT(Used, Cap), Used, Cap);
  BasicBlock *HeapHead = BB("heap.head");
  B.CreateBr(HeapHead);
  B.SetInsertPoint(HeapHead);
  PHINode *Idx = B.CreatePHI(I64, 2, "i");
  PHINode *FreedHit = B.CreatePHI(B.getInt1Ty(), 2, "freed");
  PHINode *Near = B.CreatePHI(B.getInt1Ty(), 2, "near");
  Idx->addIncoming(B.getInt64(0), HeapScan);
  FreedHit->addIncoming(B.getFalse(), HeapScan);
  Near->addIncoming(NearTable, HeapScan);
  B.CreateCondBr(B.CreateICmpULT(Idx, Count), HeapLoop, Unknown);
  B.SetInsertPoint(HeapLoop);
  Value *HR = B.CreateGEP(B.getInt8Ty(), Heap,
                          B.CreateMul(Idx, B.getInt64(RangeBytes)));
  Value *HBegin = B.CreateLoad(I64, field(B, HR, 0));
  Value *HEnd = B.CreateLoad(I64, field(B, HR, 8));
  Value *HState = B.CreateLoad(I32, field(B, HR, 16));
  Value *In =
      B.CreateAnd(B.CreateICmpUGE(Addr, HBegin), B.CreateICmpULT(Addr, HEnd));
  Value *IsLive = B.CreateICmpEQ(HState, B.getInt32(MRS_Live));
  BasicBlock *HeapLive = BB("heap.live");
  B.CreateCondBr(B.CreateAnd(In, IsLive), HeapLive, HeapNext);
  B.SetInsertPoint(HeapLive);
  BasicBlock *HeapPast = BB("heap.past");
  B.CreateCondBr(B.CreateICmpULE(Size, B.CreateSub(HEnd, Addr)), Ok, HeapPast);
  B.SetInsertPoint(HeapPast);
  B.CreateCall(Report, {Hdr, Site, B.getInt32(MCP_OutOfBounds), Addr, Size,
                        Who[0], Who[1], Who[2]});
  B.CreateRet(B.getFalse());
  B.SetInsertPoint(HeapNext);
  Idx->addIncoming(B.CreateAdd(Idx, B.getInt64(1)), HeapNext);
  FreedHit->addIncoming(B.CreateOr(FreedHit, In), HeapNext);
  Near->addIncoming(
      B.CreateOr(Near, B.CreateICmpULT(B.CreateSub(Addr, HEnd),
                                       B.getInt64(MemCheckNearBytes))),
      HeapNext);
  B.CreateBr(HeapHead);

  // In no range: freed memory and the bytes just past a range are reported;
  // any other address is let through (a pointer to shared or stack memory
  // whose origin the pass could not see; a wild one faults as without
  // memcheck).
  B.SetInsertPoint(Unknown);
  BasicBlock *Refuse = BB("refuse");
  B.CreateCondBr(B.CreateOr(FreedHit, Near), Refuse, Ok);
  B.SetInsertPoint(Refuse);
  B.CreateCall(Report, {Hdr, Site,
                        B.CreateSelect(FreedHit, B.getInt32(MCP_Freed),
                                       B.getInt32(MCP_OutOfBounds)),
                        Addr, Size, Who[0], Who[1], Who[2]});
  B.CreateRet(B.getFalse());
  B.SetInsertPoint(Ok);
  B.CreateRet(B.getTrue());
}

/// i1 check_shared(i64 off, i64 size, i64 limit, i64 addr, i32 site): an
/// access Size bytes at offset Off of a shared variable of Limit bytes
/// (~0: the dynamic shared memory, whose size the table gives).
void MemCheckInstrumenter::createCheckShared() {
  auto *FT = FunctionType::get(Type::getInt1Ty(Ctx),
                               {I64, I64, I64, I64, I32, I64, I64, I64}, false);
  CheckShared = Function::Create(FT, GlobalValue::InternalLinkage,
                                 "hetgpu_memcheck_shared", M);
  CheckShared->addFnAttr(Attribute::NoInline);
  Function *F = CheckShared;
  Value *Off = F->getArg(0), *Size = F->getArg(1), *Limit = F->getArg(2),
        *Addr = F->getArg(3), *Site = F->getArg(4);
  Value *Who[3] = {F->getArg(5), F->getArg(6), F->getArg(7)};
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", F);
  BasicBlock *On = BasicBlock::Create(Ctx, "on", F);
  BasicBlock *Bad = BasicBlock::Create(Ctx, "bad", F);
  BasicBlock *Ok = BasicBlock::Create(Ctx, "ok", F);
  IRBuilder<> B(Entry);
  Value *T = loadHeader(B);
  B.CreateCondBr(B.CreateICmpEQ(T, B.getInt64(0)), Ok, On);
  B.SetInsertPoint(On);
  Value *Hdr = B.CreateIntToPtr(T, Ptr, "hdr");
  Value *Dyn =
      B.CreateLoad(I64, field(B, Hdr, offsetof(MemCheckHeader, DynamicShared)));
  Value *L = B.CreateSelect(B.CreateICmpEQ(Limit, B.getInt64(~0ull)), Dyn,
                            Limit, "limit");
  // Inside: Size <= L and Off <= L - Size (unsigned: a negative Off is
  // huge).
  Value *Inside = B.CreateAnd(B.CreateICmpULE(Size, L),
                              B.CreateICmpULE(Off, B.CreateSub(L, Size)));
  B.CreateCondBr(Inside, Ok, Bad);
  B.SetInsertPoint(Bad);
  B.CreateCall(Report, {Hdr, Site, B.getInt32(MCP_SharedOutOfBounds), Addr,
                        Size, Who[0], Who[1], Who[2]});
  B.CreateRet(B.getFalse());
  B.SetInsertPoint(Ok);
  B.CreateRet(B.getTrue());
}

unsigned MemCheckInstrumenter::addSite(Instruction &I, MemCheckAccess Kind,
                                       uint64_t Bytes) {
  static const char *const Names[] = {"read", "write", "atomic"};
  raw_string_ostream OS(Sites);
  // Each function's (demangled, often long) name once: `f<TAB>n<TAB>name`.
  auto [It, New] = FunctionIds.try_emplace(I.getFunction(), FunctionIds.size());
  if (New)
    OS << "f\t" << It->second << '\t'
       << demangle(I.getFunction()->getName().str()) << '\n';
  OS << NumSites << '\t' << Names[Kind] << '\t' << Bytes << '\t' << It->second
     << '\t';
  if (const DebugLoc &DL = I.getDebugLoc())
    OS << DL->getFilename() << ':' << DL.getLine() << ':' << DL.getCol();
  OS << '\n';
  return NumSites++;
}

/// The check of one access of \p Bytes bytes at \p Addr (i1: make it), or
/// null when the access needs none.
Value *MemCheckInstrumenter::emitCheck(Instruction &I, Value *Addr,
                                       Value *Bytes, Align A,
                                       MemCheckAccess Kind,
                                       uint64_t StaticBytes) {
  AddressBase AB = classify(Addr, StaticBytes, DL);
  if (AB.K == AddressBase::Private || AB.K == AddressBase::InBoundsGlobal)
    return nullptr;
  IRBuilder<> B(&I);
  unsigned Site = addSite(I, Kind, StaticBytes);
  Value *Size = B.CreateZExtOrTrunc(Bytes, I64);
  // Addresses compared as generic addresses, where shared variables are
  // too (hetIR's casts are defined on every target).
  auto Generic = [&](Value *P) {
    return P->getType()->getPointerAddressSpace() == 0
               ? P
               : B.CreateAddrSpaceCast(P, Ptr);
  };
  Value *AddrInt = B.CreatePtrToInt(Generic(Addr), I64);
  if (AB.K == AddressBase::SharedVar || AB.K == AddressBase::DynamicShared) {
    Value *BaseInt = B.CreatePtrToInt(Generic(AB.Base), I64);
    Value *Off = B.CreateSub(AddrInt, BaseInt, "shared.off");
    uint64_t Limit = AB.K == AddressBase::SharedVar ? AB.Size : ~0ull;
    ArrayRef<Value *> W = whoAmI(*I.getFunction());
    return B.CreateCall(CheckShared, {Off, Size, B.getInt64(Limit), AddrInt,
                                      B.getInt32(Site), W[0], W[1], W[2]});
  }
  ArrayRef<Value *> W = whoAmI(*I.getFunction());
  return B.CreateCall(CheckGlobal, {AddrInt, Size, B.getInt64(A.value()),
                                    B.getInt32(Site), W[0], W[1], W[2]});
}

/// The block and thread of the caller of the check helpers, packed into
/// three i64 (ctaid.x | ctaid.y << 32, ctaid.z | tid.x << 32, tid.y |
/// tid.z << 32), computed once at the entry of \p F.
ArrayRef<Value *> MemCheckInstrumenter::whoAmI(Function &F) {
  auto [It, New] = WhoOf.try_emplace(&F);
  if (New) {
    IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
    const BuiltinID Index[6] = {BuiltinID::ctaid_x, BuiltinID::ctaid_y,
                                BuiltinID::ctaid_z, BuiltinID::tid_x,
                                BuiltinID::tid_y,   BuiltinID::tid_z};
    for (unsigned W = 0; W < 3; ++W) {
      Value *Lo =
          B.CreateZExt(B.CreateCall(getOrDeclareBuiltin(M, Index[2 * W])), I64);
      Value *Hi = B.CreateZExt(
          B.CreateCall(getOrDeclareBuiltin(M, Index[2 * W + 1])), I64);
      It->second[W] =
          B.CreateOr(Lo, B.CreateShl(Hi, 32), "memcheck.who" + Twine(W));
    }
  }
  return It->second;
}

/// Makes \p I happen only when \p Ok: a refused load gives zero.
void MemCheckInstrumenter::guard(Instruction &I, Value *Ok) {
  BasicBlock *Before = I.getParent();
  Instruction *Then = SplitBlockAndInsertIfThen(Ok, &I, /*Unreachable=*/false);
  BasicBlock *ThenBB = Then->getParent();
  BasicBlock *After = I.getParent();
  I.moveBefore(Then->getIterator());
  if (I.getType()->isVoidTy())
    return;
  PHINode *P = PHINode::Create(I.getType(), 2, I.getName() + ".checked");
  P->insertBefore(After->begin());
  I.replaceAllUsesWith(P);
  P->addIncoming(&I, ThenBB);
  P->addIncoming(Constant::getNullValue(I.getType()), Before);
}

bool MemCheckInstrumenter::instrument(Instruction &I) {
  auto StoreSize = [&](Type *T) {
    return DL.getTypeStoreSize(T).getFixedValue();
  };
  Value *Ok = nullptr;
  if (auto *L = dyn_cast<LoadInst>(&I)) {
    uint64_t N = StoreSize(L->getType());
    Ok = emitCheck(I, L->getPointerOperand(), ConstantInt::get(I64, N),
                   L->getAlign(), MCA_Load, N);
  } else if (auto *S = dyn_cast<StoreInst>(&I)) {
    uint64_t N = StoreSize(S->getValueOperand()->getType());
    Ok = emitCheck(I, S->getPointerOperand(), ConstantInt::get(I64, N),
                   S->getAlign(), MCA_Store, N);
  } else if (auto *A = dyn_cast<AtomicRMWInst>(&I)) {
    uint64_t N = StoreSize(A->getValOperand()->getType());
    Ok = emitCheck(I, A->getPointerOperand(), ConstantInt::get(I64, N),
                   A->getAlign(), MCA_Atomic, N);
  } else if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I)) {
    uint64_t N = StoreSize(X->getNewValOperand()->getType());
    Ok = emitCheck(I, X->getPointerOperand(), ConstantInt::get(I64, N),
                   X->getAlign(), MCA_Atomic, N);
  } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    auto *CL = dyn_cast<ConstantInt>(MI->getLength());
    uint64_t N = CL ? CL->getZExtValue() : 0;
    Ok = emitCheck(I, MI->getDest(), MI->getLength(), Align(1), MCA_Store, N);
    if (auto *MT = dyn_cast<MemTransferInst>(MI))
      if (Value *SrcOk = emitCheck(I, MT->getSource(), MT->getLength(),
                                   Align(1), MCA_Load, N)) {
        IRBuilder<> B(&I);
        Ok = Ok ? B.CreateAnd(Ok, SrcOk) : SrcOk;
      }
  }
  if (!Ok)
    return false;
  if (!redirect(I, Ok))
    guard(I, Ok);
  return true;
}

/// Without new control flow (thousands of guarded accesses made the CPU
/// device's translation of a CUB module take minutes): a refused memcpy or
/// memset gets length 0, a refused global access goes to the sink (loads
/// to its half that nothing writes). False when \p I needs a guard: a
/// shared or constant address, or an access wider than half the sink.
bool MemCheckInstrumenter::redirect(Instruction &I, Value *Ok) {
  IRBuilder<> B(&I);
  if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    Value *Len = MI->getLength();
    MI->setLength(B.CreateSelect(Ok, Len, ConstantInt::get(Len->getType(), 0)));
    return true;
  }
  unsigned Op = isa<LoadInst>(I)    ? LoadInst::getPointerOperandIndex()
                : isa<StoreInst>(I) ? StoreInst::getPointerOperandIndex()
                : isa<AtomicRMWInst>(I)
                    ? AtomicRMWInst::getPointerOperandIndex()
                    : AtomicCmpXchgInst::getPointerOperandIndex();
  Value *P = I.getOperand(Op);
  unsigned AS = P->getType()->getPointerAddressSpace();
  Type *T = isa<LoadInst>(I) ? I.getType()
            : isa<StoreInst>(I)
                ? cast<StoreInst>(I).getValueOperand()->getType()
            : isa<AtomicRMWInst>(I)
                ? cast<AtomicRMWInst>(I).getValOperand()->getType()
                : cast<AtomicCmpXchgInst>(I).getNewValOperand()->getType();
  if ((AS != 0 && AS != AS_Global) || isSharedBased(P) ||
      DL.getTypeStoreSize(T).getFixedValue() > SinkHalf)
    return false;
  if (!Sink) {
    auto *ST = ArrayType::get(B.getInt8Ty(), 2 * SinkHalf);
    Sink = new GlobalVariable(
        M, ST, /*isConstant=*/false, GlobalValue::InternalLinkage,
        ConstantAggregateZero::get(ST), "hetgpu_memcheck_sink", nullptr,
        GlobalValue::NotThreadLocal, AS_Global);
    Sink->setAlignment(Align(64));
  }
  Constant *To = Sink;
  if (!isa<LoadInst>(I))
    To = ConstantExpr::getInBoundsGetElementPtr(
        B.getInt8Ty(), Sink, ConstantInt::get(I64, SinkHalf));
  if (AS == 0)
    To = ConstantExpr::getAddrSpaceCast(To, Ptr);
  I.setOperand(Op, B.CreateSelect(Ok, P, To, "memcheck.addr"));
  return true;
}

/// malloc: the block becomes a live heap range; free: the live range that
/// starts at the pointer becomes freed. Both only with a table.
void MemCheckInstrumenter::instrumentHeap(CallBase &CB, BuiltinID ID) {
  IRBuilder<> B(CB.getNextNode());
  Value *T = loadHeader(B);
  Instruction *Then = SplitBlockAndInsertIfThen(
      B.CreateICmpNE(T, B.getInt64(0)), &*B.GetInsertPoint(), false);
  B.SetInsertPoint(Then);
  Value *Hdr = B.CreateIntToPtr(T, Ptr, "hdr");
  Value *Cap =
      B.CreateLoad(I32, field(B, Hdr, offsetof(MemCheckHeader, HeapCapacity)));
  Value *Heap = field(B, Hdr, HeaderBytes);
  if (ID == BuiltinID::malloc) {
    Value *P = B.CreatePtrToInt(&CB, I64);
    Instruction *Add = SplitBlockAndInsertIfThen(
        B.CreateICmpNE(P, B.getInt64(0)), Then, false);
    B.SetInsertPoint(Add);
    Value *Slot = B.CreateAtomicRMW(
        AtomicRMWInst::Add, field(B, Hdr, offsetof(MemCheckHeader, NumHeap)),
        B.getInt32(1), Align(4), AtomicOrdering::Monotonic);
    Instruction *Write =
        SplitBlockAndInsertIfThen(B.CreateICmpULT(Slot, Cap), Add, false);
    B.SetInsertPoint(Write);
    Value *R = B.CreateGEP(
        B.getInt8Ty(), Heap,
        B.CreateMul(B.CreateZExt(Slot, I64), B.getInt64(RangeBytes)));
    Value *Bytes = B.CreateZExtOrTrunc(CB.getArgOperand(0), I64);
    B.CreateStore(P, field(B, R, 0));
    B.CreateStore(B.CreateAdd(P, Bytes), field(B, R, 8));
    B.CreateStore(B.getInt32(MRS_Live), field(B, R, 16));
    return;
  }
  // free(p): mark every live range that begins at p (one, normally).
  Value *P = B.CreatePtrToInt(CB.getArgOperand(0), I64);
  LoadInst *Used =
      B.CreateLoad(I32, field(B, Hdr, offsetof(MemCheckHeader, NumHeap)));
  Used->setAtomic(AtomicOrdering::Monotonic);
  Used->setAlignment(Align(4));
  Value *Count =
      B.CreateZExt(B.CreateSelect(B.CreateICmpULT(Used, Cap), Used, Cap), I64);
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Rest = Pre->splitBasicBlock(Then, "free.done");
  Pre->getTerminator()->eraseFromParent();
  BasicBlock *Loop =
      BasicBlock::Create(Ctx, "free.loop", Pre->getParent(), Rest);
  BasicBlock *Body =
      BasicBlock::Create(Ctx, "free.body", Pre->getParent(), Rest);
  B.SetInsertPoint(Pre);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *Idx = B.CreatePHI(I64, 2, "i");
  Idx->addIncoming(B.getInt64(0), Pre);
  B.CreateCondBr(B.CreateICmpULT(Idx, Count), Body, Rest);
  B.SetInsertPoint(Body);
  Value *R = B.CreateGEP(B.getInt8Ty(), Heap,
                         B.CreateMul(Idx, B.getInt64(RangeBytes)));
  Value *Begin = B.CreateLoad(I64, field(B, R, 0));
  Value *StateP = field(B, R, 16);
  Value *State = B.CreateLoad(I32, StateP);
  Value *Hit = B.CreateAnd(B.CreateICmpEQ(Begin, P),
                           B.CreateICmpEQ(State, B.getInt32(MRS_Live)));
  B.CreateStore(B.CreateSelect(Hit, B.getInt32(MRS_Freed), State), StateP);
  Idx->addIncoming(B.CreateAdd(Idx, B.getInt64(1)), Body);
  B.CreateBr(Loop);
}

bool MemCheckInstrumenter::run() {
  createTable();
  createReport();
  createCheckGlobal();
  createCheckShared();
  const Function *Helpers[] = {Report, CheckGlobal, CheckShared};
  for (Function &F : M) {
    if (F.isDeclaration() || is_contained(Helpers, &F))
      continue;
    SmallVector<Instruction *, 32> Accesses;
    SmallVector<std::pair<CallBase *, BuiltinID>, 4> Heap;
    for (Instruction &I : instructions(F)) {
      if (isa<LoadInst, StoreInst, AtomicRMWInst, AtomicCmpXchgInst,
              MemIntrinsic>(I))
        Accesses.push_back(&I);
      else if (auto *CB = dyn_cast<CallBase>(&I))
        if (auto BI = getCalledBuiltin(*CB))
          if (BI->ID == BuiltinID::malloc || BI->ID == BuiltinID::free)
            Heap.push_back({CB, BI->ID});
    }
    for (Instruction *I : Accesses)
      instrument(*I);
    // Heap bookkeeping: after a free's own accesses were checked (none), and
    // a malloc's block recorded before its first use.
    for (auto &[CB, ID] : Heap)
      instrumentHeap(*CB, ID);
  }
  Constant *Text = ConstantDataArray::getString(Ctx, Sites, /*AddNull=*/true);
  auto *SitesVar = new GlobalVariable(
      M, Text->getType(), /*isConstant=*/false, GlobalValue::ExternalLinkage,
      Text, MemCheckSitesVar, nullptr, GlobalValue::NotThreadLocal, AS_Global);
  SitesVar->setAlignment(Align(8));
  auto *SitesBytes = new GlobalVariable(
      M, I64, /*isConstant=*/false, GlobalValue::ExternalLinkage,
      ConstantInt::get(I64, Sites.size() + 1), MemCheckSitesBytesVar, nullptr,
      GlobalValue::NotThreadLocal, AS_Global);
  SitesBytes->setAlignment(Align(8));
  return true;
}

} // namespace

bool instrumentMemCheck(Module &M) { return MemCheckInstrumenter(M).run(); }

} // namespace hetgpu
