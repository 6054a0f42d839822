//===- Log.cpp - HETGPU_LOG diagnostics of the runtime ---------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements the HETGPU_LOG filter and the stderr writer.
///
//===----------------------------------------------------------------------===//

#include "Core/Log.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace hetgpu {
namespace rt {

// Default: errors only. Warnings (a driver that chose another arena address,
// a corrupt cache entry rebuilt, a kernel left out) do not change what the
// program computes, and programs whose output is compared must not see them.
static LogLevel parseLevel(const char *S) {
  if (!S || !*S)
    return LogLevel::Error;
  if (!strcmp(S, "off") || !strcmp(S, "none") || !strcmp(S, "0"))
    return LogLevel::Off;
  if (!strcmp(S, "error"))
    return LogLevel::Error;
  if (!strcmp(S, "warn") || !strcmp(S, "warning"))
    return LogLevel::Warn;
  if (!strcmp(S, "info") || !strcmp(S, "1"))
    return LogLevel::Info;
  if (!strcmp(S, "debug") || !strcmp(S, "2"))
    return LogLevel::Debug;
  return LogLevel::Error;
}

LogLevel logLevel() {
  static const LogLevel Level = parseLevel(getenv("HETGPU_LOG"));
  return Level;
}

void log(LogLevel L, const std::string &Message) {
  if (!logEnabled(L))
    return;
  static std::mutex M;
  static const char *Names[] = {"", "error", "warning", "info", "debug"};
  std::lock_guard<std::mutex> Lock(M);
  fprintf(stderr, "hetgpu: %s: %s\n", Names[static_cast<int>(L)],
          Message.c_str());
  fflush(stderr);
}

} // namespace rt
} // namespace hetgpu
