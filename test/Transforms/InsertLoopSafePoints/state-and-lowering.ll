; The loop safe point through the rest of the pipeline:
; * hetgpu-state-layout numbers it as a safe point of kind loop-latch, with
;   the values live on the back edge (the loop counter, the per-thread value
;   and the nest's safe-point counter);
; * hetgpu-instrument-state turns it into a barrier_or yield test with
;   save and restore code, the resume path entering a copy of the loop; no
;   __hetgpu_safepoint call is left;
; * lowering.test: a translation that is not instrumented erases it (the
;   lowered code equals that of the kernel without the pass).
; RUN: hetgpu-opt -passes='hetgpu-insert-loop-safepoints,hetgpu-state-layout,print<hetgpu-state>' -disable-output %s 2>&1 | FileCheck --check-prefix=PRINT %s
; RUN: hetgpu-opt -passes=hetgpu-insert-loop-safepoints,hetgpu-state-layout -S %s | FileCheck --check-prefix=LAYOUT %s
; RUN: hetgpu-opt -passes=hetgpu-insert-loop-safepoints,hetgpu-state-layout,hetgpu-instrument-state -S %s | FileCheck --check-prefix=INSTR %s
; RUN: hetgpu-opt -passes=hetgpu-insert-loop-safepoints,hetgpu-state-layout,hetgpu-verify -disable-output %s
; RUN: hetgpu-opt -passes=hetgpu-insert-loop-safepoints,hetgpu-state-layout,hetgpu-strip-safepoints -S %s | FileCheck --check-prefix=STRIP %s

; PRINT: state spin: 2 safe points, record 16 bytes
; PRINT-NEXT: safepoint 0 entry: 0 slots, 0 bytes
; PRINT-NEXT: safepoint 1 loop-latch: 3 slots, 16 bytes
; PRINT-NEXT: slot 0: value float @0 size 4 align 4
; PRINT-NEXT: slot 1: value i32 @4 size 4 align 4
; PRINT-NEXT: slot 2: value i32 @8 size 4 align 4

; LAYOUT: call void @__hetgpu_safepoint(){{( #[0-9]+)?}} [ "hetgpu.live"(float %x.next, i32 %i.next, i32 %hetgpu.loopctr.next) ], !hetgpu.safepoint ![[ID:[0-9]+]]
; LAYOUT: !hetgpu.state = !{![[S:[0-9]+]]}
; LAYOUT: ![[S]] = !{ptr @spin, ![[E:[0-9]+]], ![[L:[0-9]+]]}
; LAYOUT: ![[L]] = !{i32 1, !"loop-latch", i32 16,
; LAYOUT: ![[ID]] = !{i32 1}

; INSTR-LABEL: define void @spin(ptr %out, i32 %iters, ptr %hetgpu.state, ptr %hetgpu.ctrl, i32 %hetgpu.round)
; INSTR-NOT: call void @__hetgpu_safepoint
; INSTR: hetgpu.restore.1:
; INSTR: br label %loop.resume
; The original loop has no dispatch on the resumed safe point.
; INSTR: loop:
; INSTR-NOT: hetgpu.resumeid
; INSTR: hetgpu.sp.1:
; INSTR: %hetgpu.y = phi i32
; INSTR-NEXT: call i32 @__hetgpu_barrier_or(i32 %hetgpu.y)
; INSTR: hetgpu.save.1:
; INSTR: store i32 %hetgpu.loopctr.next{{[.a-z0-9]*}},
; INSTR: ret void
; INSTR: exit:
; INSTR-NEXT: %r = phi float [ %x0, %hetgpu.body ], [ %x.next, %loop ], [ %x.next.resume, %loop.resume.run ]
; The resume path runs a copy of the loop: its header dispatches, the
; landing block reloads the values and continues at the copy's safe point.
; INSTR: loop.resume:
; INSTR-NEXT: %hetgpu.resumeid.0 = phi i32 [ 1, %hetgpu.restore.1 ],
; INSTR: switch i32 %hetgpu.resumeid.0, label %loop.resume.run [
; INSTR-NEXT: i32 1, label %hetgpu.land.1
; INSTR: hetgpu.sp.1.resume:
; INSTR: [ %{{[0-9]+}}, %hetgpu.land.1 ]
; INSTR: call i32 @__hetgpu_barrier_or(
; INSTR-NOT: call void @__hetgpu_safepoint

; What a translation that is not instrumented lowers: the call, its block
; and the test are gone (the counter is left to the target's optimizer).
; STRIP-LABEL: define void @spin(ptr %out, i32 %iters)
; STRIP: hetgpu.loopsp.count:
; STRIP-NEXT: %hetgpu.loopctr.next = add i32
; STRIP-NEXT: br label %hetgpu.loopsp.next
; STRIP-NOT: hetgpu.loopsp.due
; STRIP-NOT: hetgpu.loopsp:
; STRIP-NOT: __hetgpu_safepoint

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; float x = out[gid]; for (int i = 0; i < iters; ++i) x = x * 0.5f + i;
define void @spin(ptr %out, i32 %iters) #0 {
entry:
  %tid = call i32 @__hetgpu_tid_x()
  %ctaid = call i32 @__hetgpu_ctaid_x()
  %ntid = call i32 @__hetgpu_ntid_x()
  %base = mul i32 %ctaid, %ntid
  %gid = add i32 %base, %tid
  %p = getelementptr float, ptr %out, i32 %gid
  %x0 = load float, ptr %p
  %any = icmp sgt i32 %iters, 0
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %x = phi float [ %x0, %entry ], [ %x.next, %loop ]
  %xh = fmul float %x, 5.000000e-01
  %fi = sitofp i32 %i to float
  %x.next = fadd float %xh, %fi
  %i.next = add nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %iters
  br i1 %more, label %loop, label %exit

exit:
  %r = phi float [ %x0, %entry ], [ %x.next, %loop ]
  store float %r, ptr %p
  ret void
}

declare i32 @__hetgpu_tid_x()
declare i32 @__hetgpu_ctaid_x()
declare i32 @__hetgpu_ntid_x()

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @spin, !"name", !"spin", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !5}
!2 = !{!3, !6}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{}
!5 = !{i32 0, i32 0}
!6 = !{!"value", i32 4, i32 4}
