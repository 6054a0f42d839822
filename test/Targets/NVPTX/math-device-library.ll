; Without libdevice, math builtins are linked from hetGPU's own device math
; library (which defines the __hetgpu_math_* functions); with neither, each
; function is named in an error. Library helpers named __hetgpu_mathi_* are
; definitions, not builtins, and stay untouched.
; RUN: llvm-as %S/Inputs/fake-math-library.ll -o %t.math.bc
; RUN: hetgpu-opt -passes=hetgpu-lower-nvptx -hetgpu-nvptx-libdevice=none -hetgpu-nvptx-math-library=%t.math.bc -S %s | FileCheck %s
; RUN: env HETGPU_LIBDEVICE=none HETGPU_MATH_LIBRARY=%t.math.bc hetgpu-opt -passes=hetgpu-lower-nvptx -S %s | FileCheck %s
; RUN: not hetgpu-opt -passes=hetgpu-lower-nvptx -hetgpu-nvptx-libdevice=none -hetgpu-nvptx-math-library=none -disable-output %s 2>&1 | FileCheck --check-prefix=ERR %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: %s = call float @__hetgpu_math_sinf(float %x)
; CHECK-LABEL: define {{.*}}float @__hetgpu_math_sinf(float %x)
; CHECK: call float @__hetgpu_mathi_sub3(float %x)
; CHECK-LABEL: define internal float @__hetgpu_mathi_sub3(
; CHECK: fsub float %x, 3.0
; CHECK-NOT: __hetgpu_math_cos
; ERR: error: {{.*}}in function k{{.*}}math function 'sinf' needs the device math library
define void @k(ptr %out, float %x) #0 {
  %s = call float @__hetgpu_math_sinf(float %x)
  store float %s, ptr %out
  ret void
}
declare float @__hetgpu_math_sinf(float)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
