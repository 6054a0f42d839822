; Bad --arch/--features values are clear errors, not crashes.
; RUN: not hetgpu-translate --target=nvptx --arch=gfx942 %s -o /dev/null 2>&1 | FileCheck --check-prefix=ARCH %s
; RUN: not hetgpu-translate --target=nvptx --arch=sm_60 %s -o /dev/null 2>&1 | FileCheck --check-prefix=OLD %s
; RUN: not hetgpu-translate --target=nvptx --arch=sm_90 --features=+ptx70 %s -o /dev/null 2>&1 | FileCheck --check-prefix=PTX %s
; Negative twin: a valid request succeeds.
; RUN: hetgpu-translate --target=nvptx --arch=sm_86 %s -o - | FileCheck --check-prefix=OK %s

; ARCH: nvptx: 'gfx942' is not an NVPTX processor (e.g. sm_90)
; OLD: nvptx: sm_60 is not supported: hetGPU needs sm_70 or newer
; PTX: nvptx: PTX ISA 7.0 is too old for sm_90 (needs 7.8 or newer)
; OK: .version 7.1
; OK: .target sm_86
; OK: .visible .entry k(

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
