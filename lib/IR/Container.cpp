//===- Container.cpp - Read and write hetGPU fat-binary containers -------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Byte format (little endian; docs/Container.md):
///
///   header (48 bytes)
///     magic[8] "HETGPUFB", u16 major, u16 minor, u32 header size,
///     u64 total size, u32 module count, u32 flags,
///     u64 FNV-1a of bytes [48, total), u64 FNV-1a of header bytes [0, 40)
///   modules, each:
///     u32 kind, u32 ir major, u32 ir minor, u32 kernel count,
///     u32 global count, kernels..., globals..., blob(IR), u64 IR hash
///   strings and blobs are u32 length + bytes.
///
/// The reader checks every length against the bytes that remain, so a
/// truncated or corrupted container is reported, never over-read.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/IR/Container.h"

#include <cstring>

namespace hetgpu {
namespace container {

static const char *const FeatureNames[NumFeatures] = {
    "barrier",       "warp",   "atomic.global", "atomic.shared", "atomic.float",
    "printf",        "assert", "malloc",        "dynamic-shared", "double",
    "math",          "clock",  "fence",         "grid"};

const char *featureName(unsigned Bit) {
  return Bit < NumFeatures ? FeatureNames[Bit] : "unknown";
}

const char *paramKindName(ParamKind K) {
  switch (K) {
  case ParamKind::Value:
    return "value";
  case ParamKind::Pointer:
    return "ptr";
  case ParamKind::ByVal:
    return "byval";
  }
  return "unknown";
}

const char *slotKindName(SlotKind K) {
  switch (K) {
  case SlotKind::Value:
    return "value";
  case SlotKind::PrivatePtr:
    return "private-ptr";
  case SlotKind::SharedPtr:
    return "shared-ptr";
  case SlotKind::Memory:
    return "memory";
  }
  return "unknown";
}

const char *safePointKindName(SafePointKind K) {
  switch (K) {
  case SafePointKind::Entry:
    return "entry";
  case SafePointKind::Barrier:
    return "barrier";
  case SafePointKind::LoopLatch:
    return "loop-latch";
  }
  return "unknown";
}

uint64_t fnv1a64(const void *Data, size_t Size, uint64_t Seed) {
  const unsigned char *P = static_cast<const unsigned char *>(Data);
  uint64_t H = Seed;
  for (size_t I = 0; I < Size; ++I) {
    H ^= P[I];
    H *= 0x100000001b3ull;
  }
  return H;
}

const KernelInfo *ModuleInfo::findKernel(const std::string &N) const {
  for (const KernelInfo &K : Kernels)
    if (K.Name == N)
      return &K;
  return nullptr;
}

namespace {

class Writer {
public:
  std::string Out;
  void u16(uint16_t V) { raw(&V, 2); }
  void u32(uint32_t V) { raw(&V, 4); }
  void u64(uint64_t V) { raw(&V, 8); }
  void raw(const void *P, size_t N) {
    Out.append(static_cast<const char *>(P), N);
  }
  void str(const std::string &S) {
    u32(static_cast<uint32_t>(S.size()));
    Out.append(S);
  }
  void patch64(size_t At, uint64_t V) { std::memcpy(&Out[At], &V, 8); }
};

class Reader {
public:
  Reader(const unsigned char *Data, size_t Size) : Data(Data), Size(Size) {}

  bool failed() const { return !Err.empty(); }
  size_t offset() const { return Pos; }
  std::string Err;

  bool need(size_t N, const char *What) {
    if (failed())
      return false;
    if (N > Size - Pos) {
      Err = std::string("container: ") + What + " at offset " +
            std::to_string(Pos) + ": needs " + std::to_string(N) +
            " bytes but only " + std::to_string(Size - Pos) +
            " remain (truncated or corrupted)";
      return false;
    }
    return true;
  }
  template <typename T> T get(const char *What) {
    T V{};
    if (need(sizeof(T), What)) {
      std::memcpy(&V, Data + Pos, sizeof(T));
      Pos += sizeof(T);
    }
    return V;
  }
  std::string str(const char *What) {
    uint32_t N = get<uint32_t>(What);
    if (!need(N, What))
      return std::string();
    std::string S(reinterpret_cast<const char *>(Data + Pos), N);
    Pos += N;
    return S;
  }
  /// A count of records of at least \p MinRecord bytes each; rejects
  /// counts that could not fit in the rest of the data.
  uint32_t count(const char *What, size_t MinRecord) {
    uint32_t N = get<uint32_t>(What);
    if (!failed() && MinRecord && N > (Size - Pos) / MinRecord)
      fail(What, "count " + std::to_string(N) + " exceeds the data left");
    return failed() ? 0 : N;
  }
  void fail(const char *What, const std::string &Why) {
    if (!failed())
      Err = std::string("container: ") + What + " at offset " +
            std::to_string(Pos) + ": " + Why;
  }

private:
  const unsigned char *Data;
  size_t Size;
  size_t Pos = 0;
};

void writeKernel(Writer &W, const KernelInfo &K) {
  W.str(K.Name);
  W.str(K.Demangled);
  W.u32(static_cast<uint32_t>(K.Params.size()));
  for (const ParamInfo &P : K.Params) {
    W.u32(static_cast<uint32_t>(P.Kind));
    W.u32(P.Size);
    W.u32(P.Align);
    W.u32(P.Offset);
  }
  W.u32(K.ParamBufferSize);
  W.u64(K.StaticShared);
  W.u32(K.Features);
  W.u32(K.MaxThreads);
  W.u32(K.MinBlocks);
  W.u32(K.StateRecordSize);
  W.u32(static_cast<uint32_t>(K.SafePoints.size()));
  for (const SafePointInfo &SP : K.SafePoints) {
    W.u32(SP.Id);
    W.u32(static_cast<uint32_t>(SP.Kind));
    W.u32(SP.RecordSize);
    W.u32(static_cast<uint32_t>(SP.Slots.size()));
    for (const SlotInfo &S : SP.Slots) {
      W.u32(static_cast<uint32_t>(S.Kind));
      W.u32(S.Offset);
      W.u32(S.Size);
      W.u32(S.Align);
      W.str(S.Type);
    }
  }
}

bool isPow2(uint32_t V) { return V && !(V & (V - 1)); }

bool readKernel(Reader &R, KernelInfo &K) {
  K.Name = R.str("kernel name");
  if (!R.failed() && K.Name.empty())
    R.fail("kernel name", "empty");
  K.Demangled = R.str("kernel demangled name");
  uint32_t NP = R.count("parameter count", 16);
  for (uint32_t I = 0; I < NP && !R.failed(); ++I) {
    ParamInfo P;
    uint32_t Kind = R.get<uint32_t>("parameter kind");
    if (Kind > static_cast<uint32_t>(ParamKind::ByVal))
      R.fail("parameter kind", "unknown kind " + std::to_string(Kind) +
                                   " of parameter " + std::to_string(I) +
                                   " of " + K.Name);
    P.Kind = static_cast<ParamKind>(Kind);
    P.Size = R.get<uint32_t>("parameter size");
    P.Align = R.get<uint32_t>("parameter alignment");
    P.Offset = R.get<uint32_t>("parameter offset");
    if (!R.failed() && (!isPow2(P.Align) || P.Size > (1u << 20)))
      R.fail("parameter", "implausible size/alignment of parameter " +
                              std::to_string(I) + " of " + K.Name);
    K.Params.push_back(P);
  }
  K.ParamBufferSize = R.get<uint32_t>("parameter buffer size");
  K.StaticShared = R.get<uint64_t>("static shared size");
  K.Features = R.get<uint32_t>("features");
  K.MaxThreads = R.get<uint32_t>("max threads");
  K.MinBlocks = R.get<uint32_t>("min blocks");
  K.StateRecordSize = R.get<uint32_t>("state record size");
  uint32_t NS = R.count("safe point count", 16);
  for (uint32_t I = 0; I < NS && !R.failed(); ++I) {
    SafePointInfo SP;
    SP.Id = R.get<uint32_t>("safe point id");
    uint32_t Kind = R.get<uint32_t>("safe point kind");
    if (Kind > static_cast<uint32_t>(SafePointKind::LoopLatch))
      R.fail("safe point kind", "unknown kind " + std::to_string(Kind));
    SP.Kind = static_cast<SafePointKind>(Kind);
    SP.RecordSize = R.get<uint32_t>("safe point record size");
    uint32_t NSl = R.count("slot count", 20);
    for (uint32_t J = 0; J < NSl && !R.failed(); ++J) {
      SlotInfo S;
      uint32_t SK = R.get<uint32_t>("slot kind");
      if (SK > static_cast<uint32_t>(SlotKind::Memory))
        R.fail("slot kind", "unknown kind " + std::to_string(SK));
      S.Kind = static_cast<SlotKind>(SK);
      S.Offset = R.get<uint32_t>("slot offset");
      S.Size = R.get<uint32_t>("slot size");
      S.Align = R.get<uint32_t>("slot alignment");
      S.Type = R.str("slot type");
      if (!R.failed() && (uint64_t)S.Offset + S.Size > SP.RecordSize)
        R.fail("slot", "slot " + std::to_string(J) + " of safe point " +
                           std::to_string(SP.Id) + " of " + K.Name +
                           " lies outside its record");
      SP.Slots.push_back(std::move(S));
    }
    K.SafePoints.push_back(std::move(SP));
  }
  return !R.failed();
}

} // namespace

std::string write(const Container &C) {
  Writer W;
  W.raw(Magic, sizeof(Magic));
  W.u16(C.Major);
  W.u16(C.Minor);
  W.u32(static_cast<uint32_t>(HeaderSize));
  W.u64(0); // total size, patched below
  W.u32(static_cast<uint32_t>(C.Modules.size()));
  W.u32(0); // flags
  W.u64(0); // payload hash
  W.u64(0); // header hash
  for (const ModuleInfo &M : C.Modules) {
    W.u32(static_cast<uint32_t>(M.Kind));
    W.u32(M.IRVersionMajor);
    W.u32(M.IRVersionMinor);
    W.u32(static_cast<uint32_t>(M.Kernels.size()));
    W.u32(static_cast<uint32_t>(M.Globals.size()));
    for (const KernelInfo &K : M.Kernels)
      writeKernel(W, K);
    for (const GlobalInfo &G : M.Globals) {
      W.str(G.Name);
      W.u64(G.Size);
      W.u32(G.AddrSpace);
      W.u32(G.Flags);
    }
    W.str(M.IR);
    W.u64(fnv1a64(M.IR.data(), M.IR.size()));
  }
  W.patch64(16, W.Out.size());
  W.patch64(32, fnv1a64(W.Out.data() + HeaderSize, W.Out.size() - HeaderSize));
  W.patch64(40, fnv1a64(W.Out.data(), 40));
  return W.Out;
}

uint64_t peekTotalSize(const void *Data) {
  if (!Data || std::memcmp(Data, Magic, sizeof(Magic)) != 0)
    return 0;
  uint64_t Total;
  std::memcpy(&Total, static_cast<const char *>(Data) + 16, 8);
  return Total;
}

bool read(const void *Data, size_t Size, Container &Out, std::string &Error) {
  Out = Container();
  const unsigned char *Bytes = static_cast<const unsigned char *>(Data);
  if (!Data || Size < HeaderSize) {
    Error = "container: header: " + std::to_string(Size) +
            " bytes is shorter than the " + std::to_string(HeaderSize) +
            "-byte header (truncated)";
    return false;
  }
  if (std::memcmp(Bytes, Magic, sizeof(Magic)) != 0) {
    Error = "container: header: bad magic (not a hetGPU container; an NVIDIA "
            "fatbin or another tool's output?)";
    return false;
  }
  Reader R(Bytes, Size);
  R.need(8, "magic");
  for (int I = 0; I < 8; ++I)
    R.get<char>("magic");
  Out.Major = R.get<uint16_t>("version");
  Out.Minor = R.get<uint16_t>("version");
  uint32_t HSize = R.get<uint32_t>("header size");
  uint64_t Total = R.get<uint64_t>("total size");
  uint32_t NumModules = R.get<uint32_t>("module count");
  R.get<uint32_t>("flags");
  uint64_t PayloadHash = R.get<uint64_t>("payload checksum");
  uint64_t HeaderHash = R.get<uint64_t>("header checksum");
  if (fnv1a64(Bytes, 40) != HeaderHash) {
    Error = "container: header: checksum mismatch (corrupted header)";
    return false;
  }
  if (Out.Major != VersionMajor) {
    Error = "container: header: version " + std::to_string(Out.Major) + "." +
            std::to_string(Out.Minor) + " is not supported (this runtime reads " +
            std::to_string(VersionMajor) + ".x)";
    return false;
  }
  if (HSize != HeaderSize) {
    Error = "container: header: header size " + std::to_string(HSize) +
            " is not " + std::to_string(HeaderSize);
    return false;
  }
  if (Total > Size || Total < HeaderSize) {
    Error = "container: header: records " + std::to_string(Total) +
            " bytes but " + std::to_string(Size) + " are available (truncated)";
    return false;
  }
  if (fnv1a64(Bytes + HeaderSize, Total - HeaderSize) != PayloadHash) {
    Error = "container: payload: checksum mismatch (corrupted modules)";
    return false;
  }
  Reader P(Bytes, Total);
  for (size_t I = 0; I < HeaderSize; ++I)
    P.get<char>("header");
  if (NumModules > Total / 20) {
    Error = "container: header: module count " + std::to_string(NumModules) +
            " is implausible";
    return false;
  }
  for (uint32_t MI = 0; MI < NumModules && !P.failed(); ++MI) {
    ModuleInfo M;
    uint32_t Kind = P.get<uint32_t>("module kind");
    if (!P.failed() &&
        Kind != static_cast<uint32_t>(ModuleKind::HetIRBitcode) &&
        Kind != static_cast<uint32_t>(ModuleKind::RelocatableHetIR))
      P.fail("module kind", "unknown module kind " + std::to_string(Kind));
    M.Kind = static_cast<ModuleKind>(Kind);
    M.IRVersionMajor = P.get<uint32_t>("module IR version");
    M.IRVersionMinor = P.get<uint32_t>("module IR version");
    uint32_t NK = P.count("kernel count", 40);
    uint32_t NG = P.count("global count", 20);
    for (uint32_t K = 0; K < NK && !P.failed(); ++K) {
      KernelInfo KI;
      if (readKernel(P, KI))
        M.Kernels.push_back(std::move(KI));
    }
    for (uint32_t G = 0; G < NG && !P.failed(); ++G) {
      GlobalInfo GI;
      GI.Name = P.str("global name");
      GI.Size = P.get<uint64_t>("global size");
      GI.AddrSpace = P.get<uint32_t>("global address space");
      GI.Flags = P.get<uint32_t>("global flags");
      M.Globals.push_back(std::move(GI));
    }
    M.IR = P.str("module IR");
    M.IRHash = P.get<uint64_t>("module IR hash");
    if (!P.failed() && fnv1a64(M.IR.data(), M.IR.size()) != M.IRHash)
      P.fail("module IR", "hash mismatch in module " + std::to_string(MI));
    Out.Modules.push_back(std::move(M));
  }
  if (P.failed()) {
    Error = P.Err;
    Out = Container();
    return false;
  }
  if (P.offset() != Total) {
    Error = "container: trailer: " + std::to_string(Total - P.offset()) +
            " unexpected bytes after the last module";
    Out = Container();
    return false;
  }
  return true;
}

} // namespace container
} // namespace hetgpu
