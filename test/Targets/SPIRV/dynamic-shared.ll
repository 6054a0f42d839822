; Dynamic shared memory is the hidden `local` parameter the runtime sizes
; at launch (clSetKernelArg with a NULL value).
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -S %s | FileCheck %s
; RUN: %spirv_translate %s -o %t.spv
; RUN: spirv-val %t.spv
; REQUIRES: spirv-val
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(3) %hetgpu.dynshared, ptr addrspace(1) %hetgpu.globals)
; CHECK: %[[P:.*]] = getelementptr float, ptr addrspace(3) %hetgpu.dynshared, i32 5
; CHECK: store float 1.000000e+00, ptr addrspace(3) %[[P]]
define void @k(ptr %out) #0 {
  %d = call ptr addrspace(3) @__hetgpu_dynamic_shared()
  %g = addrspacecast ptr addrspace(3) %d to ptr
  %p = getelementptr float, ptr %g, i32 5
  store float 1.0, ptr %p
  ret void
}
declare ptr addrspace(3) @__hetgpu_dynamic_shared()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(float*)", !"params", !2, !"shared.static", i64 0, !"features", !3}
!2 = !{!{!"ptr", i32 8, i32 8}}
!3 = !{}
