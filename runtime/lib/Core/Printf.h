//===- Printf.h - CUDA device printf formatting -----------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Formats a device printf call from its vprintf argument buffer, as CUDA
/// does: each argument at its natural alignment from the buffer start,
/// integers without a length modifier (and %c, `*` width/precision) as
/// 4 bytes, `l`/`ll`/`j`/`z`/`t` integers as 8 bytes, every floating
/// argument as an 8-byte double, %s/%p as 8-byte pointers. Used by backends
/// whose device code runs in the host process (CPU, simulators).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_CORE_PRINTF_H
#define HETGPU_RUNTIME_CORE_PRINTF_H

#include <string>

namespace hetgpu {
namespace rt {

/// Returns the text printf(\p Format, ...) prints with the arguments in the
/// vprintf buffer \p Args (may be null when the format takes none).
/// %n is ignored; a null %s prints "(null)".
std::string formatDevicePrintf(const char *Format, const void *Args);

/// Formats and writes the text to stdout atomically and flushes it, so the
/// output of concurrent blocks never interleaves within a call. Returns the
/// number of characters written (the printf result), or -1 when Format is
/// null.
int devicePrintf(const char *Format, const void *Args);

/// devicePrintf, or, when \p ToStderr (assert messages), the same text on
/// stderr after stdout is flushed.
void emitDevicePrintf(const char *Format, const void *Args, bool ToStderr);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_CORE_PRINTF_H
