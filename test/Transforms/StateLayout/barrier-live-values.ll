; Each barrier is a numbered safe point whose "hetgpu.live" bundle lists the
; values live across it in definition order (arguments excluded), and
; !hetgpu.state gives their layout. Running the pass twice changes nothing.
; RUN: hetgpu-opt -passes=hetgpu-state-layout -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-state-layout -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@tile = internal addrspace(3) global [64 x float] undef, align 4

; CHECK-LABEL: define void @k(
define void @k(ptr %in, ptr %out) #0 {
entry:
; %t comes from memory (a value a resumed launch cannot recompute); %pt,
; the tid-based address, is recomputable and never state.
  %tid = call i32 @__hetgpu_tid_x()
  %pt = getelementptr i32, ptr %out, i32 %tid
  %t = load i32, ptr %pt
  %t64 = zext i32 %t to i64
  %pin = getelementptr float, ptr %in, i64 %t64
  %v = load float, ptr %pin
  %ps = getelementptr [64 x float], ptr addrspace(3) @tile, i64 0, i64 %t64
  store float %v, ptr addrspace(3) %ps
; CHECK: call void @__hetgpu_barrier() [ "hetgpu.live"(i64 %t64, float %v, ptr addrspace(3) %ps) ], !hetgpu.safepoint ![[SP1:[0-9]+]]
  call void @__hetgpu_barrier()
  %w = load float, ptr addrspace(3) %ps
  %sum = fadd float %v, %w
; %v and %ps die here: only %t64 and %sum are live at the second barrier.
; CHECK: %c = call i32 @__hetgpu_barrier_count(i32 1) [ "hetgpu.live"(i64 %t64, float %sum) ], !hetgpu.safepoint ![[SP2:[0-9]+]]
  %c = call i32 @__hetgpu_barrier_count(i32 1)
  %cf = sitofp i32 %c to float
  %r = fadd float %sum, %cf
  %pout = getelementptr float, ptr %out, i64 %t64
  store float %r, ptr %pout
  ret void
}

declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_barrier()
declare i32 @__hetgpu_barrier_count(i32)

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 256, !"features", !4, !"launch.bounds", !5}
!2 = !{!3, !3}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{!"barrier"}
!5 = !{i32 0, i32 0}

; CHECK: !hetgpu.state = !{![[S:[0-9]+]]}
; CHECK: ![[S]] = !{ptr @k, ![[E:[0-9]+]], ![[B1:[0-9]+]], ![[B2:[0-9]+]]}
; CHECK: ![[E]] = !{i32 0, !"entry", i32 0, ![[NONE:[0-9]+]]}
; CHECK: ![[NONE]] = !{}
; CHECK: ![[B1]] = !{i32 1, !"barrier", i32 24, ![[B1S:[0-9]+]]}
; CHECK: ![[B1S]] = !{![[T64:[0-9]+]], ![[VF:[0-9]+]], ![[PS:[0-9]+]]}
; CHECK: ![[T64]] = !{!"value", !"i64", i32 0, i32 8, i32 8}
; CHECK: ![[VF]] = !{!"value", !"float", i32 8, i32 4, i32 4}
; CHECK: ![[PS]] = !{!"shared-ptr", !"ptr addrspace(3)", i32 16, i32 8, i32 8}
; CHECK: ![[B2]] = !{i32 2, !"barrier", i32 16, ![[B2S:[0-9]+]]}
; CHECK: ![[B2S]] = !{![[T64]], ![[VF]]}
; CHECK: ![[SP1]] = !{i32 1}
; CHECK: ![[SP2]] = !{i32 2}
