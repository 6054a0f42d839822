; hetgpu-insert-loop-safepoints on loops with barriers: barriers are not
; tested for a yield (too costly in barrier-dense loops), so a block-uniform
; loop with a barrier gets the loop safe point, every 32 back edges. A loop
; qualifies when its control is uniform, or when a barrier dominates its
; latch (every thread passes it in every iteration, so by CUDA's rules all
; threads run the same iterations) and the way into it is uniform.
; Negative twins: a barrier only on some paths of a loop with a loaded
; bound, and a barrier loop after `if (tid >= n) return;`.
; RUN: hetgpu-opt -passes=hetgpu-insert-loop-safepoints -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-insert-loop-safepoints,hetgpu-verify -disable-output %s
; Four back edges get a safe point: uniform, loaded_bound, with_warp_op and
; the outer loop of nest (not its barrier-free inner loop).
; RUN: hetgpu-opt -passes=hetgpu-insert-loop-safepoints -S %s | grep -c 'call void @__hetgpu_safepoint()' | FileCheck --check-prefix=COUNT %s
; COUNT: {{^}}4{{$}}

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; for (i = 0; i < iters; ++i) { s[t] = ...; __syncthreads(); }
; CHECK-LABEL: define void @uniform(
; CHECK: hetgpu.loopsp.count:
; CHECK-NEXT: %hetgpu.loopctr.next = add i32 %hetgpu.loopctr{{[0-9.]*}}, 1
; CHECK-NEXT: %[[AND:[0-9a-z.]+]] = and i32 %hetgpu.loopctr.next, 31
; CHECK-NEXT: %hetgpu.loopsp.due = icmp eq i32 %[[AND]], 0
; CHECK: hetgpu.loopsp:
; CHECK-NEXT: call void @__hetgpu_safepoint()
; CHECK-LABEL: define void @loaded_bound(
define void @uniform(ptr addrspace(3) %s, i32 %iters) #0 {
entry:
  %tid = call i32 @__hetgpu_tid_x()
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr i32, ptr addrspace(3) %s, i32 %tid
  store i32 %i, ptr addrspace(3) %p
  call void @__hetgpu_barrier()
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %iters
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; do { __syncthreads(); done = s[0]; } while (!done): the bound is loaded
; (divergent to the analysis), but the barrier dominates the latch.
; CHECK: call void @__hetgpu_barrier()
; CHECK: and i32 %hetgpu.loopctr.next, 31
; CHECK: call void @__hetgpu_safepoint()
; CHECK-LABEL: define void @cond_barrier(
define void @loaded_bound(ptr addrspace(3) %s) #0 {
entry:
  br label %loop

loop:
  call void @__hetgpu_barrier()
  %done = load i32, ptr addrspace(3) %s
  %more = icmp eq i32 %done, 0
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; Negative twin: the barrier is on one path only, the bound loaded.
; CHECK-NOT: call void @__hetgpu_safepoint
; CHECK-NOT: hetgpu.loopctr
; CHECK-LABEL: define void @early_return(
define void @cond_barrier(ptr addrspace(3) %s, i32 %k) #0 {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %odd = and i32 %i, 1
  %sync = icmp eq i32 %odd, 0
  br i1 %sync, label %bar, label %latch

bar:
  call void @__hetgpu_barrier()
  br label %latch

latch:
  %i.next = add i32 %i, 1
  %done = load i32, ptr addrspace(3) %s
  %more = icmp eq i32 %done, 0
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; Negative twin: threads that returned early never reach the loop.
; CHECK-NOT: call void @__hetgpu_safepoint
; CHECK-NOT: hetgpu.loopctr
; CHECK-LABEL: define void @with_warp_op(
define void @early_return(ptr addrspace(3) %s, i32 %n, i32 %iters) #0 {
entry:
  %tid = call i32 @__hetgpu_tid_x()
  %in = icmp slt i32 %tid, %n
  br i1 %in, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  call void @__hetgpu_barrier()
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %iters
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; A warp operation next to a barrier: the whole block runs the loop
; together, so it qualifies (a barrier-free loop with one does not).
; CHECK: call i32 @__hetgpu_shfl_xor_i32(
; CHECK: call void @__hetgpu_safepoint()
; CHECK-LABEL: define void @nest(
define void @with_warp_op(ptr addrspace(3) %s, i32 %iters) #0 {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %v = call i32 @__hetgpu_shfl_xor_i32(i32 -1, i32 %i, i32 1, i32 32)
  store i32 %v, ptr addrspace(3) %s
  call void @__hetgpu_barrier()
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %iters
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; An outer loop with a barrier around a barrier-free inner loop: only the
; outer back edge counts (the inner loop runs between two barriers of one
; iteration) and has the safe point.
; CHECK: inner:
; CHECK-NOT: hetgpu.loopctr
; CHECK: outer.latch:
; CHECK: br i1 %omore, label %hetgpu.loopsp.count, label %exit
; CHECK: hetgpu.loopsp.count:
; CHECK: and i32 %hetgpu.loopctr.next, 31
; CHECK: call void @__hetgpu_safepoint()
; CHECK-NOT: call void @__hetgpu_safepoint
define void @nest(ptr addrspace(3) %s, i32 %iters, i32 %rows) #0 {
entry:
  br label %outer

outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %outer.latch ]
  br label %inner

inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %inner ]
  %x = add i32 %i, %j
  store i32 %x, ptr addrspace(3) %s
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %iters
  br i1 %more, label %inner, label %outer.latch

outer.latch:
  call void @__hetgpu_barrier()
  %j.next = add i32 %j, 1
  %omore = icmp slt i32 %j.next, %rows
  br i1 %omore, label %outer, label %exit

exit:
  ret void
}

declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_barrier()
declare i32 @__hetgpu_shfl_xor_i32(i32, i32, i32, i32)

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1, !5, !6, !7, !8, !9}
!0 = !{i32 1, i32 0}
!1 = !{ptr @uniform, !"name", !"uniform", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !10}
!2 = !{!3, !11}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{}
!5 = !{ptr @loaded_bound, !"name", !"loaded_bound", !"params", !12, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !10}
!6 = !{ptr @cond_barrier, !"name", !"cond_barrier", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !10}
!7 = !{ptr @early_return, !"name", !"early_return", !"params", !13, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !10}
!8 = !{ptr @with_warp_op, !"name", !"with_warp_op", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !10}
!9 = !{ptr @nest, !"name", !"nest", !"params", !13, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !10}
!10 = !{i32 0, i32 0}
!11 = !{!"value", i32 4, i32 4}
!12 = !{!3}
!13 = !{!3, !11, !11}
