; Safe points inside loops are resumed through the loop headers, outermost
; first, so the CFG stays reducible (OpenCL compilers that form work-item
; loops between barriers, like PoCL, reject jumps into loop bodies): the
; restore block enters the outer loop at its header, each header dispatches
; on the resumed safe point id (a phi that is 0 on every normal path), and
; the landing block that reloads the live values is entered from the
; innermost header only.
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -S %s | FileCheck %s
; On GPU targets (module flag hetgpu.untested-barrier-or) a barrier inside a
; loop runs the tested visits' barrier_or with 0 on untested visits: one
; barrier instruction, the branch only skips the flag's load.
; RUN: sed -e '$a !llvm.module.flags = !{!99}' -e '$a !99 = !{i32 4, !"hetgpu.untested-barrier-or", i32 1}' %s | hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -S | FileCheck --check-prefix=GPU %s
; GPU: hetgpu.plain.1:
; GPU-NEXT: br label %hetgpu.sp.1
; GPU: hetgpu.plain.2:
; GPU-NEXT: br label %hetgpu.sp.2
; GPU-NOT: call void @__hetgpu_barrier()
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state,'print<loops>' -disable-output %s 2>&1 | FileCheck --check-prefix=LOOPS %s
; Negative twin: the same kernel without the inner barrier has no inner
; dispatch.
; RUN: sed -e 's/call void @__hetgpu_barrier() ; inner/; no barrier/' %s | hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -S | FileCheck --check-prefix=NOINNER %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define void @k(
; CHECK: hetgpu.restore.1:
; CHECK: br label %outer
; CHECK: hetgpu.restore.2:
; CHECK: br label %outer
; The outer header: its phis get poison on the resume edges; it dispatches
; both safe points (1 is in the inner loop, 2 in the outer one).
; CHECK: outer:
; (On the back edge the id is 0 again: the safe point reset it, and the
; untested visits of a sampled barrier never set it.)
; CHECK: %hetgpu.resumeid{{.*}} = phi i32 [ 0, %hetgpu.body ], [ %{{.*}}, %hetgpu.cont.2 ], [ 1, %hetgpu.restore.1 ], [ 2, %hetgpu.restore.2 ]
; CHECK: %i = phi i32 [ 0, %hetgpu.body ], [ %i.next, %hetgpu.cont.2 ], [ poison, %hetgpu.restore.1 ], [ poison, %hetgpu.restore.2 ]
; CHECK: switch i32 %hetgpu.resumeid{{.*}}, label %outer.run [
; CHECK-NEXT: i32 1, label %inner
; CHECK-NEXT: i32 2, label %hetgpu.land.2
; CHECK-NEXT: ]
; CHECK: inner:
; The safe point resets the id (0 on the back edge; untested visits of the
; sampled barrier pass the id of the iteration, 0 too).
; CHECK: %[[RID:.*]] = phi i32 [ %hetgpu.resumeid{{.*}}, %outer.run ], [ %{{.*}}, %hetgpu.cont.1 ], [ %hetgpu.resumeid{{.*}}, %outer ]
; CHECK: switch i32 %[[RID]], label %inner.run [
; CHECK-NEXT: i32 1, label %hetgpu.land.1
; CHECK-NEXT: ]
; CHECK: hetgpu.land.1: ; preds = %inner
; CHECK: hetgpu.sp.1:
; CHECK: hetgpu.land.2: ; preds = %outer
; CHECK: hetgpu.sp.2:
; Both loops keep a single header (reducible).
; LOOPS: Loop at depth 1 containing: %outer<header>
; LOOPS: Loop at depth 2 containing: %inner<header>
; NOINNER: switch i32 %hetgpu.resumeid{{.*}}, label %outer.run [
; NOINNER-NEXT: i32 1, label %hetgpu.land.1
; NOINNER-NEXT: ]
; NOINNER-NOT: inner.run
define void @k(ptr %out, i32 %n) #0 {
entry:
  %t = call i32 @__hetgpu_tid_x()
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %outer.latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %acc1 = phi i32 [ %acc, %outer ], [ %acc.in, %inner ]
  %acc.in = add i32 %acc1, %j
  call void @__hetgpu_barrier() ; inner
  %j.next = add i32 %j, 1
  %jc = icmp slt i32 %j.next, %n
  br i1 %jc, label %inner, label %outer.latch
outer.latch:
  %acc2 = add i32 %acc.in, %t
  call void @__hetgpu_barrier()
  %i.next = add i32 %i, 1
  %ic = icmp slt i32 %i.next, %n
  br i1 %ic, label %outer, label %exit
exit:
  store i32 %acc2, ptr %out
  ret void
}
declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_barrier()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !5}
!2 = !{!3, !6}
!3 = !{!"ptr", i32 8, i32 8}
!6 = !{!"value", i32 4, i32 4}
!4 = !{!"barrier"}
!5 = !{i32 0, i32 0}
