//===- Checkpoint.cpp - The checkpoint format of live migration -----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Checkpoint files; capturing and checking a device's allocations
/// (Migration/Checkpoint.h). The image itself: CheckpointImage.cpp.
///
//===----------------------------------------------------------------------===//

#include "Migration/Checkpoint.h"
#include "Core/Runtime.h"
#include "Migration/Migration.h"

#include <cstring>
#include <fstream>
#include <map>

using namespace hetgpu;
using namespace hetgpu::rt;

Status hetgpu::rt::writeCheckpointFile(const std::string &Path,
                                       const std::vector<char> &Bytes) {
  std::ofstream OS(Path, std::ios::binary | std::ios::trunc);
  OS.write(Bytes.data(), Bytes.size());
  OS.close();
  if (!OS)
    return Status(ErrorCode::InvalidValue, "cannot write checkpoint " + Path);
  return Status::ok();
}

Status hetgpu::rt::readCheckpointFile(const std::string &Path,
                                      std::vector<char> &Bytes) {
  std::ifstream IS(Path, std::ios::binary | std::ios::ate);
  if (!IS)
    return Status(ErrorCode::InvalidValue, "cannot open checkpoint " + Path);
  Bytes.resize(size_t(IS.tellg()));
  IS.seekg(0);
  IS.read(Bytes.data(), Bytes.size());
  return Status::ok();
}

Status hetgpu::rt::captureAllocations(DeviceContext &Ctx, Queue &Q,
                                      Checkpoint &C) {
  for (const Allocation &A : contextAllocations(Ctx.Index)) {
    CheckpointAlloc CA;
    CA.Base = A.Base;
    CA.Bytes.resize(A.Size);
    if (Status S = copyOut(Q, CA.Bytes.data(),
                           reinterpret_cast<void *>(A.Base), A.Size))
      return S;
    C.Allocs.push_back(std::move(CA));
  }
  return Status::ok();
}

Status hetgpu::rt::checkAllocationsMatch(const Checkpoint &C, int Index) {
  std::map<uintptr_t, size_t> Live;
  for (const Allocation &A : contextAllocations(Index))
    Live[A.Base] = A.Size;
  for (const CheckpointAlloc &CA : C.Allocs) {
    auto It = Live.find(CA.Base);
    if (It == Live.end() || It->second != CA.Bytes.size())
      return Status(ErrorCode::InvalidValue,
                    "checkpoint refused: its allocation at " +
                        hexAddr(CA.Base) + " (" +
                        std::to_string(CA.Bytes.size()) +
                        " bytes) is not a live allocation of that size on "
                        "device " +
                        std::to_string(Index));
  }
  return Status::ok();
}
