; Without 32-wide sub-groups, warp operations in block-convergent code are
; emulated exactly: each value goes through a local scratch array between
; work-group barriers and is read back from the source lane of the warp.
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -S %s | FileCheck %s
; RUN: %spirv_translate %s -o %t.spv
; RUN: spirv-val %t.spv
; REQUIRES: spirv-val
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK: @__hetgpu_spirv_warp_scratch = internal addrspace(3) global [1024 x i32] poison
; CHECK: c"hetgpu-spirv 2\0Ablock 48 16\0Akernel k 1\0A"
; CHECK-LABEL: define spir_kernel void @k(
; CHECK-NOT: intel_reqd_sub_group_size
; CHECK: %warp.base = and i32 %hetgpu.linear.tid, -32
; CHECK: call spir_func void @_Z7barrierj(i32 1)
; CHECK: store i32 %v, ptr addrspace(3) %{{.*}}
; CHECK: call spir_func void @_Z7barrierj(i32 1)
; CHECK: %[[SRC:.*]] = add i32 %warp.base, %{{.*}}
; CHECK: getelementptr inbounds i32, ptr addrspace(3) @__hetgpu_spirv_warp_scratch, i32 %[[SRC]]
; CHECK: %s = select i1 %{{.*}}, i32 %v, i32 %{{.*}}
; CHECK: call spir_func void @_Z7barrierj(i32 3)
; CHECK-NOT: sub_group
; CHECK-NOT: call{{.*}} @__hetgpu_
; CHECK-LABEL: define spir_kernel void @__hetgpu_spirv_info(
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
