; vprintf, malloc and free become builtins; transcendental LLVM intrinsics
; become __hetgpu_math_* calls while portable ones (sqrt) stay.
; RUN: hetgpu-opt -passes=hetgpu-raise -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@fmt = private constant [4 x i8] c"%f\0A\00"

; CHECK-LABEL: define void @k(
define ptx_kernel void @k(float %x, double %y, ptr %buf) {
; CHECK: call i32 @__hetgpu_printf(ptr @fmt, ptr %buf)
  %r = call i32 @vprintf(ptr @fmt, ptr %buf)
; CHECK: call ptr @__hetgpu_malloc(i64 16)
  %m = call ptr @malloc(i64 16)
; CHECK: call void @__hetgpu_free(ptr
  call void @free(ptr %m)
; CHECK: %s = call float @__hetgpu_math_sinf(float %x)
  %s = call float @llvm.sin.f32(float %x)
; CHECK: %e = call double @__hetgpu_math_pow(double %y, double %y)
  %e = call double @llvm.pow.f64(double %y, double %y)
; CHECK: %q = call float @llvm.sqrt.f32(float %x)
  %q = call float @llvm.sqrt.f32(float %x)
  ret void
}
declare i32 @vprintf(ptr, ptr)
declare ptr @malloc(i64)
declare void @free(ptr)
declare float @llvm.sin.f32(float)
declare double @llvm.pow.f64(double, double)
declare float @llvm.sqrt.f32(float)
; CHECK-NOT: @vprintf
; CHECK: !{!"printf", !"malloc", !"double", !"math"}
