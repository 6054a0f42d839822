; Unknown __hetgpu_ names and builtins used other than as direct calls are
; reported with the function that uses them; nothing crashes.
; RUN: split-file %s %t
; RUN: not hetgpu-opt -passes=hetgpu-lower-nvptx -disable-output %t/unknown.ll 2>&1 | FileCheck --check-prefix=UNKNOWN %s
; RUN: not hetgpu-opt -passes=hetgpu-lower-nvptx -disable-output %t/indirect.ll 2>&1 | FileCheck --check-prefix=INDIRECT %s
; RUN: not hetgpu-translate --target=nvptx %t/indirect.ll -o /dev/null 2>&1 | FileCheck --check-prefix=TRANSLATE %s

; UNKNOWN: error: {{.*}}in function k{{.*}}hetgpu-lower-nvptx: '__hetgpu_warp_size' is not a hetIR builtin
; INDIRECT: error: {{.*}}in function k{{.*}}hetgpu-lower-nvptx: builtin '__hetgpu_tid_x' is used other than as a direct call
; TRANSLATE: error: {{.*}}in function 'k': builtin '__hetgpu_tid_x' is used other than as a direct call

;--- unknown.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"
define void @k(ptr %p) #0 {
  %w = call i32 @__hetgpu_warp_size()
  store i32 %w, ptr %p
  ret void
}
declare i32 @__hetgpu_warp_size()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}

;--- indirect.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"
define void @k(ptr %p) #0 {
  store ptr @__hetgpu_tid_x, ptr %p
  ret void
}
declare i32 @__hetgpu_tid_x()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
