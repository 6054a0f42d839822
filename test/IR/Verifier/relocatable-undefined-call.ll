; Relocatable hetIR (`!hetgpu.relocatable`, hetgpu-cc -dc) may call device
; functions that another component defines; the device link reports what
; stays undefined. Negative twin: unknown-builtin-and-undefined-call.ll.
; RUN: hetgpu-opt -passes=hetgpu-verify -disable-output %s 2>&1 | count 0

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define void @k() #0 {
  call void @defined_elsewhere()
  ret void
}
declare void @defined_elsewhere()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!hetgpu.relocatable = !{}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 0, !"features", !2, !"launch.bounds", !5}
!2 = !{}
!5 = !{i32 0, i32 0}
