; Per-thread safe points (docs/Migration.md, "Per-thread safe points"):
; * hetgpu-insert-loop-safepoints gives a grid-stride loop and a
;   data-dependent while loop (Collatz steps) of barrier-free kernels a
;   counter and, every 1024 back edges, a __hetgpu_safepoint() call marked
;   !hetgpu.thread.safepoint;
; * hetgpu-state-layout lays it out as kind thread-loop, its slots after the
;   thread's 8-byte word;
; * hetgpu-instrument-state: no barrier_or at it; the thread saves its own
;   record, stores its word {1 = suspended, id} and the header
;   {R + 1, 0xfffffffe}, and returns; every return of a watched launch marks
;   the word finished (2); a resumed block dispatches on each thread's word.
; Negative twins get no per-thread point: a barrier after the loop, a warp
; shuffle after the loop, shared memory in the kernel.
; RUN: opt -load-pass-plugin=%hetgpu_plugin -passes=hetgpu-insert-loop-safepoints -S %s | FileCheck --check-prefix=INSERT %s
; RUN: opt -load-pass-plugin=%hetgpu_plugin -passes='hetgpu-insert-loop-safepoints,hetgpu-state-layout,print<hetgpu-state>' -disable-output %s 2>&1 | FileCheck --check-prefix=PRINT %s
; RUN: opt -load-pass-plugin=%hetgpu_plugin -passes=hetgpu-insert-loop-safepoints,hetgpu-state-layout,hetgpu-instrument-state,verify -S %s | FileCheck --check-prefix=INSTR %s
; RUN: opt -load-pass-plugin=%hetgpu_plugin -passes=hetgpu-insert-loop-safepoints,hetgpu-state-layout,hetgpu-verify -disable-output %s
; Not instrumented: the calls are stripped again.
; RUN: opt -load-pass-plugin=%hetgpu_plugin -passes=hetgpu-insert-loop-safepoints,hetgpu-state-layout,hetgpu-strip-safepoints -S %s | FileCheck --check-prefix=STRIP %s
; Each refusal is a remark naming the reason.
; RUN: opt -load-pass-plugin=%hetgpu_plugin -passes=hetgpu-insert-loop-safepoints -pass-remarks-missed=hetgpu-insert-loop-safepoints -disable-output %s 2>&1 | FileCheck --check-prefix=REMARK %s
; REMARK-DAG: remark: {{.*}}loop loop in kernel barrier_after gets no per-thread safe point: a barrier, warp operation, grid sync or safe point is reachable from it
; REMARK-DAG: remark: {{.*}}loop loop in kernel shuffle_after gets no per-thread safe point: a barrier, warp operation, grid sync or safe point is reachable from it
; REMARK-DAG: remark: {{.*}}loop loop in kernel shared_mem gets no per-thread safe point: the kernel uses shared memory
; Exactly the two positive kernels get a call.
; RUN: opt -load-pass-plugin=%hetgpu_plugin -passes=hetgpu-insert-loop-safepoints -S %s | grep -c 'call void @__hetgpu_safepoint(), !hetgpu.thread.safepoint' | FileCheck --check-prefix=COUNT %s
; COUNT: {{^}}2{{$}}

; INSERT-LABEL: define void @gridstride(
; INSERT: %hetgpu.loopctr.next = add i32
; INSERT: and i32 %hetgpu.loopctr.next, 1023
; INSERT: call void @__hetgpu_safepoint(), !hetgpu.thread.safepoint
; INSERT-LABEL: define void @collatz(
; INSERT: call void @__hetgpu_safepoint(), !hetgpu.thread.safepoint
; INSERT-LABEL: define void @barrier_after(
; INSERT-NOT: __hetgpu_safepoint
; INSERT-NOT: hetgpu.loopctr
; INSERT-LABEL: define void @shuffle_after(
; INSERT-NOT: __hetgpu_safepoint
; INSERT-NOT: hetgpu.loopctr
; INSERT-LABEL: define void @shared_mem(
; INSERT-NOT: __hetgpu_safepoint
; INSERT-NOT: hetgpu.loopctr
; INSERT-LABEL: declare

; PRINT-LABEL: state gridstride:
; PRINT: safepoint 1 thread-loop: 2 slots, 16 bytes
; PRINT-NEXT: slot 0: value i32 @8 size 4 align 4
; PRINT-NEXT: slot 1: value i32 @12 size 4 align 4
; PRINT-LABEL: state collatz:
; PRINT: safepoint 1 thread-loop:
; PRINT-NEXT: slot 0: value {{.*}} @8
; PRINT-LABEL: state barrier_after:
; PRINT-NOT: thread-loop
; PRINT-LABEL: state shared_mem:
; PRINT-NOT: thread-loop

; INSTR-LABEL: define void @gridstride(ptr %out, i32 %n, ptr %hetgpu.state, ptr %hetgpu.ctrl, i32 %hetgpu.round)
; INSTR-NOT: call void @__hetgpu_safepoint
; INSTR-NOT: barrier_or
; The resumed block whose header says "per thread" (0xfffffffe = -2):
; INSTR: switch i32 %{{.*}}, label %hetgpu.return [
; INSTR-DAG: i32 -1, label %hetgpu.start
; INSTR-DAG: i32 -2, label %hetgpu.thread.resume
; INSTR: hetgpu.thread.resume:
; INSTR: %hetgpu.tword = load i64, ptr addrspace(1)
; INSTR: %hetgpu.tstate = trunc i64 %hetgpu.tword to i32
; INSTR: switch i32 %hetgpu.tresume, label %hetgpu.return [
; INSTR-NEXT: i32 -1, label %hetgpu.body
; INSTR-NEXT: i32 1, label %hetgpu.restore.1
; The per-thread test: one volatile load of the control word, no barrier.
; INSTR: %hetgpu.ctrlword = load volatile i64
; INSTR: hetgpu.tsp.1:
; INSTR: %hetgpu.thread.yield = freeze i32 %hetgpu.y
; INSTR: br i1 %{{.*}}, label %hetgpu.tsave.1, label %hetgpu.cont.1
; INSTR: hetgpu.tsave.1:
; Slots after the 8-byte word; word {suspended = 1, id 1} = 4294967297.
; INSTR: getelementptr i8, ptr %hetgpu.record{{[0-9]*}}, i64 8
; INSTR: store i64 4294967297, ptr addrspace(1)
; INSTR: store i32 -2, ptr addrspace(1)
; INSTR: ret void
; Finished marks before the return of a watched launch:
; INSTR: exit:
; INSTR-NEXT: %hetgpu.watched = icmp slt i32 %hetgpu.round, 0
; INSTR-NEXT: br i1 %hetgpu.watched, label %hetgpu.finish, label %hetgpu.finish.ret
; INSTR: hetgpu.finish:
; INSTR: store i64 2, ptr addrspace(1)
; INSTR-LABEL: define void @collatz(
; INSTR: hetgpu.tsave.1:
; INSTR: store i64 4294967297, ptr addrspace(1)
; INSTR-LABEL: define void @barrier_after(
; INSTR-NOT: hetgpu.tsave
; INSTR-NOT: hetgpu.thread.resume
; INSTR-LABEL: define void @shuffle_after(
; INSTR-NOT: hetgpu.tsave
; INSTR-LABEL: define void @shared_mem(
; INSTR-NOT: hetgpu.tsave
; INSTR-NOT: hetgpu.thread.resume

; STRIP-NOT: __hetgpu_safepoint
; STRIP-NOT: hetgpu.loopsp.due

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@tile = internal addrspace(3) global [64 x i32] poison

; for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
;   out[i] = out[i] * 3 + 1;
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
  %v = load i32, ptr %p
  %v3 = mul i32 %v, 3
  %v1 = add i32 %v3, 1
  store i32 %v1, ptr %p
  %i.next = add i32 %i, %stride
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; x = in[gid]; steps = 0; while (x > 1) { x = x & 1 ? 3x + 1 : x / 2; ++steps; }
; out[gid] = steps;
define void @collatz(ptr %out, ptr %in) #0 {
entry:
  %tid = call i32 @__hetgpu_tid_x()
  %ctaid = call i32 @__hetgpu_ctaid_x()
  %ntid = call i32 @__hetgpu_ntid_x()
  %base = mul i32 %ctaid, %ntid
  %gid = add i32 %base, %tid
  %pin = getelementptr i64, ptr %in, i32 %gid
  %x0 = load i64, ptr %pin
  %go = icmp ugt i64 %x0, 1
  br i1 %go, label %loop, label %exit

loop:
  %x = phi i64 [ %x0, %entry ], [ %x.next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %odd = and i64 %x, 1
  %isodd = icmp ne i64 %odd, 0
  %x3 = mul i64 %x, 3
  %x31 = add i64 %x3, 1
  %xh = lshr i64 %x, 1
  %x.next = select i1 %isodd, i64 %x31, i64 %xh
  %s.next = add i32 %s, 1
  %more = icmp ugt i64 %x.next, 1
  br i1 %more, label %loop, label %exit

exit:
  %steps = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %pout = getelementptr i32, ptr %out, i32 %gid
  store i32 %steps, ptr %pout
  ret void
}

; The grid-stride loop, then __syncthreads(): threads must not stop alone.
define void @barrier_after(ptr %out, i32 %n) #0 {
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
  call void @__hetgpu_barrier()
  ret void
}

; The grid-stride loop, then a warp shuffle.
define void @shuffle_after(ptr %out, i32 %n) #0 {
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
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %acc.next = add i32 %acc, %i
  %i.next = add i32 %i, %stride
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %exit

exit:
  %r = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %sh = call i32 @__hetgpu_shfl_xor_i32(i32 -1, i32 %r, i32 1, i32 32)
  %p = getelementptr i32, ptr %out, i32 %gid
  store i32 %sh, ptr %p
  ret void
}

; A barrier-free grid-stride loop in a kernel that uses shared memory.
define void @shared_mem(ptr %out, i32 %n) #0 {
entry:
  %tid = call i32 @__hetgpu_tid_x()
  %ctaid = call i32 @__hetgpu_ctaid_x()
  %ntid = call i32 @__hetgpu_ntid_x()
  %nctaid = call i32 @__hetgpu_nctaid_x()
  %base = mul i32 %ctaid, %ntid
  %gid = add i32 %base, %tid
  %stride = mul i32 %ntid, %nctaid
  %slot = and i32 %tid, 63
  %sp = getelementptr [64 x i32], ptr addrspace(3) @tile, i32 0, i32 %slot
  store i32 0, ptr addrspace(3) %sp
  %any = icmp slt i32 %gid, %n
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i32 [ %gid, %entry ], [ %i.next, %loop ]
  %t = load i32, ptr addrspace(3) %sp
  %t1 = add i32 %t, %i
  store i32 %t1, ptr addrspace(3) %sp
  %i.next = add i32 %i, %stride
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %exit

exit:
  %r = load i32, ptr addrspace(3) %sp
  %p = getelementptr i32, ptr %out, i32 %gid
  store i32 %r, ptr %p
  ret void
}

declare i32 @__hetgpu_tid_x()
declare i32 @__hetgpu_ctaid_x()
declare i32 @__hetgpu_ntid_x()
declare i32 @__hetgpu_nctaid_x()
declare void @__hetgpu_barrier() #1
declare i32 @__hetgpu_shfl_xor_i32(i32, i32, i32, i32) #1

attributes #0 = { "hetgpu-kernel" }
attributes #1 = { convergent }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1, !5, !7, !8, !9}
!0 = !{i32 1, i32 0}
!1 = !{ptr @gridstride, !"name", !"gridstride", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !11}
!2 = !{!3, !12}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{}
!5 = !{ptr @collatz, !"name", !"collatz", !"params", !14, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !11}
!7 = !{ptr @barrier_after, !"name", !"barrier_after", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !11}
!8 = !{ptr @shuffle_after, !"name", !"shuffle_after", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !11}
!9 = !{ptr @shared_mem, !"name", !"shared_mem", !"params", !2, !"shared.static", i64 256, !"features", !4, !"launch.bounds", !11}
!11 = !{i32 0, i32 0}
!12 = !{!"value", i32 4, i32 4}
!14 = !{!3, !3}
