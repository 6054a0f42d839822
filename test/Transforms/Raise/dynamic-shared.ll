; extern __shared__ arrays become __hetgpu_dynamic_shared(), also when used
; through constant expressions, and the feature is recorded.
; RUN: hetgpu-opt -passes=hetgpu-raise -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@dyn = external addrspace(3) global [0 x float], align 4

; CHECK-NOT: @dyn
; CHECK-LABEL: define void @k(
; CHECK-NEXT: [[BASE:%.*]] = call ptr addrspace(3) @__hetgpu_dynamic_shared()
; CHECK-NEXT: [[G:%.*]] = addrspacecast ptr addrspace(3) [[BASE]] to ptr
; CHECK-NEXT: [[P:%.*]] = getelementptr inbounds float, ptr [[G]], i64 %i
; CHECK-NEXT: store float 1.000000e+00, ptr [[P]]
define ptx_kernel void @k(i64 %i) {
  %p = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @dyn to ptr), i64 %i
  store float 1.0, ptr %p
  ret void
}
; CHECK: !{!"dynamic-shared"}
