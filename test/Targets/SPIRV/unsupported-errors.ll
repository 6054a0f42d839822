; What OpenCL cannot express is a translation error naming the kernel and
; the builtin, never a crash.
; RUN: split-file %s %t
; RUN: not %spirv_translate %t/malloc.ll -o %t.spv 2>&1 | FileCheck --check-prefix=MALLOC %s
; RUN: not %spirv_translate %t/clock.ll -o %t.spv 2>&1 | FileCheck --check-prefix=CLOCK %s
; RUN: not %spirv_translate --instrument %t/clock.ll -o %t.spv 2>&1 | FileCheck --check-prefix=INSTR %s
; RUN: not %spirv_translate --arch=spirv2.0 %t/clock.ll -o %t.spv 2>&1 | FileCheck --check-prefix=ARCH %s
; RUN: not hetgpu-opt -passes=hetgpu-lower-spirv -disable-output %t/clock.ll 2>&1 | FileCheck --check-prefix=CLOCK %s
; MALLOC: kernel 'k': device-side malloc/free ('__hetgpu_malloc') is not supported by the SPIR-V target
; CLOCK: kernel 'k': reading a clock (OpenCL has no device clock) ('__hetgpu_clock64') is not supported by the SPIR-V target
; INSTR: live-migration instrumentation
; ARCH: spirv: unknown arch 'spirv2.0'

;--- malloc.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define void @k(ptr %out) #0 {
  %p = call ptr @__hetgpu_malloc(i64 16)
  store ptr %p, ptr %out
  ret void
}
declare ptr @__hetgpu_malloc(i64)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(void**)", !"params", !2, !"shared.static", i64 0, !"features", !3}
!2 = !{!{!"ptr", i32 8, i32 8}}
!3 = !{}

;--- clock.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define void @k(ptr %out) #0 {
  %t = call i64 @__hetgpu_clock64()
  store i64 %t, ptr %out
  ret void
}
declare i64 @__hetgpu_clock64()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(long*)", !"params", !2, !"shared.static", i64 0, !"features", !3}
!2 = !{!{!"ptr", i32 8, i32 8}}
!3 = !{}
