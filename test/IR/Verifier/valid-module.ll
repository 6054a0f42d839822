; Negative twin: portable hetIR with consistent metadata verifies silently
; (and the module is not changed).
; RUN: hetgpu-opt -passes=hetgpu-verify -S %s 2>&1 | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-NOT: error
; CHECK-LABEL: define void @k(
; CHECK: atomicrmw add ptr %p, i32 1 monotonic
; CHECK: call float @llvm.sqrt.f32
define void @k(ptr %p, float %x) #0 {
  %old = atomicrmw add ptr %p, i32 1 monotonic
  %s = call float @llvm.sqrt.f32(float %x)
  %t = call i32 @__hetgpu_tid_x()
  ret void
}
declare float @llvm.sqrt.f32(float)
declare i32 @__hetgpu_tid_x()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !5}
!2 = !{!3, !6}
!3 = !{!"ptr", i32 8, i32 8}
!6 = !{!"value", i32 4, i32 4}
!4 = !{!"atomic.global"}
!5 = !{i32 0, i32 0}
