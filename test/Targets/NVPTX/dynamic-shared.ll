; __hetgpu_dynamic_shared() becomes one external addrspace(3) [0 x i8]
; array (PTX `.extern .shared`, after the static shared variables), aligned
; to 16, shared by every use.
; RUN: hetgpu-opt -passes=hetgpu-lower-nvptx -S %s | FileCheck %s
; RUN: hetgpu-translate --target=nvptx --arch=sm_90 %s -o - | FileCheck --check-prefix=PTX %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@tile = internal addrspace(3) global [64 x float] undef, align 4

; CHECK: @hetgpu_dynamic_shared = external addrspace(3) global [0 x i8], align 16
; CHECK-NOT: @hetgpu_dynamic_shared.
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: %q = getelementptr float, ptr addrspace(3) @hetgpu_dynamic_shared, i32 %i
; CHECK: %r = getelementptr float, ptr addrspace(3) @hetgpu_dynamic_shared, i32 1
; PTX: .extern .shared .align 16 .b8 hetgpu_dynamic_shared[];
; PTX: st.shared.b32 [hetgpu_dynamic_shared+4],
define void @k(ptr %out, i32 %i, float %v) #0 {
  %d = call ptr addrspace(3) @__hetgpu_dynamic_shared()
  %q = getelementptr float, ptr addrspace(3) %d, i32 %i
  store float %v, ptr addrspace(3) %q
  %d2 = call ptr addrspace(3) @__hetgpu_dynamic_shared()
  %r = getelementptr float, ptr addrspace(3) %d2, i32 1
  store float %v, ptr addrspace(3) %r
  %t = getelementptr float, ptr addrspace(3) @tile, i32 %i
  store float %v, ptr addrspace(3) %t
  call void @__hetgpu_barrier()
  %l = load float, ptr addrspace(3) %q
  %t2 = load float, ptr addrspace(3) @tile
  %s = fadd float %l, %t2
  store float %s, ptr %out
  ret void
}
declare ptr addrspace(3) @__hetgpu_dynamic_shared()
declare void @__hetgpu_barrier()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
