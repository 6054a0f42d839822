; __syncthreads and its reductions become bar.sync / bar.red (the aligned
; CTA barrier intrinsics), predicates compared with zero, and/or results
; passed through a full-warp vote.any (the value is block-uniform, but
; ptxas only knows it for a vote: a branch on the raw result made loops
; around it divergent) and widened back to i32.
; RUN: hetgpu-opt -passes=hetgpu-lower-nvptx -S %s | FileCheck %s
; RUN: hetgpu-translate --target=nvptx --arch=sm_80 %s -o - | FileCheck --check-prefix=PTX %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK: [[P1:%.*]] = icmp ne i32 %x, 0
; CHECK: %c = call i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 0, i1 [[P1]])
; CHECK: [[P2:%.*]] = icmp ne i32 %c, 0
; CHECK: [[A0:%.*]] = call i1 @llvm.nvvm.barrier.cta.red.and.aligned.all(i32 0, i1 [[P2]])
; CHECK-NEXT: [[A:%.*]] = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 [[A0]])
; CHECK-NEXT: %a = zext i1 [[A]] to i32
; CHECK: [[P3:%.*]] = icmp ne i32 %a, 0
; CHECK: [[O0:%.*]] = call i1 @llvm.nvvm.barrier.cta.red.or.aligned.all(i32 0, i1 [[P3]])
; CHECK-NEXT: [[O:%.*]] = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 [[O0]])
; CHECK-NEXT: %o = zext i1 [[O]] to i32
; PTX-LABEL: .entry k(
; PTX: bar.sync 0;
; PTX: bar.red.popc.u32
; PTX: bar.red.and.pred
; PTX-NEXT: vote.sync.any.pred
; PTX: bar.red.or.pred
; PTX-NEXT: vote.sync.any.pred
define void @k(ptr %p, i32 %x) #0 {
  call void @__hetgpu_barrier()
  %c = call i32 @__hetgpu_barrier_count(i32 %x)
  %a = call i32 @__hetgpu_barrier_and(i32 %c)
  %o = call i32 @__hetgpu_barrier_or(i32 %a)
  store i32 %o, ptr %p
  ret void
}
declare void @__hetgpu_barrier()
declare i32 @__hetgpu_barrier_count(i32)
declare i32 @__hetgpu_barrier_and(i32)
declare i32 @__hetgpu_barrier_or(i32)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
