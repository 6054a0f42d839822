; emit(): --arch picks the CPU (a generic x86-64 object has no AVX-512
; registers, the native one on an AVX-512 host has), and a failing linker is
; an error that names the linker and carries its output.
; RUN: hetgpu-translate --target=host --arch=x86-64 %s -o %t.generic.so
; RUN: llvm-objdump -d %t.generic.so | FileCheck --check-prefix=GENERIC %s
; RUN: hetgpu-host-run --block=64 %t.generic.so add buf:f32:64:iota f32=2 \
; RUN:   | FileCheck --check-prefix=OUT %s
; RUN: env HETGPU_LLD=%S/Inputs/failing-lld.sh not hetgpu-translate --target=host %s -o %t.bad.so 2>&1 \
; RUN:   | FileCheck --check-prefix=ERR %s
; GENERIC-LABEL: <__hetgpu_block_add>:
; GENERIC-NOT: zmm
; GENERIC: ret
; OUT: arg0: 2 3 4 5 6
; ERR: host target: linking the shared object with {{.*}}failing-lld.sh failed
; ERR-NEXT: ld.lld: error: pretend failure

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define void @add(ptr %a, float %b) #0 {
  %t = call i32 @__hetgpu_tid_x()
  %t64 = zext i32 %t to i64
  %p = getelementptr float, ptr %a, i64 %t64
  %v = load float, ptr %p
  %s = fadd float %v, %b
  store float %s, ptr %p
  ret void
}

declare i32 @__hetgpu_tid_x()

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @add, !"name", !"add(float*, float)", !"params", !2, !"shared.static", i64 0, !"features", !{}, !"launch.bounds", !{i32 0, i32 0}}
!2 = !{!{!"ptr", i32 8, i32 8}, !{!"value", i32 4, i32 4}}
