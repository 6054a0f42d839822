//===- JITCache.cpp - On-disk cache of translated modules -----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads, validates and atomically writes JIT cache entries; checks the
/// directory's owner and mode; prunes it to a size bound.
///
//===----------------------------------------------------------------------===//

#include "Core/JITCache.h"

#include "hetgpu/IR/Container.h"
#include "hetgpu/Translate/Translate.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
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
  Add(In.IRHash.hex());
  Add(In.Target);
  Add(In.Arch);
  Add(In.Features);
  Add(std::to_string(In.TranslatorABI));
  Add(std::to_string(In.Flags));
  Add(std::to_string(In.OptLevel));
  Add(In.Extra);
  return container::hash128(S.data(), S.size()).Low;
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
static void putHash(char *P, const container::Hash128 &H) {
  putU64(P, H.Low);
  putU64(P + 8, H.High);
}
static container::Hash128 getHash(const char *P) {
  container::Hash128 H;
  H.Low = getU64(P);
  H.High = getU64(P + 8);
  return H;
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
  // Never follow a link, never block on a FIFO: what is opened is checked
  // with fstat before a byte is read.
  int FD = open(Path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (FD < 0) {
    bool Missing = errno == ENOENT;
    if (Why)
      *Why = Missing ? "no entry"
                     : "corrupt entry " + Path + ": cannot open it (" +
                           strerror(errno) + ")";
    if (!Missing)
      unlink(Path.c_str());
    return false;
  }
  std::string Problem;
  char H[HeaderSize];
  struct stat St;
  if (fstat(FD, &St) != 0 || !S_ISREG(St.st_mode)) {
    Problem = "not a regular file";
  } else if (St.st_uid != geteuid() || (St.st_mode & (S_IWGRP | S_IWOTH))) {
    Problem = "owned by another user or writable by others";
  } else if (St.st_size < static_cast<off_t>(HeaderSize) ||
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
  } else if (getU64(H + 24) != static_cast<uint64_t>(St.st_size) - HeaderSize) {
    Problem = "size mismatch (header says " + std::to_string(getU64(H + 24)) +
              ", file has " +
              std::to_string(static_cast<uint64_t>(St.st_size) - HeaderSize) +
              ")";
  } else {
    Out.resize(getU64(H + 24));
    if (!readAll(FD, Out.data(), Out.size()))
      Problem = "truncated payload";
    else if (container::hash128(Out.data(), Out.size()) != getHash(H + 32))
      Problem = "checksum mismatch";
  }
  // A hit is recently used: its time orders the pruning.
  if (Problem.empty())
    futimens(FD, nullptr);
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
    // The cache itself is private; the folders above it as usual.
    mode_t Mode = Pos == std::string::npos ? 0700 : 0755;
    if (mkdir(Cur.c_str(), Mode) != 0 && errno != EEXIST)
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
  int FD = open(Tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
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
  putHash(H + 32, container::hash128(Data.data(), Data.size()));
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

bool JITCache::checkDirectory(std::string &Why) const {
  struct stat St;
  if (stat(Dir.c_str(), &St) != 0) {
    if (errno == ENOENT)
      return true;
    Why = std::string("cannot stat it: ") + strerror(errno);
    return false;
  }
  if (!S_ISDIR(St.st_mode))
    Why = "not a directory";
  else if (St.st_uid != geteuid())
    Why = "owned by uid " + std::to_string(St.st_uid) + ", not by this user (" +
          std::to_string(geteuid()) + ")";
  else if (St.st_mode & (S_IWGRP | S_IWOTH))
    Why = "writable by group or others (chmod go-w it)";
  else
    return true;
  return false;
}

uint64_t JITCache::maxSize(std::string *Why) {
  const char *V = getenv("HETGPU_CACHE_MAX_SIZE");
  if (!V || !*V)
    return DefaultMaxSize;
  char *End = nullptr;
  errno = 0;
  unsigned long long N = strtoull(V, &End, 10);
  uint64_t Scale = 1;
  if (End && (*End == 'K' || *End == 'k'))
    Scale = 1ull << 10;
  else if (End && (*End == 'M' || *End == 'm'))
    Scale = 1ull << 20;
  else if (End && (*End == 'G' || *End == 'g'))
    Scale = 1ull << 30;
  if (Scale != 1)
    ++End;
  if (errno || End == V || *End || *V == '-' || N > UINT64_MAX / Scale) {
    if (Why)
      *Why = std::string("HETGPU_CACHE_MAX_SIZE=") + V +
             " is not a size (bytes, or a number with K, M or G); using " +
             std::to_string(DefaultMaxSize) + " bytes";
    return DefaultMaxSize;
  }
  return N * Scale;
}

unsigned JITCache::prune(uint64_t MaxBytes) const {
  if (!MaxBytes)
    return 0;
  struct Entry {
    std::string Path;
    uint64_t Size;
    struct timespec Used;
  };
  std::vector<Entry> Entries;
  uint64_t Total = 0;
  DIR *D = opendir(Dir.c_str());
  if (!D)
    return 0;
  while (dirent *E = readdir(D)) {
    std::string Name = E->d_name;
    if (Name.size() < 5 || Name.compare(Name.size() - 4, 4, ".hjc") != 0)
      continue;
    std::string Path = Dir + "/" + Name;
    struct stat St;
    if (lstat(Path.c_str(), &St) != 0 || !S_ISREG(St.st_mode))
      continue;
    Entries.push_back({Path, uint64_t(St.st_size), St.st_mtim});
    Total += uint64_t(St.st_size);
  }
  closedir(D);
  if (Total <= MaxBytes)
    return 0;
  std::sort(Entries.begin(), Entries.end(), [](const Entry &A, const Entry &B) {
    if (A.Used.tv_sec != B.Used.tv_sec)
      return A.Used.tv_sec < B.Used.tv_sec;
    return A.Used.tv_nsec < B.Used.tv_nsec;
  });
  unsigned Removed = 0;
  for (const Entry &E : Entries) {
    if (Total <= MaxBytes)
      break;
    if (unlink(E.Path.c_str()) == 0) {
      Total -= E.Size;
      ++Removed;
    }
  }
  return Removed;
}
