; Device functions that use thread-context builtins (here a barrier and a
; thread index, two levels deep) are inlined into the kernel before the
; split, and disappear once no caller is left; a device function without
; them stays a call (negative twin).
; RUN: hetgpu-opt -passes=hetgpu-simt-to-mimd -S %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-NOT: define {{.*}} @stage(
; CHECK-NOT: define {{.*}} @tid(
; CHECK-LABEL: define internal i32 @pure(
define internal i32 @pure(i32 %x) {
  %y = mul i32 %x, 3
  ret i32 %y
}

define internal i32 @tid() {
  %t = call i32 @__hetgpu_tid_x()
  ret i32 %t
}

define internal i32 @stage(i32 %x) {
  %t = call i32 @tid()
  %a = add i32 %x, %t
  call void @__hetgpu_barrier()
  %b = mul i32 %a, %t
  ret i32 %b
}

; CHECK-LABEL: define internal i32 @k.hetgpu.thread(
; CHECK: call i32 @pure(
; CHECK: ret i32 1
; CHECK: sync1.resume:
; CHECK-NOT: call i32 @stage
; CHECK: ret i32 0
define void @k(ptr %out) #0 {
  %v = call i32 @pure(i32 5)
  %r = call i32 @stage(i32 %v)
  store i32 %r, ptr %out
  ret void
}

declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_barrier()

attributes #0 = { "hetgpu-kernel" }
