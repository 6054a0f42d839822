; With -hetgpu-spirv-subgroups (devices with 32-wide sub-groups) warp
; operations are sub-group built-ins and the kernel requires sub-group
; size 32 (OpExecutionMode SubgroupSize 32).
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -hetgpu-spirv-subgroups -S %s | FileCheck %s
; RUN: %spirv_translate --features=+subgroups32 --arch=spirv1.3 %s -o %t.spv
; RUN: spirv-val %t.spv
; RUN: spirv-dis %t.spv | FileCheck --check-prefix=SPV %s
; REQUIRES: spirv-val
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK: target triple = "spirv64v1.3-unknown-unknown"
; CHECK-NOT: @__hetgpu_spirv_warp_scratch
; CHECK-LABEL: define spir_kernel void @k(
; CHECK-SAME: !intel_reqd_sub_group_size ![[SG:[0-9]+]]
; CHECK: call spir_func i32 @_Z17sub_group_shuffleij(i32 %v,
; CHECK: call spir_func <4 x i32> @_Z16sub_group_balloti(
; CHECK: call spir_func void @_Z17sub_group_barrierj(i32 3)
; CHECK: ![[SG]] = !{i32 32}
; SPV-DAG: OpExecutionMode %{{.*}} SubgroupSize 32
; SPV-DAG: OpGroupNonUniformShuffle
; SPV-DAG: OpGroupNonUniformBallot
define void @k(ptr %out, i32 %v) #0 {
  %s = call i32 @__hetgpu_shfl_down_i32(i32 -1, i32 %v, i32 1, i32 32)
  %x = call i32 @__hetgpu_shfl_xor_i32(i32 -1, i32 %s, i32 16, i32 32)
  %b = call i32 @__hetgpu_vote_ballot(i32 -1, i32 %x)
  %a = call i32 @__hetgpu_vote_all(i32 -1, i32 %b)
  %m = call i32 @__hetgpu_match_any_i32(i32 -1, i32 %a)
  %am = call i32 @__hetgpu_activemask()
  call void @__hetgpu_syncwarp(i32 -1)
  %r = add i32 %m, %am
  store i32 %r, ptr %out
  ret void
}
declare i32 @__hetgpu_shfl_down_i32(i32, i32, i32, i32)
declare i32 @__hetgpu_shfl_xor_i32(i32, i32, i32, i32)
declare i32 @__hetgpu_vote_ballot(i32, i32)
declare i32 @__hetgpu_vote_all(i32, i32)
declare i32 @__hetgpu_match_any_i32(i32, i32)
declare i32 @__hetgpu_activemask()
declare void @__hetgpu_syncwarp(i32)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(int*, int)", !"params", !2, !"shared.static", i64 0, !"features", !3}
!2 = !{!{!"ptr", i32 8, i32 8}, !{!"value", i32 4, i32 4}}
!3 = !{}
