; Names with the builtin prefix must be in Builtins.def with the table's
; type, and device code may not call functions it does not define.
; RUN: not hetgpu-opt -passes=hetgpu-verify -disable-output %s 2>&1 | FileCheck --check-prefix=ERR %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; ERR: error: hetIR verification failed:
; ERR-DAG: in function 'k': '__hetgpu_teleport' is not a hetIR builtin (Builtins.def)
; ERR-DAG: in function 'k': builtin '__hetgpu_tid_x' is declared with the wrong type
; ERR-DAG: in function 'k': call of undefined function 'host_only'
define void @k() #0 {
  call void @__hetgpu_teleport()
  %t = call i64 @__hetgpu_tid_x()
  call void @host_only()
  ret void
}
declare void @__hetgpu_teleport()
declare i64 @__hetgpu_tid_x()
declare void @host_only()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 0, !"features", !2, !"launch.bounds", !5}
!2 = !{}
!5 = !{i32 0, i32 0}
