; A loop safe point (__hetgpu_safepoint) without a layout (hetgpu-state-layout
; did not run) cannot be instrumented: the pass names the kernel and the
; reason.
; RUN: not hetgpu-opt -passes=hetgpu-instrument-state -disable-output %s 2>&1 | FileCheck --check-prefix=ERR %s
; A live-value bundle that disagrees with !hetgpu.state is refused too.
; RUN: sed -e 's/call void @__hetgpu_safepoint()$/call void @__hetgpu_safepoint() [ "hetgpu.live"(i32 %x, i32 %x) ], !hetgpu.safepoint !9/' %s > %t.ll
; RUN: echo '!hetgpu.state = !{!10}' >> %t.ll
; RUN: echo '!9 = !{i32 1}' >> %t.ll
; RUN: echo '!10 = !{ptr @k, !11, !12}' >> %t.ll
; RUN: echo '!11 = !{i32 0, !"entry", i32 0, !{}}' >> %t.ll
; RUN: echo '!12 = !{i32 1, !"loop-latch", i32 8, !{!13}}' >> %t.ll
; RUN: echo '!13 = !{!"value", !"i32", i32 0, i32 4, i32 4}' >> %t.ll
; RUN: not hetgpu-opt -passes=hetgpu-instrument-state -disable-output %t.ll 2>&1 | FileCheck --check-prefix=BUNDLE %s
; Negative twins: with the bundle matching the layout the same module is
; instrumented (one yield test) ...
; RUN: sed -e 's/(i32 %x, i32 %x)/(i32 %x)/' %t.ll | hetgpu-opt -passes=hetgpu-instrument-state -S | FileCheck --check-prefix=OK %s
; ... and a block barrier is a safe point of watched launches when it has a
; layout; one without (made after hetgpu-state-layout ran, as the spin grid
; barrier's block barriers of cooperative kernels) stays a plain barrier ...
; RUN: sed -e 's/call void @__hetgpu_safepoint()$/call void @__hetgpu_barrier()/' %s | hetgpu-opt -passes=hetgpu-instrument-state -S | FileCheck --check-prefix=PLAIN %s
; ... unless it is in a loop nest with a loop safe point (the nest suspends
; there): it stays a plain barrier without a layout.
; RUN: sed -e 's/^  call void @__hetgpu_safepoint() .*$/  br label %loop\nloop:\n  call void @__hetgpu_barrier()\n  call void @__hetgpu_safepoint() [ "hetgpu.live"(i32 %x) ], !hetgpu.safepoint !9\n  br i1 true, label %done, label %loop\ndone:/' %t.ll | hetgpu-opt -passes=hetgpu-instrument-state -S | FileCheck --check-prefix=BARRIER %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; ERR: error: {{.*}}cannot instrument kernel 'k' for migration: safe point without a layout (run hetgpu-state-layout first)
; PLAIN-LABEL: define void @k(
; PLAIN: call void @__hetgpu_barrier(){{$}}
; PLAIN-NOT: __hetgpu_barrier_or
; BUNDLE: error: {{.*}}cannot instrument kernel 'k': safe point 1 lists 1 slots but its call carries 2 live values
; OK-LABEL: define void @k(ptr %out, ptr %hetgpu.state, ptr %hetgpu.ctrl, i32 %hetgpu.round)
; OK: switch i32 %{{.*}}, label %hetgpu.return [
; The block-entry safe point (BlockStartId) resumes at the entry test.
; OK-NEXT: i32 -1, label %hetgpu.start
; OK-NEXT: i32 1, label %hetgpu.restore.1
; OK: hetgpu.land.1:
; OK: %[[SLOT:.*]] = getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 0
; OK-NEXT: load i32, ptr %[[SLOT]]
; OK: call i32 @__hetgpu_barrier_or(i32 %hetgpu.y)
; OK: hetgpu.save.1:
; OK: %[[SSLOT:.*]] = getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 0
; OK-NEXT: store i32 %x{{.*}}, ptr %[[SSLOT]]
; OK-NOT: call void @__hetgpu_safepoint
; BARRIER-LABEL: define void @k(ptr %out, ptr %hetgpu.state, ptr %hetgpu.ctrl, i32 %hetgpu.round)
; BARRIER: switch i32 %{{.*}}, label %hetgpu.return [
; BARRIER-NEXT: i32 -1, label %hetgpu.start
; BARRIER-NEXT: i32 1, label %hetgpu.restore.1
; BARRIER-NEXT: ]
; BARRIER: loop:
; BARRIER-NEXT: call void @__hetgpu_barrier(){{$}}
; BARRIER-NOT: hetgpu.bar.
; BARRIER: ret void
define void @k(ptr %out) #0 {
  %x = call i32 @__hetgpu_tid_x()
  call void @__hetgpu_safepoint()
  store i32 %x, ptr %out
  ret void
}
declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_safepoint()
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
