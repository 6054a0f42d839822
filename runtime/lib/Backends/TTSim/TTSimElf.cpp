//===- TTSimElf.cpp - Load a RISC-V many-core image into device DRAM ------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A minimal ELF64 reader for the static-PIE images of the rvmc target:
/// program headers, the dynamic relocation table and the symbol table.
///
//===----------------------------------------------------------------------===//

#include "TTSimElf.h"

#include <cstring>
#include <elf.h>

namespace hetgpu {
namespace rt {
namespace ttsim {

#ifndef EM_RISCV
#define EM_RISCV 243
#endif
#ifndef R_RISCV_NONE
#define R_RISCV_NONE 0
#define R_RISCV_64 2
#define R_RISCV_RELATIVE 3
#endif

namespace {
template <typename T>
bool readAt(const std::vector<char> &B, uint64_t Off, T &Out) {
  if (Off > B.size() || B.size() - Off < sizeof(T))
    return false;
  std::memcpy(&Out, B.data() + Off, sizeof(T));
  return true;
}
} // namespace

std::string ElfImage::parse(const std::vector<char> &B) {
  Bytes = &B;
  Segments.clear();
  Relocs.clear();
  Symbols.clear();
  Span = 0;
  Tls = TlsInfo();
  Elf64_Ehdr EH;
  if (!readAt(B, 0, EH) || std::memcmp(EH.e_ident, ELFMAG, SELFMAG) != 0)
    return "not an ELF file";
  if (EH.e_ident[EI_CLASS] != ELFCLASS64 || EH.e_ident[EI_DATA] != ELFDATA2LSB)
    return "not a little-endian ELF64 file";
  if (EH.e_machine != EM_RISCV)
    return "ELF machine is " + std::to_string(EH.e_machine) +
           ", not RISC-V (243)";
  if (EH.e_type != ET_DYN)
    return "not a position-independent (ET_DYN) image";
  if (EH.e_phentsize != sizeof(Elf64_Phdr) ||
      (EH.e_shnum && EH.e_shentsize != sizeof(Elf64_Shdr)))
    return "unexpected ELF header entry sizes";

  uint64_t DynOff = 0, DynSize = 0;
  for (unsigned I = 0; I < EH.e_phnum; ++I) {
    Elf64_Phdr PH;
    if (!readAt(B, EH.e_phoff + uint64_t(I) * sizeof(PH), PH))
      return "truncated program header table";
    if (PH.p_type == PT_INTERP)
      return "image has an interpreter; expected a static-PIE image";
    if (PH.p_type == PT_TLS)
      Tls = {PH.p_vaddr, PH.p_filesz, PH.p_memsz,
             PH.p_align ? PH.p_align : 1};
    if (PH.p_type == PT_DYNAMIC) {
      DynOff = PH.p_offset;
      DynSize = PH.p_filesz;
    }
    if (PH.p_type != PT_LOAD)
      continue;
    if (PH.p_filesz > PH.p_memsz || PH.p_offset > B.size() ||
        B.size() - PH.p_offset < PH.p_filesz)
      return "PT_LOAD segment outside the file";
    Segments.push_back({PH.p_offset, PH.p_vaddr, PH.p_filesz, PH.p_memsz});
    Span = std::max<uint64_t>(Span, PH.p_vaddr + PH.p_memsz);
  }
  if (Segments.empty())
    return "image has no loadable segment";
  if (Tls.MemSize > (64u << 10) || Tls.Align > 4096 ||
      Tls.VAddr + Tls.FileSize > Span)
    return "thread-local data of the image is larger than 64 KiB or misplaced";

  // Dynamic relocations (DT_RELA/DT_RELASZ hold virtual addresses; the
  // image is linked at 0, so map them back to file offsets via segments).
  auto VAToOffset = [&](uint64_t VA, uint64_t Size, uint64_t &Off) {
    for (const Segment &S : Segments)
      if (VA >= S.VAddr && VA + Size <= S.VAddr + S.FileSize) {
        Off = S.Offset + (VA - S.VAddr);
        return true;
      }
    return false;
  };
  uint64_t RelaVA = 0, RelaSize = 0, RelaEnt = sizeof(Elf64_Rela);
  for (uint64_t O = DynOff; DynSize && O + sizeof(Elf64_Dyn) <= DynOff + DynSize;
       O += sizeof(Elf64_Dyn)) {
    Elf64_Dyn D;
    if (!readAt(B, O, D))
      return "truncated dynamic section";
    if (D.d_tag == DT_NULL)
      break;
    if (D.d_tag == DT_RELA)
      RelaVA = D.d_un.d_ptr;
    else if (D.d_tag == DT_RELASZ)
      RelaSize = D.d_un.d_val;
    else if (D.d_tag == DT_RELAENT)
      RelaEnt = D.d_un.d_val;
    else if (D.d_tag == DT_REL || D.d_tag == DT_JMPREL || D.d_tag == DT_NEEDED)
      return "image needs dynamic linking (DT_REL/DT_JMPREL/DT_NEEDED)";
  }
  if (RelaSize) {
    uint64_t RelaOff;
    if (RelaEnt != sizeof(Elf64_Rela) || !VAToOffset(RelaVA, RelaSize, RelaOff))
      return "bad DT_RELA table";
    for (uint64_t O = 0; O < RelaSize; O += sizeof(Elf64_Rela)) {
      Elf64_Rela R;
      if (!readAt(B, RelaOff + O, R))
        return "truncated relocation table";
      uint32_t Type = ELF64_R_TYPE(R.r_info);
      if (Type == R_RISCV_NONE)
        continue;
      if (Type != R_RISCV_RELATIVE)
        return "unsupported dynamic relocation type " + std::to_string(Type) +
               " (only R_RISCV_RELATIVE is expected in a static-PIE image)";
      if (R.r_offset + 8 > Span)
        return "relocation outside the image";
      Relocs.push_back({R.r_offset, Type, uint32_t(ELF64_R_SYM(R.r_info)),
                        R.r_addend});
    }
  }

  // Symbol table (.symtab and its string table).
  for (unsigned I = 0; I < EH.e_shnum; ++I) {
    Elf64_Shdr SH;
    if (!readAt(B, EH.e_shoff + uint64_t(I) * sizeof(SH), SH))
      return "truncated section header table";
    if (SH.sh_type != SHT_SYMTAB)
      continue;
    Elf64_Shdr Str;
    if (!readAt(B, EH.e_shoff + uint64_t(SH.sh_link) * sizeof(Str), Str) ||
        Str.sh_offset > B.size() || B.size() - Str.sh_offset < Str.sh_size)
      return "bad symbol string table";
    for (uint64_t O = sizeof(Elf64_Sym); O + sizeof(Elf64_Sym) <= SH.sh_size;
         O += sizeof(Elf64_Sym)) {
      Elf64_Sym S;
      if (!readAt(B, SH.sh_offset + O, S))
        return "truncated symbol table";
      if (S.st_shndx == SHN_UNDEF || S.st_name >= Str.sh_size)
        continue;
      unsigned Bind = ELF64_ST_BIND(S.st_info), Ty = ELF64_ST_TYPE(S.st_info);
      if (Bind != STB_GLOBAL && Bind != STB_WEAK)
        continue;
      const char *Name = B.data() + Str.sh_offset + S.st_name;
      size_t Max = Str.sh_size - S.st_name;
      Symbols[std::string(Name, strnlen(Name, Max))] = {
          S.st_value, S.st_size, Ty == STT_FUNC};
    }
  }
  return "";
}

std::string ElfImage::loadAt(char *Dst, uint64_t Base) const {
  std::memset(Dst, 0, Span);
  for (const Segment &S : Segments)
    std::memcpy(Dst + S.VAddr, Bytes->data() + S.Offset, S.FileSize);
  for (const Reloc &R : Relocs) {
    uint64_t V = Base + uint64_t(R.Addend);
    std::memcpy(Dst + R.Offset, &V, 8);
  }
  return "";
}

const ElfSymbol *ElfImage::symbol(const std::string &Name) const {
  auto It = Symbols.find(Name);
  return It == Symbols.end() ? nullptr : &It->second;
}

} // namespace ttsim
} // namespace rt
} // namespace hetgpu
