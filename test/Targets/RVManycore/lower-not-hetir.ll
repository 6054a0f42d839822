; Negative twin of lower-kernel-abi.ll: a module that is already RISC-V is
; left alone (no block function, no exports, nothing retargeted).
; RUN: hetgpu-opt -passes=hetgpu-lower-rvmc -S %s | FileCheck %s
; A module of any other target is refused with its triple.
; RUN: sed -e 's/riscv64-unknown-elf/x86_64-pc-linux-gnu/' %s > %t.ll
; RUN: not hetgpu-opt -passes=hetgpu-lower-rvmc -disable-output %t.ll 2>&1 \
; RUN:   | FileCheck --check-prefix=ERR %s

target triple = "riscv64-unknown-elf"

; CHECK: target triple = "riscv64-unknown-elf"
; CHECK-NOT: __hetgpu_block_
; CHECK-NOT: __hetgpu_rvmc_
; CHECK-LABEL: define void @f(
; CHECK-NEXT: ret void
; ERR: error: {{.*}}rvmc: module is not hetIR (target triple 'x86_64-pc-linux-gnu', expected 'unknown-hetgpu-unknown')
define void @f() {
  ret void
}
