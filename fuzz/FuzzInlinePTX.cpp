//===- FuzzInlinePTX.cpp - libFuzzer target: the inline-PTX parser --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Feeds text to ptx::parse (lib/Transforms/InlinePTX): it returns
/// statements or an error with a message, never crashes or hangs.
///
//===----------------------------------------------------------------------===//

#include "InlinePTX/PTXParser.h"

#include <cstdlib>

using namespace hetgpu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::vector<ptx::Stmt> Out;
  ptx::ParseError Err;
  llvm::StringRef Asm(reinterpret_cast<const char *>(Data), Size);
  if (!ptx::parse(Asm, Out, Err) && Err.Msg.empty())
    abort(); // a refusal must say why
  return 0;
}
