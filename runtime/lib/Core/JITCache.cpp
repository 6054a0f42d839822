//===- JITCache.cpp - On-disk cache of translated modules -----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads, validates and atomically writes JIT cache entries.
///
//===----------------------------------------------------------------------===//

#include "Core/JITCache.h"

#include "hetgpu/IR/Container.h"
#include "hetgpu/Translate/Translate.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace hetgpu;
using namespace hetgpu::rt;

constexpr char JITCache::EntryMagic[8];

std::string JITCache::defaultDirectory() {
  if (const char *D = getenv("HETGPU_CACHE_DIR"); D && *D)
    return D;
  if (const char *X = getenv("XDG_CACHE_HOME"); X && *X)
    return std::string(X) + "/hetgpu";
  if (const char *H = getenv("HOME"); H && *H)
    return std::string(H) + "/.cache/hetgpu";
  return "/tmp/hetgpu-cache-" + std::to_string(getuid());
}

uint64_t JITCache::key(const CacheKeyInput &In) {
  // Length-prefixed fields, so ("ab","c") and ("a","bc") differ.
  std::string S;
  auto Add = [&S](const std::string &F) {
    S += std::to_string(F.size());
    S += ':';
    S += F;
  };
  Add(std::to_string(In.IRHash));
  Add(In.Target);
  Add(In.Arch);
  Add(In.Features);
  Add(std::to_string(In.TranslatorABI));
  Add(std::to_string(In.Flags));
  Add(std::to_string(In.OptLevel));
  Add(In.Extra);
  return container::fnv1a64(S.data(), S.size());
}

JITCache::JITCache(std::string Directory) : Dir(std::move(Directory)) {}

std::string JITCache::entryPath(uint64_t Key,
                                const std::string &Target) const {
  char Hex[17];
  snprintf(Hex, sizeof(Hex), "%016llx", static_cast<unsigned long long>(Key));
  return Dir + "/" + Target + "-" + Hex + ".hjc";
}

static void putU32(char *P, uint32_t V) { memcpy(P, &V, 4); }
static void putU64(char *P, uint64_t V) { memcpy(P, &V, 8); }
static uint32_t getU32(const char *P) {
  uint32_t V;
  memcpy(&V, P, 4);
  return V;
}
static uint64_t getU64(const char *P) {
  uint64_t V;
  memcpy(&V, P, 8);
  return V;
}

static bool readAll(int FD, char *Buf, size_t N) {
  while (N) {
    ssize_t R = read(FD, Buf, N);
    if (R < 0 && errno == EINTR)
      continue;
    if (R <= 0)
      return false;
    Buf += R;
    N -= static_cast<size_t>(R);
  }
  return true;
}

static bool writeAll(int FD, const char *Buf, size_t N) {
  while (N) {
    ssize_t W = write(FD, Buf, N);
    if (W < 0 && errno == EINTR)
      continue;
    if (W <= 0)
      return false;
    Buf += W;
    N -= static_cast<size_t>(W);
  }
  return true;
}

bool JITCache::lookup(uint64_t Key, const std::string &Target,
                      std::vector<char> &Out, std::string *Why) const {
  std::string Path = entryPath(Key, Target);
  int FD = open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (FD < 0) {
    if (Why)
      *Why = "no entry";
    return false;
  }
  std::string Problem;
  char H[HeaderSize];
  struct stat St;
  if (fstat(FD, &St) != 0 || St.st_size < static_cast<off_t>(HeaderSize) ||
      !readAll(FD, H, HeaderSize)) {
    Problem = "truncated header";
  } else if (memcmp(H, EntryMagic, 8) != 0) {
    Problem = "bad magic";
  } else if (getU32(H + 8) != EntryVersion) {
    Problem = "entry format version " + std::to_string(getU32(H + 8)) +
              " (expected " + std::to_string(EntryVersion) + ")";
  } else if (getU32(H + 12) != HETGPU_TRANSLATOR_ABI_VERSION) {
    Problem = "stale translator ABI version " + std::to_string(getU32(H + 12));
  } else if (getU64(H + 16) != Key) {
    Problem = "key mismatch";
  } else if (getU64(H + 24) !=
             static_cast<uint64_t>(St.st_size) - HeaderSize) {
    Problem = "size mismatch (header says " + std::to_string(getU64(H + 24)) +
              ", file has " +
              std::to_string(static_cast<uint64_t>(St.st_size) - HeaderSize) +
              ")";
  } else {
    Out.resize(getU64(H + 24));
    if (!readAll(FD, Out.data(), Out.size()))
      Problem = "truncated payload";
    else if (container::fnv1a64(Out.data(), Out.size()) != getU64(H + 32))
      Problem = "checksum mismatch";
  }
  close(FD);
  if (Problem.empty())
    return true;
  Out.clear();
  if (Why)
    *Why = "corrupt entry " + Path + ": " + Problem;
  // Remove it so it is rebuilt; a concurrent writer's rename may already
  // have replaced it with a good one, which only costs a re-translation.
  unlink(Path.c_str());
  return false;
}

static Status makeDirs(const std::string &Dir) {
  std::string Cur;
  size_t Pos = 0;
  while (Pos != std::string::npos) {
    Pos = Dir.find('/', Pos + 1);
    Cur = Dir.substr(0, Pos);
    if (Cur.empty())
      continue;
    if (mkdir(Cur.c_str(), 0755) != 0 && errno != EEXIST)
      return Status(ErrorCode::DriverFailure,
                    "cannot create JIT cache directory " + Cur + ": " +
                        strerror(errno));
  }
  return Status::ok();
}

Status JITCache::store(uint64_t Key, const std::string &Target,
                       const std::vector<char> &Data) const {
  if (Status S = makeDirs(Dir))
    return S;
  static std::atomic<unsigned> Counter{0};
  std::string Final = entryPath(Key, Target);
  std::string Tmp = Final + ".tmp." + std::to_string(getpid()) + "." +
                    std::to_string(Counter++);
  int FD = open(Tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (FD < 0)
    return Status(ErrorCode::DriverFailure,
                  "cannot write JIT cache entry " + Tmp + ": " +
                      strerror(errno));
  char H[HeaderSize];
  memcpy(H, EntryMagic, 8);
  putU32(H + 8, EntryVersion);
  putU32(H + 12, HETGPU_TRANSLATOR_ABI_VERSION);
  putU64(H + 16, Key);
  putU64(H + 24, Data.size());
  putU64(H + 32, container::fnv1a64(Data.data(), Data.size()));
  bool OK = writeAll(FD, H, HeaderSize) &&
            writeAll(FD, Data.data(), Data.size());
  OK = (close(FD) == 0) && OK;
  if (!OK || rename(Tmp.c_str(), Final.c_str()) != 0) {
    std::string Err = strerror(errno);
    unlink(Tmp.c_str());
    return Status(ErrorCode::DriverFailure,
                  "cannot write JIT cache entry " + Final + ": " + Err);
  }
  return Status::ok();
}
