; Kernel names longer than 128 characters (C++ templates mangle to 300 and
; more) become entry points of their first 64 characters, "_h" and a 64-bit
; FNV-1a hash of the whole name (ABI/SPIRVKernel.h): PoCL names a cache file
; after the kernel, and over 255 bytes that fails. The runtimes look kernels
; up by the same function; the module table keeps the real name.
; RUN: %spirv_translate %s -o %t.spv
; RUN: spirv-val %t.spv
; RUN: spirv-dis %t.spv | FileCheck %s
; REQUIRES: spirv-val
; CHECK: OpEntryPoint Kernel %{{[0-9a-z_]+}} "long_template_kernel_name_long_template_kernel_name_long_templat_h9f5cc4a04e5dd827"
; CHECK: OpEntryPoint Kernel %{{[0-9a-z_]+}} "short"
; CHECK-NOT: OpEntryPoint Kernel %{{[0-9a-z_]+}} "long_template_kernel_name_long_template_kernel_name_long_template_kernel_name_long_template_kernel_name_long_template_kernel_name_long_template_kernel_name_long_template_kernel_name_long_template_kern"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define void @long_template_kernel_name_long_template_kernel_name_long_template_kernel_name_long_template_kernel_name_long_template_kernel_name_long_template_kernel_name_long_template_kernel_name_long_template_kern(ptr %out) #0 {
  store i32 1, ptr %out
  ret void
}
define void @short(ptr %out) #0 {
  store i32 2, ptr %out
  ret void
}
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1, !3}
!0 = !{i32 1, i32 0}
!1 = !{ptr @long_template_kernel_name_long_template_kernel_name_long_template_kernel_name_long_template_kernel_name_long_template_kernel_name_long_template_kernel_name_long_template_kernel_name_long_template_kern, !"name", !"long(int*)", !"params", !2, !"shared.static", i64 0, !"features", !4}
!2 = !{!{!"ptr", i32 8, i32 8}}
!3 = !{ptr @short, !"name", !"short(int*)", !"params", !2, !"shared.static", i64 0, !"features", !4}
!4 = !{}
