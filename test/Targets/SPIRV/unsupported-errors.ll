; What OpenCL cannot express is a translation error naming the kernel and
; the builtin, never a crash.
; RUN: split-file %s %t
; RUN: not %spirv_translate %t/timer.ll -o %t.spv 2>&1 | FileCheck --check-prefix=TIMER %s
; RUN: not %spirv_translate %t/indirect.ll -o %t.spv 2>&1 | FileCheck --check-prefix=INDIRECT %s
; RUN: not %spirv_translate --instrument %t/indirect.ll -o %t.spv 2>&1 | FileCheck --check-prefix=INDIRECT %s
; RUN: not %spirv_translate --arch=spirv2.0 %t/indirect.ll -o %t.spv 2>&1 | FileCheck --check-prefix=ARCH %s
; RUN: not hetgpu-opt -passes=hetgpu-lower-spirv -disable-output %t/indirect.ll 2>&1 | FileCheck --check-prefix=INDIRECT %s
; TIMER: kernel 'k': reading the global nanosecond timer (OpenCL has no device timer) ('__hetgpu_globaltimer') is not supported by the SPIR-V target
; INDIRECT: function 'k' makes an indirect call: not supported in SPIR-V (OpenCL)
; ARCH: spirv: unknown arch 'spirv2.0'

;--- timer.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define void @k(ptr %out) #0 {
  %t = call i64 @__hetgpu_globaltimer()
  store i64 %t, ptr %out
  ret void
}
declare i64 @__hetgpu_globaltimer()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(void**)", !"params", !2, !"shared.static", i64 0, !"features", !3}
!2 = !{!{!"ptr", i32 8, i32 8}}
!3 = !{}

;--- indirect.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define void @k(ptr %out) #0 {
  %f = load ptr, ptr %out
  call void %f()
  ret void
}
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(long*)", !"params", !2, !"shared.static", i64 0, !"features", !3}
!2 = !{!{!"ptr", i32 8, i32 8}}
!3 = !{}
