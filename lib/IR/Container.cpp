//===- Container.cpp - Read and write hetGPU fat-binary containers -------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Byte format (little endian; docs/Container.md):
///
///   header (64 bytes)
///     magic[8] "HETGPUFB", u16 major, u16 minor, u32 header size,
///     u64 total size, u32 module count, u32 flags,
///     XXH3-128 of bytes [64, total), XXH3-128 of header bytes [0, 48)
///   modules, each:
///     u32 kind, u32 ir major, u32 ir minor, u32 kernel count,
///     u32 global count, kernels..., globals..., blob(IR), XXH3-128 of IR
///   strings and blobs are u32 length + bytes; a 128-bit hash is its low
///   then its high 64 bits.
///
/// The reader checks every length against the bytes that remain, so a
/// truncated or corrupted container is reported, never over-read, and
/// every kernel's fields against each other (validateKernel).
///
//===----------------------------------------------------------------------===//

#include "hetgpu/IR/Container.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <xxhash.h>

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

const char *launchRuleKindName(LaunchRule::Kind K) {
  switch (K) {
  case LaunchRule::Exactly:
    return "exactly";
  case LaunchRule::MultipleOf:
    return "multiple-of";
  case LaunchRule::AtMost:
    return "at-most";
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
  case SafePointKind::ThreadLoop:
    return "thread-loop";
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

Hash128 hash128(const void *Data, size_t Size) {
  XXH128_hash_t H = XXH3_128bits(Size ? Data : "", Size);
  Hash128 Out;
  Out.Low = H.low64;
  Out.High = H.high64;
  return Out;
}

std::string Hash128::hex() const {
  char Buf[33];
  snprintf(Buf, sizeof(Buf), "%016llx%016llx",
           static_cast<unsigned long long>(High),
           static_cast<unsigned long long>(Low));
  return Buf;
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
  void hash(const Hash128 &H) {
    u64(H.Low);
    u64(H.High);
  }
  void raw(const void *P, size_t N) {
    Out.append(static_cast<const char *>(P), N);
  }
  void str(const std::string &S) {
    u32(static_cast<uint32_t>(S.size()));
    Out.append(S);
  }
  void patch64(size_t At, uint64_t V) { std::memcpy(&Out[At], &V, 8); }
  void patchHash(size_t At, const Hash128 &H) {
    patch64(At, H.Low);
    patch64(At + 8, H.High);
  }
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
  Hash128 hash(const char *What) {
    Hash128 H;
    H.Low = get<uint64_t>(What);
    H.High = get<uint64_t>(What);
    return H;
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
  W.u32(static_cast<uint32_t>(K.LaunchRules.size()));
  for (const LaunchRule &LR : K.LaunchRules) {
    W.u32(LR.K);
    W.u32(LR.Value);
    W.str(LR.Why);
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
    if (!R.failed() && P.Size > MaxParamBufferSize)
      R.fail("parameter", "implausible size " + std::to_string(P.Size) +
                              " of parameter " + std::to_string(I) + " of " +
                              K.Name);
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
    if (Kind > static_cast<uint32_t>(SafePointKind::ThreadLoop))
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
  uint32_t NR = R.count("launch rule count", 12);
  for (uint32_t I = 0; I < NR && !R.failed(); ++I) {
    LaunchRule LR;
    uint32_t Kind = R.get<uint32_t>("launch rule kind");
    if (Kind > LaunchRule::AtMost)
      R.fail("launch rule kind", "unknown kind " + std::to_string(Kind) +
                                     " of a launch rule of " + K.Name);
    LR.K = static_cast<LaunchRule::Kind>(Kind);
    LR.Value = R.get<uint32_t>("launch rule value");
    if (!R.failed() && LR.Value == 0)
      R.fail("launch rule value", "0 threads in a launch rule of " + K.Name);
    LR.Why = R.str("launch rule reason");
    K.LaunchRules.push_back(std::move(LR));
  }
  if (!R.failed())
    if (std::string Why = validateKernel(K); !Why.empty())
      R.fail("kernel", Why);
  return !R.failed();
}

void readGlobal(Reader &R, GlobalInfo &G) {
  G.Name = R.str("global name");
  G.Size = R.get<uint64_t>("global size");
  G.AddrSpace = R.get<uint32_t>("global address space");
  G.Flags = R.get<uint32_t>("global flags");
  if (R.failed())
    return;
  if (G.Name.empty())
    R.fail("global name", "empty");
  else if (G.AddrSpace != 1 && G.AddrSpace != 4)
    R.fail("global address space",
           "address space " + std::to_string(G.AddrSpace) + " of " + G.Name +
               " is neither 1 (global) nor 4 (constant)");
  else if (G.Size > (uint64_t(1) << 40))
    R.fail("global size",
           "implausible size " + std::to_string(G.Size) + " of " + G.Name);
}

/// The header fields after the magic.
struct Header {
  uint16_t Major = 0, Minor = 0;
  uint32_t Size = 0;
  uint64_t Total = 0;
  uint32_t NumModules = 0;
  Hash128 PayloadHash, HeaderHash;
};

/// Checks the header of \p Bytes (\p Size bytes, at least HeaderSize).
bool readHeader(const unsigned char *Bytes, size_t Size, Header &H,
                std::string &Error) {
  if (std::memcmp(Bytes, Magic, sizeof(Magic)) != 0) {
    Error = "container: header: bad magic (not a hetGPU container; an NVIDIA "
            "fatbin or another tool's output?)";
    return false;
  }
  Reader R(Bytes, Size);
  for (int I = 0; I < 8; ++I)
    R.get<char>("magic");
  H.Major = R.get<uint16_t>("version");
  H.Minor = R.get<uint16_t>("version");
  // The version comes first: the layout of the rest depends on it.
  if (H.Major != VersionMajor) {
    Error = "container: header: version " + std::to_string(H.Major) + "." +
            std::to_string(H.Minor) + " is not supported (this runtime reads " +
            std::to_string(VersionMajor) + ".x" +
            (H.Major < VersionMajor
                 ? "; version 1 had weak checksums: rebuild the program "
                   "with this hetgpu-cc)"
                 : ")");
    return false;
  }
  H.Size = R.get<uint32_t>("header size");
  H.Total = R.get<uint64_t>("total size");
  H.NumModules = R.get<uint32_t>("module count");
  uint32_t Flags = R.get<uint32_t>("flags");
  H.PayloadHash = R.hash("payload checksum");
  H.HeaderHash = R.hash("header checksum");
  if (hash128(Bytes, 48) != H.HeaderHash) {
    Error = "container: header: checksum mismatch (corrupted header)";
    return false;
  }
  if (Flags != 0) {
    Error = "container: header: unknown flags " + std::to_string(Flags);
    return false;
  }
  if (H.Size != HeaderSize) {
    Error = "container: header: header size " + std::to_string(H.Size) +
            " is not " + std::to_string(HeaderSize);
    return false;
  }
  if (H.Total > Size || H.Total < HeaderSize) {
    Error = "container: header: records " + std::to_string(H.Total) +
            " bytes but " + std::to_string(Size) + " are available (truncated)";
    return false;
  }
  if (hash128(Bytes + HeaderSize, H.Total - HeaderSize) != H.PayloadHash) {
    Error = "container: payload: checksum mismatch (corrupted modules)";
    return false;
  }
  if (H.NumModules > H.Total / 20) {
    Error = "container: header: module count " + std::to_string(H.NumModules) +
            " is implausible";
    return false;
  }
  return true;
}

/// The kernel list of image \p I (2.2): names of kernels of \p M, each once.
void readImageKernels(Reader &P, uint32_t I, const ModuleInfo &M,
                      AOTImage &Img) {
  uint32_t NK = P.count("image kernel count", 4);
  for (uint32_t K = 0; K < NK && !P.failed(); ++K) {
    std::string Name = P.str("image kernel");
    if (P.failed())
      break;
    if (!M.findKernel(Name))
      P.fail("image kernel", "image " + std::to_string(I) + " (" + Img.Target +
                                 ") holds kernel '" + Name +
                                 "', which the module does not have");
    else if (std::find(Img.Kernels.begin(), Img.Kernels.end(), Name) !=
             Img.Kernels.end())
      P.fail("image kernel", "image " + std::to_string(I) + " (" + Img.Target +
                                 ") lists kernel '" + Name + "' twice");
    Img.Kernels.push_back(std::move(Name));
  }
}

void readImages(Reader &P, uint32_t MI, ModuleInfo &M, uint16_t Minor) {
  uint32_t NI = P.count("image count", Minor >= 2 ? 52 : 48);
  for (uint32_t I = 0; I < NI && !P.failed(); ++I) {
    AOTImage Img;
    Img.Target = P.str("image target");
    Img.TranslatorVersion = P.get<uint32_t>("image translator version");
    Img.Flags = P.get<uint32_t>("image flags");
    Img.SourceIRHash = P.hash("image source IR hash");
    if (Minor >= 2)
      readImageKernels(P, I, M, Img);
    Img.Bytes = P.str("image bytes");
    Hash128 BytesHash = P.hash("image hash");
    if (P.failed())
      break;
    if (Img.Target.empty())
      P.fail("image target", "empty target of image " + std::to_string(I) +
                                 " in module " + std::to_string(MI));
    // Damaged bytes cost the image, not the module: its hetIR (checked
    // above) still translates.
    if (!P.failed() &&
        hash128(Img.Bytes.data(), Img.Bytes.size()) != BytesHash) {
      Img.Damage = "hash mismatch in image " + std::to_string(I) + " (" +
                   Img.Target + ") of module " + std::to_string(MI);
      Img.Bytes.clear();
    }
    M.Images.push_back(std::move(Img));
  }
}

void readModule(Reader &P, uint32_t MI, ModuleInfo &M, uint16_t Minor) {
  uint32_t Kind = P.get<uint32_t>("module kind");
  if (!P.failed() && Kind != static_cast<uint32_t>(ModuleKind::HetIRBitcode) &&
      Kind != static_cast<uint32_t>(ModuleKind::RelocatableHetIR))
    P.fail("module kind", "unknown module kind " + std::to_string(Kind));
  M.Kind = static_cast<ModuleKind>(Kind);
  M.IRVersionMajor = P.get<uint32_t>("module IR version");
  M.IRVersionMinor = P.get<uint32_t>("module IR version");
  uint32_t NK = P.count("kernel count", 40);
  uint32_t NG = P.count("global count", 20);
  for (uint32_t K = 0; K < NK && !P.failed(); ++K) {
    KernelInfo KI;
    if (readKernel(P, KI)) {
      if (M.findKernel(KI.Name))
        P.fail("kernel name", "kernel " + KI.Name + " is listed twice");
      M.Kernels.push_back(std::move(KI));
    }
  }
  for (uint32_t G = 0; G < NG && !P.failed(); ++G) {
    GlobalInfo GI;
    readGlobal(P, GI);
    M.Globals.push_back(std::move(GI));
  }
  M.IR = P.str("module IR");
  M.IRHash = P.hash("module IR hash");
  if (!P.failed() && hash128(M.IR.data(), M.IR.size()) != M.IRHash)
    P.fail("module IR", "hash mismatch in module " + std::to_string(MI));
  if (Minor >= 1 && !P.failed())
    readImages(P, MI, M, Minor);
}

} // namespace

std::string validateKernel(const KernelInfo &K) {
  const std::string Of = " of kernel " + K.Name;
  uint64_t End = 0;
  for (size_t I = 0; I < K.Params.size(); ++I) {
    const ParamInfo &P = K.Params[I];
    std::string Which = "parameter " + std::to_string(I) + Of;
    if (!isPow2(P.Align) || P.Align > 4096)
      return Which + ": alignment " + std::to_string(P.Align) +
             " is not a power of two up to 4096";
    if (P.Kind == ParamKind::Pointer && P.Size != 8)
      return Which + ": a pointer of " + std::to_string(P.Size) + " bytes";
    // The layout CUDA uses: each parameter at the next multiple of its
    // alignment after the previous one.
    uint64_t At = (End + P.Align - 1) & ~uint64_t(P.Align - 1);
    if (P.Offset != At)
      return Which + ": offset " + std::to_string(P.Offset) +
             " is not the packed offset " + std::to_string(At);
    End = At + P.Size;
    if (End > K.ParamBufferSize)
      return Which + ": bytes [" + std::to_string(P.Offset) + ", " +
             std::to_string(End) + ") lie outside the " +
             std::to_string(K.ParamBufferSize) + "-byte parameter buffer";
  }
  if (K.ParamBufferSize != End)
    return "parameter buffer size " + std::to_string(K.ParamBufferSize) + Of +
           " is not the " + std::to_string(End) + " bytes its parameters take";
  if (K.ParamBufferSize > MaxParamBufferSize)
    return "parameter buffer size " + std::to_string(K.ParamBufferSize) + Of +
           " exceeds " + std::to_string(MaxParamBufferSize) + " bytes";
  if (K.StaticShared > MaxStaticShared)
    return "static shared size " + std::to_string(K.StaticShared) + Of +
           " exceeds " + std::to_string(MaxStaticShared) + " bytes";
  if (K.MaxThreads > MaxThreadsPerBlock)
    return "launch bound of " + std::to_string(K.MaxThreads) + " threads" + Of +
           " exceeds " + std::to_string(MaxThreadsPerBlock);
  if (K.Features >> NumFeatures)
    return "unknown feature bits" + Of;
  uint32_t Largest = 0;
  for (const SafePointInfo &SP : K.SafePoints)
    Largest = SP.RecordSize > Largest ? SP.RecordSize : Largest;
  if (K.StateRecordSize != Largest)
    return "state record size " + std::to_string(K.StateRecordSize) + Of +
           " is not its largest safe point's " + std::to_string(Largest);
  return std::string();
}

std::string write(const Container &C) {
  Writer W;
  W.raw(Magic, sizeof(Magic));
  W.u16(C.Major);
  W.u16(C.Minor);
  W.u32(static_cast<uint32_t>(HeaderSize));
  W.u64(0); // total size, patched below
  W.u32(static_cast<uint32_t>(C.Modules.size()));
  W.u32(0);   // flags
  W.hash({}); // payload hash
  W.hash({}); // header hash
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
    W.hash(hash128(M.IR.data(), M.IR.size()));
    if (C.Minor < 1)
      continue; // 2.0 has no image list
    W.u32(static_cast<uint32_t>(M.Images.size()));
    for (const AOTImage &Img : M.Images) {
      W.str(Img.Target);
      W.u32(Img.TranslatorVersion);
      W.u32(Img.Flags);
      W.hash(Img.SourceIRHash);
      if (C.Minor >= 2) {
        W.u32(static_cast<uint32_t>(Img.Kernels.size()));
        for (const std::string &K : Img.Kernels)
          W.str(K);
      }
      W.str(Img.Bytes);
      W.hash(hash128(Img.Bytes.data(), Img.Bytes.size()));
    }
  }
  W.patch64(16, W.Out.size());
  W.patchHash(32,
              hash128(W.Out.data() + HeaderSize, W.Out.size() - HeaderSize));
  W.patchHash(48, hash128(W.Out.data(), 48));
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
  Header H;
  if (!readHeader(Bytes, Size, H, Error))
    return false;
  Out.Major = H.Major;
  Out.Minor = H.Minor;
  Reader P(Bytes, H.Total);
  for (size_t I = 0; I < HeaderSize; ++I)
    P.get<char>("header");
  for (uint32_t MI = 0; MI < H.NumModules && !P.failed(); ++MI) {
    ModuleInfo M;
    readModule(P, MI, M, H.Minor);
    Out.Modules.push_back(std::move(M));
  }
  if (P.failed()) {
    Error = P.Err;
    Out = Container();
    return false;
  }
  if (P.offset() != H.Total) {
    Error = "container: trailer: " + std::to_string(H.Total - P.offset()) +
            " unexpected bytes after the last module";
    Out = Container();
    return false;
  }
  return true;
}

Hash128 imageSourceHash(const ModuleInfo &M) {
  std::string S = M.IR + writeTables(M);
  return hash128(S.data(), S.size());
}

unsigned kernelGroupSizeSetting() {
  const char *E = std::getenv("HETGPU_KERNEL_GROUP");
  return E && *E ? unsigned(std::strtoul(E, nullptr, 10))
                 : DefaultKernelGroupSize;
}

std::vector<std::vector<std::string>> kernelGroups(const ModuleInfo &M,
                                                   unsigned Size) {
  std::vector<std::vector<std::string>> Groups;
  if (!translatedInGroups(M, Size))
    return Groups;
  for (size_t I = 0; I < M.Kernels.size(); ++I) {
    if (I % Size == 0)
      Groups.emplace_back();
    Groups.back().push_back(M.Kernels[I].Name);
  }
  return Groups;
}

std::string writeTables(const ModuleInfo &M) {
  Container C;
  C.Modules.push_back(M);
  C.Modules.back().IR.clear();
  C.Modules.back().Images.clear();
  return write(C);
}

bool readTables(const void *Data, size_t Size, ModuleInfo &Out,
                std::string &Error) {
  Container C;
  if (!read(Data, Size, C, Error))
    return false;
  if (C.Modules.size() != 1 || !C.Modules[0].IR.empty()) {
    Error = "container: tables: not the tables of one module";
    return false;
  }
  Out = std::move(C.Modules[0]);
  return true;
}

} // namespace container
} // namespace hetgpu
