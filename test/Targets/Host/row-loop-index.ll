; In a row loop (all 32 lanes of a warp in one row of the block,
; threadIdx.x = x0 + i), an index `C + threadIdx.x` with C invariant (here
; CUDA's `blockIdx.x * 32 + threadIdx.x`, unsigned arithmetic without
; flags) gets nsw, and the row loop is taken only when C + x0 + 31 fits in
; an int (row.fits, computed before the loops from a copy of C): the sign
; extension of the index is then an induction and a[x] a consecutive
; access. Negative twins: an index whose other operand is loaded per lane
; (%b[t], not invariant) keeps its flags and adds no check; the loops for
; any mask get no nsw.
; RUN: hetgpu-opt -passes=hetgpu-lower-host,verify -S %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define internal i32 @r.hetgpu.thread.lanes(
; CHECK: at0:
; CHECK: %[[BID:.*]] = load i32, ptr %{{.*}}, align 4, !invariant.load
; CHECK-NEXT: %[[C:[0-9]+]] = shl i32 %[[BID]], 5
; CHECK-NEXT: %[[CS:[0-9]+]] = sext i32 %[[C]] to i64
; CHECK-NEXT: %[[X0:[0-9]+]] = zext i32 %x0 to i64
; CHECK-NEXT: %[[LO:[0-9]+]] = add i64 %[[CS]], %[[X0]]
; CHECK-NEXT: %[[GE:[0-9]+]] = icmp sge i64 %[[LO]], -2147483648
; CHECK-NEXT: %[[LE:[0-9]+]] = icmp sle i64 %[[LO]], 2147483616
; CHECK-NEXT: %[[FITS:[0-9]+]] = and i1 %[[GE]], %[[LE]]
; CHECK-NEXT: %row.fits = and i1 %row, %[[FITS]]
; CHECK-NEXT: br i1 %row.fits, label %rowlanes, label %[[PLAIN:lanes[0-9]*]]
; CHECK: {{^}}[[PLAIN]]:
; CHECK-NOT: add nsw i32 %{{.*}}, %tid.x
; CHECK: {{^}}rowlanes:
; CHECK: %tid.x.row = add nuw nsw i32 %x0, %i
; CHECK: %x.i{{[0-9]*}} = add nsw i32 %c.i{{[0-9]*}}, %tid.x.row
; CHECK: br i1 %row, label %rowlanes{{[0-9]+}}, label %lanes{{[0-9]+}}
; CHECK: {{^}}rowlanes{{[0-9]+}}:
; CHECK: %[[PL:v.i[0-9]*]] = load i32, ptr %{{.*}}, align 4, !tbaa
; CHECK-NEXT: %y.i{{[0-9]*}} = add i32 %[[PL]], %tid.x.row
define void @r(ptr %a, ptr %b) #0 {
  %bid = call i32 @__hetgpu_ctaid_x()
  %t = call i32 @__hetgpu_tid_x()
  %c = shl i32 %bid, 5
  %x = add i32 %c, %t
  %xe = sext i32 %x to i64
  %pa = getelementptr inbounds float, ptr %a, i64 %xe
  store float 1.0, ptr %pa, align 4
  call void @__hetgpu_barrier()
  %te = zext i32 %t to i64
  %pb = getelementptr inbounds i32, ptr %b, i64 %te
  %v = load i32, ptr %pb, align 4, !tbaa !0
  %y = add i32 %v, %t
  %ye = sext i32 %y to i64
  %pa2 = getelementptr inbounds float, ptr %a, i64 %ye
  store float 2.0, ptr %pa2, align 4
  ret void
}

declare i32 @__hetgpu_ctaid_x()
declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_barrier()

attributes #0 = { "hetgpu-kernel" }

!0 = !{!1, !1, i64 0}
!1 = !{!"int", !2, i64 0}
!2 = !{!"omnipotent char", !3, i64 0}
!3 = !{!"Simple C++ TBAA"}
