; hetgpu-insert-loop-safepoints: a loop that every thread of the block runs
; the same number of times (bounds from kernel arguments and block indices)
; gets a counter on its back edge and, every 1024 back edges, a call of
; __hetgpu_safepoint(). Negative twins get no block-uniform one: a
; grid-stride loop (bounds from threadIdx), a uniform loop after
; `if (tid >= n) return;` and a loop whose bound is loaded from memory get a
; per-thread one instead (marked !hetgpu.thread.safepoint: these kernels are
; barrier-free and use no shared memory; InstrumentState/thread-loops.ll), a
; loop with a warp operation and a loop outside any kernel get nothing.
; (Loops with barriers: barrier-loops.ll.)
; RUN: hetgpu-opt -passes=hetgpu-insert-loop-safepoints -S %s | FileCheck %s
; Running it twice adds nothing (the loops now contain a safe point).
; RUN: hetgpu-opt -passes=hetgpu-insert-loop-safepoints,hetgpu-insert-loop-safepoints -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-insert-loop-safepoints,hetgpu-verify -disable-output %s
; Three back edges (uniform, nested inner and outer) get a block-uniform
; safe point, three a per-thread one.
; RUN: hetgpu-opt -passes=hetgpu-insert-loop-safepoints -S %s | grep -c 'call void @__hetgpu_safepoint()$' | FileCheck --check-prefix=COUNT %s
; RUN: hetgpu-opt -passes=hetgpu-insert-loop-safepoints -S %s | grep -c 'call void @__hetgpu_safepoint(), !hetgpu.thread.safepoint' | FileCheck --check-prefix=COUNT %s
; COUNT: {{^}}3{{$}}

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; for (int i = 0; i < iters; ++i) x = x * 3 + i;  (x per thread, the trip
; count uniform)
; CHECK-LABEL: define void @uniform(
; CHECK: loop:
; CHECK-NEXT: %hetgpu.loopctr{{[0-9.]*}} = phi i32 [ 0, %entry ], [ %hetgpu.loopctr.next, %hetgpu.loopsp.next ]
; CHECK: br i1 %more, label %hetgpu.loopsp.count, label %exit
; CHECK: hetgpu.loopsp.count:
; CHECK-NEXT: %hetgpu.loopctr.next = add i32 %hetgpu.loopctr{{[0-9.]*}}, 1
; CHECK-NEXT: %[[AND:[0-9a-z.]+]] = and i32 %hetgpu.loopctr.next, 1023
; CHECK-NEXT: %hetgpu.loopsp.due = icmp eq i32 %[[AND]], 0
; CHECK-NEXT: br i1 %hetgpu.loopsp.due, label %hetgpu.loopsp, label %hetgpu.loopsp.next
; CHECK: hetgpu.loopsp:
; CHECK-NEXT: call void @__hetgpu_safepoint()
; CHECK-NEXT: br label %hetgpu.loopsp.next
; CHECK: hetgpu.loopsp.next:
; CHECK-NEXT: br label %loop
; CHECK-NOT: __hetgpu_safepoint
; CHECK-LABEL: define void @gridstride(
define void @uniform(ptr %out, i32 %iters) #0 {
entry:
  %tid = call i32 @__hetgpu_tid_x()
  %ctaid = call i32 @__hetgpu_ctaid_x()
  %ntid = call i32 @__hetgpu_ntid_x()
  %base = mul i32 %ctaid, %ntid
  %gid = add i32 %base, %tid
  %p = getelementptr i32, ptr %out, i32 %gid
  %x0 = load i32, ptr %p
  %any = icmp sgt i32 %iters, 0
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %x = phi i32 [ %x0, %entry ], [ %x.next, %loop ]
  %x3 = mul i32 %x, 3
  %x.next = add i32 %x3, %i
  %i.next = add nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %iters
  br i1 %more, label %loop, label %exit

exit:
  %r = phi i32 [ %x0, %entry ], [ %x.next, %loop ]
  store i32 %r, ptr %p
  ret void
}

; for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
; CHECK: call void @__hetgpu_safepoint(), !hetgpu.thread.safepoint
; CHECK-LABEL: define void @early_return(
define void @gridstride(ptr %out, i32 %n) #0 {
entry:
  %tid = call i32 @__hetgpu_tid_x()
  %ctaid = call i32 @__hetgpu_ctaid_x()
  %ntid = call i32 @__hetgpu_ntid_x()
  %nctaid = call i32 @__hetgpu_nctaid_x()
  %base = mul i32 %ctaid, %ntid
  %gid = add i32 %base, %tid
  %stride = mul i32 %ntid, %nctaid
  %any = icmp slt i32 %gid, %n
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i32 [ %gid, %entry ], [ %i.next, %loop ]
  %p = getelementptr i32, ptr %out, i32 %i
  store i32 %i, ptr %p
  %i.next = add i32 %i, %stride
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; if (tid >= n) return; for (i = 0; i < iters; ++i) ...: the threads that
; returned never reach the loop, so it is not block-uniform.
; CHECK: call void @__hetgpu_safepoint(), !hetgpu.thread.safepoint
; CHECK-LABEL: define void @load_bound(
define void @early_return(ptr %out, i32 %n, i32 %iters) #0 {
entry:
  %tid = call i32 @__hetgpu_tid_x()
  %in = icmp slt i32 %tid, %n
  br i1 %in, label %pre, label %exit

pre:
  br label %loop

loop:
  %i = phi i32 [ 0, %pre ], [ %i.next, %loop ]
  %p = getelementptr i32, ptr %out, i32 %i
  store i32 %tid, ptr %p
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %iters
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; while (i < *bound): loads are divergent (another thread may write).
; CHECK: call void @__hetgpu_safepoint(), !hetgpu.thread.safepoint
; CHECK-LABEL: define void @warp_op(
define void @load_bound(ptr %out, ptr %bound) #0 {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i.next = add i32 %i, 1
  %b = load i32, ptr %bound
  %more = icmp slt i32 %i.next, %b
  br i1 %more, label %loop, label %exit

exit:
  store i32 %i, ptr %out
  ret void
}

; CHECK-NOT: __hetgpu_safepoint
; CHECK-NOT: hetgpu.loopctr
; CHECK-LABEL: define void @nested(
define void @warp_op(ptr %out, i32 %iters) #0 {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %v = call i32 @__hetgpu_shfl_xor_i32(i32 -1, i32 %i, i32 1, i32 32)
  store i32 %v, ptr %out
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %iters
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; A nest of two uniform loops (bounds from gridDim and an argument) shares
; one counter: both back edges count, each has its safe point, and the
; counter restarts whenever the outer loop is entered.
; CHECK: outer:
; CHECK-NEXT: %[[OC:hetgpu.loopctr[0-9.]*]] = phi i32 [ 0, %entry ], [ %{{hetgpu.loopctr.next[0-9]*}}, %hetgpu.loopsp.next{{[0-9]*}} ]
; CHECK: inner:
; CHECK-NEXT: %[[IC:hetgpu.loopctr[0-9.]*]] = phi i32 [ %[[OC]], %outer ], [ %{{hetgpu.loopctr.next[0-9]*}}, %hetgpu.loopsp.next{{[0-9]*}} ]
; CHECK: call void @__hetgpu_safepoint()
; CHECK: outer.latch:
; CHECK: hetgpu.loopsp.count:
; CHECK-NEXT: %hetgpu.loopctr.next = add i32 %[[IC]], 1
; CHECK: call void @__hetgpu_safepoint()
; CHECK-NOT: __hetgpu_safepoint
; CHECK-LABEL: define internal void @helper(
define void @nested(ptr %out, i32 %iters) #0 {
entry:
  %nb = call i32 @__hetgpu_nctaid_x()
  br label %outer

outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %outer.latch ]
  br label %inner

inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %inner ]
  %s = add i32 %i, %j
  store i32 %s, ptr %out
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %iters
  br i1 %more, label %inner, label %outer.latch

outer.latch:
  %j.next = add i32 %j, 1
  %omore = icmp slt i32 %j.next, %nb
  br i1 %omore, label %outer, label %exit

exit:
  ret void
}

; Not a kernel: untouched.
; CHECK-NOT: __hetgpu_safepoint
; CHECK-NOT: hetgpu.loopctr
; CHECK: ret void
define internal void @helper(ptr %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  store i32 %i, ptr %p
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

declare i32 @__hetgpu_tid_x()
declare i32 @__hetgpu_ctaid_x()
declare i32 @__hetgpu_ntid_x()
declare i32 @__hetgpu_nctaid_x()
declare i32 @__hetgpu_shfl_xor_i32(i32, i32, i32, i32)

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1, !5, !7, !8, !9, !10}
!0 = !{i32 1, i32 0}
!1 = !{ptr @uniform, !"name", !"uniform", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !11}
!2 = !{!3, !12}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{}
!5 = !{ptr @gridstride, !"name", !"gridstride", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !11}
!7 = !{ptr @early_return, !"name", !"early_return", !"params", !13, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !11}
!8 = !{ptr @load_bound, !"name", !"load_bound", !"params", !14, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !11}
!9 = !{ptr @warp_op, !"name", !"warp_op", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !11}
!10 = !{ptr @nested, !"name", !"nested", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !11}
!11 = !{i32 0, i32 0}
!12 = !{!"value", i32 4, i32 4}
!13 = !{!3, !12, !12}
!14 = !{!3, !3}
