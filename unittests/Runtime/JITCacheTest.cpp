//===- JITCacheTest.cpp - Tests of the on-disk JIT cache ------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Round trips, detection of corrupt and stale entries, key sensitivity and
/// concurrent writers in several processes.
///
//===----------------------------------------------------------------------===//

#include "Core/JITCache.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace hetgpu::rt;

namespace {

class JITCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    char Tmpl[] = "/tmp/hetgpu-cache-test-XXXXXX";
    ASSERT_NE(mkdtemp(Tmpl), nullptr);
    Dir = std::string(Tmpl) + "/nested/dir";
  }
  void TearDown() override {
    std::string Cmd = "rm -rf '" + Dir.substr(0, Dir.find("/nested")) + "'";
    (void)system(Cmd.c_str());
  }

  static std::vector<char> payload(size_t N, char Seed) {
    std::vector<char> V(N);
    for (size_t I = 0; I < N; ++I)
      V[I] = static_cast<char>(Seed + I * 7);
    return V;
  }

  std::vector<std::string> files() {
    std::vector<std::string> Out;
    DIR *D = opendir(Dir.c_str());
    if (!D)
      return Out;
    while (dirent *E = readdir(D))
      if (E->d_name[0] != '.')
        Out.push_back(E->d_name);
    closedir(D);
    return Out;
  }

  void patchByte(const std::string &Path, long Offset, char Value) {
    std::fstream F(Path, std::ios::in | std::ios::out | std::ios::binary);
    F.seekp(Offset);
    F.write(&Value, 1);
  }

  std::string Dir;
};

TEST_F(JITCacheTest, StoreThenLookup) {
  JITCache C(Dir);
  auto Data = payload(1000, 3);
  std::vector<char> Out;
  std::string Why;
  EXPECT_FALSE(C.lookup(42, "host", Out, &Why));
  EXPECT_EQ(Why, "no entry");
  ASSERT_TRUE(C.store(42, "host", Data).isOk());
  ASSERT_TRUE(C.lookup(42, "host", Out, &Why)) << Why;
  EXPECT_EQ(Out, Data);
  // Another key or target is another entry.
  EXPECT_FALSE(C.lookup(43, "host", Out));
  EXPECT_FALSE(C.lookup(42, "nvptx", Out));
  // No temporary file is left behind.
  auto Files = files();
  ASSERT_EQ(Files.size(), 1u);
  EXPECT_EQ(Files[0], "host-000000000000002a.hjc");
}

TEST_F(JITCacheTest, EmptyPayload) {
  JITCache C(Dir);
  ASSERT_TRUE(C.store(7, "host", {}).isOk());
  std::vector<char> Out{1, 2};
  EXPECT_TRUE(C.lookup(7, "host", Out));
  EXPECT_TRUE(Out.empty());
}

TEST_F(JITCacheTest, CorruptPayloadIsDetectedAndRemoved) {
  JITCache C(Dir);
  ASSERT_TRUE(C.store(1, "host", payload(500, 1)).isOk());
  std::string Path = C.entryPath(1, "host");
  patchByte(Path, JITCache::HeaderSize + 100, 0x55);
  std::vector<char> Out;
  std::string Why;
  EXPECT_FALSE(C.lookup(1, "host", Out, &Why));
  EXPECT_NE(Why.find("checksum mismatch"), std::string::npos) << Why;
  EXPECT_TRUE(Out.empty());
  struct stat St;
  EXPECT_NE(stat(Path.c_str(), &St), 0) << "corrupt entry not removed";
  // Rebuilt: a new store works again.
  ASSERT_TRUE(C.store(1, "host", payload(500, 1)).isOk());
  EXPECT_TRUE(C.lookup(1, "host", Out));
}

TEST_F(JITCacheTest, TruncatedEntry) {
  JITCache C(Dir);
  ASSERT_TRUE(C.store(2, "host", payload(500, 2)).isOk());
  std::string Path = C.entryPath(2, "host");
  ASSERT_EQ(truncate(Path.c_str(), JITCache::HeaderSize + 10), 0);
  std::vector<char> Out;
  std::string Why;
  EXPECT_FALSE(C.lookup(2, "host", Out, &Why));
  EXPECT_NE(Why.find("size mismatch"), std::string::npos) << Why;
  ASSERT_TRUE(C.store(2, "host", payload(500, 2)).isOk());
  ASSERT_EQ(truncate(Path.c_str(), 5), 0);
  EXPECT_FALSE(C.lookup(2, "host", Out, &Why));
  EXPECT_NE(Why.find("truncated header"), std::string::npos) << Why;
}

TEST_F(JITCacheTest, BadMagicStaleVersionAndKeyMismatch) {
  JITCache C(Dir);
  std::vector<char> Out;
  std::string Why;
  ASSERT_TRUE(C.store(3, "host", payload(64, 3)).isOk());
  patchByte(C.entryPath(3, "host"), 0, 'X');
  EXPECT_FALSE(C.lookup(3, "host", Out, &Why));
  EXPECT_NE(Why.find("bad magic"), std::string::npos) << Why;

  ASSERT_TRUE(C.store(3, "host", payload(64, 3)).isOk());
  patchByte(C.entryPath(3, "host"), 12, 99); // translator ABI version
  EXPECT_FALSE(C.lookup(3, "host", Out, &Why));
  EXPECT_NE(Why.find("stale translator ABI"), std::string::npos) << Why;

  ASSERT_TRUE(C.store(3, "host", payload(64, 3)).isOk());
  patchByte(C.entryPath(3, "host"), 16, 9); // key
  EXPECT_FALSE(C.lookup(3, "host", Out, &Why));
  EXPECT_NE(Why.find("key mismatch"), std::string::npos) << Why;
}

TEST_F(JITCacheTest, KeyDependsOnEveryField) {
  CacheKeyInput Base;
  Base.IRHash = {123, 0};
  Base.Target = "host";
  Base.Arch = "native";
  Base.Features = "+avx2";
  Base.TranslatorABI = 1;
  Base.Flags = 0;
  Base.OptLevel = 3;
  Base.Extra = "cpu";
  uint64_t K = JITCache::key(Base);
  EXPECT_EQ(K, JITCache::key(Base));
  auto Differs = [&](auto Mutate) {
    CacheKeyInput C = Base;
    Mutate(C);
    return JITCache::key(C) != K;
  };
  EXPECT_TRUE(Differs([](CacheKeyInput &C) { C.IRHash = {124, 0}; }));
  EXPECT_TRUE(Differs([](CacheKeyInput &C) { C.Target = "nvptx"; }));
  EXPECT_TRUE(Differs([](CacheKeyInput &C) { C.Arch = "sm_90"; }));
  EXPECT_TRUE(Differs([](CacheKeyInput &C) { C.Features = ""; }));
  EXPECT_TRUE(Differs([](CacheKeyInput &C) { C.TranslatorABI = 2; }));
  EXPECT_TRUE(Differs([](CacheKeyInput &C) { C.Flags = 1; }));
  EXPECT_TRUE(Differs([](CacheKeyInput &C) { C.OptLevel = 2; }));
  EXPECT_TRUE(Differs([](CacheKeyInput &C) { C.Extra = "other"; }));
  // Field boundaries matter: ("host","native") != ("hostn","ative").
  EXPECT_TRUE(Differs([](CacheKeyInput &C) {
    C.Target = "hostn";
    C.Arch = "ative";
  }));
}

TEST_F(JITCacheTest, ConcurrentWritersAndReadersInSeveralProcesses) {
  // Eight processes store and read the same two keys many times, with
  // different payload sizes per key. Every successful read must be exactly
  // one of the written payloads: never a torn or mixed entry.
  const auto A = payload(200000, 11), B = payload(300000, 22);
  std::vector<pid_t> Kids;
  for (int P = 0; P < 8; ++P) {
    pid_t Pid = fork();
    ASSERT_GE(Pid, 0);
    if (Pid == 0) {
      JITCache C(Dir);
      int Bad = 0;
      for (int I = 0; I < 40; ++I) {
        const auto &Mine = (I + P) % 2 ? A : B;
        uint64_t Key = (I + P) % 2 ? 100 : 200;
        if (C.store(Key, "host", Mine))
          ++Bad;
        std::vector<char> Out;
        std::string Why;
        if (C.lookup(Key, "host", Out, &Why) && Out != Mine)
          ++Bad;
        if (!Why.empty() && Why != "no entry")
          ++Bad; // a reader saw a corrupt entry
      }
      _exit(Bad ? 1 : 0);
    }
    Kids.push_back(Pid);
  }
  for (pid_t Pid : Kids) {
    int St = 0;
    ASSERT_EQ(waitpid(Pid, &St, 0), Pid);
    EXPECT_TRUE(WIFEXITED(St) && WEXITSTATUS(St) == 0)
        << "a process saw a corrupt entry or failed to write";
  }
  JITCache C(Dir);
  std::vector<char> Out;
  ASSERT_TRUE(C.lookup(100, "host", Out));
  EXPECT_EQ(Out, A);
  ASSERT_TRUE(C.lookup(200, "host", Out));
  EXPECT_EQ(Out, B);
  EXPECT_EQ(files().size(), 2u) << "temporary files were left behind";
}

TEST_F(JITCacheTest, FifoAndSymlinkEntriesAreRefusedWithoutBlocking) {
  JITCache C(Dir);
  ASSERT_TRUE(C.store(5, "host", payload(64, 5)).isOk());
  std::string Path = C.entryPath(5, "host");
  // A FIFO: open(O_RDONLY) would wait for a writer forever.
  ASSERT_EQ(unlink(Path.c_str()), 0);
  ASSERT_EQ(mkfifo(Path.c_str(), 0600), 0);
  std::vector<char> Out;
  std::string Why;
  EXPECT_FALSE(C.lookup(5, "host", Out, &Why));
  EXPECT_NE(Why.find("not a regular file"), std::string::npos) << Why;
  struct stat St;
  EXPECT_NE(lstat(Path.c_str(), &St), 0) << "the FIFO was not removed";
  // A symbolic link to a valid entry elsewhere is not followed.
  std::string Elsewhere = Dir + "/../elsewhere.hjc";
  ASSERT_TRUE(C.store(6, "host", payload(64, 6)).isOk());
  ASSERT_EQ(rename(C.entryPath(6, "host").c_str(), Elsewhere.c_str()), 0);
  ASSERT_EQ(symlink(Elsewhere.c_str(), Path.c_str()), 0);
  EXPECT_FALSE(C.lookup(5, "host", Out, &Why));
  EXPECT_NE(Why.find("cannot open"), std::string::npos) << Why;
}

TEST_F(JITCacheTest, EntryWritableByOthersIsRefused) {
  JITCache C(Dir);
  ASSERT_TRUE(C.store(8, "host", payload(64, 8)).isOk());
  ASSERT_EQ(chmod(C.entryPath(8, "host").c_str(), 0666), 0);
  std::vector<char> Out;
  std::string Why;
  EXPECT_FALSE(C.lookup(8, "host", Out, &Why));
  EXPECT_NE(Why.find("writable by others"), std::string::npos) << Why;
}

TEST_F(JITCacheTest, DirectoryOthersCanWriteIsRefused) {
  JITCache C(Dir);
  std::string Why;
  EXPECT_TRUE(C.checkDirectory(Why)) << "a missing directory is fine";
  ASSERT_TRUE(C.store(1, "host", payload(8, 1)).isOk());
  struct stat St;
  ASSERT_EQ(stat(Dir.c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 0777, 0700u) << "store creates a private directory";
  EXPECT_TRUE(C.checkDirectory(Why)) << Why;
  ASSERT_EQ(chmod(Dir.c_str(), 0770), 0);
  EXPECT_FALSE(C.checkDirectory(Why));
  EXPECT_NE(Why.find("writable by group or others"), std::string::npos) << Why;
  ASSERT_EQ(chmod(Dir.c_str(), 0757), 0);
  EXPECT_FALSE(C.checkDirectory(Why));
  ASSERT_EQ(chmod(Dir.c_str(), 0700), 0);
  if (geteuid() == 0) { // root can give it away
    ASSERT_EQ(chown(Dir.c_str(), 65534, 65534), 0);
    EXPECT_FALSE(C.checkDirectory(Why));
    EXPECT_NE(Why.find("not by this user"), std::string::npos) << Why;
    ASSERT_EQ(chown(Dir.c_str(), 0, 0), 0);
  }
  JITCache File(C.entryPath(1, "host"));
  EXPECT_FALSE(File.checkDirectory(Why));
  EXPECT_EQ(Why, "not a directory");
}

TEST_F(JITCacheTest, PruneRemovesLeastRecentlyUsedFirst) {
  JITCache C(Dir);
  for (uint64_t K = 1; K <= 4; ++K)
    ASSERT_TRUE(C.store(K, "host", payload(1000, char(K))).isOk());
  // Entry 1 oldest ... 4 newest; then a hit makes 1 the most recent.
  for (uint64_t K = 1; K <= 4; ++K) {
    struct timeval T[2] = {{long(1000 + K), 0}, {long(1000 + K), 0}};
    ASSERT_EQ(utimes(C.entryPath(K, "host").c_str(), T), 0);
  }
  std::vector<char> Out;
  ASSERT_TRUE(C.lookup(1, "host", Out));
  const uint64_t Entry = 1000 + JITCache::HeaderSize;
  EXPECT_EQ(C.prune(0), 0u) << "0 is no bound";
  EXPECT_EQ(C.prune(4 * Entry), 0u);
  EXPECT_EQ(C.prune(2 * Entry), 2u);
  EXPECT_TRUE(C.lookup(1, "host", Out)) << "the recently used entry stays";
  EXPECT_TRUE(C.lookup(4, "host", Out));
  EXPECT_FALSE(C.lookup(2, "host", Out));
  EXPECT_FALSE(C.lookup(3, "host", Out));
}

TEST_F(JITCacheTest, MaxSizeFromTheEnvironment) {
  std::string Why;
  unsetenv("HETGPU_CACHE_MAX_SIZE");
  EXPECT_EQ(JITCache::maxSize(&Why), JITCache::DefaultMaxSize);
  setenv("HETGPU_CACHE_MAX_SIZE", "1234", 1);
  EXPECT_EQ(JITCache::maxSize(), 1234u);
  setenv("HETGPU_CACHE_MAX_SIZE", "3M", 1);
  EXPECT_EQ(JITCache::maxSize(), 3u << 20);
  setenv("HETGPU_CACHE_MAX_SIZE", "0", 1);
  EXPECT_EQ(JITCache::maxSize(), 0u);
  setenv("HETGPU_CACHE_MAX_SIZE", "lots", 1);
  Why.clear();
  EXPECT_EQ(JITCache::maxSize(&Why), JITCache::DefaultMaxSize);
  EXPECT_NE(Why.find("is not a size"), std::string::npos) << Why;
  unsetenv("HETGPU_CACHE_MAX_SIZE");
}

} // namespace
