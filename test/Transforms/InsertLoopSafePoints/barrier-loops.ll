; hetgpu-insert-loop-safepoints on loops with barriers: barriers are not
; tested for a yield (too costly in barrier-dense loops), so a block-uniform
; loop with a barrier gets a loop safe point every 32 iterations. A loop
; qualifies when its control is uniform, or when a barrier dominates its
; latch (every thread passes it in every iteration, so by CUDA's rules all
; threads run the same iterations) and the way into it is uniform.
; A loop counted by `i + 1` against a loop-invariant bound runs in chunks
; of 32 iterations (the safe point between two chunks; the chunk number and
; the IV's phi count from 0 by 1); other loops count their back edges.
; Negative twins: a barrier only on some paths of a loop with a loaded
; bound, and a barrier loop after `if (tid >= n) return;`.
; RUN: hetgpu-opt -passes=hetgpu-insert-loop-safepoints -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-insert-loop-safepoints,hetgpu-verify -disable-output %s
; Six safe points: uniform, loaded_bound, with_warp_op, the outer loop of
; nest (not its barrier-free inner loop), step16 and may_wrap.
; RUN: hetgpu-opt -passes=hetgpu-insert-loop-safepoints -S %s | grep -c 'call void @__hetgpu_safepoint()' | FileCheck --check-prefix=COUNT %s
; COUNT: {{^}}6{{$}}
; Stripped (a translation that is not instrumented), every loop is as it
; was: the chunks and their limits are gone.
; RUN: hetgpu-opt -passes=hetgpu-insert-loop-safepoints,hetgpu-strip-safepoints -S %s | FileCheck --check-prefix=STRIP %s
; STRIP-NOT: hetgpu.chunk
; STRIP-NOT: hetgpu.loopsp.end
; STRIP-LABEL: define void @uniform(
; STRIP: loop:
; STRIP-NEXT: %i = phi i32 [ %i.next, %loop ], [ 0, %hetgpu.loopsp.chunk ]
; STRIP: store i32 %i,
; STRIP: %i.next = add nsw i32 %i, 1
; STRIP-NEXT: %more = icmp slt i32 %i.next, %iters
; STRIP-NEXT: br i1 %more, label %loop, label %exit

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; for (i = 0; i < iters; ++i) { s[t] = ...; __syncthreads(); }: chunks.
; CHECK-LABEL: define void @uniform(
; CHECK: hetgpu.loopsp.chunk:
; CHECK-NEXT: %hetgpu.chunk.num = phi i32 [ %hetgpu.chunk.num.next, %hetgpu.loopsp ], [ 0, %entry ]
; CHECK-NEXT: %[[M:[0-9]+]] = mul i32 %hetgpu.chunk.num, 32
; CHECK-NEXT: %hetgpu.chunk.base = add i32 0, %[[M]]
; CHECK-NEXT: %[[LEFT:[0-9]+]] = sub i32 %iters, %hetgpu.chunk.base
; CHECK-NEXT: %[[B:[0-9]+]] = icmp ult i32 %[[LEFT]], 32
; CHECK-NEXT: %[[C:[0-9]+]] = select i1 %[[B]], i32 %[[LEFT]], i32 32
; CHECK-NEXT: %[[IN:[0-9]+]] = icmp slt i32 %hetgpu.chunk.base, %iters
; CHECK-NEXT: %hetgpu.chunk.len = select i1 %[[IN]], i32 %[[C]], i32 1
; CHECK: loop:
; CHECK-NEXT: %hetgpu.chunk.j = phi i32 [ %hetgpu.chunk.j.next, %loop ], [ 0, %hetgpu.loopsp.chunk ]
; CHECK-NEXT: %i = add i32 %hetgpu.chunk.base, %hetgpu.chunk.j
; CHECK: store i32 %i,
; CHECK: call void @__hetgpu_barrier()
; CHECK-NEXT: %i.next = add nsw i32 %i, 1
; CHECK-NEXT: %hetgpu.chunk.j.next = add i32 %hetgpu.chunk.j, 1
; CHECK-NEXT: %hetgpu.chunk.more = icmp ne i32 %hetgpu.chunk.j.next, %hetgpu.chunk.len
; CHECK-NEXT: br i1 %hetgpu.chunk.more, label %loop, label %hetgpu.loopsp.end
; CHECK: hetgpu.loopsp.end:
; CHECK-NEXT: %more = icmp slt i32 %i.next, %iters
; CHECK-NEXT: br i1 %more, label %hetgpu.loopsp, label %exit
; CHECK: hetgpu.loopsp:
; CHECK-NEXT: call void @__hetgpu_safepoint()
; CHECK-NEXT: %hetgpu.chunk.num.next = add i32 %hetgpu.chunk.num, 1
; CHECK-NEXT: br label %hetgpu.loopsp.chunk
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
  %i.next = add nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %iters
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; do { __syncthreads(); done = s[0]; } while (!done): the bound is loaded
; (divergent to the analysis), but the barrier dominates the latch; no
; induction variable, so the back edges are counted.
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
; outer loop gets a safe point (the inner loop runs between two barriers of
; one iteration); the outer one runs in chunks.
; CHECK: hetgpu.loopsp.chunk:
; CHECK: inner:
; CHECK-NOT: hetgpu.chunk
; CHECK: outer.latch:
; CHECK: br i1 %hetgpu.chunk.more, label %outer, label %hetgpu.loopsp.end
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
  %j.next = add nsw i32 %j, 1
  %omore = icmp slt i32 %j.next, %rows
  br i1 %omore, label %outer, label %exit

exit:
  ret void
}

; for (k = 0; k < n; k += 16) (a tiled loop): chunks of 32 iterations,
; the chunk base steps by 32 * 16 and the IV's uses see base + j * 16;
; the length is ceil((n - base) / 16), at most 32, and 1 when the loop is
; entered at or past n.
; CHECK-LABEL: define void @step16(
; CHECK: hetgpu.loopsp.chunk:
; CHECK: %[[M16:[0-9]+]] = mul i32 %hetgpu.chunk.num, 512
; CHECK-NEXT: %hetgpu.chunk.base = add i32 0, %[[M16]]
; CHECK-NEXT: %[[LEFT16:[0-9]+]] = sub i32 %n, %hetgpu.chunk.base
; CHECK-NEXT: %[[L1:[0-9]+]] = sub i32 %[[LEFT16]], 1
; CHECK-NEXT: %[[Q:[0-9]+]] = udiv i32 %[[L1]], 16
; CHECK-NEXT: %[[IT:[0-9]+]] = add i32 %[[Q]], 1
; CHECK-NEXT: %[[FULL:[0-9]+]] = icmp ult i32 %[[IT]], 32
; CHECK-NEXT: %[[CH:[0-9]+]] = select i1 %[[FULL]], i32 %[[IT]], i32 32
; CHECK-NEXT: %[[IN:[0-9]+]] = icmp slt i32 %hetgpu.chunk.base, %n
; CHECK-NEXT: %hetgpu.chunk.len = select i1 %[[IN]], i32 %[[CH]], i32 1
; CHECK: loop:
; CHECK-NEXT: %hetgpu.chunk.j = phi i32
; CHECK-NEXT: %hetgpu.chunk.off = mul i32 %hetgpu.chunk.j, 16
; CHECK-NEXT: %k = add i32 %hetgpu.chunk.base, %hetgpu.chunk.off
; CHECK: %k.next = add nsw i32 %k, 16
; STRIP-LABEL: define void @step16(
; STRIP: %k = phi i32 [ %k.next, %loop ], [ 0, %hetgpu.loopsp.chunk ]
; STRIP: %k.next = add nsw i32 %k, 16
; STRIP-NEXT: %more = icmp slt i32 %k.next, %n
; STRIP-NEXT: br i1 %more, label %loop, label %exit
define void @step16(ptr addrspace(3) %s, i32 %n) #0 {
entry:
  br label %loop

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  store i32 %k, ptr addrspace(3) %s
  call void @__hetgpu_barrier()
  %k.next = add nsw i32 %k, 16
  %more = icmp slt i32 %k.next, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; An unsigned `<` loop whose increment may wrap (no nuw): the loop may go
; on past a short chunk, so it keeps the back-edge counter.
; CHECK-LABEL: define void @may_wrap(
; CHECK-NOT: hetgpu.chunk
; CHECK: hetgpu.loopctr.next
; CHECK: call void @__hetgpu_safepoint()
define void @may_wrap(ptr addrspace(3) %s, i32 %n) #0 {
entry:
  br label %loop

loop:
  %u = phi i32 [ 0, %entry ], [ %u.next, %loop ]
  store i32 %u, ptr addrspace(3) %s
  call void @__hetgpu_barrier()
  %u.next = add i32 %u, 1
  %more = icmp ult i32 %u.next, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_barrier()
declare i32 @__hetgpu_shfl_xor_i32(i32, i32, i32, i32)

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1, !5, !6, !7, !8, !9, !14, !15}
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
!14 = !{ptr @step16, !"name", !"step16", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !10}
!15 = !{ptr @may_wrap, !"name", !"may_wrap", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !10}
