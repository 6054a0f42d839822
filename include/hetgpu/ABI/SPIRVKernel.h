//===- SPIRVKernel.h - Kernel ABI of hetGPU's SPIR-V modules -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The contract between the SPIR-V lowering target (lib/Targets/SPIRV) and
/// the runtime backends that load its modules (runtime/lib/Backends/OpenCL,
/// runtime/lib/Backends/LevelZero). Plain C++, no LLVM: the runtime includes
/// it too.
///
/// Every kernel K of the hetIR module becomes an OpenCL kernel named K with
/// the hetIR parameters (pointers as `global` pointers, aggregates by value)
/// followed by two hidden parameters:
///
///   * `local char *dyn`   - dynamic shared memory; set with
///                           clSetKernelArg(k, n, max(bytes, 1), NULL);
///   * `global char *mod`  - the module's *globals block*.
///
/// A *warp-loop* kernel (module table mode 2; only with the lowering's
/// "+warp-loop" features, which the OpenCL backend asks for on devices
/// without 32-wide sub-groups) runs one CUDA warp per work-item, for exact
/// warp semantics: it takes five more parameters between the hetIR ones
/// and the hidden ones, the block size (`uint` x, y, z), then `global char
/// *scratch` and `uint slots`; it is launched with a local size of
/// (ceil(x*y*z / 32), 1, 1) and a global size of (grid.x * that, grid.y,
/// grid.z). Its warps' thread states and frames take ceil(x*y*z / 32) times
/// the per-warp bytes of the table (the group record). With `slots` 0 they
/// are at the start of the `dyn` buffer, which then holds the kernel's
/// static shared variables (the table gives their size, a multiple of 16)
/// and the dynamic shared memory. With `slots` > 0 (records too large for
/// the device's local memory) `dyn` holds only the shared memory and
/// `scratch` (device memory) holds `slots` u32 flags, zero when the launch
/// starts, padded to a multiple of 64 bytes, then `slots` group records: a
/// work-group takes a free slot (flag 0 -> 1) when it starts and frees it
/// when it ends, so `slots` bounds the work-groups that run at once.
///
/// OpenCL has no portable way for the host to find or write program-scope
/// variables (and PoCL keeps one copy of them per kernel), so every
/// `__device__` / `__constant__` variable lives in a per-module globals block
/// that the runtime allocates (SVM / device memory). The block starts with a
/// header (status word for device-side assert/trap), then the variables.
///
/// Two helper kernels come with every module:
///
///   * `InfoKernel(global char *out, ulong cap)` writes the module table:
///     a u64 byte count followed by that many bytes (truncated to cap - 8) of
///     text, one record per line:
///       `hetgpu-spirv <abi version>`
///       `block <size> <align>`
///       `global <name> <offset> <size>`
///       `kernel <name> <mode>`: 0 plain, 1 warp operations emulated
///        with work-group barriers; `kernel <name> 2 <static shared bytes>
///        <state bytes per warp>`: a warp-loop kernel (below)
///       `stderr <id>` (printf format <id> is an assert message: stderr)
///       `heap 1` (some kernel calls malloc)
///       `unsupported <kernel> <reason as hex bytes>` (left out)
///       `printf <id> <args bytes> <string count> <string arg offsets...>
///        <format as hex bytes>`
///   * `InitKernel(global char *mod)` stores the initial values of the
///     variables into a zero-filled block; run it once per module load
///     with one work-item.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_ABI_SPIRVKERNEL_H
#define HETGPU_ABI_SPIRVKERNEL_H

#include <cstdint>
#include <string>

namespace hetgpu {
namespace spirv_abi {

constexpr unsigned ABIVersion = 2;
constexpr const char *InfoKernel = "__hetgpu_spirv_info";
constexpr const char *InitKernel = "__hetgpu_spirv_init";
/// Number of hidden trailing kernel parameters.
constexpr unsigned NumHiddenParams = 2;
/// Parameters of a warp-loop kernel before the hidden ones: block size x,
/// y, z, scratch, slots.
constexpr unsigned NumWarpLoopParams = 5;
/// Kernel names longer than this are shortened in the SPIR-V module (C++
/// templates give mangled names of 300 characters and more; PoCL names a
/// cache file after the kernel, and names over 255 bytes fail there).
constexpr size_t MaxEntryPointName = 128;

/// The SPIR-V entry point of kernel \p Name: the name itself, or for a
/// long one its first 64 characters, "_h" and a 64-bit FNV-1a hash of the
/// whole name in hex. The lowering names entry points so; the runtimes
/// find kernels so.
inline std::string entryPointName(const std::string &Name) {
  if (Name.size() <= MaxEntryPointName)
    return Name;
  uint64_t H = 14695981039346656037ull;
  for (unsigned char C : Name) {
    H ^= C;
    H *= 1099511628211ull;
  }
  std::string Out = Name.substr(0, 64) + "_h";
  for (int Shift = 60; Shift >= 0; Shift -= 4)
    Out += "0123456789abcdef"[(H >> Shift) & 15];
  return Out;
}

/// Bytes of the flag words at the start of a scratch area of \p Slots.
constexpr uint64_t scratchFlagBytes(uint64_t Slots) {
  return (Slots * 4 + 63) & ~uint64_t(63);
}

/// Header of the globals block.
constexpr uint64_t StatusOffset = 0; ///< u32: 0 ok, else a Status code
/// u32 target of device/system fences lowered as atomics (+fence-as-atomic).
constexpr uint64_t FenceWordOffset = 4;
/// u64: device address of the module's printf buffer, 0 = printf discarded.
/// The runtime stores it before the first launch.
constexpr uint64_t PrintfBufferOffset = 8;
/// u64: clock()/clock64() counter (OpenCL has no device clock: every read
/// atomically advances it, so it is monotonic but counts reads, not cycles;
/// the runtime starts it at the host's steady clock in nanoseconds, the CPU
/// device's clock64(), so a kernel migrated here keeps a clock that goes on).
constexpr uint64_t ClockOffset = 16;
/// Device malloc: u64 heap base address, u64 heap size, u64 bump offset.
/// malloc() bumps the offset atomically (16-byte aligned) and returns null
/// when the heap is exhausted; free() does not reclaim. Base 0 = no heap.
constexpr uint64_t HeapBaseOffset = 24;
constexpr uint64_t HeapSizeOffset = 32;
constexpr uint64_t HeapNextOffset = 40;
constexpr uint64_t HeaderSize = 48; ///< first variable starts here (or later)

/// The printf buffer: a u64 write offset (bumped atomically by the device),
/// a u64 capacity of the record area, then the records. A record is a u32
/// format id, a u32 record size (a multiple of 8), the vprintf argument
/// buffer (CUDA layout), then one StringSlot-byte copy (NUL-terminated,
/// truncated) per %s argument, in argument order. Records that do not fit
/// are dropped. The host formats and prints them at synchronisation.
constexpr uint64_t PrintfHeaderSize = 16;
constexpr uint64_t PrintfRecordHeader = 8;
constexpr uint64_t StringSlot = 256;

/// Values of the status word (the first device-side failure wins).
enum Status : uint32_t {
  StatusOk = 0,
  StatusAssert = 1, ///< assert() failed
  StatusTrap = 2,   ///< __trap()
};

} // namespace spirv_abi
} // namespace hetgpu

#endif // HETGPU_ABI_SPIRVKERNEL_H
