; Which block barriers are safe points (docs/Migration.md, "Barrier safe
; points"): a barrier in a loop nest without a block-uniform loop safe point
; (here a loop whose trip count comes from memory, which
; hetgpu-insert-loop-safepoints does not prove uniform) is one: watched
; launches test it, and a block suspended there resumes in a copy of the
; loop (blocks suffixed .resume, entered through the copy's header), as at
; loop safe points; unwatched launches run a copy of the body (.plain) with
; the plain barrier.
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -verify-each -S %s | FileCheck %s
; Negative twin: with a loop safe point in the same loop the barrier stays
; a plain barrier (the nest suspends at the loop safe point every 32
; iterations; a test at the barrier too would double the barrier_or of
; every watched iteration): no watched test, only the loop point resumed.
; RUN: sed -e 's/^  ; safepoint here$/  call void @__hetgpu_safepoint()/' %s | hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -verify-each -S | FileCheck --check-prefix=COVERED %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@buf = internal addrspace(3) global [64 x i32] undef, align 4

; CHECK-LABEL: define void @k(ptr %out, ptr %hetgpu.state, ptr %hetgpu.ctrl, i32 %hetgpu.round)
; CHECK: switch i32 %{{.*}}, label %hetgpu.return [
; CHECK-NEXT: i32 -1, label %hetgpu.start
; CHECK-NEXT: i32 1, label %hetgpu.restore.1
; CHECK-NEXT: ]
; CHECK: br i1 %hetgpu.watched, label %hetgpu.start.count, label %hetgpu.body.plain
; The watched loop: the control word read, then the yield test.
; CHECK: loop:
; CHECK: %hetgpu.ctrlword = load volatile i64
; The landing block continues in the copy of the loop.
; CHECK: hetgpu.land.1:
; CHECK: br label %hetgpu.sp.1.resume
; CHECK: hetgpu.sp.1:
; CHECK: call i32 @__hetgpu_barrier_or(i32 %hetgpu.y)
; CHECK: hetgpu.cont.1:
; CHECK: br i1 %more, label %loop, label %done
; The unwatched copy of the loop: the plain barrier.
; CHECK: loop.plain:
; CHECK: store i32 %i.plain, ptr addrspace(3) %slot.plain
; CHECK-NEXT: call void @__hetgpu_barrier(){{$}}
; CHECK: br i1 %more.plain, label %loop.plain, label %done.plain
; The restore path enters the copy at its header, which dispatches on the
; resumed id to the landing block.
; CHECK: br label %loop.resume
; CHECK: loop.resume:
; CHECK: switch i32 %hetgpu.resumeid{{[.0-9]*}}, label %loop.resume.run [
; CHECK-NEXT: i32 1, label %hetgpu.land.1
; CHECK: hetgpu.sp.1.resume:
; CHECK: call i32 @__hetgpu_barrier_or
define void @k(ptr %out) #0 {
entry:
  %tid = call i32 @__hetgpu_tid_x()
  %n = load i32, ptr %out
  %slot = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  store i32 %i, ptr addrspace(3) %slot
  call void @__hetgpu_barrier()
  %v = load i32, ptr addrspace(3) %slot
  %acc.next = add i32 %acc, %v
  %i.next = add i32 %i, 1
  ; safepoint here
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  %p = getelementptr i32, ptr %out, i32 %tid
  store i32 %acc.next, ptr %p
  ret void
}

; COVERED-LABEL: define void @k(ptr %out, ptr %hetgpu.state, ptr %hetgpu.ctrl, i32 %hetgpu.round)
; COVERED: switch i32 %{{.*}}, label %hetgpu.return [
; COVERED-NEXT: i32 -1, label %hetgpu.start
; COVERED-NEXT: i32 2, label %hetgpu.restore.2
; COVERED-NEXT: ]
; COVERED: loop:
; COVERED: store i32 %{{.*}}, ptr addrspace(3) %slot
; COVERED-NEXT: call void @__hetgpu_barrier(){{$}}
; COVERED-NOT: .plain:
; COVERED-NOT: hetgpu.bar.

declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_barrier()
declare void @__hetgpu_safepoint()

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 256, !"features", !4, !"launch.bounds", !5}
!2 = !{!3}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{!"barrier"}
!5 = !{i32 0, i32 0}
