; Errors name the construct and the reason; nothing crashes.
; RUN: split-file %s %t
; RUN: not hetgpu-opt -passes='hetgpu-lower-amdgpu<gfx942>' -disable-output %t/unknown.ll 2>&1 | FileCheck --check-prefix=UNKNOWN %s
; RUN: not hetgpu-opt -passes='hetgpu-lower-amdgpu<gfx942>' -disable-output %t/indirect.ll 2>&1 | FileCheck --check-prefix=INDIRECT %s
; RUN: not hetgpu-opt -passes='hetgpu-lower-amdgpu<gfx942>' -disable-output %t/printf-dynamic.ll 2>&1 | FileCheck --check-prefix=PRINTF %s
; RUN: not hetgpu-opt -passes='hetgpu-lower-amdgpu<gfx942>' -disable-output %t/lds-aggregate.ll 2>&1 | FileCheck --check-prefix=AGG %s
; RUN: not hetgpu-translate --target=amdgpu --arch=sm_90 %t/ok.ll -o /dev/null 2>&1 | FileCheck --check-prefix=ARCH %s
; RUN: not hetgpu-translate --target=amdgpu --arch=gfx9999 %t/ok.ll -o /dev/null 2>&1 | FileCheck --check-prefix=CPU %s
; RUN: env HETGPU_LLD=%t/no-such-lld not hetgpu-translate --target=amdgpu --arch=gfx942 %t/ok.ll -o /dev/null 2>&1 | FileCheck --check-prefix=LLD %s
; Positive twin: the same module translates.
; RUN: hetgpu-translate --target=amdgpu --arch=gfx942 %t/ok.ll -o %t/ok.hsaco
; RUN: llvm-readobj --notes %t/ok.hsaco | FileCheck --check-prefix=OK %s

; UNKNOWN: error: {{.*}}in function k{{.*}}hetgpu-lower-amdgpu: '__hetgpu_warp_size' is not a hetIR builtin
; INDIRECT: error: {{.*}}in function k{{.*}}hetgpu-lower-amdgpu: builtin '__hetgpu_tid_x' is used other than as a direct call
; PRINTF: error: {{.*}}in function k{{.*}}hetgpu-lower-amdgpu: printf with a format that is not a constant string is not supported on amdgpu
; AGG: error: {{.*}}in function k{{.*}}a shared-memory pointer inside an aggregate, vector or atomic operation kept in memory cannot be lowered
; ARCH: error: {{.*}}'sm_90' is not an AMDGPU processor
; CPU: error: {{.*}}'gfx9999' is not an AMDGPU processor (e.g. gfx90a, gfx942, gfx1100)
; LLD: error: {{.*}}HETGPU_LLD='{{.*}}no-such-lld' is not an executable
; OK: .name: k
; OK: .wavefront_size: 64

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

;--- printf-dynamic.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"
define void @k(ptr %fmt) #0 {
  %r = call i32 @__hetgpu_printf(ptr %fmt, ptr null)
  ret void
}
declare i32 @__hetgpu_printf(ptr, ptr)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}

;--- lds-aggregate.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"
@sh = internal addrspace(3) global [4 x i32] undef, align 4
define void @k(ptr %p) #0 {
  %v = insertvalue { ptr addrspace(3), i32 } poison, ptr addrspace(3) @sh, 0
  store { ptr addrspace(3), i32 } %v, ptr %p
  ret void
}
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}

;--- ok.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"
define void @k(ptr %p) #0 {
  %t = call i32 @__hetgpu_tid_x()
  store i32 %t, ptr %p
  ret void
}
declare i32 @__hetgpu_tid_x()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
