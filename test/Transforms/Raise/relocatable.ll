; hetgpu-raise<relocatable> (hetgpu-cc -dc): a device function other
; components may call keeps external linkage (it is still inlined where it
; holds a barrier), calls of undefined device functions stay, and the module
; is marked !hetgpu.relocatable. clang's renamed static variable
; (`<name>__static__<hash>`) replaces the stale declaration of `<name>`.
; Negative twin: inline-barrier-helper.ll (whole-TU: the helper is deleted).
; RUN: hetgpu-opt -passes='hetgpu-raise<relocatable>' -S %s | FileCheck %s
; RUN: hetgpu-opt -passes='hetgpu-raise<relocatable>,hetgpu-raise<relocatable>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: @counter =
; CHECK: @counter__static__1234 = addrspace(1) global i32 7
@counter = external addrspace(1) global i32
@counter__static__1234 = addrspace(1) global i32 7

; CHECK-LABEL: define void @sync_helper(
define void @sync_helper(ptr %p) {
  store i32 1, ptr %p
  call void @__hetgpu_barrier()
  ret void
}

; CHECK-LABEL: define void @k(
; CHECK-NEXT: store i32 1, ptr %p
; CHECK-NEXT: call void @__hetgpu_barrier()
; CHECK-NEXT: %v = load i32, ptr addrspace(1) @counter__static__1234
; CHECK-NEXT: call void @elsewhere(i32 %v)
define ptx_kernel void @k(ptr %p) {
  call void @sync_helper(ptr %p)
  %v = load i32, ptr addrspace(1) @counter
  call void @elsewhere(i32 %v)
  ret void
}
; CHECK: declare void @elsewhere(i32)
declare void @elsewhere(i32)
declare void @__hetgpu_barrier()
; CHECK: !hetgpu.relocatable = !{}
