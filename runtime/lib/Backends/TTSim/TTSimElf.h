//===- TTSimElf.h - Load a RISC-V many-core image into device DRAM -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The rvmc lowering target produces a static-PIE ELF (ELF64, little endian,
/// EM_RISCV, ET_DYN, no interpreter). The tt-sim backend copies its PT_LOAD
/// segments into device DRAM at a base it chooses, applies the
/// R_RISCV_RELATIVE relocations for that base, and looks kernels and
/// `__device__` variables up in the symbol table. No LLVM: plain C++.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_TTSIM_TTSIMELF_H
#define HETGPU_RUNTIME_BACKENDS_TTSIM_TTSIMELF_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hetgpu {
namespace rt {
namespace ttsim {

struct ElfSymbol {
  uint64_t Value = 0; ///< address relative to the image base
  uint64_t Size = 0;
  bool IsFunction = false;
};

/// A parsed image: what to copy where and which relocations to apply.
class ElfImage {
public:
  /// Parses \p Bytes; returns an empty string or a message naming what is
  /// wrong with the image.
  std::string parse(const std::vector<char> &Bytes);

  /// Bytes of DRAM the image spans from its virtual address 0.
  uint64_t span() const { return Span; }
  /// Copies the segments to \p Dst (a host-visible view of DRAM address
  /// \p Base, at least span() bytes), zeroes the rest and relocates.
  std::string loadAt(char *Dst, uint64_t Base) const;
  /// The symbol called \p Name, or null.
  const ElfSymbol *symbol(const std::string &Name) const;
  const std::map<std::string, ElfSymbol> &symbols() const { return Symbols; }

  /// The thread-local storage template (PT_TLS), all zero when none.
  struct TlsInfo {
    uint64_t VAddr = 0, FileSize = 0, MemSize = 0, Align = 1;
  };
  const TlsInfo &tls() const { return Tls; }

private:
  struct Segment {
    uint64_t Offset, VAddr, FileSize, MemSize;
  };
  struct Reloc {
    uint64_t Offset;
    uint32_t Type;
    uint32_t Sym;
    int64_t Addend;
  };
  const std::vector<char> *Bytes = nullptr;
  std::vector<Segment> Segments;
  std::vector<Reloc> Relocs;
  std::map<std::string, ElfSymbol> Symbols;
  uint64_t Span = 0;
  TlsInfo Tls;
};

} // namespace ttsim
} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_TTSIM_TTSIMELF_H
