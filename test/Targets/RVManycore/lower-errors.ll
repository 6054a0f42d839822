; Device code that calls a function nobody defines (host or library code)
; is refused with the caller and callee named; so is an unknown ISA.
; RUN: not hetgpu-opt -passes=hetgpu-lower-rvmc -disable-output %s 2>&1 \
; RUN:   | FileCheck %s
; CHECK: rvmc: function '_Z1kPi' calls 'puts', which is not defined in the module (device code cannot call host or library functions)
; RUN: not hetgpu-translate --target=rvmc --arch=rv32imafd %s -o %t.elf 2>&1 \
; RUN:   | FileCheck --check-prefix=RV32 %s
; RV32: 'rv32imafd' is not a 64-bit RISC-V ISA string (e.g. rv64imafd): CUDA's 64-bit pointers rule out rv32
; RUN: not hetgpu-translate --target=rvmc --arch=rv64imc %s -o %t.elf 2>&1 \
; RUN:   | FileCheck --check-prefix=NOA %s
; NOA: ISA 'rv64imc' lacks one of M, A, F, D

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@msg = private constant [3 x i8] c"hi\00"

define void @_Z1kPi(ptr %p) #0 {
  %r = call i32 @puts(ptr @msg)
  store i32 %r, ptr %p
  ret void
}

declare i32 @puts(ptr)

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @_Z1kPi, !"name", !"k(int*)", !"params", !2, !"shared.static", i64 0, !"features", !4}
!2 = !{!3}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{}
