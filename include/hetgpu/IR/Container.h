//===- Container.h - hetGPU fat-binary container ----------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The versioned container that hetgpu-cc embeds in host objects (section
/// `.nv_fatbin`, registered through `__cudaRegisterFatBinary`). It holds one
/// or more hetIR modules and, for each, a table of its kernels, their
/// parameters and their state layouts, so the runtime never has to parse
/// bitcode to launch a kernel.
///
/// This header and Container.cpp use only the C++ standard library: the
/// runtime links them without LLVM. Tools wrap the error strings in
/// llvm::Error. The byte format is specified in docs/Container.md.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_IR_CONTAINER_H
#define HETGPU_IR_CONTAINER_H

#include "hetgpu/ABI/Container.h"
#include "hetgpu/ABI/Migration.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hetgpu {
namespace container {

/// Spellings used in `!hetgpu.kernels`/`!hetgpu.state` and by the printers.
const char *paramKindName(ParamKind K);
const char *slotKindName(SlotKind K);
const char *safePointKindName(SafePointKind K);

/// Names of the feature bits, in bit order (for printing and metadata).
const char *featureName(unsigned Bit);

struct ParamInfo {
  ParamKind Kind = ParamKind::Value;
  uint32_t Size = 0;
  uint32_t Align = 1;
  /// Offset of this parameter in a packed argument buffer (each parameter
  /// at its alignment), as CUDA's kernel parameter layout.
  uint32_t Offset = 0;
};

struct SlotInfo {
  SlotKind Kind = SlotKind::Value;
  uint32_t Offset = 0; ///< byte offset in the thread's record
  uint32_t Size = 0;
  uint32_t Align = 1;
  std::string Type; ///< LLVM type spelling, e.g. "float", "[4 x i32]"
};

struct SafePointInfo {
  uint32_t Id = 0;
  SafePointKind Kind = SafePointKind::Entry;
  uint32_t RecordSize = 0; ///< bytes per thread at this point
  std::vector<SlotInfo> Slots;
};

/// A condition on the launch configuration that the kernel's call graph
/// assumes (a contract of the device link, docs/SeparateCompilation.md):
/// the runtime refuses a launch that breaks it.
struct LaunchRule {
  enum Kind : uint32_t {
    Exactly = 0,    ///< threads per block == Value (a fixed blockDim)
    MultipleOf = 1, ///< threads per block % Value == 0 (full warps)
    AtMost = 2,     ///< threads per block <= Value (compiled for a bound)
  };
  Kind K = Exactly;
  uint32_t Value = 0;
  /// Who assumes it and why, for the log: "'reduce.o' uses a full-mask
  /// shfl_down_i32 in 'warp_sum(float)'".
  std::string Why;
};

/// Spelling of \p K in `!hetgpu.kernels` ("exactly", "multiple-of",
/// "at-most").
const char *launchRuleKindName(LaunchRule::Kind K);

struct KernelInfo {
  std::string Name;      ///< symbol (mangled) name
  std::string Demangled; ///< human-readable name
  std::vector<ParamInfo> Params;
  uint32_t ParamBufferSize = 0;
  uint64_t StaticShared = 0; ///< bytes of static __shared__ data
  uint32_t Features = 0;     ///< Feature bits
  uint32_t MaxThreads = 0;   ///< __launch_bounds__ max threads, 0 = none
  uint32_t MinBlocks = 0;    ///< __launch_bounds__ min blocks, 0 = none
  /// Largest per-thread record over all safe points.
  uint32_t StateRecordSize = 0;
  std::vector<SafePointInfo> SafePoints;
  /// Conditions on the block size (container 1.1; empty for whole-TU code).
  std::vector<LaunchRule> LaunchRules;
};

/// Number of parameters `hetgpu-instrument-state` appends to a kernel
/// (include/hetgpu/ABI/Migration.h).
using abi::MigrationHiddenParams;

/// \p K's parameters as the instrumented kernel has them: the hidden ones
/// appended after the user's (the container lists only the user's), the
/// pointers 8-aligned (docs/Migration.md).
inline void appendMigrationParams(KernelInfo &K) {
  uint32_t Off = (K.ParamBufferSize + 7) & ~7u;
  for (size_t I = 0; I < MigrationHiddenParams; ++I) {
    ParamInfo P;
    P.Kind = I < 2 ? ParamKind::Pointer : ParamKind::Value;
    P.Size = P.Align = I < 2 ? 8 : 4;
    P.Offset = Off;
    Off += P.Size;
    K.Params.push_back(P);
  }
  K.ParamBufferSize = Off;
}

/// A `__device__`, `__constant__` or `__managed__` variable of a module.
struct GlobalInfo {
  std::string Name;
  uint64_t Size = 0;
  uint32_t AddrSpace = 1; ///< 1 global, 4 constant
  uint32_t Flags = 0;     ///< reserved
};

enum class ModuleKind : uint32_t {
  HetIRBitcode = 1,
  /// Relocatable hetIR of one `hetgpu-cc -dc` object: it may reference
  /// device symbols of other objects and has no state layout yet. Only the
  /// device link reads it; the runtime refuses to load it.
  RelocatableHetIR = 2,
};

/// A 128-bit digest (XXH3-128: container, checkpoint and JIT-cache
/// checksums, the module hash).
struct Hash128 {
  uint64_t Low = 0;
  uint64_t High = 0;
  bool operator==(const Hash128 &O) const {
    return Low == O.Low && High == O.High;
  }
  bool operator!=(const Hash128 &O) const { return !(*this == O); }
  bool isZero() const { return !Low && !High; }
  /// 32 hex digits, high half first.
  std::string hex() const;
};

/// XXH3-128 of \p Size bytes at \p Data (libxxhash).
Hash128 hash128(const void *Data, size_t Size);

/// A pre-translated native image of a module (container 2.1, hetgpu-cc
/// --offload-arch): valid only for its target (hetgpu/IR/ImageTargets.h),
/// translator version and translation flags, and for the module it was made
/// from (imageSourceHash).
struct AOTImage {
  std::string Target;        ///< "host", "sm_90", "gfx942", "spirv", ...
  /// HETGPU_TRANSLATOR_ABI_VERSION of the translator that made it.
  uint32_t TranslatorVersion = 0;
  uint32_t Flags = 0;        ///< translation flags (plain translation only)
  Hash128 SourceIRHash;      ///< imageSourceHash() of the module it came from
  /// What the runtime's translation would give (the JIT cache's payload
  /// before Device::finalizeBinary: shared object, PTX, SPIR-V, code
  /// object); its hash is written by write() and checked by read().
  std::string Bytes;
  /// The kernels it holds, in the module's kernel order (container 2.2):
  /// one kernel group (kernelGroups()); empty: the whole module (every 2.1
  /// image).
  std::vector<std::string> Kernels;
  /// Set by read() when Bytes do not match their hash (Bytes then empty):
  /// the runtime refuses the image by name and translates the hetIR.
  std::string Damage;
};

struct ModuleInfo {
  ModuleKind Kind = ModuleKind::HetIRBitcode;
  uint32_t IRVersionMajor = 0;
  uint32_t IRVersionMinor = 0;
  std::vector<KernelInfo> Kernels;
  std::vector<GlobalInfo> Globals;
  std::string IR; ///< the bitcode bytes
  /// XXH3-128 of IR; the JIT cache keys translations on it.
  Hash128 IRHash;
  /// Ahead-of-time images (container 2.1; empty when read from 2.0).
  std::vector<AOTImage> Images;

  const KernelInfo *findKernel(const std::string &Name) const;
};

/// What an image of \p M records as its source: XXH3-128 of the hetIR
/// followed by writeTables(M), the tables the translator checked the IR
/// against (so an image is stale when either changes).
Hash128 imageSourceHash(const ModuleInfo &M);

/// Kernels per group when HETGPU_KERNEL_GROUP is not set.
constexpr unsigned DefaultKernelGroupSize = 8;
/// HETGPU_KERNEL_GROUP (a number; 0: whole modules only), else
/// DefaultKernelGroupSize. The runtime's JIT and hetgpu-cc's images read the
/// same setting, so an image is made for the group a first launch asks for.
unsigned kernelGroupSizeSetting();
/// Whether \p M is translated in groups of \p Size kernels (kernelGroups).
inline bool translatedInGroups(const ModuleInfo &M, unsigned Size) {
  return Size && M.Kernels.size() > Size && M.Globals.empty();
}
/// \p M's kernel groups for groups of \p Size kernels: consecutive runs of
/// its kernel table, the last one shorter. None (the module is translated
/// whole) when \p Size is 0, when \p M has at most \p Size kernels, or when
/// it has device variables (every translation would have its own copy).
std::vector<std::vector<std::string>> kernelGroups(const ModuleInfo &M,
                                                   unsigned Size);

struct Container {
  uint16_t Major = VersionMajor;
  uint16_t Minor = VersionMinor;
  std::vector<ModuleInfo> Modules;
};

/// FNV-1a, 64 bit: for short identifiers only, never as a checksum.
uint64_t fnv1a64(const void *Data, size_t Size, uint64_t Seed = 0xcbf29ce484222325ull);

/// Serialises \p C (IRHash fields are recomputed).
std::string write(const Container &C);

/// Reads a container from \p Data, never reading past \p Size. Returns false
/// and sets \p Error ("container: <what> at offset N: <why>") when the data
/// is truncated, corrupted, of another version or otherwise malformed, or
/// when a field contradicts another (validateKernel).
bool read(const void *Data, size_t Size, Container &Out, std::string &Error);

/// Limits a reader enforces on the module tables (docs/Container.md).
constexpr uint32_t MaxParamBufferSize = 32764; ///< CUDA 12.1's limit
constexpr uint64_t MaxStaticShared = 1ull << 30;
constexpr uint32_t MaxThreadsPerBlock = 1024;

/// Checks \p K's fields against each other: every parameter inside the
/// parameter buffer, at its alignment and in order, without overlap; the
/// buffer within MaxParamBufferSize; pointers 8 bytes; shared size and
/// launch bounds bounded; each safe point's record within the largest one.
/// Returns an empty string when it is consistent, else what is wrong.
std::string validateKernel(const KernelInfo &K);

/// Bytes that stand for \p M's tables (kernels and globals, not the IR): the
/// JIT cache keys on their hash and the translator compares them with the
/// IR's metadata.
std::string writeTables(const ModuleInfo &M);
/// Reads what writeTables wrote (the tables of one module, IR empty).
bool readTables(const void *Data, size_t Size, ModuleInfo &Out,
                std::string &Error);

/// Size recorded in the header at \p Data (which must hold HeaderSize bytes),
/// or 0 when the magic does not match. Used when only a pointer is known
/// (`__cudaRegisterFatBinary`).
uint64_t peekTotalSize(const void *Data);

} // namespace container
} // namespace hetgpu

#endif // HETGPU_IR_CONTAINER_H
