; Negative twin: a kernel without safe points (no barrier, no loop safe
; point) gets only the three hidden trailing parameters (state buffer,
; control block, round): no entry test on the round (such a block cannot
; be suspended), no yield test, no save or restore code, no header access:
; the body is unchanged. (barriers.ll has the twin with plain barriers.)
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define void @k(ptr %out, ptr %hetgpu.state, ptr %hetgpu.ctrl, i32 %hetgpu.round)
; CHECK-NEXT: hetgpu.entry:
; CHECK-NEXT: br label %hetgpu.body
; CHECK: hetgpu.body:
; CHECK-NEXT: %t = call i32 @__hetgpu_tid_x()
; CHECK-NEXT: store i32 %t, ptr %out
; CHECK-NEXT: ret void
; CHECK-NOT: hetgpu.header
; CHECK-NOT: hetgpu.ctrl
; CHECK-NOT: hetgpu.round
; CHECK-NOT: hetgpu.resume
; CHECK-NOT: hetgpu.status
; CHECK-NOT: hetgpu.save
; CHECK-NOT: hetgpu.restore
; CHECK-NOT: __hetgpu_barrier_or
define void @k(ptr %out) #0 {
  %t = call i32 @__hetgpu_tid_x()
  store i32 %t, ptr %out
  ret void
}

; Not a kernel: untouched.
; CHECK-LABEL: define internal void @helper(ptr %p)
; CHECK-NEXT: store i32 1, ptr %p
; CHECK-NEXT: ret void
define internal void @helper(ptr %p) {
  store i32 1, ptr %p
  ret void
}
declare i32 @__hetgpu_tid_x()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !5}
!2 = !{!3}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{}
!5 = !{i32 0, i32 0}
; CHECK: !"instrumented", i1 true
