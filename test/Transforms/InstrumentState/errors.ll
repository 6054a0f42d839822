; A barrier without a laid-out safe point (hetgpu-state-layout did not run)
; cannot be instrumented: the pass names the kernel and the reason.
; RUN: not hetgpu-opt -passes=hetgpu-instrument-state -disable-output %s 2>&1 | FileCheck --check-prefix=ERR %s
; A bundle that disagrees with !hetgpu.state is refused too.
; RUN: sed -e 's/call void @__hetgpu_barrier()$/call void @__hetgpu_barrier() [ "hetgpu.live"(i32 %x, i32 %x) ], !hetgpu.safepoint !9/' %s > %t.ll
; RUN: echo '!hetgpu.state = !{!10}' >> %t.ll
; RUN: echo '!9 = !{i32 1}' >> %t.ll
; RUN: echo '!10 = !{ptr @k, !11, !12}' >> %t.ll
; RUN: echo '!11 = !{i32 0, !"entry", i32 0, !{}}' >> %t.ll
; RUN: echo '!12 = !{i32 1, !"barrier", i32 8, !{!13}}' >> %t.ll
; RUN: echo '!13 = !{!"value", !"i32", i32 0, i32 4, i32 4}' >> %t.ll
; RUN: not hetgpu-opt -passes=hetgpu-instrument-state -disable-output %t.ll 2>&1 | FileCheck --check-prefix=BUNDLE %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; ERR: error: {{.*}}cannot instrument kernel 'k' for migration: barrier without a laid-out safe point (run hetgpu-state-layout first)
; BUNDLE: error: {{.*}}cannot instrument kernel 'k': safe point 1 lists 1 slots but its barrier carries 2 live values
define void @k(ptr %out) #0 {
  %x = call i32 @__hetgpu_tid_x()
  call void @__hetgpu_barrier()
  store i32 %x, ptr %out
  ret void
}
declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_barrier()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !5}
!2 = !{!3}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{!"barrier"}
!5 = !{i32 0, i32 0}
