; Kernels get the PTX kernel calling convention; __launch_bounds__ from
; !hetgpu.kernels becomes LLVM 22's "nvvm.maxntid"/"nvvm.minctasm"
; attributes (PTX .maxntid/.minnctapersm). Device functions are not kernels.
; A kernel without bounds gets no attributes.
; RUN: hetgpu-opt -passes=hetgpu-lower-nvptx -S %s | FileCheck %s
; RUN: hetgpu-translate --target=nvptx --arch=sm_90 %s -o - | FileCheck --check-prefix=PTX %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define float @dev(
define float @dev(float %x) {
  %y = fmul float %x, 2.0
  ret float %y
}
; CHECK: define ptx_kernel void @bounded(ptr %p, float %x) #[[B:[0-9]+]]
define void @bounded(ptr %p, float %x) #0 {
  %y = call float @dev(float %x)
  store float %y, ptr %p
  ret void
}
; CHECK: define ptx_kernel void @free(ptr %p) #[[F:[0-9]+]]
define void @free(ptr %p) #0 {
  store float 1.0, ptr %p
  ret void
}
; CHECK: attributes #[[B]] = { "hetgpu-kernel" "nvvm.maxntid"="256" "nvvm.minctasm"="2" }
; CHECK: attributes #[[F]] = { "hetgpu-kernel" }
; PTX-LABEL: .visible .entry bounded(
; PTX: .maxntid 256
; PTX: .minnctapersm 2
; PTX-LABEL: .visible .entry free(
; PTX-NOT: .maxntid
; PTX: ret;
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1, !6}
!0 = !{i32 1, i32 0}
!1 = !{ptr @bounded, !"name", !"bounded", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !5}
!2 = !{!3, !7}
!3 = !{!"ptr", i32 8, i32 8}
!7 = !{!"value", i32 4, i32 4}
!4 = !{}
!5 = !{i32 256, i32 2}
!6 = !{ptr @free, !"name", !"free", !"params", !8, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !9}
!8 = !{!3}
!9 = !{i32 0, i32 0}
