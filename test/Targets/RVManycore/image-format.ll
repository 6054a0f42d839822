; hetgpu-translate --target=rvmc: the kernel object linked with the device
; runtime is a static-PIE RISC-V ELF (ET_DYN, no interpreter, only
; R_RISCV_RELATIVE dynamic relocations) with the entry _start, the block
; function, the per-kernel SRAM exports and the device variable.
; RUN: hetgpu-translate --target=rvmc %s -o %t.elf
; RUN: llvm-readelf -h -l -r --dyn-syms -s %t.elf | FileCheck %s
; CHECK: Type: DYN
; CHECK: Machine: RISC-V
; CHECK: Flags: 0x4, double-float ABI
; CHECK-NOT: INTERP
; CHECK: TLS
; CHECK-NOT: R_RISCV_{{(64|JUMP_SLOT|GLOB_DAT|TLS)}}
; CHECK-DAG: FUNC GLOBAL DEFAULT {{.*}} __hetgpu_block__Z1kPi
; CHECK-DAG: OBJECT GLOBAL DEFAULT {{.*}} __hetgpu_rvmc_shared__Z1kPi
; CHECK-DAG: OBJECT GLOBAL DEFAULT {{.*}} table
; CHECK-DAG: {{FUNC|NOTYPE}} {{.*}} _start
; RUN: hetgpu-translate --target=rvmc --arch=rv64gc %s -o %t.c.elf
; RUN: llvm-readelf -h %t.c.elf | FileCheck --check-prefix=RVC %s
; RVC: Flags: 0x5, RVC, double-float ABI
; rv32 and ISAs without M, A, F or D are refused.
; RUN: not hetgpu-translate --target=rvmc --arch=rv32imafd %s -o %t.bad 2>&1 \
; RUN:   | FileCheck --check-prefix=RV32 %s
; RV32: 'rv32imafd' is not a 64-bit RISC-V ISA string (e.g. rv64imafd): CUDA's 64-bit pointers rule out rv32
; RUN: not hetgpu-translate --target=rvmc --arch=rv64imc %s -o %t.bad 2>&1 \
; RUN:   | FileCheck --check-prefix=NOA %s
; NOA: ISA 'rv64imc' lacks one of M, A, F, D

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; A pointer in initialised device data needs a relocation at load time.
@data = addrspace(1) global [2 x i32] [i32 1, i32 2], align 4
@table = addrspace(1) global ptr addrspacecast (ptr addrspace(1) @data to ptr), align 8

define void @_Z1kPi(ptr %p) #0 {
  %t = call i32 @__hetgpu_tid_x()
  %q = load ptr, ptr addrspacecast (ptr addrspace(1) @table to ptr), align 8
  %v = load i32, ptr %q, align 4
  %s = add i32 %v, %t
  store i32 %s, ptr %p, align 4
  ret void
}

declare i32 @__hetgpu_tid_x()

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @_Z1kPi, !"name", !"k(int*)", !"params", !2, !"shared.static", i64 0, !"features", !4}
!2 = !{!3}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{}
