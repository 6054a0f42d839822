; With a libdevice found at translation time, math builtins become calls of
; libdevice's __nv_* functions, linked in on demand (LinkOnlyNeeded: unused
; functions stay out), with nvvm-reflect-ftz = 0 (CUDA's default).
; RUN: llvm-as %S/Inputs/fake-libdevice.ll -o %t.libdevice.10.bc
; RUN: hetgpu-opt -passes=hetgpu-lower-nvptx -hetgpu-nvptx-libdevice=%t.libdevice.10.bc -S %s | FileCheck %s
; A directory is searched for libdevice.10.bc, as in a CUDA toolkit.
; RUN: rm -rf %t.dir && mkdir -p %t.dir && cp %t.libdevice.10.bc %t.dir/libdevice.10.bc
; RUN: env HETGPU_LIBDEVICE=%t.dir hetgpu-opt -passes=hetgpu-lower-nvptx -S %s | FileCheck %s
; A function libdevice lacks is named.
; RUN: sed -e 's/sinf/cosf/g' %s > %t.cos.ll
; RUN: not hetgpu-opt -passes=hetgpu-lower-nvptx -hetgpu-nvptx-libdevice=%t.libdevice.10.bc -disable-output %t.cos.ll 2>&1 | FileCheck --check-prefix=ERR %s
; A libdevice path that does not exist is an error, not a silent fallback.
; RUN: not hetgpu-opt -passes=hetgpu-lower-nvptx -hetgpu-nvptx-libdevice=%t.nonexistent.bc -disable-output %s 2>&1 | FileCheck --check-prefix=MISSING %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: %s = call float @__nv_sinf(float %x)
; CHECK: %p = call double @__nv_pow(double %d, double %d)
; CHECK-LABEL: define {{.*}}float @__nv_sinf(float %x)
; CHECK: fadd float %x, 1.0
; CHECK-LABEL: define {{.*}}double @__nv_pow(
; CHECK-NOT: __nv_unused
; CHECK-NOT: __hetgpu_math
; CHECK: !{i32 4, !"nvvm-reflect-ftz", i32 0}
; ERR: error: {{.*}}in function k{{.*}}math function 'cosf' is not in libdevice
; MISSING: error: {{.*}}in function k{{.*}}libdevice not found at '{{.*}}nonexistent.bc'
define void @k(ptr %out, float %x, double %d) #0 {
  %s = call float @__hetgpu_math_sinf(float %x)
  %p = call double @__hetgpu_math_pow(double %d, double %d)
  store float %s, ptr %out
  %o2 = getelementptr i8, ptr %out, i64 8
  store double %p, ptr %o2
  ret void
}
declare float @__hetgpu_math_sinf(float)
declare double @__hetgpu_math_pow(double, double)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
