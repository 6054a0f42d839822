; NVPTX has no libcalls: lround/llround become fptosi(round(x)) and lrint
; fptosi(rint(x)); other portable intrinsics are left to the back end.
; RUN: hetgpu-opt -passes=hetgpu-lower-nvptx -S %s | FileCheck %s
; RUN: hetgpu-translate --target=nvptx --arch=sm_80 %s -o - | FileCheck --check-prefix=PTX %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: [[R1:%.*]] = call float @llvm.round.f32(float %x)
; CHECK: %a = fptosi float [[R1]] to i64
; CHECK: [[R2:%.*]] = call double @llvm.round.f64(double %d)
; CHECK: %b = fptosi double [[R2]] to i64
; CHECK: [[R3:%.*]] = call double @llvm.rint.f64(double %d)
; CHECK: %c = fptosi double [[R3]] to i32
; CHECK: %e = call float @llvm.ldexp.f32.i32(float %x, i32 3)
; CHECK-NOT: lround
; PTX-LABEL: .entry k(
; PTX: cvt.rni.f64.f64 [[RINT:%rd[0-9]+]], %rd
; PTX: cvt.rzi.s32.f64 %r{{[0-9]+}}, [[RINT]]
define void @k(ptr %p, float %x, double %d) #0 {
  %a = call i64 @llvm.lround.i64.f32(float %x)
  %b = call i64 @llvm.llround.i64.f64(double %d)
  %c = call i32 @llvm.lrint.i32.f64(double %d)
  %e = call float @llvm.ldexp.f32.i32(float %x, i32 3)
  store volatile i64 %a, ptr %p
  store volatile i64 %b, ptr %p
  store volatile i32 %c, ptr %p
  store volatile float %e, ptr %p
  ret void
}
declare i64 @llvm.lround.i64.f32(float)
declare i64 @llvm.llround.i64.f64(double)
declare i32 @llvm.lrint.i32.f64(double)
declare float @llvm.ldexp.f32.i32(float, i32)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
