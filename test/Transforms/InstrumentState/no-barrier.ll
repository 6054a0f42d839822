; A kernel without safe points (no barrier, no loop safe point) still gets
; the block-entry safe point (docs/Migration.md "Block-entry safe points"):
; an unwatched launch runs the body at once (bit 31 of the round parameter
; clear: no memory access); a watched launch reads the control word, lets
; thread 0 count the visit and the block agree on suspend/run with one compare and swap on its header's
; decision word; a suspended block writes {R + 1, BlockStartId = -1} and
; returns. No barrier is added, no yield test, no save/restore of values.
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state,verify -disable-output %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define void @k(ptr %out, ptr %hetgpu.state, ptr %hetgpu.ctrl, i32 %hetgpu.round)
; CHECK-NEXT: hetgpu.entry:
; CHECK-NEXT: %hetgpu.rnd = and i32 %hetgpu.round, 2147483647
; CHECK-NEXT: %hetgpu.fresh = icmp eq i32 %hetgpu.rnd, 0
; CHECK-NEXT: br i1 %hetgpu.fresh, label %hetgpu.start, label %hetgpu.resume
; A resumed launch: only blocks suspended at the entry (id -1) run again.
; CHECK: hetgpu.resume:
; CHECK: switch i32 %{{.*}}, label %hetgpu.return [
; CHECK-NEXT: i32 -1, label %hetgpu.start
; CHECK-NEXT: ]
; CHECK: hetgpu.start:
; Only a watched launch (bit 31 of the round parameter) reads the control
; block: an unwatched one touches no memory before the body.
; CHECK-NEXT: %hetgpu.watched = icmp slt i32 %hetgpu.round, 0
; CHECK-NEXT: br i1 %hetgpu.watched, label %hetgpu.start.count, label %hetgpu.body
; CHECK: hetgpu.start.count:
; CHECK-NEXT: %[[CW:.*]] = addrspacecast ptr %hetgpu.ctrl to ptr addrspace(1)
; CHECK-NEXT: %hetgpu.start.word = load volatile i64, ptr addrspace(1) %[[CW]], align 8
; CHECK: %hetgpu.start.t0 = icmp eq i32 %{{.*}}, 0
; CHECK: br i1 %{{.*}}, label %hetgpu.start.visit, label %hetgpu.start.agree
; CHECK: hetgpu.start.visit:
; CHECK: atomicrmw add ptr addrspace(1) %{{.*}}, i32 1 monotonic
; CHECK: hetgpu.start.set:
; CHECK-NEXT: %[[C2:.*]] = addrspacecast ptr %hetgpu.ctrl to ptr addrspace(1)
; CHECK-NEXT: store volatile i32 1, ptr addrspace(1) %[[C2]]
; CHECK: hetgpu.start.agree:
; CHECK-NEXT: %hetgpu.start.y = phi i32 [ %hetgpu.start.yield, %hetgpu.start.count ], [ %hetgpu.start.yield, %hetgpu.start.visit ], [ 1, %hetgpu.start.set ]
; The decision word is the header's third word (byte 8), tagged R + 1.
; CHECK: %[[DW:.*]] = getelementptr i8, ptr %hetgpu.header{{[0-9]+}}, i64 8
; CHECK-NEXT: %[[DWG:.*]] = addrspacecast ptr %[[DW]] to ptr addrspace(1)
; CHECK-NEXT: %[[R1:.*]] = add i32 %hetgpu.rnd, 1
; CHECK-NEXT: %[[TAG:.*]] = shl i32 %[[R1]], 1
; CHECK: %hetgpu.start.mine = or i32 %[[TAG]], %{{.*}}
; CHECK-NEXT: %hetgpu.start.cur = load volatile i32, ptr addrspace(1) %[[DWG]]
; CHECK: %hetgpu.start.fresh = icmp ne i32 %{{.*}}, %{{.*}}
; CHECK-NEXT: br i1 %hetgpu.start.fresh, label %hetgpu.start.swap, label %hetgpu.start.decided
; Only a thread that finds no decision of this round exchanges.
; CHECK: hetgpu.start.swap:
; CHECK-NEXT: %[[X:.*]] = cmpxchg ptr addrspace(1) %[[DWG]], i32 %hetgpu.start.cur, i32 %hetgpu.start.mine monotonic monotonic
; CHECK-NEXT: %hetgpu.start.won = extractvalue { i32, i1 } %[[X]], 1
; CHECK-NEXT: %[[SEEN:.*]] = extractvalue { i32, i1 } %[[X]], 0
; CHECK-NEXT: %[[SW:.*]] = select i1 %hetgpu.start.won, i32 %hetgpu.start.mine, i32 %[[SEEN]]
; CHECK-NEXT: br label %hetgpu.start.decided
; CHECK: hetgpu.start.decided:
; CHECK-NEXT: %hetgpu.start.decision = phi i32 [ %hetgpu.start.cur, %hetgpu.start.agree ], [ %[[SW]], %hetgpu.start.swap ]
; CHECK-NEXT: %[[BIT:.*]] = and i32 %hetgpu.start.decision, 1
; CHECK-NEXT: %[[SUSP:.*]] = icmp ne i32 %[[BIT]], 0
; CHECK-NEXT: br i1 %[[SUSP]], label %hetgpu.start.suspend, label %hetgpu.body
; CHECK: hetgpu.start.suspend:
; CHECK-NEXT: %[[H:.*]] = addrspacecast ptr %hetgpu.header{{[0-9]+}} to ptr addrspace(1)
; CHECK-NEXT: %[[SPW:.*]] = getelementptr i8, ptr addrspace(1) %[[H]], i64 4
; CHECK-NEXT: store i32 -1, ptr addrspace(1) %[[SPW]]
; CHECK-NEXT: %[[NEXT:.*]] = add i32 %hetgpu.rnd, 1
; CHECK-NEXT: store i32 %[[NEXT]], ptr addrspace(1) %[[H]]
; CHECK-NEXT: ret void
; The body itself is unchanged.
; CHECK: hetgpu.body:
; CHECK-NEXT: %t = call i32 @__hetgpu_tid_x()
; CHECK-NEXT: store i32 %t, ptr %out
; CHECK-NEXT: ret void
; CHECK-NOT: hetgpu.save
; CHECK-NOT: hetgpu.restore
; CHECK-NOT: __hetgpu_barrier
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
