//===- Log.h - HETGPU_LOG diagnostics of the runtime ------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Runtime messages on stderr, filtered by HETGPU_LOG=error|warn|info|debug
/// (default: error; warnings only when asked for). Errors and warnings always name the operation and the
/// reason.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_CORE_LOG_H
#define HETGPU_RUNTIME_CORE_LOG_H

#include <string>

namespace hetgpu {
namespace rt {

enum class LogLevel { Off = 0, Error = 1, Warn = 2, Info = 3, Debug = 4 };

/// The level chosen by HETGPU_LOG (read once).
LogLevel logLevel();
inline bool logEnabled(LogLevel L) { return L <= logLevel(); }
/// Prints "hetgpu: <level>: <Message>" on stderr when \p L is enabled.
void log(LogLevel L, const std::string &Message);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_CORE_LOG_H
