; Values a resumed launch can recompute (pure functions of the arguments,
; constants, globals and the index builtins through non-trapping
; instructions) are not state: the live bundle lists only the others. A
; division by a non-constant may trap and a load reads memory: both stay.
; hetgpu-instrument-state moves the recomputable values used across the
; safe point (a loop safe point here: barriers are not instrumented) into
; the entry block (no phi joins them at the safe point).
; RUN: hetgpu-opt -passes=hetgpu-state-layout -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -S %s | FileCheck --check-prefix=INSTR %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@tile = internal addrspace(3) global [64 x float] undef, align 4

; CHECK-LABEL: define void @k(
; CHECK: call void @__hetgpu_safepoint() [ "hetgpu.live"(i32 %q, float %v) ]
; INSTR-LABEL: define void @k(
; INSTR: hetgpu.entry:
; INSTR-DAG: %t64 = zext i32 %t to i64
; INSTR-DAG: %ps = getelementptr [64 x float], ptr addrspace(3) @tile, i64 0, i64 %t64
; INSTR-DAG: %half = lshr i64 %t64, 1
; INSTR: br i1 %hetgpu.fresh, label %hetgpu.start, label %hetgpu.resume
; INSTR: hetgpu.body:
; INSTR-NOT: %ps =
; INSTR: hetgpu.sp.1:
; INSTR-NOT: phi ptr addrspace(3)
; INSTR: call i32 @__hetgpu_barrier_or(
define void @k(ptr %in, ptr %out, i32 %n) #0 {
entry:
  %t = call i32 @__hetgpu_tid_x()
  %t64 = zext i32 %t to i64
  %half = lshr i64 %t64, 1
  %ps = getelementptr [64 x float], ptr addrspace(3) @tile, i64 0, i64 %t64
  %q = udiv i32 %t, %n
  %pin = getelementptr float, ptr %in, i64 %half
  %v = load float, ptr %pin
  store float %v, ptr addrspace(3) %ps
  call void @__hetgpu_safepoint()
  %w = load float, ptr addrspace(3) %ps
  %s = fadd float %v, %w
  %qf = uitofp i32 %q to float
  %r = fadd float %s, %qf
  %pout = getelementptr float, ptr %out, i64 %half
  store float %r, ptr %pout
  ret void
}
declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_safepoint()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 256, !"features", !4, !"launch.bounds", !5}
!2 = !{!3, !3, !6}
!3 = !{!"ptr", i32 8, i32 8}
!6 = !{!"value", i32 4, i32 4}
!4 = !{!"barrier"}
!5 = !{i32 0, i32 0}
