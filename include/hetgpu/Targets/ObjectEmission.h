//===- ObjectEmission.h - Target machines and code generation ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The part of LoweringTarget::emit() that is the same for every target:
/// registering an LLVM back end once per process, creating its
/// TargetMachine at the code generation level of TargetOptions::OptLevel,
/// and running the code generator (addPassesToEmitFile) into memory. Part
/// of HetGPUTargetSupport (lib/Targets/Support/).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TARGETS_OBJECTEMISSION_H
#define HETGPU_TARGETS_OBJECTEMISSION_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

/// Registers LLVM's back end \p X (target info, target, MC layer, asm
/// printer: the LLVMInitialize<X>* functions of llvm/Support/TargetSelect.h)
/// the first time it runs, and does nothing after.
#define HETGPU_INITIALIZE_LLVM_BACKEND(X)                                      \
  do {                                                                         \
    static std::once_flag HetGPUInitOnce;                                      \
    std::call_once(HetGPUInitOnce, [] {                                        \
      LLVMInitialize##X##TargetInfo();                                         \
      LLVMInitialize##X##Target();                                             \
      LLVMInitialize##X##TargetMC();                                           \
      LLVMInitialize##X##AsmPrinter();                                         \
    });                                                                        \
  } while (false)

namespace hetgpu {

/// The code generator level for TargetOptions::OptLevel 0..3 (higher is 3).
llvm::CodeGenOptLevel codeGenOptLevel(unsigned OptLevel);
/// The optimisation pipeline level for TargetOptions::OptLevel 0..3.
llvm::OptimizationLevel optimizationLevel(unsigned OptLevel);

/// What createTargetMachine() builds.
struct MachineRequest {
  llvm::StringRef Target;  ///< error prefix, as in targetError()
  llvm::StringRef Backend; ///< the LLVM back end, for messages ("NVPTX")
  llvm::Triple Triple;
  std::string CPU;
  std::string Features;
  llvm::TargetOptions Options;
  std::optional<llvm::Reloc::Model> Reloc;
  std::optional<llvm::CodeModel::Model> CodeModel;
  unsigned OptLevel = 3;
  /// When not empty, a CPU the back end does not know is an error
  /// "'<CPU>' is not a <Backend> processor (<CPUExamples>)".
  llvm::StringRef CPUExamples;
  /// A boolean `cl::opt` of LLVM set to true while the target machine is
  /// created (a back end that reads it only then, e.g. "nvptx-short-ptr").
  llvm::StringRef TrueWhileCreating;
};

/// Looks up the back end of R.Triple (registered beforehand with
/// HETGPU_INITIALIZE_LLVM_BACKEND) and creates its target machine.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const MachineRequest &R);

/// How emitCode() sets the code generator up.
struct EmitOptions {
  /// Give the code generator the target's TargetTransformInfo (the IR
  /// passes of the code generator see the target's costs).
  bool TargetTransformInfo = true;
  /// A boolean `cl::opt` of LLVM (e.g. "disable-lsr") set to true while the
  /// code generator's pipeline is built, which is when LLVM reads it; the
  /// option's value comes back afterwards. Builds that set one are
  /// serialised, so other targets of the process keep the option's value.
  llvm::StringRef TrueWhileBuilding;
};

/// Runs the code generator of \p TM on \p M and appends the file (an
/// object file or assembly, \p Type) to \p Out.
llvm::Error emitCode(llvm::StringRef Target, llvm::TargetMachine &TM,
                     llvm::Module &M, llvm::CodeGenFileType Type,
                     llvm::SmallVectorImpl<char> &Out,
                     const EmitOptions &Opts = EmitOptions());

} // namespace hetgpu

#endif // HETGPU_TARGETS_OBJECTEMISSION_H
