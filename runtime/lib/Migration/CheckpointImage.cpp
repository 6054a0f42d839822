//===- CheckpointImage.cpp - The byte image of a checkpoint ---------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The checkpoint image: a 32-byte header (magic, version, payload size,
/// XXH3-128 checksum) and the payload (kernel, device, launch shape, packed
/// arguments, state buffer, allocations), and the checks of its fields
/// against each other. It needs no runtime state, so the fuzz target
/// (fuzz/) links it alone.
///
//===----------------------------------------------------------------------===//

#include "Migration/Checkpoint.h"
#include "hetgpu/IR/Container.h"

#include <cstdio>
#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;

namespace {

//===--- Checkpoint byte stream -------------------------------------------===//

class Writer {
public:
  std::vector<char> B;
  void u32(uint32_t V) { raw(&V, 4); }
  void u64(uint64_t V) { raw(&V, 8); }
  void raw(const void *P, size_t N) {
    const char *C = static_cast<const char *>(P);
    B.insert(B.end(), C, C + N);
  }
  void bytes(const std::vector<char> &V) {
    u64(V.size());
    raw(V.data(), V.size());
  }
  void str(const std::string &S) {
    u64(S.size());
    raw(S.data(), S.size());
  }
};

class Reader {
public:
  Reader(const char *P, size_t N) : P(P), N(N) {}
  bool Ok = true;
  uint32_t u32() {
    uint32_t V = 0;
    raw(&V, 4);
    return V;
  }
  uint64_t u64() {
    uint64_t V = 0;
    raw(&V, 8);
    return V;
  }
  void raw(void *D, size_t K) {
    if (!Ok || K > N - Off) {
      Ok = false;
      return;
    }
    memcpy(D, P + Off, K);
    Off += K;
  }
  void bytes(std::vector<char> &V) {
    uint64_t K = u64();
    if (!Ok || K > N - Off) {
      Ok = false;
      return;
    }
    V.assign(P + Off, P + Off + K);
    Off += K;
  }
  void str(std::string &S) {
    std::vector<char> V;
    bytes(V);
    S.assign(V.begin(), V.end());
  }
  bool atEnd() const { return Off == N; }

private:
  const char *P;
  size_t N;
  size_t Off = 0;
};

std::string hex(uint64_t V) {
  char Buf[24];
  snprintf(Buf, sizeof(Buf), "0x%llx", static_cast<unsigned long long>(V));
  return Buf;
}

/// What is wrong with the fields of \p C, or an empty string.
std::string checkFields(const Checkpoint &C) {
  static const char *const Axis[3] = {"x", "y", "z"};
  static const uint32_t MaxGrid[3] = {0x7fffffffu, 65535, 65535};
  static const uint32_t MaxBlock[3] = {1024, 1024, 64};
  for (int I = 0; I < 3; ++I) {
    if (!C.Grid[I] || C.Grid[I] > MaxGrid[I])
      return "grid " + std::string(Axis[I]) + " = " +
             std::to_string(C.Grid[I]) + " is outside [1, " +
             std::to_string(MaxGrid[I]) + "]";
    if (!C.Block[I] || C.Block[I] > MaxBlock[I])
      return "block " + std::string(Axis[I]) + " = " +
             std::to_string(C.Block[I]) + " is outside [1, " +
             std::to_string(MaxBlock[I]) + "]";
  }
  if (uint64_t(C.Block[0]) * C.Block[1] * C.Block[2] > 1024)
    return "a block of more than 1024 threads";
  if (C.DynShared > MaxCheckpointDynShared)
    return "dynamic shared size " + std::to_string(C.DynShared) + " exceeds " +
           std::to_string(MaxCheckpointDynShared) + " bytes";
  if (C.Kernel.empty() && (!C.Args.empty() || !C.State.empty()))
    return "arguments or a state buffer without a kernel";
  // Allocations: in address order, disjoint, not wrapping.
  uint64_t End = 0;
  for (const CheckpointAlloc &A : C.Allocs) {
    if (!A.Base || A.Bytes.size() > ~A.Base)
      return "allocation at " + hex(A.Base) + " of " +
             std::to_string(A.Bytes.size()) + " bytes is impossible";
    if (A.Base < End)
      return "allocation at " + hex(A.Base) +
             " overlaps or precedes the previous one";
    End = A.Base + A.Bytes.size();
  }
  return std::string();
}

} // namespace

std::vector<char> hetgpu::rt::serializeCheckpoint(const Checkpoint &C) {
  // One buffer: the header's size and checksum are filled in at the end.
  Writer P;
  size_t Total = C.State.size() + C.Args.size() + C.Kernel.size() + 160;
  for (const CheckpointAlloc &A : C.Allocs)
    Total += A.Bytes.size() + 16;
  P.B.reserve(Total);
  P.u32(CheckpointMagic);
  P.u32(CheckpointVersion);
  P.u64(0); // payload size
  P.u64(0); // checksum, low
  P.u64(0); // checksum, high
  P.str(C.Kernel);
  P.u32(C.CudaDevice);
  P.str(C.TakenOn);
  for (uint32_t V : C.Grid)
    P.u32(V);
  for (uint32_t V : C.Block)
    P.u32(V);
  P.u64(C.DynShared);
  P.bytes(C.Args);
  P.bytes(C.State);
  P.u64(C.Allocs.size());
  for (const CheckpointAlloc &A : C.Allocs) {
    P.u64(A.Base);
    P.bytes(A.Bytes);
  }
  uint64_t Size = P.B.size() - CheckpointHeaderSize;
  container::Hash128 Sum =
      container::hash128(P.B.data() + CheckpointHeaderSize, Size);
  memcpy(P.B.data() + 8, &Size, 8);
  memcpy(P.B.data() + 16, &Sum.Low, 8);
  memcpy(P.B.data() + 24, &Sum.High, 8);
  return std::move(P.B);
}

Status hetgpu::rt::parseCheckpoint(const std::vector<char> &Bytes,
                                   Checkpoint &Out) {
  return parseCheckpoint(Bytes.data(), Bytes.size(), Out);
}

Status hetgpu::rt::parseCheckpoint(const char *Data, size_t Bytes,
                                   Checkpoint &Out) {
  auto Bad = [](const std::string &Why) {
    return Status(ErrorCode::InvalidValue, "checkpoint refused: " + Why);
  };
  Reader H(Data, Bytes);
  uint32_t Magic = H.u32(), Version = H.u32();
  if (!H.Ok)
    return Bad("truncated header (" + std::to_string(Bytes) + " bytes)");
  if (Magic != CheckpointMagic)
    return Bad("not a hetGPU checkpoint (bad magic)");
  if (Version != CheckpointVersion)
    return Bad("format version " + std::to_string(Version) +
               ", this runtime reads version " +
               std::to_string(CheckpointVersion) +
               (Version < CheckpointVersion
                    ? " (older checkpoints had a weak checksum: take it again)"
                    : ""));
  uint64_t Size = H.u64();
  container::Hash128 Sum;
  Sum.Low = H.u64();
  Sum.High = H.u64();
  if (!H.Ok)
    return Bad("truncated header (" + std::to_string(Bytes) + " bytes)");
  if (Bytes - CheckpointHeaderSize != Size)
    return Bad("payload is " + std::to_string(Bytes - CheckpointHeaderSize) +
               " bytes, the header says " + std::to_string(Size) +
               " (truncated file?)");
  const char *P = Data + CheckpointHeaderSize;
  if (container::hash128(P, Size) != Sum)
    return Bad("checksum mismatch (corrupted file)");
  Reader R(P, Size);
  Checkpoint C;
  R.str(C.Kernel);
  C.CudaDevice = R.u32();
  R.str(C.TakenOn);
  for (uint32_t &V : C.Grid)
    V = R.u32();
  for (uint32_t &V : C.Block)
    V = R.u32();
  C.DynShared = R.u64();
  R.bytes(C.Args);
  R.bytes(C.State);
  uint64_t N = R.u64();
  // Each allocation takes at least 16 bytes: a count beyond that is a lie.
  if (R.Ok && N > Size / 16)
    return Bad("allocation count " + std::to_string(N) + " is impossible");
  for (uint64_t I = 0; R.Ok && I < N; ++I) {
    CheckpointAlloc A;
    A.Base = R.u64();
    R.bytes(A.Bytes);
    C.Allocs.push_back(std::move(A));
  }
  if (!R.Ok || !R.atEnd())
    return Bad("malformed payload");
  if (std::string Why = checkFields(C); !Why.empty())
    return Bad(Why);
  Out = std::move(C);
  return Status::ok();
}
