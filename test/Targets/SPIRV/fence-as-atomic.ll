; For consumers whose OpenCL library lacks mem_fence (PoCL's SPIR 1.2
; path: feature +fence-as-atomic) fences become sequentially consistent
; atomic ORs of 0 on a scratch word; without the feature they stay fences.
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -hetgpu-spirv-fence-as-atomic -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -S %s | FileCheck --check-prefix=FENCE %s
; RUN: %spirv_translate --features=+fence-as-atomic %s -o %t.spv
; RUN: spirv-val %t.spv
; RUN: spirv-dis %t.spv | FileCheck --check-prefix=SPV %s
; REQUIRES: spirv-val
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK: @__hetgpu_spirv_fence_word = internal addrspace(3) global i32
; CHECK-LABEL: define spir_kernel void @k(
; CHECK: atomicrmw or ptr addrspace(3) @__hetgpu_spirv_fence_word, i32 0 syncscope("workgroup") seq_cst
; CHECK: %[[W:.*]] = getelementptr inbounds i8, ptr addrspace(1) %hetgpu.globals, i64 4
; CHECK: atomicrmw or ptr addrspace(1) %[[W]], i32 0 syncscope("device") seq_cst
; CHECK: atomicrmw or ptr addrspace(1) %{{.*}}, i32 0 seq_cst
; CHECK-NOT: fence
; FENCE-LABEL: define spir_kernel void @k(
; FENCE: fence syncscope("workgroup") seq_cst
; SPV-NOT: OpMemoryBarrier
; SPV: OpAtomicOr
define void @k(ptr %out) #0 {
  store i32 1, ptr %out
  call void @__hetgpu_fence_block()
  call void @__hetgpu_fence_device()
  fence seq_cst
  ret void
}
declare void @__hetgpu_fence_block()
declare void @__hetgpu_fence_device()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(int*)", !"params", !2, !"shared.static", i64 0, !"features", !4}
!2 = !{!3}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{}
