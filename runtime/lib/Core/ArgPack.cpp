//===- ArgPack.cpp - Copies of kernel arguments for async launches --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Packs kernel arguments at the container's parameter offsets.
///
//===----------------------------------------------------------------------===//

#include "Core/ArgPack.h"

#include <algorithm>
#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;

ArgPack::ArgPack(const container::KernelInfo &K, void *const *Args) {
  // The buffer is as large as the recorded size and as the furthest
  // parameter end, whichever is larger (robust to an inconsistent table).
  size_t End = K.ParamBufferSize;
  for (const container::ParamInfo &P : K.Params)
    End = std::max<size_t>(End, size_t(P.Offset) + P.Size);
  Size = End;
  // 16-byte aligned storage: no parameter needs more.
  Buffer.reset(new char[End + 16]);
  Base = Buffer.get();
  size_t Misalign = reinterpret_cast<uintptr_t>(Base) % 16;
  if (Misalign)
    Base += 16 - Misalign;
  Pointers.resize(std::max<size_t>(K.Params.size(), 1), nullptr);
  for (size_t I = 0; I < K.Params.size(); ++I) {
    const container::ParamInfo &P = K.Params[I];
    char *Dst = Base + P.Offset;
    if (P.Size && Args && Args[I])
      memcpy(Dst, Args[I], P.Size);
    Pointers[I] = Dst;
  }
}
