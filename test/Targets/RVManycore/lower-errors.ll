; Device code that calls a function nobody defines (host or library code)
; is refused with the caller and callee named (image-format.ll tests bad
; ISA strings).
; RUN: not hetgpu-opt -passes=hetgpu-lower-rvmc -disable-output %s 2>&1 \
; RUN:   | FileCheck %s
; CHECK: rvmc: function '_Z1kPi' calls 'puts', which is not defined in the module (device code cannot call host or library functions)

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@msg = private constant [3 x i8] c"hi\00"

define void @_Z1kPi(ptr %p) #0 {
  %r = call i32 @puts(ptr @msg)
  store i32 %r, ptr %p
  ret void
}

declare i32 @puts(ptr)

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @_Z1kPi, !"name", !"k(int*)", !"params", !2, !"shared.static", i64 0, !"features", !4}
!2 = !{!3}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{}
