; Negative twin: functions that merely look like builtins (no __hetgpu_
; prefix) and plain code are left alone; only the triple, data layout and
; the kernel calling convention change. Device functions stay C-convention.
; RUN: hetgpu-opt -passes=hetgpu-lower-nvptx -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK: target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
; CHECK: target triple = "nvptx64-nvidia-cuda"
; CHECK-LABEL: define i32 @helper(
; CHECK-NEXT: %t = call i32 @tid_x()
; CHECK-NEXT: %b = call i32 @hetgpu_barrier(i32 %t)
define i32 @helper() {
  %t = call i32 @tid_x()
  %b = call i32 @hetgpu_barrier(i32 %t)
  ret i32 %b
}
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NEXT: %v = call i32 @helper()
; CHECK-NEXT: %o = atomicrmw add ptr %p, i32 %v monotonic
; CHECK-NOT: nvvm
define void @k(ptr %p) #0 {
  %v = call i32 @helper()
  %o = atomicrmw add ptr %p, i32 %v monotonic
  ret void
}
declare i32 @tid_x()
declare i32 @hetgpu_barrier(i32)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
