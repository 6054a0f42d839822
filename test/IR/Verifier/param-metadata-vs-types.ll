; !hetgpu.kernels must describe each parameter as its IR type does: a byval
; struct of 16 bytes listed as 15, a pointer listed as a value and an i32
; listed as 8 bytes are each caught (the runtime launches with these sizes).
; The twin (the same module with the metadata corrected) verifies.
; RUN: not hetgpu-opt -passes=hetgpu-verify -disable-output %s 2>&1 | FileCheck --check-prefix=ERR %s
; RUN: sed -e 's/!"byval", i32 15/!"byval", i32 16/' -e 's/!"value", i32 8, i32 8/!"ptr", i32 8, i32 8/' -e 's/!"value", i32 8, i32 4/!"value", i32 4, i32 4/' %s | hetgpu-opt -passes=hetgpu-verify -disable-output

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

%pair = type { i32, double }

; ERR: error: hetIR verification failed:
; ERR-DAG: in function 'k': !hetgpu.kernels gives parameter 0 15 bytes, its IR type has 16
; ERR-DAG: in function 'k': !hetgpu.kernels gives parameter 1 kind value, which its IR type contradicts
; ERR-DAG: in function 'k': !hetgpu.kernels gives parameter 2 8 bytes, its IR type has 4
define void @k(ptr byval(%pair) align 8 %p, ptr addrspace(1) %q, i32 %n) #0 {
  ret void
}
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 0, !"features", !{}, !"launch.bounds", !{i32 0, i32 0}}
!2 = !{!3, !4, !5}
!3 = !{!"byval", i32 15, i32 8}
!4 = !{!"value", i32 8, i32 8}
!5 = !{!"value", i32 8, i32 4}
