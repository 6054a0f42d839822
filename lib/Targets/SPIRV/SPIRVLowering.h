//===- SPIRVLowering.h - The state of hetgpu-lower-spirv --------*- C++ -*-===//
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

// SPIR-V (OpenCL) address spaces as LLVM's SPIR-V backend numbers them.
enum SPIRVAS : unsigned {
  ASPrivate = 0,
  ASGlobal = 1,
  ASConstant = 2,
  ASLocal = 3,
  ASGeneric = 4,
};

constexpr llvm::StringLiteral KernelAttr = "hetgpu-kernel";
/// Marks the kernels that run one warp per work-item, and their thread
/// functions.
constexpr llvm::StringLiteral WarpLoopAttr = "hetgpu-spirv-warp-loop";
constexpr llvm::StringLiteral WarpThreadAttr = "hetgpu-spirv-warp-thread";
constexpr llvm::StringLiteral WarpExecName = "__hetgpu_spirv_warp_exec";
constexpr llvm::StringLiteral WarpRunName = "__hetgpu_spirv_run_warp";
/// On printf calls: the type of the argument buffer (a poison constant).
constexpr llvm::StringLiteral PrintfArgsMD = "hetgpu.spirv.printf.args";

inline llvm::Error failure(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

inline std::string kernelOf(const llvm::Function &F) {
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
class AddrSpaceRemapper final : public llvm::ValueMapTypeRemapper {
public:
  explicit AddrSpaceRemapper(llvm::LLVMContext &Ctx) : Ctx(Ctx) {}

  llvm::Type *remapType(llvm::Type *T) override {
    auto It = Cache.find(T);
    if (It != Cache.end())
      return It->second;
    llvm::Type *R = compute(T);
    Cache[T] = R;
    return R;
  }

  /// First address space that has no SPIR-V equivalent, if any was seen.
  std::optional<unsigned> BadAS;

private:
  llvm::Type *compute(llvm::Type *T) {
    if (auto *PT = llvm::dyn_cast<llvm::PointerType>(T)) {
      std::optional<unsigned> AS = mapAddrSpace(PT->getAddressSpace());
      if (!AS) {
        BadAS = PT->getAddressSpace();
        return T;
      }
      return llvm::PointerType::get(Ctx, *AS);
    }
    if (auto *VT = llvm::dyn_cast<llvm::VectorType>(T))
      return llvm::VectorType::get(remapType(VT->getElementType()),
                                   VT->getElementCount());
    if (auto *AT = llvm::dyn_cast<llvm::ArrayType>(T))
      return llvm::ArrayType::get(remapType(AT->getElementType()),
                                  AT->getNumElements());
    if (auto *FT = llvm::dyn_cast<llvm::FunctionType>(T)) {
      llvm::SmallVector<llvm::Type *, 8> Ps;
      for (llvm::Type *P : FT->params())
        Ps.push_back(remapType(P));
      return llvm::FunctionType::get(remapType(FT->getReturnType()), Ps,
                                     FT->isVarArg());
    }
    if (auto *ST = llvm::dyn_cast<llvm::StructType>(T)) {
      if (ST->isOpaque())
        return T;
      llvm::SmallVector<llvm::Type *, 8> Es;
      bool Changed = false;
      for (llvm::Type *E : ST->elements()) {
        Es.push_back(remapType(E));
        Changed |= Es.back() != E;
      }
      if (!Changed)
        return T;
      if (ST->isLiteral())
        return llvm::StructType::get(Ctx, Es, ST->isPacked());
      return llvm::StructType::create(Ctx, Es, (ST->getName() + ".spirv").str(),
                                      ST->isPacked());
    }
    return T;
  }

  llvm::LLVMContext &Ctx;
  llvm::DenseMap<llvm::Type *, llvm::Type *> Cache;
};

/// A `__device__`/`__constant__` variable placed in the globals block.
struct BlockVar {
  std::string Name;
  llvm::GlobalVariable *Placeholder = nullptr; ///< new-module stand-in
  llvm::Type *ValueTy = nullptr;               ///< remapped value type
  llvm::Constant *Init = nullptr; ///< remapped initializer, or null
  uint64_t Offset = 0;
  uint64_t Size = 0;
};

class SPIRVLowering {
public:
  SPIRVLowering(llvm::Module &M, const SPIRVLoweringOptions &Opts)
      : M(M), Ctx(M.getContext()), Opts(Opts), TM(Ctx),
        I32(llvm::Type::getInt32Ty(Ctx)), I64(llvm::Type::getInt64Ty(Ctx)),
        I8(llvm::Type::getInt8Ty(Ctx)) {}

  llvm::Error run();

private:
  llvm::Error checkInput();
  void inlineCalls();
  bool needsWarpLoop(llvm::Function &K);
  llvm::Error lowerWarpLoopKernels();
  /// A kernel lowerWarpLoopKernels gives the warp-loop form: what its new
  /// kernel keeps of the original, and its bytes of static shared memory.
  struct WarpLoopKernel {
    std::string Name;
    llvm::FunctionType *FT;
    llvm::AttributeList Attrs;
    llvm::GlobalValue::LinkageTypes Linkage;
    uint64_t Shared;
  };
  llvm::Error lowerToThreadFunctions(llvm::ArrayRef<llvm::Function *> Others);
  llvm::Error buildWarpLoopKernel(const WarpLoopKernel &S,
                                  llvm::FunctionCallee Exec);
  llvm::Error linkWarpExecutor();
  llvm::Error cloneWithSPIRVTypes();
  llvm::Expected<llvm::GlobalVariable *>
  cloneGlobal(llvm::GlobalVariable &G, llvm::ValueToValueMapTy &VMap);
  void cloneBody(llvm::Function &OldF, llvm::Function &NewF,
                 llvm::ValueToValueMapTy &VMap);
  llvm::Error fixUpClonedBody(llvm::Function &F, llvm::Function &NF);
  llvm::Error placeBlockVars();
  llvm::Error lowerBuiltins();
  llvm::Error lowerBuiltinCall(llvm::CallInst *CI);
  llvm::Error lowerWarpOps();
  using WarpCallMap =
      std::map<llvm::Function *, llvm::SmallVector<llvm::CallInst *, 8>>;
  llvm::Error checkWarpEmulation(WarpCallMap &PerFn);
  llvm::Error lowerWarpCall(llvm::Function &F, llvm::CallInst *CI,
                            llvm::Type *ScratchTy);
  llvm::Error expandAtomics();
  void expandIntrinsics();
  llvm::Value *emitFrexp(llvm::IRBuilder<> &B, llvm::Value *X,
                         llvm::Type *ResTy);
  void lowerFences();
  llvm::Value *emitNextAfter(llvm::IRBuilder<> &B, llvm::Value *X,
                             llvm::Value *Y);
  void addHelperKernels();
  void inferAddressSpaces();

  // Helpers for builtin lowering.
  llvm::Value *hiddenDynShared(llvm::Function &F) {
    return F.getArg(F.arg_size() - 2);
  }
  llvm::Value *hiddenGlobals(llvm::Function &F) {
    return F.getArg(F.arg_size() - 1);
  }
  llvm::FunctionCallee oclFunc(llvm::StringRef Name, llvm::Type *Ret,
                               llvm::ArrayRef<llvm::Type *> Params,
                               bool Convergent = false, bool ReadNone = false);
  llvm::Value *workItemQuery(llvm::IRBuilder<> &B, llvm::StringRef Mangled,
                             unsigned Dim);
  llvm::Value *linearLocalId(llvm::IRBuilder<> &B);
  llvm::Value *blockSize(llvm::IRBuilder<> &B);
  void emitBarrier(llvm::IRBuilder<> &B, unsigned Flags);
  void emitStatusFailure(llvm::IRBuilder<> &B, llvm::Function &F,
                         uint32_t Code);
  /// Appends a printf record (ABI/SPIRVKernel.h) before \p Before; returns
  /// the printf result.
  llvm::Expected<llvm::Value *>
  emitPrintf(llvm::Instruction *Before, llvm::Function &F,
             llvm::StringRef Format, llvm::Value *Args, llvm::Type *ArgsTy,
             bool ToStderr = false);
  llvm::GlobalVariable *localScratch(llvm::StringRef Name, llvm::Type *Ty);

  llvm::Module &M;
  llvm::LLVMContext &Ctx;
  const SPIRVLoweringOptions &Opts;
  AddrSpaceRemapper TM;
  llvm::Type *I32, *I64, *I8;

  llvm::SmallVector<llvm::Function *, 8> Kernels; ///< new (lowered) kernels
  std::vector<BlockVar> BlockVars;
  uint64_t BlockSize = spirv_abi::HeaderSize;
  uint64_t BlockAlign = 16;
  llvm::SmallPtrSet<llvm::Function *, 8> WarpEmulated;
  /// Warp-loop kernels by name -> (bytes of static shared memory, bytes of
  /// thread states and frames per warp): the runtime's dynamic local buffer
  /// holds the warps' states, then static, then dynamic shared memory.
  std::map<std::string, std::pair<uint64_t, uint64_t>> WarpLoopShared;

  struct PrintfFormat {
    std::string Text;
    uint64_t ArgsSize = 0;
    llvm::SmallVector<uint64_t, 2> StringOffsets;
    bool Stderr = false; ///< assert messages go to stderr, as CUDA's do
  };
  std::vector<PrintfFormat> Formats;
  bool UsesHeap = false;
  /// Kernels left out of the module (DeferUnsupported) and why.
  std::vector<std::pair<std::string, std::string>> Unsupported;
  llvm::SmallPtrSet<llvm::Function *, 4> Dropped;
};

/// Whether \p CI calls a builtin of the "warp" group.
bool isWarpBuiltin(const llvm::CallInst &CI);

/// CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE
constexpr unsigned CLKLocal = 1, CLKGlobal = 2;

} // namespace spirv
} // namespace hetgpu

#endif // HETGPU_LIB_TARGETS_SPIRV_SPIRVLOWERING_H
