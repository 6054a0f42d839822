; Math builtins are linked from hetGPU's device math library for amdgcn
; (hetgpu-math-amdgcn-amd-amdhsa.bc, built from runtime/device/math), so
; only the functions the module calls are pulled in; its allocas move to
; address space 5 like the module's own. The library's accuracy is tested
; on the host (test/DeviceMath); here it must compile for every arch.
; RUN: env HETGPU_MATH_LIBRARY=%hetgpu_libdir hetgpu-opt -passes='hetgpu-lower-amdgpu<gfx942>' -S %s | FileCheck %s
; RUN: env HETGPU_MATH_LIBRARY=%hetgpu_libdir hetgpu-translate --target=amdgpu --arch=gfx1100 %s -o %t.hsaco
; RUN: llvm-readobj --notes %t.hsaco | FileCheck --check-prefix=NOTES %s
; Without the library every user is named.
; RUN: env HETGPU_MATH_LIBRARY=%t.none not hetgpu-opt -passes='hetgpu-lower-amdgpu<gfx942>' -disable-output %s 2>&1 | FileCheck --check-prefix=ERR %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define protected amdgpu_kernel void @k(
; CHECK: call {{.*}}float @__hetgpu_math_sinf(float %x)
; CHECK: call {{.*}}double @__hetgpu_math_pow(double
; CHECK-DAG: define {{.*}}float @__hetgpu_math_sinf(float
; CHECK-DAG: define {{.*}}double @__hetgpu_math_pow(double
; CHECK-NOT: define {{.*}}@__hetgpu_math_cosf(
; NOTES: .name: k
; NOTES: .wavefront_size: 32
; ERR: error: {{.*}}in function k{{.*}}math functions need hetGPU's device math library for amdgcn
define void @k(ptr %p, float %x, double %y) #0 {
  %s = call float @__hetgpu_math_sinf(float %x)
  %d = fpext float %s to double
  %q = call double @__hetgpu_math_pow(double %d, double %y)
  store double %q, ptr %p
  ret void
}
declare float @__hetgpu_math_sinf(float)
declare double @__hetgpu_math_pow(double, double)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
