//===- JITCache.h - On-disk cache of translated modules ---------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Translations of hetIR modules are cached on disk, one file per
/// (module, target, arch, features, translator ABI, flags). The directory is
/// HETGPU_CACHE_DIR, else $XDG_CACHE_HOME/hetgpu, else ~/.cache/hetgpu.
///
/// An entry is `<target>-<key as 16 hex digits>.hjc`:
///
///   offset 0  char[8] magic "HGPUJIT1"
///          8  u32     entry format version (2; 1 had an FNV checksum)
///         12  u32     HETGPU_TRANSLATOR_ABI_VERSION of the writer
///         16  u64     key
///         24  u64     payload size
///         32  u64[2]  XXH3-128 of the payload (low, high)
///         48  payload (the native binary)
///
/// Entries are written to a unique temporary file in the same directory and
/// renamed into place, so readers see either no entry or a whole one and
/// concurrent writers (threads or processes) never corrupt each other. An
/// entry whose header, size or checksum does not match, that is not a
/// regular file (a FIFO, a device, a symbolic link) or that another user
/// owns or may write is reported, removed and treated as a miss.
///
/// The directory is refused (checkDirectory) when it is not a directory,
/// belongs to another user or is writable by group or others, as ssh
/// refuses such a ~/.ssh: its entries are loaded as code. After each store
/// the directory is pruned to HETGPU_CACHE_MAX_SIZE bytes (default 1 GiB;
/// suffixes K, M, G; 0 = no bound), least recently used entries first (a
/// hit refreshes its entry's modification time).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_CORE_JITCACHE_H
#define HETGPU_RUNTIME_CORE_JITCACHE_H

#include "Core/Device.h"
#include "hetgpu/IR/Container.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hetgpu {
namespace rt {

/// What a translation depends on; every field is part of the key.
struct CacheKeyInput {
  container::Hash128 IRHash;
  std::string Target;
  std::string Arch;
  std::string Features;
  unsigned TranslatorABI = 0;
  unsigned Flags = 0;
  unsigned OptLevel = 3;
  /// Anything else the output depends on (e.g. the host CPU for "native").
  std::string Extra;
};

class JITCache {
public:
  static constexpr char EntryMagic[8] = {'H', 'G', 'P', 'U',
                                         'J', 'I', 'T', '1'};
  static constexpr uint32_t EntryVersion = 2;
  static constexpr size_t HeaderSize = 48;
  static constexpr uint64_t DefaultMaxSize = 1ull << 30;

  /// The directory chosen by the environment (not created).
  static std::string defaultDirectory();
  /// The 64-bit key of \p In (XXH3 over an unambiguous encoding).
  static uint64_t key(const CacheKeyInput &In);

  explicit JITCache(std::string Directory);
  const std::string &directory() const { return Dir; }
  std::string entryPath(uint64_t Key, const std::string &Target) const;

  /// Reads the entry; returns true with \p Out filled on a valid hit. A
  /// corrupt or stale entry is removed and \p Why says what was wrong.
  bool lookup(uint64_t Key, const std::string &Target, std::vector<char> &Out,
              std::string *Why = nullptr) const;
  /// Writes the entry atomically (creating the directory, mode 0700).
  Status store(uint64_t Key, const std::string &Target,
               const std::vector<char> &Data) const;

  /// Whether the directory may be used: it does not exist yet (store
  /// creates it), or it is a directory of this user that group and others
  /// cannot write. Otherwise \p Why says why not.
  bool checkDirectory(std::string &Why) const;
  /// HETGPU_CACHE_MAX_SIZE in bytes (DefaultMaxSize when unset; 0 = no
  /// bound); a malformed value gives the default and \p Why says so.
  static uint64_t maxSize(std::string *Why = nullptr);
  /// Removes the least recently used entries until the entries take at
  /// most \p MaxBytes (0 = no bound); returns how many were removed.
  unsigned prune(uint64_t MaxBytes) const;

private:
  std::string Dir;
};

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_CORE_JITCACHE_H
