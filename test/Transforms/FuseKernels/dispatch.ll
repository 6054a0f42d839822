; hetgpu-fuse-kernels: two kernels become one that dispatches on the block
; index. Component 0 (@scale, grid 3x1x1) takes blocks 0-2, component 1
; (@tile, grid 2x2x1) blocks 3-6; each copy's block indices are derived
; from the fused __hetgpu_ctaid_x (also inside @tile's helper, which is
; copied per component), its grid sizes are constants, its shared
; variables and barriers stay its own, the parameters follow one another.
; The module keeps only the fused kernel; the verifier runs after the pass.
; RUN: hetgpu-opt -passes=hetgpu-fuse-kernels,hetgpu-verify -S \
; RUN:   -hetgpu-fuse-plan='scale:3,1,1:64,1,1;tile:2,2,1:64,1,1' %s | FileCheck %s
; The same kernel twice: two copies, each with its own range.
; RUN: hetgpu-opt -passes=hetgpu-fuse-kernels,hetgpu-verify -S \
; RUN:   -hetgpu-fuse-plan='scale:1,1,1:64,1,1;scale:4,1,1:64,1,1' %s | FileCheck --check-prefix=TWICE %s
; Negative twin: without a plan nothing changes.
; RUN: hetgpu-opt -passes=hetgpu-fuse-kernels -S %s | FileCheck --check-prefix=NONE %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@bufA = internal addrspace(3) global [64 x float] poison, align 4
@bufB = internal addrspace(3) global [16 x i32] poison, align 4

declare i32 @__hetgpu_ctaid_x()
declare i32 @__hetgpu_ctaid_y()
declare i32 @__hetgpu_nctaid_x()
declare i32 @__hetgpu_nctaid_y()
declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_barrier()

; CHECK-NOT: define {{.*}}@scale(
; CHECK-NOT: define {{.*}}@tile(
; The helper's copy for component 1: x = (b - 3) mod 2, y = ((b - 3) / 2)
; mod 2, its grid height the constant 2.
; CHECK-LABEL: define internal i32 @fuse.c1.row() {
; CHECK-NEXT: %[[B1:.*]] = call i32 @__hetgpu_ctaid_x()
; CHECK-NEXT: %fuse.block = sub i32 %[[B1]], 3
; CHECK-NEXT: %fuse.ctaid.x = urem i32 %fuse.block, 2
; CHECK: %fuse.block1 = sub i32 %{{.*}}, 3
; CHECK-NEXT: %[[Q:.*]] = udiv i32 %fuse.block1, 2
; CHECK-NEXT: %fuse.ctaid.y = urem i32 %[[Q]], 2
; CHECK-NEXT: %m = mul i32 %fuse.ctaid.y, 2
; CHECK-LABEL: define void @hetgpu_fused_kernel(
; CHECK-SAME: ptr addrspace(1) %0, float %1, ptr addrspace(1) %2) #[[ATTR:[0-9]+]] {
; CHECK: %fuse.b = call i32 @__hetgpu_ctaid_x()
; CHECK-NEXT: %[[IN0:.*]] = icmp ult i32 %fuse.b, 3
; CHECK-NEXT: br i1 %[[IN0]], label %fuse.run0, label %fuse.next0
; Component 0 (inlined): its block index is the fused one (start 0) mod 3,
; its grid width the constant 3; its own shared variable and barrier.
; CHECK: fuse.run0:
; CHECK-NEXT: %[[B0:.*]] = call i32 @__hetgpu_ctaid_x()
; CHECK-NEXT: %fuse.ctaid.x.i = urem i32 %[[B0]], 3
; CHECK: %bn.i = mul i32 %fuse.ctaid.x.i, 3
; CHECK: %w.i = fmul float %v.i, %1
; CHECK: store float %w.i, ptr addrspace(3) @bufA
; CHECK-NEXT: call void @__hetgpu_barrier()
; CHECK: getelementptr float, ptr addrspace(1) %0,
; CHECK: ret void
; CHECK: fuse.next0:
; CHECK-NEXT: br label %fuse.run1
; CHECK: fuse.run1:
; CHECK-NEXT: %[[R:.*]] = call i32 @fuse.c1.row()
; CHECK-NEXT: store i32 %[[R]], ptr addrspace(3) @bufB
; CHECK-NEXT: call void @__hetgpu_barrier()
; CHECK: getelementptr i32, ptr addrspace(1) %2,
; CHECK: ret void
; CHECK: attributes #[[ATTR]] = { "hetgpu-kernel" }
; CHECK: !hetgpu.kernels = !{![[K:[0-9]+]]}
; Parameters one after another; shared 256 + 64 bytes.
; CHECK: ![[K]] = !{ptr @hetgpu_fused_kernel, !"name", !"fused(scale(float*, float), tile(int*))", !"params", ![[P:[0-9]+]], !"shared.static", i64 320, !"features", ![[F:[0-9]+]]
; CHECK: ![[P]] = !{![[PTR:[0-9]+]], ![[VAL:[0-9]+]], ![[PTR]]}
; CHECK: ![[F]] = !{!"barrier"}

; TWICE-LABEL: define void @hetgpu_fused_kernel(ptr addrspace(1) %0, float %1, ptr addrspace(1) %2, float %3)
; TWICE: icmp ult i32 %fuse.b, 1
; TWICE: fuse.run1:
; TWICE-NEXT: %[[C:.*]] = call i32 @__hetgpu_ctaid_x()
; TWICE-NEXT: %[[L:.*]] = sub i32 %[[C]], 1
; TWICE-NEXT: urem i32 %[[L]], 4
; TWICE: !"name", !"fused(scale(float*, float), scale(float*, float))"{{.*}}!"shared.static", i64 256

; NONE: define void @scale(
; NONE: define void @tile(
; NONE-NOT: hetgpu_fused_kernel

define void @scale(ptr addrspace(1) %out, float %f) #0 {
  %b = call i32 @__hetgpu_ctaid_x()
  %n = call i32 @__hetgpu_nctaid_x()
  %t = call i32 @__hetgpu_tid_x()
  %bn = mul i32 %b, %n
  %i = add i32 %bn, %t
  %v = sitofp i32 %i to float
  %w = fmul float %v, %f
  store float %w, ptr addrspace(3) @bufA
  call void @__hetgpu_barrier()
  %r = load float, ptr addrspace(3) @bufA
  %idx = zext i32 %i to i64
  %p = getelementptr float, ptr addrspace(1) %out, i64 %idx
  store float %r, ptr addrspace(1) %p
  ret void
}

define internal i32 @row() {
  %b = call i32 @__hetgpu_ctaid_x()
  %y = call i32 @__hetgpu_ctaid_y()
  %ny = call i32 @__hetgpu_nctaid_y()
  %m = mul i32 %y, %ny
  %r = add i32 %m, %b
  ret i32 %r
}

define void @tile(ptr addrspace(1) %out) #0 {
  %r = call i32 @row()
  store i32 %r, ptr addrspace(3) @bufB
  call void @__hetgpu_barrier()
  %v = load i32, ptr addrspace(3) @bufB
  %idx = zext i32 %r to i64
  %p = getelementptr i32, ptr addrspace(1) %out, i64 %idx
  store i32 %v, ptr addrspace(1) %p
  ret void
}

attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1, !2}
!0 = !{i32 1, i32 0}
!1 = !{ptr @scale, !"name", !"scale(float*, float)", !"params", !3, !"shared.static", i64 256, !"features", !5}
!2 = !{ptr @tile, !"name", !"tile(int*)", !"params", !4, !"shared.static", i64 64, !"features", !5}
!3 = !{!{!"ptr", i32 8, i32 8}, !{!"value", i32 4, i32 4}}
!4 = !{!{!"ptr", i32 8, i32 8}}
!5 = !{!"barrier"}
