; Index builtins read the PTX special registers; lane_id is %laneid.
; RUN: hetgpu-opt -passes=hetgpu-lower-nvptx -S %s | FileCheck %s
; Idempotence: a second run finds nothing left to lower.
; RUN: hetgpu-opt -passes=hetgpu-lower-nvptx,hetgpu-lower-nvptx -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK: target triple = "nvptx64-nvidia-cuda"
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
; CHECK: %tz = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
; CHECK: %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK: %ny = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
; CHECK: %nz = call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
; CHECK: %cx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK: %cy = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
; CHECK: %cz = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
; CHECK: %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
; CHECK: %gy = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
; CHECK: %gz = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
; CHECK: %ln = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK-NOT: __hetgpu_
define void @k(ptr %p) #0 {
  %tx = call i32 @__hetgpu_tid_x()
  %ty = call i32 @__hetgpu_tid_y()
  %tz = call i32 @__hetgpu_tid_z()
  %nx = call i32 @__hetgpu_ntid_x()
  %ny = call i32 @__hetgpu_ntid_y()
  %nz = call i32 @__hetgpu_ntid_z()
  %cx = call i32 @__hetgpu_ctaid_x()
  %cy = call i32 @__hetgpu_ctaid_y()
  %cz = call i32 @__hetgpu_ctaid_z()
  %gx = call i32 @__hetgpu_nctaid_x()
  %gy = call i32 @__hetgpu_nctaid_y()
  %gz = call i32 @__hetgpu_nctaid_z()
  %ln = call i32 @__hetgpu_lane_id()
  %s1 = add i32 %tx, %ty
  %s2 = add i32 %s1, %tz
  %s3 = add i32 %s2, %nx
  %s4 = add i32 %s3, %ny
  %s5 = add i32 %s4, %nz
  %s6 = add i32 %s5, %cx
  %s7 = add i32 %s6, %cy
  %s8 = add i32 %s7, %cz
  %s9 = add i32 %s8, %gx
  %s10 = add i32 %s9, %gy
  %s11 = add i32 %s10, %gz
  %s12 = add i32 %s11, %ln
  store i32 %s12, ptr %p
  ret void
}
declare i32 @__hetgpu_tid_x()
declare i32 @__hetgpu_tid_y()
declare i32 @__hetgpu_tid_z()
declare i32 @__hetgpu_ntid_x()
declare i32 @__hetgpu_ntid_y()
declare i32 @__hetgpu_ntid_z()
declare i32 @__hetgpu_ctaid_x()
declare i32 @__hetgpu_ctaid_y()
declare i32 @__hetgpu_ctaid_z()
declare i32 @__hetgpu_nctaid_x()
declare i32 @__hetgpu_nctaid_y()
declare i32 @__hetgpu_nctaid_z()
declare i32 @__hetgpu_lane_id()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
