//===- Translator.cpp - hetIR -> native code, through the JIT cache -------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Cache lookup, embedded ahead-of-time images, lazy loading of the
/// translator library and cache fill.
///
//===----------------------------------------------------------------------===//

#include "Core/Translator.h"

#include "Core/JITCache.h"
#include "Core/Log.h"
#include "hetgpu/IR/ImageTargets.h"
#include "hetgpu/Translate/Request.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <memory>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

using namespace hetgpu;
using namespace hetgpu::rt;

namespace {

struct TranslatorLib {
  std::mutex M;
  bool Tried = false;
  std::string Error;
  void *Handle = nullptr;
  hetgpu_translate_fn Translate = nullptr;
  hetgpu_translate_dispose_fn Dispose = nullptr;
  hetgpu_fuse_fn Fuse = nullptr; ///< null in a translator without it
};

TranslatorLib &lib() {
  static TranslatorLib *L = new TranslatorLib();
  return *L;
}

std::atomic<bool> Loaded{false};

std::string msSince(std::chrono::steady_clock::time_point T) {
  double Ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - T)
                  .count();
  char Buf[32];
  snprintf(Buf, sizeof(Buf), "%.2f", Ms);
  return Buf;
}

/// A fingerprint of the host CPU, for translations to "native".
std::string hostCpuFingerprint() {
  static const std::string FP = [] {
    std::ifstream In("/proc/cpuinfo");
    std::string Line, Model, Flags;
    while (std::getline(In, Line)) {
      if (Model.empty() && Line.rfind("model name", 0) == 0)
        Model = Line;
      else if (Flags.empty() &&
               (Line.rfind("flags", 0) == 0 || Line.rfind("Features", 0) == 0 ||
                Line.rfind("isa", 0) == 0))
        Flags = Line;
      if (!Model.empty() && !Flags.empty())
        break;
    }
    return Model + "|" + Flags;
  }();
  return FP;
}

} // namespace

std::string hetgpu::rt::translatorPath() {
  if (const char *P = getenv("HETGPU_TRANSLATOR"); P && *P)
    return P;
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(&hetgpu::rt::translatorPath), &Info) &&
      Info.dli_fname) {
    std::string Self = Info.dli_fname;
    size_t Slash = Self.rfind('/');
    if (Slash != std::string::npos)
      return Self.substr(0, Slash) + "/libhetgpu-translate.so";
  }
  return "libhetgpu-translate.so";
}

bool hetgpu::rt::translatorLoaded() { return Loaded.load(); }

std::string hetgpu::rt::cacheDirectory() {
  return JITCache::defaultDirectory();
}

static Status loadTranslator(TranslatorLib &L) {
  // Caller holds L.M.
  if (L.Tried)
    return L.Translate ? Status::ok()
                       : Status(ErrorCode::NoBinaryForGpu, L.Error);
  L.Tried = true;
  auto T0 = std::chrono::steady_clock::now();
  std::string Path = translatorPath();
  L.Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  // dlerror() names what failed: the translator itself or a library it
  // needs (libLLVM.so.22.1). The first attempt's reason is the one to
  // report when the translator is there but cannot be loaded.
  const char *FirstError = L.Handle ? nullptr : dlerror();
  std::string Reason = FirstError ? FirstError : "";
  bool Present = access(Path.c_str(), F_OK) == 0;
  if (!L.Handle && !Present && Path != "libhetgpu-translate.so" &&
      !getenv("HETGPU_TRANSLATOR")) {
    L.Handle = dlopen("libhetgpu-translate.so", RTLD_NOW | RTLD_LOCAL);
    if (!L.Handle) {
      const char *E = dlerror();
      Reason += std::string("; from the library search path: ") +
                (E ? E : "unknown dlopen error");
    }
  }
  if (!L.Handle) {
    L.Error = "cannot load the hetIR translator " + Path + ": " +
              (Reason.empty() ? "unknown dlopen error" : Reason);
    return Status(ErrorCode::NoBinaryForGpu, L.Error);
  }
  L.Translate = reinterpret_cast<hetgpu_translate_fn>(
      dlsym(L.Handle, "hetgpu_translate"));
  L.Dispose = reinterpret_cast<hetgpu_translate_dispose_fn>(
      dlsym(L.Handle, "hetgpu_translate_dispose"));
  L.Fuse = reinterpret_cast<hetgpu_fuse_fn>(dlsym(L.Handle, "hetgpu_fuse"));
  if (!L.Translate || !L.Dispose) {
    L.Error = "the hetIR translator " + Path +
              " does not export hetgpu_translate/hetgpu_translate_dispose";
    L.Translate = nullptr;
    return Status(ErrorCode::NoBinaryForGpu, L.Error);
  }
  Loaded = true;
  log(LogLevel::Info,
      "loaded translator " + Path + " in " + msSince(T0) + " ms");
  return Status::ok();
}

namespace {

/// The cache key of one translation, the device's binary tag in it and the
/// name of the work for log lines.
struct Request {
  CacheKeyInput KI;
  uint64_t Key = 0;
  std::string BinaryTag;
  std::string What;
};

/// The module's tables (kernels, parameters, globals) are part of the key:
/// a container whose tables differ from the IR's must not hit an entry that
/// was translated and checked for another.
void addTablesToKey(const container::ModuleInfo &M, CacheKeyInput &KI) {
  std::string T = container::writeTables(M);
  KI.Extra += ";tables=" + container::hash128(T.data(), T.size()).hex();
}

Request makeRequest(const container::ModuleInfo &M, Device &Dev, unsigned Flags,
                    const std::vector<std::string> &Kernels) {
  const DeviceProperties &Props = Dev.properties();
  Request R;
  CacheKeyInput &KI = R.KI;
  KI.IRHash = M.IRHash.isZero() ? container::hash128(M.IR.data(), M.IR.size())
                                : M.IRHash;
  KI.Target = Props.Target;
  KI.Arch = Props.Arch;
  KI.Features = Props.Features;
  KI.TranslatorABI = HETGPU_TRANSLATOR_ABI_VERSION;
  KI.Flags = Flags;
  KI.OptLevel = 3;
  if (Props.Arch.empty() || Props.Arch == "native")
    KI.Extra = hostCpuFingerprint();
  R.BinaryTag = Dev.binaryCacheTag();
  if (!R.BinaryTag.empty())
    KI.Extra += ";binary=" + R.BinaryTag;
  for (const std::string &K : Kernels)
    KI.Extra += ";kernel=" + K;
  // A rebuilt or upgraded translator may translate differently: its file's
  // size and modification time are part of the key (a stat, no dlopen).
  struct stat TS;
  if (stat(translatorPath().c_str(), &TS) == 0)
    KI.Extra += ";translator=" + std::to_string(TS.st_size) + "@" +
                std::to_string(static_cast<long long>(TS.st_mtime));

  addTablesToKey(M, KI);
  R.Key = JITCache::key(KI);

  std::string HashHex = KI.IRHash.hex().substr(0, 16);
  std::vector<const container::KernelInfo *> Shown;
  for (const container::KernelInfo &K : M.Kernels)
    if (Kernels.empty() ||
        std::find(Kernels.begin(), Kernels.end(), K.Name) != Kernels.end())
      Shown.push_back(&K);
  std::string Names;
  for (size_t I = 0; I < Shown.size() && I < 3; ++I)
    Names +=
        (I ? ", " : ": ") +
        (Shown[I]->Demangled.empty() ? Shown[I]->Name : Shown[I]->Demangled);
  if (Shown.size() > 3)
    Names += ", ...";
  std::string Count = Kernels.empty()
                          ? std::to_string(M.Kernels.size()) + " kernels"
                          : std::to_string(Kernels.size()) + " of " +
                                std::to_string(M.Kernels.size()) + " kernels";
  R.What = (Kernels.empty() ? "module " : "kernels of module ") + HashHex +
           " (" + Count + Names + ") for " + Props.Target +
           (Props.Arch.empty() ? "" : ":" + Props.Arch);
  return R;
}

bool cacheEnabled() { return !getenv("HETGPU_DISABLE_CACHE"); }

/// The cache, or none when it is disabled or its directory is refused
/// (JITCache::checkDirectory; said once per process).
std::unique_ptr<JITCache> usableCache() {
  if (!cacheEnabled())
    return nullptr;
  auto Cache = std::make_unique<JITCache>(JITCache::defaultDirectory());
  std::string Why;
  if (Cache->checkDirectory(Why))
    return Cache;
  static std::atomic<bool> Said{false};
  if (!Said.exchange(true))
    log(LogLevel::Warn, "JIT cache directory " + Cache->directory() +
                            " refused: " + Why + "; running without the cache");
  return nullptr;
}

/// Stores \p Out and prunes the cache to HETGPU_CACHE_MAX_SIZE.
void storeCached(const Request &R, const DeviceProperties &Props,
                 const std::vector<char> &Out) {
  std::unique_ptr<JITCache> Cache = usableCache();
  if (!Cache)
    return;
  if (Status S = Cache->store(R.Key, Props.Target, Out)) {
    log(LogLevel::Warn, S.Message);
    return;
  }
  std::string Why;
  uint64_t Max = JITCache::maxSize(&Why);
  static std::atomic<bool> Said{false};
  if (!Why.empty() && !Said.exchange(true))
    log(LogLevel::Warn, Why);
  if (unsigned N = Cache->prune(Max))
    log(LogLevel::Info, "pruned " + std::to_string(N) +
                            " least recently used JIT cache entries (bound " +
                            std::to_string(Max) + " bytes)");
}

bool lookupCached(const Request &R, const DeviceProperties &Props,
                  std::vector<char> &Out) {
  std::unique_ptr<JITCache> CachePtr = usableCache();
  if (!CachePtr)
    return false;
  JITCache &Cache = *CachePtr;
  auto T0 = std::chrono::steady_clock::now();
  std::string Why;
  if (Cache.lookup(R.Key, Props.Target, Out, &Why)) {
    log(LogLevel::Info, "loaded " + R.What + " from cache " +
                            Cache.entryPath(R.Key, Props.Target) + " (" +
                            msSince(T0) + " ms)");
    return true;
  }
  if (Why != "no entry")
    log(LogLevel::Warn, Why + "; translating again");
  return false;
}

std::string flagsName(unsigned Flags) {
  char Buf[16];
  snprintf(Buf, sizeof(Buf), "0x%x", Flags);
  std::string S = Buf;
  if (Flags & HETGPU_TRANSLATE_INSTRUMENT)
    S += " (instrumented for migration)";
  else if (Flags & HETGPU_TRANSLATE_MEMCHECK)
    S += " (memcheck)";
  return S;
}

/// Why \p Img may not stand for the translation, for \p Props with \p Flags,
/// of a module whose imageSourceHash() is \p Source, and how loudly to say
/// it; empty when it may.
std::string imageRefusal(const container::Hash128 &Source,
                         const container::AOTImage &Img,
                         const DeviceProperties &Props, unsigned Flags,
                         LogLevel &Level) {
  std::string Why;
  Level = LogLevel::Warn;
  if (!Img.Damage.empty())
    return "damaged (" + Img.Damage + ")";
  if (Img.TranslatorVersion != HETGPU_TRANSLATOR_ABI_VERSION)
    return "made by translator version " +
           std::to_string(Img.TranslatorVersion) + ", the runtime's is " +
           std::to_string(HETGPU_TRANSLATOR_ABI_VERSION);
  if (Img.SourceIRHash != Source)
    return "stale: made from hetIR " + Img.SourceIRHash.hex() +
           ", the module's is " + Source.hex();
  Level = LogLevel::Info;
  if (!container::imageFitsDevice(Img.Target, Props.Target, Props.Arch,
                                  Props.Features, Why))
    return "other target: " + Why;
  if (Img.Flags != Flags)
    return "the translation needs flags " + flagsName(Flags) +
           ", the image has " + flagsName(Img.Flags);
  return "";
}

/// \p Img's bytes in \p Out, finalised for the device; for a device with a
/// finalisation step (a binary tag) the result is cached under a key of its
/// own (the image's bytes, not the translator, made it).
Status useImage(const container::AOTImage &Img, const Request &Plain,
                Device &Dev, std::vector<char> &Out) {
  const DeviceProperties &Props = Dev.properties();
  std::string What = "image '" + Img.Target + "' of " + Plain.What;
  Request R = Plain;
  if (!R.BinaryTag.empty()) {
    R.KI.Extra += ";image=" +
                  container::hash128(Img.Bytes.data(), Img.Bytes.size()).hex();
    R.Key = JITCache::key(R.KI);
    R.What = What;
    if (lookupCached(R, Props, Out))
      return Status::ok();
  }
  Out.assign(Img.Bytes.begin(), Img.Bytes.end());
  auto T0 = std::chrono::steady_clock::now();
  if (Status S = Dev.finalizeBinary(Out))
    return Status(S.Code, "finalising the " + What + ": " + S.Message);
  log(LogLevel::Info,
      "using embedded " + What + " (" + std::to_string(Img.Bytes.size()) +
          " bytes" +
          (R.BinaryTag.empty() ? "" : ", finalised in " + msSince(T0) + " ms") +
          ")");
  if (!R.BinaryTag.empty())
    storeCached(R, Props, Out);
  return Status::ok();
}

} // namespace

namespace {

/// How many kernels \p Img holds, for messages.
std::string imageKernels(const container::ModuleInfo &M,
                         const container::AOTImage &Img) {
  return Img.Kernels.empty() ? "the whole module"
                             : std::to_string(Img.Kernels.size()) + " of " +
                                   std::to_string(M.Kernels.size()) +
                                   " kernels (a kernel group)";
}

/// The image chooseImage() and logImageRefusals() describe: \p Kernels null
/// takes an image of any kernels.
const container::AOTImage *scanImages(const container::ModuleInfo &M,
                                      Device &Dev, unsigned Flags, bool Log,
                                      const std::vector<std::string> *Kernels) {
  const DeviceProperties &Props = Dev.properties();
  const container::AOTImage *Chosen = nullptr;
  if (M.Images.empty())
    return nullptr;
  container::Hash128 Source = container::imageSourceHash(M);
  struct Refusal {
    size_t First;
    std::string Target, Why;
    LogLevel Level;
    unsigned More = 0;
  };
  std::vector<Refusal> Refusals;
  for (size_t I = 0; I < M.Images.size(); ++I) {
    const container::AOTImage &Img = M.Images[I];
    LogLevel Level;
    std::string Why = imageRefusal(Source, Img, Props, Flags, Level);
    if (Why.empty() && Kernels && Img.Kernels != *Kernels) {
      Level = LogLevel::Info;
      Why = "holds " + imageKernels(M, Img) + ", the translation is of " +
            (Kernels->empty() ? "the whole module"
                              : std::to_string(Kernels->size()) + " kernels");
    }
    if (Why.empty()) {
      if (!Chosen)
        Chosen = &Img;
      continue;
    }
    if (!Log)
      continue;
    auto Same =
        std::find_if(Refusals.begin(), Refusals.end(), [&](const Refusal &R) {
          return R.Target == Img.Target && R.Why == Why;
        });
    if (Same != Refusals.end())
      ++Same->More;
    else
      Refusals.push_back({I, Img.Target, Why, Level});
  }
  for (const Refusal &R : Refusals)
    log(R.Level, "not using image " + std::to_string(R.First) + " ('" +
                     R.Target + "') of module " + M.IRHash.hex().substr(0, 16) +
                     " on " + Props.Name + ": " + R.Why +
                     (R.More ? " (and " + std::to_string(R.More) +
                                   " more images of it, the same reason)"
                             : ""));
  return Chosen;
}

} // namespace

const container::AOTImage *
hetgpu::rt::chooseImage(const container::ModuleInfo &M, Device &Dev,
                        unsigned Flags, bool Log,
                        const std::vector<std::string> &Kernels) {
  return scanImages(M, Dev, Flags, Log, &Kernels);
}

void hetgpu::rt::logImageRefusals(const container::ModuleInfo &M, Device &Dev,
                                  unsigned Flags) {
  scanImages(M, Dev, Flags, true, nullptr);
}

const container::AOTImage *
hetgpu::rt::groupImageOf(const container::ModuleInfo &M, Device &Dev,
                         const std::string &Name) {
  container::Hash128 Source;
  bool HaveSource = false;
  for (const container::AOTImage &Img : M.Images) {
    if (std::find(Img.Kernels.begin(), Img.Kernels.end(), Name) ==
        Img.Kernels.end())
      continue;
    if (!HaveSource) {
      Source = container::imageSourceHash(M);
      HaveSource = true;
    }
    LogLevel Level;
    if (imageRefusal(Source, Img, Dev.properties(), 0, Level).empty())
      return &Img;
  }
  return nullptr;
}

Status hetgpu::rt::getTranslation(const container::ModuleInfo &M, Device &Dev,
                                  unsigned Flags, std::vector<char> &Out,
                                  const std::vector<std::string> &Kernels,
                                  TranslationSource *Source) {
  const DeviceProperties &Props = Dev.properties();
  Request R = makeRequest(M, Dev, Flags, Kernels);
  if (Source)
    *Source = TranslationSource::Cache;
  if (lookupCached(R, Props, Out))
    return Status::ok();
  // A module loaded in groups said once why its images were passed over
  // (logImageRefusals); a whole module says it here.
  if (const container::AOTImage *Img =
          chooseImage(M, Dev, Flags, Kernels.empty(), Kernels)) {
    Status S = useImage(*Img, R, Dev, Out);
    if (Source)
      *Source = TranslationSource::Image;
    if (S.isOk() || S.Code == ErrorCode::OutOfMemory)
      return S;
    log(LogLevel::Warn, S.Message + "; translating the hetIR");
  }
  if (Source)
    *Source = TranslationSource::Translated;

  TranslatorLib &L = lib();
  {
    std::lock_guard<std::mutex> Lock(L.M);
    if (Status S = loadTranslator(L))
      return S;
  }
  // The translator runs one translation at a time (lib/Translate); cache
  // lookups and finalisation of other threads go on meanwhile.
  TranslateRequest Req(M, Props.Target, Props.Arch, Props.Features, Flags,
                       Kernels);
  hetgpu_translate_result Res{};
  auto T1 = std::chrono::steady_clock::now();
  int RC = L.Translate(Req.get(), &Res);
  if (RC != 0 || !Res.data) {
    std::string Msg = "translation of " + R.What +
                      " failed: " + (Res.error ? Res.error : "no message");
    L.Dispose(&Res);
    return Status(ErrorCode::NoBinaryForGpu, Msg);
  }
  const char *D = static_cast<const char *>(Res.data);
  Out.assign(D, D + Res.size);
  L.Dispose(&Res);
  log(LogLevel::Info, "translated " + R.What + " in " + msSince(T1) + " ms (" +
                          std::to_string(Out.size()) + " bytes)");
  auto T2 = std::chrono::steady_clock::now();
  if (Status S = Dev.finalizeBinary(Out))
    return Status(S.Code == ErrorCode::OutOfMemory ? S.Code
                                                   : ErrorCode::NoBinaryForGpu,
                  "finalising the translation of " + R.What + ": " + S.Message);
  if (!R.BinaryTag.empty())
    log(LogLevel::Info, "finalised " + R.What + " in " + msSince(T2) + " ms (" +
                            std::to_string(Out.size()) + " bytes)");
  storeCached(R, Props, Out);
  return Status::ok();
}

namespace {

/// The cache key of a fusion: every component's module hash, kernel and
/// geometry, and the translator's file (as for translations).
Request fuseRequest(const std::vector<FusePart> &Parts,
                    const std::string &Name) {
  Request R;
  std::string Desc = Name;
  for (const FusePart &P : Parts) {
    container::Hash128 H =
        P.M->IRHash.isZero()
            ? container::hash128(P.M->IR.data(), P.M->IR.size())
            : P.M->IRHash;
    Desc += ";" + H.hex() + ":" + P.Kernel;
    for (uint32_t D :
         {P.Grid[0], P.Grid[1], P.Grid[2], P.Block[0], P.Block[1], P.Block[2]})
      Desc += "," + std::to_string(D);
  }
  R.KI.IRHash = container::hash128(Desc.data(), Desc.size());
  R.KI.Target = "hetir-fused";
  R.KI.TranslatorABI = HETGPU_TRANSLATOR_ABI_VERSION;
  struct stat TS;
  if (stat(translatorPath().c_str(), &TS) == 0)
    R.KI.Extra = "translator=" + std::to_string(TS.st_size) + "@" +
                 std::to_string(static_cast<long long>(TS.st_mtime));
  R.Key = JITCache::key(R.KI);
  R.What = "fusion " + R.KI.IRHash.hex().substr(0, 16) + " of " +
           std::to_string(Parts.size()) + " kernels";
  return R;
}

/// A refused fusion is cached too (the same components and translator are
/// refused again), so a warm start loads no translator for it: the entry is
/// this marker, the refused part's index and the message.
constexpr char RefusedMark[] = "hetgpu-fusion-refused\n";

std::vector<char> refusalEntry(long Refused, const std::string &Msg) {
  std::string E = RefusedMark + std::to_string(Refused) + "\n" + Msg;
  return std::vector<char>(E.begin(), E.end());
}

/// Whether \p Entry is a cached refusal; then \p Refused and \p Msg say it.
bool readRefusal(const std::vector<char> &Entry, long &Refused,
                 std::string &Msg) {
  size_t N = sizeof(RefusedMark) - 1;
  if (Entry.size() < N || std::memcmp(Entry.data(), RefusedMark, N))
    return false;
  std::string Rest(Entry.begin() + N, Entry.end());
  size_t NL = Rest.find('\n');
  Refused = strtol(Rest.c_str(), nullptr, 10);
  Msg = NL == std::string::npos ? "" : Rest.substr(NL + 1);
  return true;
}

} // namespace

Status hetgpu::rt::getFusedModule(const std::vector<FusePart> &Parts,
                                  const std::string &Name,
                                  std::vector<char> &Out, long &Refused) {
  Refused = -1;
  Request R = fuseRequest(Parts, Name);
  DeviceProperties Props; // the cache's target folder only
  Props.Target = R.KI.Target;
  if (lookupCached(R, Props, Out)) {
    std::string Msg;
    if (readRefusal(Out, Refused, Msg))
      return Status(ErrorCode::NoBinaryForGpu, Msg + " (cached)");
    return Status::ok();
  }
  TranslatorLib &L = lib();
  {
    std::lock_guard<std::mutex> Lock(L.M);
    if (Status S = loadTranslator(L))
      return S;
  }
  if (!L.Fuse)
    return Status(ErrorCode::NoBinaryForGpu,
                  "the hetIR translator " + translatorPath() +
                      " has no hetgpu_fuse (an older translator)");
  std::vector<hetgpu_fuse_component> Cs;
  for (const FusePart &P : Parts) {
    hetgpu_fuse_component C{};
    C.ir = P.M->IR.data();
    C.ir_size = P.M->IR.size();
    C.kernel = P.Kernel.c_str();
    for (unsigned D = 0; D < 3; ++D) {
      C.grid[D] = P.Grid[D];
      C.block[D] = P.Block[D];
    }
    Cs.push_back(C);
  }
  hetgpu_fuse_request Req{Cs.data(), Cs.size(), Name.c_str(), &Refused};
  hetgpu_translate_result Res{};
  auto T0 = std::chrono::steady_clock::now();
  int RC = L.Fuse(&Req, &Res);
  if (RC != 0 || !Res.data) {
    std::string Msg = Res.error ? Res.error : "no message";
    L.Dispose(&Res);
    storeCached(R, Props, refusalEntry(Refused, Msg));
    return Status(ErrorCode::NoBinaryForGpu, Msg);
  }
  const char *D = static_cast<const char *>(Res.data);
  Out.assign(D, D + Res.size);
  L.Dispose(&Res);
  log(LogLevel::Info, "made " + R.What + " in " + msSince(T0) + " ms");
  storeCached(R, Props, Out);
  return Status::ok();
}
