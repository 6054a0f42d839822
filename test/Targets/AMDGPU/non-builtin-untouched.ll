; Negative twin: functions that merely look like builtins (no __hetgpu_
; prefix) and plain code are left alone; device functions keep the C
; calling convention; only kernels become amdgpu_kernel.
; RUN: hetgpu-opt -passes='hetgpu-lower-amdgpu<gfx90a>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK: target triple = "amdgcn-amd-amdhsa"
; CHECK-LABEL: define i32 @helper(
; CHECK-NEXT: %t = call i32 @tid_x()
; CHECK-NEXT: %b = call i32 @hetgpu_barrier(i32 %t)
; CHECK-NEXT: ret i32 %b
define i32 @helper() {
  %t = call i32 @tid_x()
  %b = call i32 @hetgpu_barrier(i32 %t)
  ret i32 %b
}
; CHECK-LABEL: define protected amdgpu_kernel void @k(
; CHECK-NEXT: %v = call i32 @helper()
; CHECK-NEXT: store i32 %v, ptr %p
; CHECK-NEXT: ret void
define void @k(ptr %p) #0 {
  %v = call i32 @helper()
  store i32 %v, ptr %p
  ret void
}
; CHECK: declare i32 @tid_x()
; CHECK: declare i32 @hetgpu_barrier(i32)
; CHECK-NOT: amdgcn
declare i32 @tid_x()
declare i32 @hetgpu_barrier(i32)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
