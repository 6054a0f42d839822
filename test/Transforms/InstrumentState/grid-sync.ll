; hetgpu-instrument-state<grid-sync> (what the SPIR-V translation runs):
; only kernels that call __hetgpu_grid_sync are instrumented, and there the
; grid barriers are the safe points. Each one suspends the block
; unconditionally: a barrier_or of 1 on the way in (no control word read),
; then the save path (live values, shared memory, header {R + 1, id}) and
; return; the resume landing re-enters with 0 and goes on after the
; barrier. Loop safe points are erased (they never suspend there). A kernel
; without a grid barrier keeps its parameters and its loop safe points.
; RUN: hetgpu-opt -passes=hetgpu-state-layout,'hetgpu-instrument-state<grid-sync>' -S %s | FileCheck %s
; The grid barrier in the loop, the save and landing blocks, in order.
; RUN: hetgpu-opt -passes=hetgpu-state-layout,'hetgpu-instrument-state<grid-sync>' -S %s | grep -E '^hetgpu\.[a-z]+\.[0-9]+:|call .*@__hetgpu_(barrier|safepoint|grid_sync)|^define' | FileCheck --check-prefix=BLOCKS %s
; Negative twin: the plain migration instrumentation leaves the grid barrier
; alone (the translator lowers it to the spin barrier before).
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -S %s | FileCheck --check-prefix=MIGRATE %s
; A grid barrier in a function that is not a kernel cannot end a round (the
; state layout refuses such barriers too; the pass checks before it plans).
; RUN: sed -e 's/^  ret void ; in helper$/  call void @__hetgpu_grid_sync()\n  ret void/' %s | not hetgpu-opt -passes='hetgpu-instrument-state<grid-sync>' -disable-output 2>&1 | FileCheck --check-prefix=ERR %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@tile = internal addrspace(3) global [64 x i32] undef, align 4

; CHECK-LABEL: define void @k(ptr %out, i32 %n, ptr %hetgpu.state, ptr %hetgpu.ctrl, i32 %hetgpu.round)
; CHECK-NEXT: hetgpu.entry:
; CHECK-NEXT: %hetgpu.fresh = icmp eq i32 %hetgpu.round, 0
; CHECK: br i1 %hetgpu.fresh, label %hetgpu.body, label %hetgpu.resume
; CHECK: switch i32 %{{.*}}, label %hetgpu.return [
; The grid barrier is safe point 2 (the loop safe point before it is 1).
; CHECK-NEXT: i32 2, label %hetgpu.restore.2
; CHECK-NEXT: ]
; No yield flag: the control block is not read on the way in.
; CHECK-NOT: hetgpu.ctrlword
; The way in: every thread contributes 1, the block always saves.
; CHECK: hetgpu.sp.2:
; CHECK-NEXT: %hetgpu.y = phi i32 [ 1, %loop ]
; CHECK-NEXT: %hetgpu.grid.arrived = call i32 @__hetgpu_barrier_or(i32 %hetgpu.y)
; CHECK-NEXT: %[[ANY:.*]] = icmp ne i32 %hetgpu.grid.arrived, 0
; CHECK-NEXT: br i1 %[[ANY]], label %hetgpu.save.2, label %hetgpu.cont.2
; The save path stores the live values (the loop counter and the running
; sum) at their slots, the shared memory, then {round + 1, 2}, and returns.
; CHECK: hetgpu.save.2:
; CHECK: store i32 %i.reg2mem.0, ptr %{{.*}}
; CHECK-NEXT: getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 4
; CHECK-NEXT: store i32 %s1.reg2mem.1, ptr %{{.*}}
; CHECK: hetgpu.copy.end:
; CHECK: store i32 2, ptr %{{.*}}
; CHECK-NEXT: %[[NEXT:.*]] = add i32 %hetgpu.round, 1
; CHECK-NEXT: store i32 %[[NEXT]], ptr %hetgpu.header
; CHECK-NEXT: ret void
; The next round lands in the copy of the loop with the reloaded values and
; contributes 0: it goes on after the barrier.
; CHECK: hetgpu.sp.2.resume:
; CHECK: %hetgpu.y.resume = phi i32 [ 1, %loop.resume.run ], [ 0, %hetgpu.land.2 ]
; CHECK-NEXT: call i32 @__hetgpu_barrier_or(i32 %hetgpu.y.resume)
; CHECK-NOT: @__hetgpu_grid_sync(
; CHECK-LABEL: define void @plain(ptr %out, i32 %n)
; CHECK: call void @__hetgpu_safepoint()
; CHECK: !hetgpu.kernels = !{![[K:[0-9]+]], ![[P:[0-9]+]]}
; CHECK: ![[K]] = {{.*}}!"instrumented", i1 true}
; CHECK-NOT: ![[P]] = {{.*}}!"instrumented"

; BLOCKS: define void @k(
; BLOCKS-NEXT: hetgpu.restore.2:
; BLOCKS-NEXT: hetgpu.land.2:
; BLOCKS-NEXT: hetgpu.sp.2:
; BLOCKS-NEXT: call i32 @__hetgpu_barrier_or(i32 %hetgpu.y)
; BLOCKS-NEXT: hetgpu.save.2:
; BLOCKS-NEXT: hetgpu.cont.2:
; BLOCKS-NEXT: call i32 @__hetgpu_barrier_or(i32 %hetgpu.y.resume)
; BLOCKS-NEXT: define void @plain(
; BLOCKS-NEXT: call void @__hetgpu_safepoint()
; BLOCKS-NEXT: define internal void @helper(

; MIGRATE-LABEL: define void @k(ptr %out, i32 %n, ptr %hetgpu.state, ptr %hetgpu.ctrl, i32 %hetgpu.round)
; MIGRATE: call void @__hetgpu_grid_sync()
; MIGRATE-NOT: hetgpu.save.2:

; ERR: error: {{.*}}cannot run grid_group::sync() in rounds: function 'helper' calls it but is not a kernel

; Every thread adds its share over the loop; the grid barrier in the loop
; orders the rounds; shared memory is live across it.
define void @k(ptr %out, i32 %n) #0 {
entry:
  %tid = call i32 @__hetgpu_tid_x()
  %ps = getelementptr [64 x i32], ptr addrspace(3) @tile, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %ps
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s1, %loop ]
  %x = load i32, ptr %out
  %s1 = add i32 %s, %x
  call void @__hetgpu_safepoint()
  call void @__hetgpu_grid_sync()
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  %w = load i32, ptr addrspace(3) %ps
  %r = add i32 %s1, %w
  %po = getelementptr i32, ptr %out, i32 %tid
  store i32 %r, ptr %po
  ret void
}

define void @plain(ptr %out, i32 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  store i32 %i, ptr %out
  call void @__hetgpu_safepoint()
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

define internal void @helper() {
  ret void ; in helper
}

declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_safepoint()
declare void @__hetgpu_grid_sync()

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1, !6}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 256, !"features", !4, !"launch.bounds", !5}
!2 = !{!3, !7}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{!"barrier", !"grid"}
!5 = !{i32 0, i32 0}
!6 = !{ptr @plain, !"name", !"plain", !"params", !2, !"shared.static", i64 0, !"features", !8, !"launch.bounds", !5}
!7 = !{!"value", i32 4, i32 4}
!8 = !{!"barrier"}
