; Math builtins become OpenCL built-ins (OpExtInst OpenCL.std).
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -S %s | FileCheck %s
; RUN: %spirv_translate %s -o %t.spv
; RUN: spirv-val %t.spv
; RUN: spirv-dis %t.spv | FileCheck --check-prefix=SPV %s
; REQUIRES: spirv-val
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define spir_kernel void @k(
; CHECK: call spir_func float @_Z3sinf(float
; CHECK: call spir_func double @_Z3powdd(double
; CHECK: call spir_func float @_Z5atan2ff(float
; CHECK: call spir_func double @_Z5expm1d(double
; SPV-DAG: OpExtInst %float %{{.*}} sin
; SPV-DAG: OpExtInst %double %{{.*}} pow
; SPV-DAG: OpExtInst %float %{{.*}} atan2
; SPV-DAG: OpExtInst %double %{{.*}} expm1
define void @k(ptr %f, ptr %d) #0 {
  %x = load float, ptr %f
  %y = load double, ptr %d
  %s = call float @__hetgpu_math_sinf(float %x)
  %p = call double @__hetgpu_math_pow(double %y, double 2.0)
  %a = call float @__hetgpu_math_atan2f(float %s, float %x)
  %e = call double @__hetgpu_math_expm1(double %p)
  store float %a, ptr %f
  store double %e, ptr %d
  ret void
}
declare float @__hetgpu_math_sinf(float)
declare double @__hetgpu_math_pow(double, double)
declare float @__hetgpu_math_atan2f(float, float)
declare double @__hetgpu_math_expm1(double)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(float*, double*)", !"params", !2, !"shared.static", i64 0, !"features", !3}
!2 = !{!{!"ptr", i32 8, i32 8}, !{!"ptr", i32 8, i32 8}}
!3 = !{}
