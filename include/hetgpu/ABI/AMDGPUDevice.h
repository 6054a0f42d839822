//===- AMDGPUDevice.h - What AMDGPU code objects share with HIP -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The contract between code objects produced by the amdgpu target and the
/// HIP backend (runtime/lib/Backends/HIP), which includes this header: no
/// LLVM here.
///
/// Printf buffer `__hetgpu_amdgpu_printf` (a zero-initialised device
/// global, in .bss): struct { u64 Head; u32 Flags; u32 Reserved;
/// u8 Data[Capacity]; }. A record starts 8-byte aligned at the offset an
/// atomic add on Head returned; one that does not fit is dropped (Head
/// still grows, so the host sees the overflow). Record header, all u32:
///   Size, Kind (1 printf, 2 assert), FmtOffset, FmtLen (with NUL),
///   ArgsOffset, ArgsLen, NumStrings, StringsOffset
/// then the format bytes, the vprintf argument buffer (CUDA's layout),
/// NumStrings pairs {u32 ArgOffset, u32 DataOffset} (ArgOffset in the
/// argument buffer, DataOffset from the record start, 0 for a null
/// string) and the NUL-terminated strings. Flags: bit 0 a device assert
/// failed, bit 1 __trap() ran.
///
/// Heap `__hetgpu_amdgpu_heap`: struct { u64 Next; u64 Reserved;
/// u8 Data[HeapSize]; }, a bump allocator (free does nothing).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_ABI_AMDGPUDEVICE_H
#define HETGPU_ABI_AMDGPUDEVICE_H

#include <cstdint>

namespace hetgpu {
namespace amdgpu_abi {
inline constexpr char PrintfBufferName[] = "__hetgpu_amdgpu_printf";
inline constexpr char HeapName[] = "__hetgpu_amdgpu_heap";
inline constexpr char DynamicSharedName[] = "__hetgpu_amdgpu_dynamic_shared";
} // namespace amdgpu_abi

namespace amdgpu_printf {
inline constexpr unsigned HeaderSize = 32;
inline constexpr unsigned DataOffset = 16; ///< of Data in the buffer
inline constexpr unsigned Capacity = 1u << 20;
inline constexpr unsigned KindPrintf = 1;
inline constexpr unsigned KindAssert = 2;
inline constexpr unsigned FlagAssert = 1;
inline constexpr unsigned FlagTrap = 2;
} // namespace amdgpu_printf

inline constexpr uint64_t AMDGPUHeapSize = 8u << 20;
} // namespace hetgpu

#endif // HETGPU_ABI_AMDGPUDEVICE_H
