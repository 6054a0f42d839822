//===- SPIRVLowering.h - The state of hetgpu-lower-spirv ---------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Private to lib/Targets/SPIRV: the SPIRVLowering class that carries one
/// run of `hetgpu-lower-spirv` (LowerToSPIRV.h) through its steps, and what
/// the steps share. The steps live in one file each:
///
///   LowerToSPIRV.cpp    the pass, input checks, inlining, address space
///                       inference and the order of the steps (run())
///   SPIRVWarpLoop.cpp   warp-loop kernels (one work-item runs one warp)
///   SPIRVTypes.cpp      cloning with SPIR-V address spaces, globals block
///   SPIRVBuiltins.cpp   `__hetgpu_*` builtins to OpenCL built-ins, printf
///   SPIRVWarpOps.cpp    warp operations (sub-groups or emulation)
///   SPIRVAtomics.cpp    atomics and intrinsics the backend cannot select
///   SPIRVModuleInfo.cpp the module table and the helper kernels
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_LIB_TARGETS_SPIRV_SPIRVLOWERING_H
#define HETGPU_LIB_TARGETS_SPIRV_SPIRVLOWERING_H

#include "LowerToSPIRV.h"
#include "hetgpu/ABI/SPIRVKernel.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hetgpu {
namespace spirv {

// The steps are written against LLVM's names; the using-directive is
// scoped to this private namespace (no file outside lib/Targets/SPIRV
// includes this header).
using namespace llvm;

// SPIR-V (OpenCL) address spaces as LLVM's SPIR-V backend numbers them.
enum SPIRVAS : unsigned {
  ASPrivate = 0,
  ASGlobal = 1,
  ASConstant = 2,
  ASLocal = 3,
  ASGeneric = 4,
};

constexpr StringLiteral KernelAttr = "hetgpu-kernel";
/// Marks the kernels that run one warp per work-item, and their thread
/// functions.
constexpr StringLiteral WarpLoopAttr = "hetgpu-spirv-warp-loop";
constexpr StringLiteral WarpThreadAttr = "hetgpu-spirv-warp-thread";
constexpr StringLiteral WarpExecName = "__hetgpu_spirv_warp_exec";
constexpr StringLiteral WarpRunName = "__hetgpu_spirv_run_warp";
/// On printf calls: the type of the argument buffer (a poison constant).
constexpr StringLiteral PrintfArgsMD = "hetgpu.spirv.printf.args";

inline Error failure(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

inline std::string kernelOf(const Function &F) {
  return ("'" + F.getName() + "'").str();
}

/// Maps hetIR address spaces to SPIR-V ones; nullopt for unknown ones.
inline std::optional<unsigned> mapAddrSpace(unsigned AS) {
  switch (AS) {
  case 0:
    return ASGeneric;
  case 1:
    return ASGlobal;
  case 3:
    return ASLocal;
  case 4:
    return ASGlobal; // constant memory is written by the host: global
  case 5:
    return ASPrivate;
  default:
    return std::nullopt;
  }
}

/// Rewrites pointer address spaces inside (possibly nested) types.
class AddrSpaceRemapper final : public ValueMapTypeRemapper {
public:
  explicit AddrSpaceRemapper(LLVMContext &Ctx) : Ctx(Ctx) {}

  Type *remapType(Type *T) override {
    auto It = Cache.find(T);
    if (It != Cache.end())
      return It->second;
    Type *R = compute(T);
    Cache[T] = R;
    return R;
  }

  /// First address space that has no SPIR-V equivalent, if any was seen.
  std::optional<unsigned> BadAS;

private:
  Type *compute(Type *T) {
    if (auto *PT = dyn_cast<PointerType>(T)) {
      std::optional<unsigned> AS = mapAddrSpace(PT->getAddressSpace());
      if (!AS) {
        BadAS = PT->getAddressSpace();
        return T;
      }
      return PointerType::get(Ctx, *AS);
    }
    if (auto *VT = dyn_cast<VectorType>(T))
      return VectorType::get(remapType(VT->getElementType()),
                             VT->getElementCount());
    if (auto *AT = dyn_cast<ArrayType>(T))
      return ArrayType::get(remapType(AT->getElementType()),
                            AT->getNumElements());
    if (auto *FT = dyn_cast<FunctionType>(T)) {
      SmallVector<Type *, 8> Ps;
      for (Type *P : FT->params())
        Ps.push_back(remapType(P));
      return FunctionType::get(remapType(FT->getReturnType()), Ps,
                               FT->isVarArg());
    }
    if (auto *ST = dyn_cast<StructType>(T)) {
      if (ST->isOpaque())
        return T;
      SmallVector<Type *, 8> Es;
      bool Changed = false;
      for (Type *E : ST->elements()) {
        Es.push_back(remapType(E));
        Changed |= Es.back() != E;
      }
      if (!Changed)
        return T;
      if (ST->isLiteral())
        return StructType::get(Ctx, Es, ST->isPacked());
      return StructType::create(Ctx, Es, (ST->getName() + ".spirv").str(),
                                ST->isPacked());
    }
    return T;
  }

  LLVMContext &Ctx;
  DenseMap<Type *, Type *> Cache;
};

/// A `__device__`/`__constant__` variable placed in the globals block.
struct BlockVar {
  std::string Name;
  GlobalVariable *Placeholder = nullptr; ///< new-module stand-in
  Type *ValueTy = nullptr;               ///< remapped value type
  Constant *Init = nullptr;              ///< remapped initializer, or null
  uint64_t Offset = 0;
  uint64_t Size = 0;
};

class SPIRVLowering {
public:
  SPIRVLowering(Module &M, const SPIRVLoweringOptions &Opts)
      : M(M), Ctx(M.getContext()), Opts(Opts), TM(Ctx),
        I32(Type::getInt32Ty(Ctx)), I64(Type::getInt64Ty(Ctx)),
        I8(Type::getInt8Ty(Ctx)) {}

  Error run();

private:
  Error checkInput();
  void inlineCalls();
  bool needsWarpLoop(Function &K);
  Error lowerWarpLoopKernels();
  Error linkWarpExecutor();
  Error cloneWithSPIRVTypes();
  Error placeBlockVars();
  Error lowerBuiltins();
  Error lowerWarpOps();
  Error expandAtomics();
  void expandIntrinsics();
  Value *emitFrexp(IRBuilder<> &B, Value *X, Type *ResTy);
  void lowerFences();
  Value *emitNextAfter(IRBuilder<> &B, Value *X, Value *Y);
  void addHelperKernels();
  void inferAddressSpaces();

  // Helpers for builtin lowering.
  Value *hiddenDynShared(Function &F) { return F.getArg(F.arg_size() - 2); }
  Value *hiddenGlobals(Function &F) { return F.getArg(F.arg_size() - 1); }
  FunctionCallee oclFunc(StringRef Name, Type *Ret, ArrayRef<Type *> Params,
                         bool Convergent = false, bool ReadNone = false);
  Value *workItemQuery(IRBuilder<> &B, StringRef Mangled, unsigned Dim);
  Value *linearLocalId(IRBuilder<> &B);
  Value *blockSize(IRBuilder<> &B);
  void emitBarrier(IRBuilder<> &B, unsigned Flags);
  void emitStatusFailure(IRBuilder<> &B, Function &F, uint32_t Code);
  /// Appends a printf record (ABI/SPIRVKernel.h) before \p Before; returns
  /// the printf result.
  Expected<Value *> emitPrintf(Instruction *Before, Function &F,
                               StringRef Format, Value *Args, Type *ArgsTy,
                               bool ToStderr = false);
  GlobalVariable *localScratch(StringRef Name, Type *Ty);

  Module &M;
  LLVMContext &Ctx;
  const SPIRVLoweringOptions &Opts;
  AddrSpaceRemapper TM;
  Type *I32, *I64, *I8;

  SmallVector<Function *, 8> Kernels; ///< new (lowered) kernels
  std::vector<BlockVar> BlockVars;
  uint64_t BlockSize = spirv_abi::HeaderSize;
  uint64_t BlockAlign = 16;
  SmallPtrSet<Function *, 8> WarpEmulated;
  /// Warp-loop kernels by name -> (bytes of static shared memory, bytes of
  /// thread states and frames per warp): the runtime's dynamic local buffer
  /// holds the warps' states, then static, then dynamic shared memory.
  std::map<std::string, std::pair<uint64_t, uint64_t>> WarpLoopShared;

  struct PrintfFormat {
    std::string Text;
    uint64_t ArgsSize = 0;
    SmallVector<uint64_t, 2> StringOffsets;
    bool Stderr = false; ///< assert messages go to stderr, as CUDA's do
  };
  std::vector<PrintfFormat> Formats;
  bool UsesHeap = false;
  /// Kernels left out of the module (DeferUnsupported) and why.
  std::vector<std::pair<std::string, std::string>> Unsupported;
  SmallPtrSet<Function *, 4> Dropped;
};

/// Whether \p CI calls a builtin of the "warp" group.
bool isWarpBuiltin(const CallInst &CI);

/// CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE
constexpr unsigned CLKLocal = 1, CLKGlobal = 2;

} // namespace spirv
} // namespace hetgpu

#endif // HETGPU_LIB_TARGETS_SPIRV_SPIRVLOWERING_H
