; Fences become membar.cta/gl/sys (CUDA's __threadfence_block/__threadfence/
; __threadfence_system); clocks read %clock, %clock64 and %globaltimer.
; RUN: hetgpu-opt -passes=hetgpu-lower-nvptx -S %s | FileCheck %s
; RUN: hetgpu-translate --target=nvptx --arch=sm_90 %s -o - | FileCheck --check-prefix=PTX %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call void @llvm.nvvm.membar.cta()
; CHECK: call void @llvm.nvvm.membar.gl()
; CHECK: call void @llvm.nvvm.membar.sys()
; CHECK: %c = call i32 @llvm.nvvm.read.ptx.sreg.clock()
; CHECK: %c64 = call i64 @llvm.nvvm.read.ptx.sreg.clock64()
; CHECK: %g = call i64 @llvm.nvvm.read.ptx.sreg.globaltimer()
; PTX: membar.cta;
; PTX: membar.gl;
; PTX: membar.sys;
; PTX-DAG: %clock;
; PTX-DAG: %clock64;
; PTX-DAG: %globaltimer;
define void @k(ptr %p) #0 {
  call void @__hetgpu_fence_block()
  call void @__hetgpu_fence_device()
  call void @__hetgpu_fence_system()
  %c = call i32 @__hetgpu_clock()
  %c64 = call i64 @__hetgpu_clock64()
  %g = call i64 @__hetgpu_globaltimer()
  %cz = zext i32 %c to i64
  %s = add i64 %cz, %c64
  %t = add i64 %s, %g
  store i64 %t, ptr %p
  ret void
}
declare void @__hetgpu_fence_block()
declare void @__hetgpu_fence_device()
declare void @__hetgpu_fence_system()
declare i32 @__hetgpu_clock()
declare i64 @__hetgpu_clock64()
declare i64 @__hetgpu_globaltimer()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
