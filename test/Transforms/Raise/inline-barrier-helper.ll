; A device function containing __syncthreads() is inlined into every kernel
; that calls it (so each safe point belongs to a kernel), then deleted.
; RUN: hetgpu-opt -passes=hetgpu-raise -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: define {{.*}}@sync_helper
define void @sync_helper(ptr %p) {
  store i32 1, ptr %p
  call void @__hetgpu_barrier()
  ret void
}

; CHECK-LABEL: define void @k(
; CHECK-NEXT: store i32 1, ptr %p
; CHECK-NEXT: call void @__hetgpu_barrier()
; CHECK-NEXT: ret void
define ptx_kernel void @k(ptr %p) {
  call void @sync_helper(ptr %p)
  ret void
}
declare void @__hetgpu_barrier()
; CHECK: declare void @__hetgpu_barrier() #[[B:[0-9]+]]
; CHECK: attributes #[[B]] = { convergent nounwind }
