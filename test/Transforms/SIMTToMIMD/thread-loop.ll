; A kernel without barriers or warp operations becomes a z/y/x loop over the
; block's threads around the always-inlined thread function; thread indices
; are the loop counters, block values come from the block context. A device
; function that uses no thread context is left alone (negative twin), and a
; second run changes nothing.
; RUN: hetgpu-opt -passes=hetgpu-simt-to-mimd -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-simt-to-mimd,hetgpu-simt-to-mimd -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%hetgpu_plugin -passes=hetgpu-simt-to-mimd -S %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define internal float @helper(
; CHECK-NEXT: fmul float
define internal float @helper(float %x) {
  %y = fmul float %x, 2.0
  ret float %y
}

; CHECK-LABEL: define internal void @scale.hetgpu.thread(ptr %a, i32 %n, ptr %ctx, i32 %tid.x, i32 %tid.y, i32 %tid.z)
; CHECK-SAME: #[[$THREAD:[0-9]+]]
; CHECK: setup:
; CHECK-DAG: [[IDXP:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 24
; CHECK-DAG: [[IDX:%.*]] = load i32, ptr [[IDXP]], align 4, !invariant.load
; CHECK-DAG: [[DIMP:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 12
; CHECK-DAG: [[DIM:%.*]] = load i32, ptr [[DIMP]], align 4, !invariant.load
; CHECK: mul i32 [[IDX]], [[DIM]]
; CHECK: add i32 {{%.*}}, %tid.x
; CHECK: call float @helper(
; CHECK-NOT: __hetgpu_
; CHECK: ret void
define void @scale(ptr %a, i32 %n) #0 {
entry:
  %b = call i32 @__hetgpu_ctaid_x()
  %d = call i32 @__hetgpu_ntid_x()
  %t = call i32 @__hetgpu_tid_x()
  %bd = mul i32 %b, %d
  %i = add i32 %bd, %t
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %done
body:
  %i64 = sext i32 %i to i64
  %p = getelementptr float, ptr %a, i64 %i64
  %v = load float, ptr %p
  %w = call float @helper(float %v)
  store float %w, ptr %p
  br label %done
done:
  ret void
}

; CHECK-LABEL: define void @__hetgpu_block_scale(ptr noalias noundef %args, ptr noalias noundef dereferenceable(88) %ctx)
; CHECK: [[A0:%.*]] = getelementptr inbounds ptr, ptr %args, i64 0
; CHECK: [[AP:%.*]] = load ptr, ptr [[A0]]
; CHECK: [[A:%.*]] = load ptr, ptr [[AP]]
; CHECK: [[N0:%.*]] = getelementptr inbounds ptr, ptr %args, i64 1
; CHECK: [[NP:%.*]] = load ptr, ptr [[N0]]
; CHECK: [[N:%.*]] = load i32, ptr [[NP]]
; CHECK: z.loop:
; CHECK: y.loop:
; CHECK: x.loop:
; CHECK-NEXT: %x = phi i32 [ 0, %y.loop ], [ %x.next, %x.loop ]
; CHECK-NEXT: call void @scale.hetgpu.thread(ptr [[A]], i32 [[N]], ptr %ctx, i32 %x, i32 %y, i32 %z)
; CHECK-NEXT: %x.next = add nuw i32 %x, 1
; CHECK-NEXT: [[C:%.*]] = icmp ult i32 %x.next, %ntid.x
; CHECK-NEXT: br i1 [[C]], label %x.loop, label %y.latch
; CHECK-NOT: __hetgpu_exec_block
; CHECK: attributes #[[$THREAD]] = { alwaysinline nounwind }

declare i32 @__hetgpu_ctaid_x()
declare i32 @__hetgpu_ntid_x()
declare i32 @__hetgpu_tid_x()

attributes #0 = { "hetgpu-kernel" }
