; Target intrinsics are not portable: the verifier names the function and
; the intrinsic.
; RUN: not hetgpu-opt -passes=hetgpu-verify -disable-output %s 2>&1 | FileCheck --check-prefix=ERR %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; ERR: error: hetIR verification failed:
; ERR: in function 'k': target intrinsic 'llvm.nvvm.read.ptx.sreg.tid.x' is not portable
define void @k(ptr %p) #0 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %t, ptr %p
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !5}
!2 = !{!3}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{}
!5 = !{i32 0, i32 0}
