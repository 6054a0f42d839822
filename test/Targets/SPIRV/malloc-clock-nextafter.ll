; malloc() bumps the runtime's heap (globals block header), free() is a
; no-op, clock64() is a monotonic counter in the header (OpenCL has no
; device clock), nextafter is exact integer arithmetic.
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -S %s | FileCheck %s
; RUN: %spirv_translate %s -o %t.spv
; RUN: spirv-val %t.spv
; REQUIRES: spirv-val
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK: c"hetgpu-spirv 2\0Ablock 48 16\0Akernel k 0\0Aheap 1\0A"
; CHECK-LABEL: define spir_kernel void @k(
; CHECK: %[[CLK:.*]] = getelementptr inbounds i8, ptr addrspace(1) %hetgpu.globals, i64 16
; CHECK: atomicrmw add ptr addrspace(1) %[[CLK]], i64 1 monotonic
; CHECK: %[[NEXT:.*]] = getelementptr inbounds i8, ptr addrspace(1) %hetgpu.globals, i64 40
; CHECK: atomicrmw add ptr addrspace(1) %[[NEXT]], i64 32 monotonic
; CHECK: inttoptr i64 %{{.*}} to ptr addrspace(4)
; CHECK-NOT: free
; CHECK: %n = select i1 %{{[0-9]+}}, float %{{[0-9]+}}, float %{{[0-9]+}}
; CHECK-NOT: call{{.*}}nextafter
define void @k(ptr %out, ptr %f) #0 {
  %t = call i64 @__hetgpu_clock64()
  store i64 %t, ptr %out
  %p = call ptr @__hetgpu_malloc(i64 24)
  store i64 7, ptr %p
  call void @__hetgpu_free(ptr %p)
  %x = load float, ptr %f
  %n = call float @__hetgpu_math_nextafterf(float %x, float 1.0)
  store float %n, ptr %f
  ret void
}
declare i64 @__hetgpu_clock64()
declare ptr @__hetgpu_malloc(i64)
declare void @__hetgpu_free(ptr)
declare float @__hetgpu_math_nextafterf(float, float)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(long*, float*)", !"params", !2, !"shared.static", i64 0, !"features", !4}
!2 = !{!3, !3}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{}
