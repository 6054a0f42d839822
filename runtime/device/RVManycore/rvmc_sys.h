/*===- rvmc_sys.h - Linux system calls of the RISC-V device runtime ------===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * The few Linux system calls a core process makes (under qemu-user they are
 * the host's): mmap, read, write, exit_group, clock_gettime. Freestanding.
 *
\*===----------------------------------------------------------------------===*/

#ifndef HETGPU_RVMC_SYS_H
#define HETGPU_RVMC_SYS_H

#include <stdint.h>

#define RVMC_SYS_READ 63
#define RVMC_SYS_WRITE 64
#define RVMC_SYS_EXIT_GROUP 94
#define RVMC_SYS_CLOCK_GETTIME 113
#define RVMC_SYS_MMAP 222

#define RVMC_PROT_READ 1
#define RVMC_PROT_WRITE 2
#define RVMC_PROT_EXEC 4
#define RVMC_MAP_SHARED 0x01
#define RVMC_MAP_PRIVATE 0x02
#define RVMC_MAP_FIXED 0x10
#define RVMC_MAP_ANONYMOUS 0x20
#define RVMC_MAP_NORESERVE 0x4000

static inline long rvmc_syscall6(long n, long a, long b, long c, long d,
                                 long e, long f) {
  register long a0 __asm__("a0") = a;
  register long a1 __asm__("a1") = b;
  register long a2 __asm__("a2") = c;
  register long a3 __asm__("a3") = d;
  register long a4 __asm__("a4") = e;
  register long a5 __asm__("a5") = f;
  register long a7 __asm__("a7") = n;
  __asm__ volatile("ecall"
                   : "+r"(a0)
                   : "r"(a1), "r"(a2), "r"(a3), "r"(a4), "r"(a5), "r"(a7)
                   : "memory");
  return a0;
}

static inline void *rvmc_mmap_at(uint64_t addr, uint64_t len, int prot,
                                 int flags, int fd, uint64_t offset) {
  return (void *)rvmc_syscall6(RVMC_SYS_MMAP, (long)addr, (long)len, prot,
                               flags, fd, (long)offset);
}

static inline void *rvmc_mmap(uint64_t addr, uint64_t len, int prot,
                              int flags, int fd) {
  return rvmc_mmap_at(addr, len, prot, flags, fd, 0);
}

static inline long rvmc_read(int fd, void *p, uint64_t n) {
  return rvmc_syscall6(RVMC_SYS_READ, fd, (long)p, (long)n, 0, 0, 0);
}

static inline long rvmc_write(int fd, const char *s, uint64_t n) {
  return rvmc_syscall6(RVMC_SYS_WRITE, fd, (long)s, (long)n, 0, 0, 0);
}

__attribute__((noreturn)) static inline void rvmc_exit(int status) {
  for (;;)
    rvmc_syscall6(RVMC_SYS_EXIT_GROUP, status, 0, 0, 0, 0, 0);
}

static inline uint64_t rvmc_strlen(const char *s) {
  uint64_t n = 0;
  while (s[n])
    ++n;
  return n;
}

static inline void rvmc_puts(int fd, const char *s) {
  rvmc_write(fd, s, rvmc_strlen(s));
}

#endif /* HETGPU_RVMC_SYS_H */
