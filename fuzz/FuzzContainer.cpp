//===- FuzzContainer.cpp - libFuzzer target: the container reader ---------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Feeds bytes to container::read. The custom mutator takes three turns:
/// raw bytes (the checksums catch them), raw bytes with both container
/// checksums recomputed (ContainerMutator.h), and a mutation of one decoded
/// field written back by container::write (every checksum valid), so the
/// structural checks behind the checksums are reached. A container that is
/// read must be consistent (validateKernel) and write back to itself (unless
/// an image was damaged: its bytes are dropped, by name).
///
//===----------------------------------------------------------------------===//

#include "ContainerMutator.h"

#include <cstdlib>
#include <cstring>

using namespace hetgpu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  container::Container C;
  std::string Err;
  if (!container::read(Data, Size, C, Err)) {
    if (Err.rfind("container: ", 0) != 0)
      abort(); // every refusal names the container
    return 0;
  }
  for (const container::ModuleInfo &M : C.Modules)
    for (const container::KernelInfo &K : M.Kernels)
      if (!container::validateKernel(K).empty())
        abort(); // accepted a kernel that contradicts itself
  // What was read is what was written: nothing was guessed or dropped,
  // except the bytes of a damaged image (read keeps the module and drops
  // them, naming the image).
  for (const container::ModuleInfo &M : C.Modules)
    for (const container::AOTImage &Img : M.Images)
      if (!Img.Damage.empty()) {
        if (!Img.Bytes.empty() ||
            Img.Damage.rfind("hash mismatch in image ", 0) != 0)
          abort(); // a damaged image keeps no bytes and says which it is
        return 0;
      }
  // (A container may be followed by others: compare its own bytes.)
  std::string Again = container::write(C);
  uint64_t Total = container::peekTotalSize(Data);
  if (Again.size() != Total || std::memcmp(Again.data(), Data, Total) != 0)
    abort();
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *Data, size_t Size,
                                          size_t MaxSize, unsigned Seed) {
  return fuzz::mutateContainer(Data, Size, MaxSize, Seed, Seed % 3,
                               /*KeepIR=*/false);
}
