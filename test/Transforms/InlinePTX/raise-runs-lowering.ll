; hetgpu-raise lowers inline PTX first, so a barrier in a device function's
; asm is seen and the function inlined into its kernel, and the device
; module verifies as hetIR.
; RUN: hetgpu-opt -passes=hetgpu-raise -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-raise,hetgpu-verify -disable-output %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: asm
; CHECK-LABEL: define void @k(ptr %p)
; CHECK-NEXT: %l = call i32 @lane()
; CHECK-NEXT: call void @__hetgpu_barrier()
; CHECK-NEXT: store i32 %l, ptr %p
define ptx_kernel void @k(ptr %p) {
  %l = call i32 @lane()
  call void @sync()
  store i32 %l, ptr %p
  ret void
}

; CHECK-LABEL: define internal i32 @lane()
; CHECK-NEXT: call i32 @__hetgpu_lane_id()
define i32 @lane() {
  %r = call i32 asm "mov.u32 $0, %laneid;", "=r"()
  ret i32 %r
}

define void @sync() {
  call void asm sideeffect "bar.sync 0;", "~{memory}"()
  ret void
}
; CHECK-NOT: define {{.*}} @sync
