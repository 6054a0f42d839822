//===- MemCheck.h - What memcheck-instrumented kernels share with the runtime
//-*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The contract between `hetgpu-instrument-memcheck`
/// (lib/Transforms/InstrumentMemCheck.cpp), which checks every global and
/// shared access of a kernel, and the runtime's memcheck
/// (runtime/lib/Core/KernelMemCheck.cpp), which fills the table the checks
/// read and prints what they report (docs/Runtime.md "Memcheck"). Plain
/// C++, no LLVM.
///
/// An instrumented module defines three variables in device memory:
/// `__hetgpu_memcheck` (u64: the device address of the table below; 0 turns
/// every check off) and `__hetgpu_memcheck_sites` (text, one line per
/// checked access: `id<TAB>access<TAB>bytes<TAB>function<TAB>location`,
/// where function is the number of a line `f<TAB>number<TAB>name` before it;
/// its size in `__hetgpu_memcheck_sites_bytes`). A
/// refused access is not made: a load gives zero, a store or atomic writes
/// nothing, a memcpy/memset copies nothing.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_ABI_MEMCHECK_H
#define HETGPU_ABI_MEMCHECK_H

#include <cstdint>

namespace hetgpu {
namespace abi {

constexpr const char *MemCheckTableVar = "__hetgpu_memcheck";
constexpr const char *MemCheckSitesVar = "__hetgpu_memcheck_sites";
/// u64: bytes of __hetgpu_memcheck_sites (backends do not all know the
/// size of a variable the container does not list).
constexpr const char *MemCheckSitesBytesVar = "__hetgpu_memcheck_sites_bytes";
/// Bytes after the end of a range in which an address that lies in no
/// range is reported as out of bounds (cudaMalloc leaves a red zone of
/// this size after each block while memcheck is on); addresses farther
/// from every range are not reported.
constexpr uint64_t MemCheckNearBytes = 256;

/// The table: this header, HeapCapacity heap ranges (device malloc,
/// appended by the kernels; they outlive a launch), MaxReports reports,
/// then NumRanges ranges sorted by Begin and not overlapping (rewritten
/// before every launch). 8-aligned, every word u32 or u64.
struct MemCheckHeader {
  uint32_t Magic; ///< MemCheckMagic
  uint32_t NumRanges;
  uint64_t DynamicShared; ///< dynamic shared bytes of the running launch
  uint32_t NumReports;    ///< incremented by the kernel (atomic)
  uint32_t MaxReports;    ///< reports past this are counted, not written
  uint32_t NumHeap;       ///< heap ranges appended so far (atomic)
  uint32_t HeapCapacity;
};
constexpr uint32_t MemCheckMagic = 0x4b434d48; // "HMCK"

/// One range of memory a kernel may touch.
struct MemCheckRange {
  uint64_t Begin;
  uint64_t End;   ///< one past the last byte
  uint32_t State; ///< MemCheckRangeState
  uint32_t Reserved;
};

enum MemCheckRangeState : uint32_t {
  MRS_Live = 1,  ///< an allocation or a module variable
  MRS_Freed = 2, ///< freed (cudaFree, or free() in a kernel)
};

/// What a check found.
enum MemCheckProblem : uint32_t {
  MCP_OutOfBounds = 1, ///< in no allocation, or running past the end of one
  MCP_Freed = 2,       ///< inside freed memory
  MCP_Misaligned = 3,  ///< not a multiple of the access size
  MCP_SharedOutOfBounds = 4, ///< outside the shared variable it is based on
};

/// Access kinds, as the pass numbers them in the reports and the sites.
enum MemCheckAccess : uint32_t {
  MCA_Load = 0,
  MCA_Store = 1,
  MCA_Atomic = 2,
};

/// One report of a refused access.
struct MemCheckReport {
  uint32_t Site;    ///< line of __hetgpu_memcheck_sites
  uint32_t Problem; ///< MemCheckProblem
  uint64_t Address;
  uint64_t Size; ///< bytes accessed
  uint32_t Block[3];
  uint32_t Thread[3];
};

static_assert(sizeof(MemCheckHeader) == 32, "memcheck header is 32 bytes");
static_assert(sizeof(MemCheckRange) == 24, "memcheck range is 24 bytes");
static_assert(sizeof(MemCheckReport) == 48, "memcheck report is 48 bytes");

} // namespace abi
} // namespace hetgpu

#endif // HETGPU_ABI_MEMCHECK_H
