; The host target can link its shared object with lld in the translator's
; own process (liblld-22-dev): what it does by default, and with
; HETGPU_LLD=in-process. The link phase of the translation's
; time trace names the in-process linker and the result runs. HETGPU_LLD
; still selects an executable.
; REQUIRES: in-process-lld
; RUN: env HETGPU_LLD=in-process PATH=/nonexistent %hetgpu_obj_root/bin/hetgpu-translate --target=host %s -o %t.so --time-trace=%t.json
; RUN: FileCheck --check-prefix=TRACE %s < %t.json
; RUN: env -u HETGPU_LLD %hetgpu_obj_root/bin/hetgpu-translate --target=host %s -o %t.default.so --time-trace=%t.default.json
; RUN: FileCheck --check-prefix=TRACE %s < %t.default.json
; RUN: hetgpu-host-run --block=64 %t.so add buf:f32:64:iota f32=2 | FileCheck --check-prefix=OUT %s
; RUN: env HETGPU_LLD=%S/Inputs/failing-lld.sh not hetgpu-translate --target=host %s -o %t.bad.so 2>&1 \
; RUN:   | FileCheck --check-prefix=ERR %s
; TRACE: "name":"link","args":{"detail":"<in-process lld>"}
; OUT: arg0: 2 3 4 5 6
; ERR: linking the shared object with {{.*}}failing-lld.sh failed

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define void @add(ptr %a, float %b) #0 {
  %t = call i32 @__hetgpu_tid_x()
  %t64 = zext i32 %t to i64
  %p = getelementptr float, ptr %a, i64 %t64
  %v = load float, ptr %p
  %s = fadd float %v, %b
  store float %s, ptr %p
  ret void
}

declare i32 @__hetgpu_tid_x()

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @add, !"name", !"add(float*, float)", !"params", !2, !"shared.static", i64 0, !"features", !{}, !"launch.bounds", !{i32 0, i32 0}}
!2 = !{!{!"ptr", i32 8, i32 8}, !{!"value", i32 4, i32 4}}
