; Negative twin: a kernel without barriers has only the entry safe point and
; no call gets a bundle.
; RUN: hetgpu-opt -passes=hetgpu-state-layout -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define void @k(
; CHECK-NOT: hetgpu.live
; CHECK: ret void
define void @k(ptr %out) #0 {
  %t = call i32 @__hetgpu_tid_x()
  store i32 %t, ptr %out
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
; CHECK: !hetgpu.state = !{![[S:[0-9]+]]}
; CHECK: ![[S]] = !{ptr @k, ![[E:[0-9]+]]}
; CHECK: ![[E]] = !{i32 0, !"entry", i32 0, !{{[0-9]+}}}
