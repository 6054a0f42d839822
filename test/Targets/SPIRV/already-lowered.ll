; Negative twin: a module that is already SPIR-V (its triple says so) is
; left alone, so running the pass twice changes nothing.
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -S %s | FileCheck %s
target triple = "spirv64v1.2-unknown-unknown"

; CHECK-LABEL: define spir_kernel void @k(ptr addrspace(1) %p)
; CHECK-NEXT: store i32 1, ptr addrspace(1) %p
; CHECK-NOT: __hetgpu_spirv_info
define spir_kernel void @k(ptr addrspace(1) %p) {
  store i32 1, ptr addrspace(1) %p
  ret void
}
