//===- boot.c - Boot a core: map DRAM, SRAM, stack; enter the DRAM image ---===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs in the core's private copy of the image, which qemu-riscv64 loaded
/// without applying relocations: everything here is PC-relative code and
/// stack data only (no initialised pointers, no writable globals).
///
//===----------------------------------------------------------------------===//

#include "hetgpu/ABI/RVManycore.h"
#include "rvmc_sys.h"

extern const char __ehdr_start[] __attribute__((visibility("hidden")));
void rvmc_core_main(rvmc_launch *L, uint64_t Core, uint64_t DramMapped)
    __attribute__((visibility("hidden")));
__attribute__((noreturn)) void rvmc_enter(uint64_t Entry, uint64_t Sp,
                                          void *A0, uint64_t A1, uint64_t A2)
    __attribute__((visibility("hidden")));

static int parseNumber(const char *S, uint64_t *Out) {
  uint64_t V = 0;
  unsigned Base = 10;
  if (S[0] == '0' && (S[1] == 'x' || S[1] == 'X')) {
    Base = 16;
    S += 2;
  }
  if (!*S)
    return 0;
  for (; *S; ++S) {
    unsigned D;
    if (*S >= '0' && *S <= '9')
      D = (unsigned)(*S - '0');
    else if (Base == 16 && *S >= 'a' && *S <= 'f')
      D = (unsigned)(*S - 'a' + 10);
    else if (Base == 16 && *S >= 'A' && *S <= 'F')
      D = (unsigned)(*S - 'A' + 10);
    else
      return 0;
    V = V * Base + D;
  }
  *Out = V;
  return 1;
}

static int fail(const char *What) {
  rvmc_puts(2, "tt-sim core: boot failed: ");
  rvmc_puts(2, What);
  rvmc_puts(2, "\n");
  return RVMC_EXIT_BOOT;
}

static int mapped(void *P, uint64_t Want) { return (uint64_t)P == Want; }

int rvmc_boot(long Argc, char **Argv) __attribute__((visibility("hidden")));
int rvmc_boot(long Argc, char **Argv) {
  uint64_t Desc, Core, DramSize;
  if (Argc < 4 || !parseNumber(Argv[1], &Desc) ||
      !parseNumber(Argv[2], &Core) || !parseNumber(Argv[3], &DramSize))
    return fail("usage: <image> <launch descriptor> <core> <dram size>");
  if (Core >= RVMC_MAX_CORES || DramSize == 0 || DramSize > RVMC_DRAM_MAX ||
      Desc < RVMC_DRAM_BASE || Desc + sizeof(rvmc_launch) >
                                   RVMC_DRAM_BASE + DramSize)
    return fail("argument out of range");
  if (!mapped(rvmc_mmap(RVMC_DRAM_BASE, DramSize,
                        RVMC_PROT_READ | RVMC_PROT_WRITE | RVMC_PROT_EXEC,
                        RVMC_MAP_SHARED | RVMC_MAP_FIXED, RVMC_DRAM_FD),
              RVMC_DRAM_BASE))
    return fail("cannot map device DRAM (fd 3)");
  if (!mapped(rvmc_mmap(RVMC_SRAM_BASE, RVMC_SRAM_SIZE,
                        RVMC_PROT_READ | RVMC_PROT_WRITE,
                        RVMC_MAP_PRIVATE | RVMC_MAP_ANONYMOUS |
                            RVMC_MAP_FIXED,
                        -1),
              RVMC_SRAM_BASE))
    return fail("cannot map core SRAM");
  if (!mapped(rvmc_mmap(RVMC_STACK_BASE, RVMC_STACK_SIZE,
                        RVMC_PROT_READ | RVMC_PROT_WRITE,
                        RVMC_MAP_PRIVATE | RVMC_MAP_ANONYMOUS |
                            RVMC_MAP_FIXED,
                        -1),
              RVMC_STACK_BASE))
    return fail("cannot map core stack");
  if (!mapped(rvmc_mmap(RVMC_PRIV_BASE, RVMC_PRIV_SIZE,
                        RVMC_PROT_READ | RVMC_PROT_WRITE,
                        RVMC_MAP_PRIVATE | RVMC_MAP_ANONYMOUS |
                            RVMC_MAP_FIXED | RVMC_MAP_NORESERVE,
                        -1),
              RVMC_PRIV_BASE))
    return fail("cannot map core scratch memory");
  rvmc_launch *L = (rvmc_launch *)Desc;
  if (L->abi_version != RVMC_ABI_VERSION) {
    rvmc_puts(2, "tt-sim core: launch descriptor of another ABI version\n");
    return RVMC_EXIT_ABI;
  }
  // Thread-local storage (the block executor's frame cache): RISC-V keeps
  // the TLS block at tp; each core is one thread.
  if (L->tls_memsz > RVMC_TLS_MAX || L->tls_filesz > L->tls_memsz)
    return fail("thread-local data too large");
  unsigned char *Tls = (unsigned char *)RVMC_PRIV_BASE;
  const unsigned char *Tmpl = (const unsigned char *)L->tls_image;
  for (uint64_t I = 0; I < L->tls_filesz; ++I)
    Tls[I] = Tmpl[I];
  __asm__ volatile("mv tp, %0" : : "r"(Tls) : "memory");
  L->booted[Core] = 1;
  // The same function in the relocated DRAM copy of this image.
  uint64_t Offset = (uint64_t)&rvmc_core_main - (uint64_t)__ehdr_start;
  rvmc_enter(L->image_base + Offset, RVMC_STACK_BASE + RVMC_STACK_SIZE, L,
             Core, DramSize);
}
