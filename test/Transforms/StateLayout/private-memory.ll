; A private array live across a barrier is saved as memory, and a pointer
; into it as (slot, offset): both get slots, the allocation first.
; RUN: hetgpu-opt -passes=hetgpu-state-layout -S %s | FileCheck %s
; RUN: hetgpu-opt -passes='hetgpu-state-layout,print<hetgpu-state>' -disable-output %s 2>&1 | FileCheck --check-prefix=PRINT %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define void @k(
define void @k(ptr %out, i64 %i) #0 {
  %arr = alloca [4 x i32], align 4
  %p = getelementptr [4 x i32], ptr %arr, i64 0, i64 %i
  store i32 7, ptr %p
; CHECK: call void @__hetgpu_barrier() [ "hetgpu.live"(ptr %arr, ptr %p) ]
  call void @__hetgpu_barrier()
  %v = load i32, ptr %p
  %w = load i32, ptr %arr
  %s = add i32 %v, %w
  store i32 %s, ptr %out
  ret void
}
declare void @__hetgpu_barrier()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !5}
!2 = !{!3, !6}
!3 = !{!"ptr", i32 8, i32 8}
!6 = !{!"value", i32 8, i32 8}
!4 = !{!"barrier"}
!5 = !{i32 0, i32 0}
; CHECK: !{!"memory", !"[4 x i32]", i32 0, i32 16, i32 4}
; CHECK: !{!"private-ptr", !"ptr", i32 16, i32 8, i32 8}

; PRINT: state k: 2 safe points, record 24 bytes
; PRINT-NEXT: safepoint 0 entry: 0 slots, 0 bytes
; PRINT-NEXT: safepoint 1 barrier: 2 slots, 24 bytes
; PRINT-NEXT: slot 0: memory [4 x i32] @0 size 16 align 4
; PRINT-NEXT: slot 1: private-ptr ptr @16 size 8 align 8
