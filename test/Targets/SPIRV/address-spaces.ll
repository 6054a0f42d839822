; Address spaces: kernel pointer parameters are global (CrossWorkgroup),
; generic pointers stay generic (4) where inference cannot do better,
; allocas are private (0), shared variables Workgroup (3), byval aggregates
; private; device functions are inlined and get the hidden parameters.
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -S %s | FileCheck %s
; RUN: %spirv_translate %s -o %t.spv
; RUN: spirv-val %t.spv
; REQUIRES: spirv-val
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

%struct.S = type { i32, ptr }

@tile = internal addrspace(3) global [64 x float] undef, align 4

; CHECK: @tile = internal addrspace(3) global [64 x float] poison, align 4
; CHECK-LABEL: define spir_kernel void @k(ptr addrspace(1) %p, ptr byval(%struct.S{{[.a-z]*}}) align 8 %s, ptr addrspace(1) %sel, ptr addrspace(3) %hetgpu.dynshared, ptr addrspace(1) %hetgpu.globals)
; CHECK: %tmp = alloca [4 x i32], align 4
; CHECK: %p2 = getelementptr float, ptr addrspace(1) %p, i32 1
; CHECK: %v.i = load float, ptr addrspace(1) %p2
; CHECK: store float %v.i, ptr addrspace(3)
; CHECK: %any = select i1 %c, ptr addrspace(4) %{{.*}}, ptr addrspace(4) %{{.*}}
; CHECK: store float 2.000000e+00, ptr addrspace(4) %any
; CHECK: load ptr addrspace(4), ptr %{{.*}}
; CHECK-NOT: call{{.*}} @helper
; CHECK-NOT: define{{.*}} @helper
define internal float @helper(ptr %q) {
  %v = load float, ptr %q
  ret float %v
}

define void @k(ptr %p, ptr byval(%struct.S) align 8 %s, ptr %sel) #0 {
  %tmp = alloca [4 x i32], align 4
  %p2 = getelementptr float, ptr %p, i32 1
  %v = call float @helper(ptr %p2)
  %t = getelementptr [64 x float], ptr addrspace(3) @tile, i32 0, i32 3
  store float %v, ptr addrspace(3) %t
  %tg = addrspacecast ptr addrspace(3) @tile to ptr
  %cv = load i32, ptr %sel
  %c = icmp eq i32 %cv, 0
  %any = select i1 %c, ptr %tg, ptr %p
  store float 2.0, ptr %any
  %sp = getelementptr %struct.S, ptr %s, i32 0, i32 1
  %inner = load ptr, ptr %sp
  store float 3.0, ptr %inner
  store i32 1, ptr %tmp
  %x = load i32, ptr %tmp
  store i32 %x, ptr %sel
  ret void
}
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(float*, S, int*)", !"params", !2, !"shared.static", i64 256, !"features", !3}
!2 = !{!{!"ptr", i32 8, i32 8}, !{!"byval", i32 16, i32 8}, !{!"ptr", i32 8, i32 8}}
!3 = !{}
