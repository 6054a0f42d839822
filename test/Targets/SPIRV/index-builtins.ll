; Index builtins become OpenCL work-item functions (which the SPIR-V backend
; turns into BuiltIn variables); lane_id is the linear local id mod 32.
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv,hetgpu-lower-spirv -S %s | FileCheck %s
; RUN: %spirv_translate %s -o %t.spv
; RUN: spirv-val %t.spv
; RUN: spirv-dis %t.spv | FileCheck --check-prefix=SPV %s
; REQUIRES: spirv-val

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK: target triple = "spirv64v1.2-unknown-unknown"
; CHECK-LABEL: define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(3) %hetgpu.dynshared, ptr addrspace(1) %hetgpu.globals)
; CHECK: call spir_func i64 @_Z12get_local_idj(i32 0)
; CHECK: call spir_func i64 @_Z12get_local_idj(i32 1)
; CHECK: call spir_func i64 @_Z12get_local_idj(i32 2)
; CHECK: call spir_func i64 @_Z14get_local_sizej(i32 0)
; CHECK: call spir_func i64 @_Z12get_group_idj(i32 1)
; CHECK: call spir_func i64 @_Z14get_num_groupsj(i32 2)
; CHECK: %hetgpu.linear.tid = add i32
; CHECK: %lane = and i32 %hetgpu.linear.tid, 31
; CHECK-NOT: call{{.*}} @__hetgpu_
; CHECK-LABEL: define spir_kernel void @__hetgpu_spirv_info(
; SPV-DAG: OpDecorate %{{.*}} BuiltIn LocalInvocationId
; SPV-DAG: OpDecorate %{{.*}} BuiltIn WorkgroupSize
; SPV-DAG: OpDecorate %{{.*}} BuiltIn WorkgroupId
; SPV-DAG: OpDecorate %{{.*}} BuiltIn NumWorkgroups
; SPV-DAG: OpEntryPoint Kernel %{{.*}} "k"
; SPV-DAG: OpEntryPoint Kernel %{{.*}} "__hetgpu_spirv_info"
; SPV-DAG: OpEntryPoint Kernel %{{.*}} "__hetgpu_spirv_init"
define void @k(ptr %out) #0 {
  %x = call i32 @__hetgpu_tid_x()
  %y = call i32 @__hetgpu_tid_y()
  %z = call i32 @__hetgpu_tid_z()
  %nx = call i32 @__hetgpu_ntid_x()
  %by = call i32 @__hetgpu_ctaid_y()
  %gz = call i32 @__hetgpu_nctaid_z()
  %lane = call i32 @__hetgpu_lane_id()
  %a = add i32 %x, %y
  %b = add i32 %a, %z
  %c = add i32 %b, %nx
  %d = add i32 %c, %by
  %e = add i32 %d, %gz
  %f = add i32 %e, %lane
  store i32 %f, ptr %out
  ret void
}

declare i32 @__hetgpu_tid_x()
declare i32 @__hetgpu_tid_y()
declare i32 @__hetgpu_tid_z()
declare i32 @__hetgpu_ntid_x()
declare i32 @__hetgpu_ctaid_y()
declare i32 @__hetgpu_nctaid_z()
declare i32 @__hetgpu_lane_id()

attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(int*)", !"params", !2, !"shared.static", i64 0, !"features", !4}
!2 = !{!3}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{}
