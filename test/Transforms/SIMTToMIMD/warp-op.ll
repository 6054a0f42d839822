; Warp operations are sync points too: the operation kind and its operands
; go to the thread state (kind 9 = shfl.xor, 12 = ballot), values live
; across them to slots after the (here empty) state record unless they can
; be recomputed from the thread's setup values (%lane2), and the result
; comes back from ts->result. lane_id is the linear thread id modulo 32.
; RUN: hetgpu-opt -passes=hetgpu-simt-to-mimd -S %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define internal i32 @w.hetgpu.thread(ptr %args, ptr %ctx, ptr %ts)
; CHECK: %linear.tid = load i32
; CHECK: [[LANE:%.*]] = and i32 %linear.tid, 31
; CHECK: switch i32 %resume, label %entry [
; CHECK-NEXT: i32 1, label %sync1.resume
; CHECK-NEXT: i32 2, label %sync2.resume
; CHECK: entry:
; CHECK-NEXT: %lane2 = mul i32 [[LANE]], 2
; CHECK-NEXT: [[K:%.*]] = getelementptr inbounds i8, ptr %ts, i64 4
; CHECK-NEXT: store i32 9, ptr [[K]], align 4
; CHECK-NEXT: [[A0:%.*]] = getelementptr inbounds i8, ptr %ts, i64 8
; CHECK-NEXT: store i32 -1, ptr [[A0]], align 4
; CHECK-NEXT: [[A1:%.*]] = getelementptr inbounds i8, ptr %ts, i64 12
; CHECK-NEXT: store i32 [[LANE]], ptr [[A1]], align 4
; CHECK-NEXT: [[A2:%.*]] = getelementptr inbounds i8, ptr %ts, i64 16
; CHECK-NEXT: store i32 1, ptr [[A2]], align 4
; CHECK-NEXT: [[A3:%.*]] = getelementptr inbounds i8, ptr %ts, i64 20
; CHECK-NEXT: store i32 32, ptr [[A3]], align 4
; CHECK-NEXT: ret i32 1
; CHECK: sync1.resume:
; CHECK-NEXT: %lane2.remat = mul i32 [[LANE]], 2
; CHECK-NEXT: [[RP:%.*]] = getelementptr inbounds i8, ptr %ts, i64 24
; CHECK-NEXT: %x.result = load i32, ptr [[RP]], align 4
; CHECK: sync1.cont:
; CHECK-NEXT: %sum = add i32 %x.result, %lane2.remat
; CHECK: [[S:%.*]] = getelementptr inbounds i8, ptr %frame, i64 0
; CHECK-NEXT: store i32 %sum, ptr [[S]], align 4
; CHECK: store i32 12, ptr
; CHECK: ret i32 2
; CHECK: sync2.resume:
; CHECK: %b.result = load i32
; CHECK-NOT: call {{.*}}@__hetgpu_{{(shfl|vote|lane)}}
; CHECK-LABEL: define void @__hetgpu_block_w(
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @__hetgpu_exec_block(ptr %args, ptr %ctx, ptr @w.hetgpu.thread, i32 16, ptr @w.name)
define void @w(ptr %out) #0 {
entry:
  %lane = call i32 @__hetgpu_lane_id()
  %lane2 = mul i32 %lane, 2
  %x = call i32 @__hetgpu_shfl_xor_i32(i32 -1, i32 %lane, i32 1, i32 32)
  %sum = add i32 %x, %lane2
  %p = icmp sgt i32 %sum, 10
  %pi = zext i1 %p to i32
  %b = call i32 @__hetgpu_vote_ballot(i32 -1, i32 %pi)
  %r = add i32 %b, %sum
  store i32 %r, ptr %out
  ret void
}

declare i32 @__hetgpu_lane_id()
declare i32 @__hetgpu_shfl_xor_i32(i32, i32, i32, i32)
declare i32 @__hetgpu_vote_ballot(i32, i32)

attributes #0 = { "hetgpu-kernel" }
