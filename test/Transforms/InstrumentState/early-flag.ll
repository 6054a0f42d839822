; A chunked loop's yield test reads the control word when each chunk
; starts (in the chunk header), so the read's latency overlaps the chunk's
; iterations; in the copy of the nest that resumed blocks run, the read
; stays ahead of the copied header's dispatch, so a block resumed deeper in
; the nest still passes it. `<late-flag>` (targets that run a block's
; threads one after another: host, tt-sim) reads it at the safe point.
; RUN: hetgpu-opt -passes=hetgpu-insert-loop-safepoints,hetgpu-state-layout,hetgpu-instrument-state -S %s | FileCheck %s
; RUN: hetgpu-opt -passes='hetgpu-insert-loop-safepoints,hetgpu-state-layout,hetgpu-instrument-state<late-flag>' -S %s | FileCheck --check-prefix=LATE %s

; CHECK-LABEL: define void @k(
; CHECK: hetgpu.loopsp.chunk:
; CHECK-NOT: {{^[a-z.0-9]+:}}
; CHECK: %hetgpu.ctrlword = load volatile i64, ptr addrspace(1) {{%[0-9]+}}, align 8, !hetgpu.early.flag
; CHECK: loop:
; CHECK: hetgpu.loopsp:
; CHECK-NEXT: %hetgpu.yield = trunc i64 %hetgpu.ctrlword to i32
; CHECK: call i32 @__hetgpu_barrier_or(
; CHECK: hetgpu.loopsp.chunk.resume:
; CHECK-NOT: {{^[a-z.0-9]+:}}
; CHECK: %hetgpu.ctrlword.resume = load volatile i64
; CHECK-NEXT: switch i32 %hetgpu.resumeid
; LATE-LABEL: define void @k(
; LATE: hetgpu.loopsp.chunk:
; LATE-NOT: ctrlword
; LATE: hetgpu.loopsp:
; LATE-NEXT: {{%[0-9]+}} = addrspacecast ptr %hetgpu.ctrl
; LATE-NEXT: %hetgpu.ctrlword = load volatile i64
; LATE-NOT: hetgpu.early.flag
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define void @k(ptr addrspace(3) %s, i32 %iters) #0 {
entry:
  %tid = call i32 @__hetgpu_tid_x()
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr i32, ptr addrspace(3) %s, i32 %tid
  store i32 %i, ptr addrspace(3) %p
  call void @__hetgpu_barrier()
  %i.next = add nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %iters
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_barrier()

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !10}
!2 = !{!3, !11}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{}
!10 = !{i32 0, i32 0}
!11 = !{!"value", i32 4, i32 4}
