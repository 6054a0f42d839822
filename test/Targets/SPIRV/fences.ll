; Fences become LLVM fences with OpenCL memory scopes (OpMemoryBarrier).
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -S %s | FileCheck %s
; RUN: %spirv_translate %s -o %t.spv
; RUN: spirv-val %t.spv
; RUN: spirv-dis %t.spv | FileCheck --check-prefix=SPV %s
; REQUIRES: spirv-val
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define spir_kernel void @k(
; CHECK: fence syncscope("workgroup") seq_cst
; CHECK: fence syncscope("device") seq_cst
; CHECK: fence seq_cst
; SPV-COUNT-3: OpMemoryBarrier
define void @k(ptr %out) #0 {
  store i32 1, ptr %out
  call void @__hetgpu_fence_block()
  call void @__hetgpu_fence_device()
  call void @__hetgpu_fence_system()
  ret void
}
declare void @__hetgpu_fence_block()
declare void @__hetgpu_fence_device()
declare void @__hetgpu_fence_system()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(int*)", !"params", !2, !"shared.static", i64 0, !"features", !3}
!2 = !{!{!"ptr", i32 8, i32 8}}
!3 = !{}
