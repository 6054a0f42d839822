//===- FuzzCheckpoint.cpp - libFuzzer target: the checkpoint parser -------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Feeds bytes to parseCheckpoint. Every other mutation recomputes the
/// payload size and checksum, so the field checks behind the checksum are
/// reached. An accepted checkpoint must serialise back to the same bytes
/// and keep its launch shape and shared size within the bounds.
///
//===----------------------------------------------------------------------===//

#include "Migration/Checkpoint.h"

#include <cstdlib>
#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;

extern "C" size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Checkpoint C;
  Status S = parseCheckpoint(reinterpret_cast<const char *>(Data), Size, C);
  if (S) {
    if (S.Message.rfind("checkpoint refused: ", 0) != 0)
      abort();
    return 0;
  }
  uint64_t Threads = uint64_t(C.Block[0]) * C.Block[1] * C.Block[2];
  if (!Threads || Threads > 1024 || !C.Grid[0] || !C.Grid[1] || !C.Grid[2] ||
      C.DynShared > MaxCheckpointDynShared)
    abort();
  std::vector<char> Again = serializeCheckpoint(C);
  if (Again.size() != Size || std::memcmp(Again.data(), Data, Size) != 0)
    abort();
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *Data, size_t Size,
                                          size_t MaxSize, unsigned Seed) {
  size_t N = LLVMFuzzerMutate(Data, Size, MaxSize);
  if (Seed % 2 && N >= CheckpointHeaderSize) {
    uint64_t Payload = N - CheckpointHeaderSize;
    container::Hash128 H =
        container::hash128(Data + CheckpointHeaderSize, Payload);
    std::memcpy(Data + 8, &Payload, 8);
    std::memcpy(Data + 16, &H.Low, 8);
    std::memcpy(Data + 24, &H.High, 8);
  }
  return N;
}
