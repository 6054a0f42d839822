; Negative twin: a host module's inline assembly is not PTX and is left
; alone, as are modules without asm.
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define i32 @host(
; CHECK-NEXT: %r = call i32 asm "movl $$1, $0", "=r"()
; CHECK-NEXT: ret i32 %r
define i32 @host() {
  %r = call i32 asm "movl $$1, $0", "=r"()
  ret i32 %r
}
