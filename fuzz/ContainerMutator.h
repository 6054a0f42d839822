//===- ContainerMutator.h - Mutations of hetGPU containers ------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The custom mutator of the container and module-table fuzz targets: by
/// turns a raw mutation, a raw mutation with the header and payload
/// checksums recomputed, and a structured one (one field of the decoded
/// container set to an edge value, written back with fresh checksums).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_FUZZ_CONTAINERMUTATOR_H
#define HETGPU_FUZZ_CONTAINERMUTATOR_H

#include "hetgpu/IR/Container.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>

extern "C" size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

namespace hetgpu {
namespace fuzz {

/// Recomputes the total size and both header checksums of a container.
inline void resealContainer(uint8_t *Data, size_t Size) {
  if (Size < container::HeaderSize ||
      std::memcmp(Data, container::Magic, 8) != 0)
    return;
  uint64_t Total = Size;
  std::memcpy(Data + 16, &Total, 8);
  container::Hash128 P = container::hash128(Data + container::HeaderSize,
                                            Size - container::HeaderSize);
  std::memcpy(Data + 32, &P.Low, 8);
  std::memcpy(Data + 40, &P.High, 8);
  container::Hash128 H = container::hash128(Data, 48);
  std::memcpy(Data + 48, &H.Low, 8);
  std::memcpy(Data + 56, &H.High, 8);
}

/// A value that is likely to hit a bound.
inline uint64_t edgeValue(std::mt19937_64 &R, uint64_t Old) {
  static const uint64_t Edges[] = {
      0,     1,     2,      3,          7,          8,
      15,    16,    1023,   1024,       1025,       4096,
      32764, 32768, 0xffff, 0x7fffffff, 0xffffffff, 0xffffffffffffffffull};
  switch (R() % 4) {
  case 0:
    return Old + 1;
  case 1:
    return Old - 1;
  case 2:
    return R();
  default:
    return Edges[R() % (sizeof(Edges) / sizeof(Edges[0]))];
  }
}

/// Sets one field of \p C (chosen by \p R) to an edge value; \p KeepIR
/// leaves the bitcode alone, else the bitcode may be mutated too.
inline void mutateField(container::Container &C, std::mt19937_64 &R,
                        bool KeepIR) {
  if (C.Modules.empty())
    return;
  container::ModuleInfo &M = C.Modules[R() % C.Modules.size()];
  if (!KeepIR && R() % 4 == 0 && !M.IR.empty()) {
    size_t N = M.IR.size();
    M.IR.resize(N * 2 + 64);
    N = LLVMFuzzerMutate(reinterpret_cast<uint8_t *>(&M.IR[0]), N, M.IR.size());
    M.IR.resize(N);
    return;
  }
  if (M.Kernels.empty() || R() % 8 == 0) {
    if (!M.Globals.empty()) {
      container::GlobalInfo &G = M.Globals[R() % M.Globals.size()];
      if (R() % 2)
        G.Size = edgeValue(R, G.Size);
      else
        G.AddrSpace = uint32_t(edgeValue(R, G.AddrSpace));
    }
    return;
  }
  container::KernelInfo &K = M.Kernels[R() % M.Kernels.size()];
  auto U32 = [&R](uint32_t &F) { F = uint32_t(edgeValue(R, F)); };
  unsigned Pick = R() % 8;
  if (Pick < 4 && !K.Params.empty()) {
    container::ParamInfo &P = K.Params[R() % K.Params.size()];
    switch (Pick) {
    case 0:
      U32(P.Size);
      return;
    case 1:
      U32(P.Align);
      return;
    case 2:
      U32(P.Offset);
      return;
    default:
      P.Kind = static_cast<container::ParamKind>(R() % 3);
      return;
    }
  }
  switch (Pick) {
  case 4:
    U32(K.ParamBufferSize);
    return;
  case 5:
    K.StaticShared = edgeValue(R, K.StaticShared);
    return;
  case 6:
    U32(K.MaxThreads);
    return;
  default:
    if (!K.SafePoints.empty())
      U32(K.SafePoints[R() % K.SafePoints.size()].RecordSize);
    else
      U32(K.StateRecordSize);
    return;
  }
}

/// \p Turn: 0 raw, 1 raw then resealed, 2 structured.
inline size_t mutateContainer(uint8_t *Data, size_t Size, size_t MaxSize,
                              unsigned Seed, unsigned Turn, bool KeepIR) {
  std::mt19937_64 R(Seed);
  if (Turn == 2) {
    container::Container C;
    std::string Err;
    if (container::read(Data, Size, C, Err)) {
      mutateField(C, R, KeepIR);
      std::string Out = container::write(C);
      if (Out.size() <= MaxSize) {
        std::memcpy(Data, Out.data(), Out.size());
        return Out.size();
      }
    }
    Turn = 1; // not a container yet: mutate its bytes
  }
  size_t N = LLVMFuzzerMutate(Data, Size, MaxSize);
  if (Turn == 1)
    resealContainer(Data, N);
  return N;
}

} // namespace fuzz
} // namespace hetgpu

#endif // HETGPU_FUZZ_CONTAINERMUTATOR_H
