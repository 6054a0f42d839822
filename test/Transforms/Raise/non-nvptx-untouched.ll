; Negative twin: a module that is not CUDA device code (here a host module,
; as clang -fpass-plugin would show it) is left exactly as it is.
; RUN: hetgpu-opt -passes=hetgpu-raise -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

; CHECK: target triple = "x86_64-unknown-linux-gnu"
; CHECK-LABEL: define void @host(
; CHECK-NEXT: call void @vprintf(ptr null, ptr null)
define void @host() #0 {
  call void @vprintf(ptr null, ptr null)
  ret void
}
declare void @vprintf(ptr, ptr)
attributes #0 = { "target-cpu"="x86-64" }
; CHECK: attributes #0 = { "target-cpu"="x86-64" }
; CHECK-NOT: hetgpu
