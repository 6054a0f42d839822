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
#include <fstream>
#include <string>
#include <sys/stat.h>
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

} // namespace
