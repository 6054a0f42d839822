//===- LoweringTarget.h - Interface every lowering target implements -----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A LoweringTarget turns a hetIR module into native code for one kind of
/// device. Adding a target means one line in Targets.def, one folder
/// lib/Targets/<Class>/ defining `create<Class>Target()`, and tests in
/// test/Targets/<Class>/ (see docs/AddingATarget.md).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_TARGETS_LOWERINGTARGET_H
#define HETGPU_TARGETS_LOWERINGTARGET_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
class PassBuilder;
} // namespace llvm

namespace hetgpu {

/// What the runtime (or hetgpu-translate) asks of a target.
struct TargetOptions {
  /// Processor, e.g. "sm_90", "gfx942", "x86-64", "rv64imafd". Empty selects
  /// the target's default.
  std::string Arch;
  /// Extra target features, target-specific syntax ("+ptx80").
  std::string Features;
  /// Optimisation level of the native code generator, 0..3.
  unsigned OptLevel = 3;
  /// Insert checkpoint/restore code at the safe points (live migration).
  bool Instrument = false;
};

class LoweringTarget {
public:
  virtual ~LoweringTarget();

  /// Short name, as in Targets.def ("nvptx").
  virtual llvm::StringRef name() const = 0;
  /// Processor used when TargetOptions::Arch is empty.
  virtual std::string defaultArch() const = 0;
  /// Registers `hetgpu-lower-<name>` (and any helper passes) by name.
  virtual void registerPasses(llvm::PassBuilder &PB) const = 0;
  /// Rewrites a verified hetIR module in place into this target's IR:
  /// builtins, address spaces, kernel ABI, triple and data layout.
  virtual llvm::Error lower(llvm::Module &M, const TargetOptions &Opts) const = 0;
  /// Optimises a lowered module and produces the binary the device backend
  /// loads (PTX text, SPIR-V binary, code object, shared object, ELF).
  virtual llvm::Expected<std::vector<char>>
  emit(llvm::Module &M, const TargetOptions &Opts) const = 0;
  /// Whether an instrumented chunked loop reads the yield flag when a chunk
  /// starts (hiding a GPU's memory latency behind the chunk) rather than at
  /// the safe point. Targets that run a block's threads one after another
  /// (SIMT->MIMD) keep every value live across a barrier in each thread's
  /// frame, so they read it at the safe point.
  virtual bool readsYieldFlagEarly() const { return true; }
  /// Whether shared-memory addresses are 32-bit offsets in hardware, so
  /// offsets that overflow wrap around within the block's shared memory as
  /// on NVIDIA GPUs; the others get `hetgpu-wrap-shared-addresses`.
  virtual bool wrapsSharedAddresses() const { return false; }
  /// Whether the devices this target serves promise no work-groups running
  /// at once (OpenCL, Level Zero), so grid barriers cannot spin: kernels
  /// that call `__hetgpu_grid_sync` are translated with
  /// `hetgpu-instrument-state<grid-sync>` (each grid barrier ends a round;
  /// the runtime runs such launches in rounds, runtime/lib/Migration/
  /// GridRounds.cpp) unless the translation is memcheck-instrumented. The
  /// others get the spin barrier of `hetgpu-lower-grid-sync`.
  virtual bool runsGridSyncInRounds() const { return false; }
};

#define HETGPU_TARGET(Name, Class, Triple)                                     \
  std::unique_ptr<LoweringTarget> create##Class##Target();
#include "hetgpu/Targets/Targets.def"

/// The target called \p Name, or nullptr.
std::unique_ptr<LoweringTarget> createTarget(llvm::StringRef Name);
/// Names of every target compiled in, in Targets.def order.
std::vector<llvm::StringRef> targetNames();

} // namespace hetgpu

#endif // HETGPU_TARGETS_LOWERINGTARGET_H
