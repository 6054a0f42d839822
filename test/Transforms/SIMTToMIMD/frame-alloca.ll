; A private allocation used after a barrier moves into the thread's frame
; (after the 40-byte state record, at 48), so its contents survive the return to the
; executor; its lifetime markers go away. An allocation used only between
; two sync points stays an alloca of the thread function (negative twin).
; RUN: hetgpu-opt -passes=hetgpu-simt-to-mimd -S %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define internal i32 @k.hetgpu.thread(
; CHECK: setup:
; CHECK-NEXT: %tmp = alloca [4 x i32], align 4
; CHECK: %frame = load ptr
; CHECK: %arr.frame = getelementptr inbounds i8, ptr %frame, i64 48
; CHECK-NOT: alloca
; CHECK-NOT: llvm.lifetime
; CHECK: store i32 %tid.x, ptr %pa
; CHECK: ret i32 1
; CHECK: sync1.cont:
; CHECK: getelementptr [8 x i32], ptr %arr.frame, i64 0, i64 %j
; CHECK-LABEL: define void @__hetgpu_block_k(
; CHECK: call void @__hetgpu_exec_block(ptr %args, ptr %ctx, ptr @k.hetgpu.thread, i32 80, ptr @k.name)
define void @k(ptr %out, i64 %i, i64 %j) #0 {
entry:
  %arr = alloca [8 x i32], align 4
  %tmp = alloca [4 x i32], align 4
  call void @llvm.lifetime.start.p0(ptr %arr)
  %t = call i32 @__hetgpu_tid_x()
  %pa = getelementptr [8 x i32], ptr %arr, i64 0, i64 %i
  store i32 %t, ptr %pa
  %pt = getelementptr [4 x i32], ptr %tmp, i64 0, i64 %i
  store i32 %t, ptr %pt
  %u = load i32, ptr %tmp
  call void @__hetgpu_barrier() [ "hetgpu.live"(ptr %arr, i32 %u) ], !hetgpu.safepoint !6
  %pb = getelementptr [8 x i32], ptr %arr, i64 0, i64 %j
  %v = load i32, ptr %pb
  %w = add i32 %v, %u
  store i32 %w, ptr %out
  call void @llvm.lifetime.end.p0(ptr %arr)
  ret void
}

declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_barrier()
declare void @llvm.lifetime.start.p0(ptr)
declare void @llvm.lifetime.end.p0(ptr)

attributes #0 = { "hetgpu-kernel" }

!hetgpu.kernels = !{!0}
!hetgpu.state = !{!2}
!0 = !{ptr @k, !"name", !"k(int*, long, long)", !"params", !1, !"shared.static", i64 0, !"features", !{!"barrier"}, !"launch.bounds", !{i32 0, i32 0}}
!1 = !{!{!"ptr", i32 8, i32 8}, !{!"value", i32 8, i32 8}, !{!"value", i32 8, i32 8}}
!2 = !{ptr @k, !3, !4}
!3 = !{i32 0, !"entry", i32 0, !{}}
!4 = !{i32 1, !"barrier", i32 40, !5}
!5 = !{!{!"memory", !"[8 x i32]", i32 0, i32 32, i32 4}, !{!"value", !"i32", i32 32, i32 4, i32 4}}
!6 = !{i32 1}
