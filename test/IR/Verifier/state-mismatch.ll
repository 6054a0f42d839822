; A safe point whose live bundle disagrees with !hetgpu.state, and metadata
; that lists the wrong number of parameters, are caught.
; RUN: not hetgpu-opt -passes=hetgpu-verify -disable-output %s 2>&1 | FileCheck --check-prefix=ERR %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; ERR: error: hetIR verification failed:
; ERR-DAG: in function 'k': !hetgpu.kernels lists 2 parameters, the function has 1
; ERR-DAG: in function 'k': safe point 1 has 1 live values but !hetgpu.state lists 2 slots
define void @k(i32 %x) #0 {
  %y = add i32 %x, 1
  call void @__hetgpu_barrier() [ "hetgpu.live"(i32 %y) ], !hetgpu.safepoint !10
  %z = add i32 %y, 1
  ret void
}
declare void @__hetgpu_barrier()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!hetgpu.state = !{!6}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !5}
!2 = !{!3, !3}
!3 = !{!"value", i32 4, i32 4}
!4 = !{!"barrier"}
!5 = !{i32 0, i32 0}
!6 = !{ptr @k, !7, !8}
!7 = !{i32 0, !"entry", i32 0, !{}}
!8 = !{i32 1, !"barrier", i32 8, !9}
!9 = !{!{!"value", !"i32", i32 0, i32 4, i32 4}, !{!"value", !"i32", i32 4, i32 4, i32 4}}
!10 = !{i32 1}
