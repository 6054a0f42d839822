; hetgpu-fuse-kernels with components of different block sizes: the fused
; block is the largest size in each dimension (64x2x1 here); @small's
; block 16x1x1 is smaller, so the threads past it skip it (a guard on
; tid_x < 16, tid_y < 1, tid_z < 1) and its __hetgpu_ntid_* become its own
; sizes; @big (64x2x1, with a barrier) runs unguarded and keeps its
; __hetgpu_ntid_* calls. The verifier runs after the pass.
; RUN: hetgpu-opt -passes=hetgpu-fuse-kernels,hetgpu-verify -S \
; RUN:   -hetgpu-fuse-plan='big:2,1,1:64,2,1;small:3,1,1:16,1,1' %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

declare i32 @__hetgpu_tid_x()
declare i32 @__hetgpu_ntid_x()
declare i32 @__hetgpu_ntid_y()
declare void @__hetgpu_barrier()

; CHECK-LABEL: define void @hetgpu_fused_kernel(
; CHECK: fuse.run0:
; CHECK-NEXT: %t.i = call i32 @__hetgpu_tid_x()
; CHECK-NEXT: %ny.i = call i32 @__hetgpu_ntid_y()
; CHECK: call void @__hetgpu_barrier()
; CHECK: fuse.run1:
; CHECK-NEXT: %[[X:.*]] = call i32 @__hetgpu_tid_x()
; CHECK-NEXT: %[[INX:.*]] = icmp ult i32 %[[X]], 16
; CHECK-NEXT: %[[A:.*]] = and i1 true, %[[INX]]
; CHECK-NEXT: %[[Y:.*]] = call i32 @__hetgpu_tid_y()
; CHECK-NEXT: %[[INY:.*]] = icmp ult i32 %[[Y]], 1
; CHECK-NEXT: %[[B:.*]] = and i1 %[[A]], %[[INY]]
; CHECK-NEXT: %[[Z:.*]] = call i32 @__hetgpu_tid_z()
; CHECK-NEXT: %[[INZ:.*]] = icmp ult i32 %[[Z]], 1
; CHECK-NEXT: %[[IN:.*]] = and i1 %[[B]], %[[INZ]]
; CHECK-NEXT: br i1 %[[IN]], label %fuse.call1, label %fuse.idle1
; CHECK: fuse.call1:
; @small's blockDim.x is its own 16, a constant: 16 * 7 folds to 112.
; CHECK-NEXT: %[[T:.*]] = call i32 @__hetgpu_tid_x()
; CHECK-NEXT: %i.i = add i32 112, %[[T]]
; CHECK-NOT: @__hetgpu_ntid_x
; CHECK: ret void
; CHECK: fuse.idle1:
; CHECK-NEXT: ret void

define void @big(ptr addrspace(1) %o) #0 {
  %t = call i32 @__hetgpu_tid_x()
  %ny = call i32 @__hetgpu_ntid_y()
  %v = add i32 %t, %ny
  call void @__hetgpu_barrier()
  store i32 %v, ptr addrspace(1) %o
  ret void
}

define void @small(ptr addrspace(1) %o) #0 {
  %n = call i32 @__hetgpu_ntid_x()
  %m = mul i32 %n, 7
  %t = call i32 @__hetgpu_tid_x()
  %i = add i32 %m, %t
  %idx = zext i32 %i to i64
  %p = getelementptr i32, ptr addrspace(1) %o, i64 %idx
  store i32 %i, ptr addrspace(1) %p
  ret void
}

attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1, !2}
!0 = !{i32 1, i32 0}
!1 = !{ptr @big, !"name", !"big(int*)", !"params", !3, !"shared.static", i64 0, !"features", !4}
!2 = !{ptr @small, !"name", !"small(int*)", !"params", !3, !"shared.static", i64 0, !"features", !5}
!3 = !{!{!"ptr", i32 8, i32 8}}
!4 = !{!"barrier"}
!5 = !{}
