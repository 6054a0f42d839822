; A loop safe point (__hetgpu_safepoint) inside a loop nest is resumed in a
; COPY of the outermost loop nest around it (blocks suffixed .resume), which
; only the resume path enters: the restore block branches to the copy's
; outer header, each copied header dispatches on the resumed safe point id
; (a phi, 0 on every normal path and after the safe point), outermost
; first, and the landing block that reloads the live values is entered
; from the innermost copied header around the safe point. The CFG stays
; reducible (OpenCL compilers that form work-item loops between barriers,
; like PoCL, reject jumps into loop bodies), and the original loop nest,
; which every launch runs, has no dispatch. The barriers in the loops stay
; plain barriers in both copies (they are laid out, ids 1 and 3, but their
; nests have loop safe points, so they are not barrier safe points).
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -S %s | FileCheck --implicit-check-not='call void @__hetgpu_safepoint' %s
; Only the copy's headers dispatch (block labels, switches and resume-id
; phis of the result, in order).
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -S %s | grep -E '^[a-z][a-z0-9.]*:|switch i32|hetgpu\.resumeid|call .*@__hetgpu_barrier' | FileCheck --check-prefix=DISPATCH %s
; Two loop nests, each with a single header per loop (reducible); the
; landing blocks belong to the copy.
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state,'print<loops>' -disable-output %s 2>&1 | FileCheck --check-prefix=LOOPS %s
; Negative twin: the same kernel without the inner safe point has no inner
; dispatch (the copied inner header is a plain loop header).
; RUN: sed -e '/call void @__hetgpu_safepoint() ; inner/d' %s | hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -S | FileCheck --check-prefix=NOINNER %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define void @k(ptr %out, i32 %n, ptr %hetgpu.state, ptr %hetgpu.ctrl, i32 %hetgpu.round)
; CHECK-NEXT: hetgpu.entry:
; CHECK-NEXT: %hetgpu.rnd = and i32 %hetgpu.round, 2147483647
; CHECK-NEXT: %hetgpu.fresh = icmp eq i32 %hetgpu.rnd, 0
; CHECK: br i1 %hetgpu.fresh, label %hetgpu.start, label %hetgpu.resume
; CHECK: hetgpu.resume:
; CHECK: switch i32 %{{.*}}, label %hetgpu.return [
; CHECK-NEXT: i32 -1, label %hetgpu.start
; CHECK-NEXT: i32 2, label %hetgpu.restore.2
; CHECK-NEXT: i32 4, label %hetgpu.restore.4
; CHECK-NEXT: ]
; Both resume paths enter the copy at its outermost header.
; CHECK: hetgpu.restore.2:
; CHECK: br label %outer.resume
; CHECK: hetgpu.restore.4:
; CHECK: br label %outer.resume
; CHECK: hetgpu.body:
; CHECK-NEXT: br label %outer
; The original headers: no dispatch, no resume edge.
; CHECK: outer: ; preds = %hetgpu.cont.4, %hetgpu.body
; CHECK-NEXT: %i = phi i32 [ 0, %hetgpu.body ], [ %i.next, %hetgpu.cont.4 ]
; CHECK-NEXT: %acc = phi i32 [ 0, %hetgpu.body ], [ %acc2, %hetgpu.cont.4 ]
; CHECK-NEXT: br label %inner
; CHECK: inner: ; preds = %hetgpu.cont.2, %outer
; CHECK-NEXT: %j = phi i32 [ 0, %outer ], [ %j.next, %hetgpu.cont.2 ]
; CHECK-NEXT: %acc1 = phi i32 [ %acc, %outer ], [ %acc.in, %hetgpu.cont.2 ]
; CHECK-NEXT: %acc.in = add i32 %acc1, %j
; CHECK-NEXT: call void @__hetgpu_barrier(){{$}}
; CHECK-NEXT: %j.next = add i32 %j, 1
; CHECK-NEXT: addrspacecast ptr %hetgpu.ctrl to ptr addrspace(1)
; CHECK-NEXT: %hetgpu.ctrlword = load volatile i64
; The landing blocks are entered from the copied headers only.
; CHECK: hetgpu.land.2: ; preds = %inner.resume
; CHECK: br label %hetgpu.sp.2.resume
; The original safe point has no resume edge.
; CHECK: hetgpu.sp.2: ; preds = %hetgpu.count.set, %hetgpu.count, %hetgpu.count.test, %inner{{$}}
; CHECK-NEXT: %hetgpu.y = phi i32 [ %hetgpu.yield, %inner ], [ %hetgpu.yield, %hetgpu.count.test ], [ %hetgpu.yield, %hetgpu.count ], [ 1, %hetgpu.count.set ]{{$}}
; CHECK-NEXT: call i32 @__hetgpu_barrier_or(i32 %hetgpu.y)
; One save block per safe point, shared by the original and the copy;
; it stores the inner safe point's three slots (i, acc.in, j.next).
; CHECK: hetgpu.save.2: ; preds = %hetgpu.sp.2.resume, %hetgpu.sp.2
; CHECK: getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 8
; CHECK-NEXT: store i32 %j.next.reg2mem.0,
; CHECK: store i32 2, ptr
; CHECK-NEXT: add i32 %hetgpu.rnd, 1
; CHECK: outer.latch:
; CHECK-NEXT: %acc2 = add i32 %acc.in, %t
; CHECK-NEXT: call void @__hetgpu_barrier(){{$}}
; CHECK: hetgpu.land.4: ; preds = %outer.resume
; CHECK: br label %hetgpu.sp.4.resume
; CHECK: hetgpu.sp.4: ; preds = %hetgpu.count.set{{[0-9]+}}, %hetgpu.count{{[0-9]+}}, %hetgpu.count.test{{[0-9]+}}, %outer.latch{{$}}
; CHECK: hetgpu.save.4: ; preds = %hetgpu.sp.4.resume, %hetgpu.sp.4
; CHECK: store i32 4, ptr
; Both nests leave to the same exit.
; CHECK: exit: ; preds = %hetgpu.cont.4.resume, %hetgpu.cont.4
; CHECK-NEXT: %[[R:.*]] = phi i32 [ %acc2, %hetgpu.cont.4 ], [ %{{.*}}, %hetgpu.cont.4.resume ]
; CHECK-NEXT: store i32 %[[R]], ptr %out
; The copied outer header: poison for its own phis on the resume edges; it
; dispatches both safe points (2 is in the inner loop: on to the inner
; header; 4 is in the outer one: straight to its landing block).
; CHECK: outer.resume: ; preds = %hetgpu.restore.4, %hetgpu.restore.2, %hetgpu.cont.4.resume
; CHECK: %hetgpu.resumeid.0 = phi i32 [ 2, %hetgpu.restore.2 ], [ 0, %hetgpu.cont.4.resume ], [ 4, %hetgpu.restore.4 ]
; CHECK: %i.resume = phi i32 [ %{{.*}}, %hetgpu.cont.4.resume ], [ poison, %hetgpu.restore.2 ], [ poison, %hetgpu.restore.4 ]
; CHECK: switch i32 %hetgpu.resumeid.0, label %outer.resume.run [
; CHECK-NEXT: i32 2, label %inner.resume
; CHECK-NEXT: i32 4, label %hetgpu.land.4
; CHECK-NEXT: ]
; CHECK: outer.resume.run:
; CHECK-NEXT: br label %inner.resume
; The copied inner header: the id passes through from the outer header
; (dispatch edge and normal entry), 0 on its back edge.
; CHECK: inner.resume: ; preds = %outer.resume, %hetgpu.cont.2.resume, %outer.resume.run
; CHECK: %hetgpu.resumeid.1 = phi i32 [ %hetgpu.resumeid.0, %outer.resume.run ], [ 0, %hetgpu.cont.2.resume ], [ %hetgpu.resumeid.0, %outer.resume ]
; CHECK: switch i32 %hetgpu.resumeid.1, label %inner.resume.run [
; CHECK-NEXT: i32 2, label %hetgpu.land.2
; CHECK-NEXT: ]
; CHECK: inner.resume.run:
; CHECK: call void @__hetgpu_barrier(){{$}}
; The copy's safe point: entered from the landing block (a resumed thread
; contributes 0), tested and saved like the original.
; CHECK: hetgpu.sp.2.resume:
; CHECK: %hetgpu.y.resume = phi i32 {{.*}}[ 0, %hetgpu.land.2 ]
; CHECK-NEXT: %[[Y2:.*]] = call i32 @__hetgpu_barrier_or(i32 %hetgpu.y.resume)
; CHECK-NEXT: %[[A2:.*]] = icmp ne i32 %[[Y2]], 0
; CHECK-NEXT: br i1 %[[A2]], label %hetgpu.save.2, label %hetgpu.cont.2.resume
; CHECK: hetgpu.cont.2.resume:
; CHECK: br i1 %{{.*}}, label %inner.resume, label %outer.latch.resume
; CHECK: hetgpu.sp.4.resume:
; CHECK: %hetgpu.y{{[0-9]+}}.resume = phi i32 {{.*}}[ 0, %hetgpu.land.4 ]
; CHECK: hetgpu.cont.4.resume:
; CHECK: br i1 %{{.*}}, label %outer.resume, label %exit
; CHECK-NEXT: }

; DISPATCH: hetgpu.body:
; DISPATCH-NEXT: outer:
; DISPATCH-NEXT: inner:
; DISPATCH-NEXT: call void @__hetgpu_barrier()
; DISPATCH-NOT: switch
; DISPATCH-NOT: resumeid
; DISPATCH: outer.resume:
; DISPATCH-NEXT: %hetgpu.resumeid.0 = phi
; DISPATCH-NEXT: switch i32 %hetgpu.resumeid.0, label %outer.resume.run [
; DISPATCH-NEXT: outer.resume.run:
; DISPATCH-NEXT: inner.resume:
; DISPATCH-NEXT: %hetgpu.resumeid.1 = phi
; DISPATCH-NEXT: switch i32 %hetgpu.resumeid.1, label %inner.resume.run [
; DISPATCH-NEXT: inner.resume.run:
; DISPATCH-NEXT: call void @__hetgpu_barrier()
; DISPATCH-NOT: switch
; DISPATCH-NOT: resumeid
; DISPATCH: hetgpu.cont.4.resume:

; LOOPS: Loop at depth 1 containing: %outer<header>,%inner,%hetgpu.count.test,%hetgpu.count,%hetgpu.count.set,%hetgpu.sp.2<exiting>,%hetgpu.cont.2,%outer.latch,%hetgpu.count.test{{[0-9]+}},%hetgpu.count{{[0-9]+}},%hetgpu.count.set{{[0-9]+}},%hetgpu.sp.4<exiting>,%hetgpu.cont.4<latch><exiting>{{$}}
; LOOPS-NEXT: Loop at depth 2 containing: %inner<header>,%hetgpu.count.test,%hetgpu.count,%hetgpu.count.set,%hetgpu.sp.2<exiting>,%hetgpu.cont.2<latch><exiting>{{$}}
; LOOPS-NEXT: Loop at depth 1 containing: %outer.resume<header>,%hetgpu.land.4,%outer.resume.run,%inner.resume,%hetgpu.land.2,{{.*}},%hetgpu.cont.4.resume<latch><exiting>{{$}}
; LOOPS-NEXT: Loop at depth 2 containing: %inner.resume<header>,%hetgpu.land.2,{{.*}},%hetgpu.cont.2.resume<latch><exiting>{{$}}
; LOOPS-NOT: Loop at

; NOINNER: switch i32 %{{.*}}, label %hetgpu.return [
; NOINNER-NEXT: i32 -1, label %hetgpu.start
; NOINNER-NEXT: i32 3, label %hetgpu.restore.3
; NOINNER-NEXT: ]
; NOINNER: outer.resume:
; NOINNER: switch i32 %hetgpu.resumeid{{.*}}, label %outer.resume.run [
; NOINNER-NEXT: i32 3, label %hetgpu.land.3
; NOINNER-NEXT: ]
; NOINNER: inner.resume: ; preds = %inner.resume, %outer.resume.run
; NOINNER-NOT: resumeid
; NOINNER-NOT: inner.resume.run
; NOINNER: hetgpu.cont.3.resume:
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
  call void @__hetgpu_barrier()
  %j.next = add i32 %j, 1
  call void @__hetgpu_safepoint() ; inner
  %jc = icmp slt i32 %j.next, %n
  br i1 %jc, label %inner, label %outer.latch
outer.latch:
  %acc2 = add i32 %acc.in, %t
  call void @__hetgpu_barrier()
  %i.next = add i32 %i, 1
  call void @__hetgpu_safepoint()
  %ic = icmp slt i32 %i.next, %n
  br i1 %ic, label %outer, label %exit
exit:
  store i32 %acc2, ptr %out
  ret void
}
declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_barrier()
declare void @__hetgpu_safepoint()
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
