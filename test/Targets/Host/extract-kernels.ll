; The translator's kernel subset (hetgpu-translate --kernel, the runtime's
; kernel groups): only the named kernels keep block functions, what they do
; not use is gone, and a name the module lacks is an error naming it.
; RUN: hetgpu-translate --target=host %s -o %t.a.so --kernel=a
; RUN: llvm-nm %t.a.so | FileCheck %s --check-prefix=A
; RUN: hetgpu-host-run --block=4 %t.a.so a buf:f32:4:iota | FileCheck %s --check-prefix=OUT
; RUN: hetgpu-translate --target=host %s -o %t.ab.so --kernel=a --kernel=b
; RUN: llvm-nm %t.ab.so | FileCheck %s --check-prefix=AB
; RUN: not hetgpu-translate --target=host %s -o %t.bad.so --kernel=nope 2>&1 | FileCheck %s --check-prefix=ERR
; A: __hetgpu_block_a
; A-NOT: __hetgpu_block_b
; A-NOT: onlyb
; AB-DAG: __hetgpu_block_a
; AB-DAG: __hetgpu_block_b
; OUT: arg0: 2 3 4 5
; ERR: extracting kernels: the module has no kernel 'nope'

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define float @shared(float %x) {
  %r = fadd float %x, 2.0
  ret float %r
}

define float @onlyb(float %x) noinline {
  %r = fmul float %x, 3.0
  ret float %r
}

define void @a(ptr %p) #0 {
  %t = call i32 @__hetgpu_tid_x()
  %t64 = zext i32 %t to i64
  %q = getelementptr float, ptr %p, i64 %t64
  %v = load float, ptr %q
  %s = call float @shared(float %v)
  store float %s, ptr %q
  ret void
}

define void @b(ptr %p) #0 {
  %t = call i32 @__hetgpu_tid_x()
  %t64 = zext i32 %t to i64
  %q = getelementptr float, ptr %p, i64 %t64
  %v = load float, ptr %q
  %s = call float @onlyb(float %v)
  store float %s, ptr %q
  ret void
}

declare i32 @__hetgpu_tid_x()

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1, !3}
!0 = !{i32 1, i32 0}
!1 = !{ptr @a, !"name", !"a(float*)", !"params", !2, !"shared.static", i64 0, !"features", !{}, !"launch.bounds", !{i32 0, i32 0}}
!3 = !{ptr @b, !"name", !"b(float*)", !"params", !2, !"shared.static", i64 0, !"features", !{}, !"launch.bounds", !{i32 0, i32 0}}
!2 = !{!{!"ptr", i32 8, i32 8}}
