//===- crt0.S - Entry of a RISC-V many-core core process --------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
//
// _start runs in the core's private, unrelocated copy of the image (loaded by
// qemu-riscv64): it only uses PC-relative addressing. rvmc_boot maps DRAM,
// SRAM and the stack and does not return unless booting failed; its result
// is then the exit status.
//
//===----------------------------------------------------------------------===//

  .section .text.rvmc_start, "ax", @progbits
  .globl _start
  .type _start, @function
_start:
  ld a0, 0(sp)          // argc
  addi a1, sp, 8        // argv
  andi sp, sp, -16
  call rvmc_boot
  li a7, 94             // exit_group(status)
  ecall
1:
  j 1b
  .size _start, . - _start

// void rvmc_enter(uintptr_t entry, uintptr_t sp, void *a0, uint64_t a1,
//                 uint64_t a2)
// Switches to the core stack and jumps to entry(a0, a1, a2); never returns.
  .globl rvmc_enter
  .type rvmc_enter, @function
rvmc_enter:
  mv t0, a0
  mv sp, a1
  mv a0, a2
  mv a1, a3
  mv a2, a4
  li ra, 0
  jr t0
  .size rvmc_enter, . - rvmc_enter
