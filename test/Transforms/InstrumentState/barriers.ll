; Every kernel gets three hidden trailing parameters (state buffer, control
; block, round). A fresh launch (round 0, a parameter: no memory access)
; goes straight to the body; a resumed launch of round R loads the block's
; header and continues the blocks whose status is R at their saved safe
; point. The loop safe point (__hetgpu_safepoint) becomes a block-uniform
; __hetgpu_barrier_or of the flag, then save code that stores the live
; values at their slot offsets (!hetgpu.state) and the shared memory and
; writes {R + 1, id} to the header before returning. The barriers outside
; loop nests with a loop safe point (barrier, barrier_count, barrier_and:
; all three here) are safe points of watched launches: the yield test
; (barrier_or of the flag, with the count and and forms after it) with the
; same save, restore and landing blocks. An unwatched launch runs a copy of
; the body (.plain) with the plain barriers and without the loop safe
; point. A block that runs to its end writes nothing.
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -verify-each -S %s | FileCheck %s
; Running it again changes nothing (the kernel is marked instrumented).
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state,hetgpu-instrument-state -S %s | FileCheck %s
; Twin without the loop safe point: the barriers are still safe points,
; the loop safe point's id (2) is gone.
; RUN: sed -e '/call void @__hetgpu_safepoint()/d' %s | hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -verify-each -S | FileCheck --check-prefix=NOSP %s
; All safe-point blocks and barrier calls of the result, in order: per
; safe point the restore, landing, yield test and save blocks; then the
; unwatched copy of the body with the three plain barriers.
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -S %s | grep -E '^hetgpu\.[a-z.]+\.[0-9]+:|call .*@__hetgpu_(barrier|safepoint)' | sed -e 's/ *;.*//' -e 's/%[0-9a-z.]* = //' | FileCheck --check-prefix=BLOCKS %s
; BLOCKS: hetgpu.restore.1:
; BLOCKS-NEXT: hetgpu.restore.2:
; BLOCKS-NEXT: hetgpu.restore.3:
; BLOCKS-NEXT: hetgpu.restore.4:
; BLOCKS-NEXT: hetgpu.land.1:
; BLOCKS-NEXT: hetgpu.sp.1:
; BLOCKS-NEXT: call i32 @__hetgpu_barrier_or(i32 %hetgpu.y)
; BLOCKS-NEXT: hetgpu.save.1:
; BLOCKS-NEXT: hetgpu.cont.1:
; BLOCKS-NEXT: hetgpu.land.2:
; BLOCKS-NEXT: hetgpu.sp.2:
; BLOCKS-NEXT: call i32 @__hetgpu_barrier_or(i32 %hetgpu.y{{[0-9]+}})
; BLOCKS-NEXT: hetgpu.save.2:
; BLOCKS-NEXT: hetgpu.cont.2:
; BLOCKS-NEXT: hetgpu.land.3:
; BLOCKS-NEXT: hetgpu.sp.3:
; BLOCKS-NEXT: call i32 @__hetgpu_barrier_or(i32 %hetgpu.y{{[0-9]+}})
; BLOCKS-NEXT: hetgpu.save.3:
; BLOCKS-NEXT: hetgpu.cont.3:
; BLOCKS-NEXT: call i32 @__hetgpu_barrier_count(i32 1)
; BLOCKS-NEXT: hetgpu.land.4:
; BLOCKS-NEXT: hetgpu.sp.4:
; BLOCKS-NEXT: call i32 @__hetgpu_barrier_or(i32 %hetgpu.y{{[0-9]+}})
; BLOCKS-NEXT: hetgpu.save.4:
; BLOCKS-NEXT: hetgpu.cont.4:
; BLOCKS-NEXT: call i32 @__hetgpu_barrier_and(i32 %c.reg2mem.0)
; BLOCKS-NEXT: call void @__hetgpu_barrier()
; BLOCKS-NEXT: call i32 @__hetgpu_barrier_count(i32 1)
; BLOCKS-NEXT: call i32 @__hetgpu_barrier_and(i32 %c.plain)
; BLOCKS-NOT: {{.}}
; The layout the code follows is the state layout's (unchanged by the pass).
; RUN: hetgpu-opt -passes='hetgpu-state-layout,hetgpu-instrument-state,print<hetgpu-state>' -disable-output %s 2>&1 | FileCheck --check-prefix=PRINT %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@tile = internal addrspace(3) global [64 x float] undef, align 4

; CHECK-LABEL: define void @k(ptr %in, ptr %out, ptr %hetgpu.state, ptr %hetgpu.ctrl, i32 %hetgpu.round)
; The entry decides on the round parameter alone.
; CHECK-NEXT: hetgpu.entry:
; CHECK-NEXT: %hetgpu.rnd = and i32 %hetgpu.round, 2147483647
; CHECK-NEXT: %hetgpu.fresh = icmp eq i32 %hetgpu.rnd, 0
; CHECK-NEXT: br i1 %hetgpu.fresh, label %hetgpu.start, label %hetgpu.resume
; Block state area: 16-byte header, 256 B static shared + dynamic (rounded
; to 16), then 24 bytes per thread.
; CHECK: hetgpu.resume:
; CHECK: add i64 %hetgpu.dynshared, 271
; CHECK: mul i64 %hetgpu.nthreads, 24
; CHECK: %hetgpu.header = getelementptr i8, ptr %hetgpu.state,
; CHECK: %hetgpu.status = load i32, ptr %hetgpu.header
; CHECK-NEXT: %[[SPP:.*]] = getelementptr i8, ptr %hetgpu.header, i64 4
; CHECK-NEXT: %hetgpu.spid = load i32, ptr %[[SPP]]
; CHECK-NEXT: %[[MINE:.*]] = icmp eq i32 %hetgpu.status, %hetgpu.rnd
; CHECK-NEXT: %[[WHICH:.*]] = select i1 %[[MINE]], i32 %hetgpu.spid, i32 0
; The barriers (1, 3, 4) and the loop safe point (2) are resumed.
; CHECK-NEXT: switch i32 %[[WHICH]], label %hetgpu.return [
; CHECK-NEXT: i32 -1, label %hetgpu.start
; CHECK-NEXT: i32 1, label %hetgpu.restore.1
; CHECK-NEXT: i32 2, label %hetgpu.restore.2
; CHECK-NEXT: i32 3, label %hetgpu.restore.3
; CHECK-NEXT: i32 4, label %hetgpu.restore.4
; CHECK-NEXT: ]
; The start test sends an unwatched launch to the plain copy.
; CHECK: hetgpu.start:
; CHECK-NEXT: %hetgpu.watched = icmp slt i32 %hetgpu.round, 0
; CHECK-NEXT: br i1 %hetgpu.watched, label %hetgpu.start.count, label %hetgpu.body.plain
; Restore blocks copy the shared memory back (strided over the threads).
; CHECK: hetgpu.restore.1:
; CHECK: br label %hetgpu.copy

; Watched: at the barrier every thread reads {yield, trigger} with one
; volatile 64-bit load; one branch decides whether this is thread 0 of an
; armed launch, which counts the visit and raises the flag at the
; trigger's visit with an atomic or (no further branch before the barrier).
; CHECK: hetgpu.body:
; CHECK: store float %v, ptr addrspace(3) %ps
; CHECK-NEXT: %[[CG:.*]] = addrspacecast ptr %hetgpu.ctrl to ptr addrspace(1)
; CHECK-NEXT: %hetgpu.ctrlword = load volatile i64, ptr addrspace(1) %[[CG]]
; CHECK-NEXT: %hetgpu.yield = trunc i64 %hetgpu.ctrlword to i32
; CHECK: %hetgpu.after = trunc i64 %{{.*}} to i32
; CHECK: %hetgpu.t0 = icmp eq i32 %{{.*}}, 0
; CHECK-NEXT: %[[ARMED:.*]] = icmp ne i32 %hetgpu.after, 0
; CHECK-NEXT: %hetgpu.counts = and i1 %[[ARMED]], %hetgpu.t0
; CHECK-NEXT: br i1 %hetgpu.counts, label %hetgpu.bar.count, label %hetgpu.sp.1
; CHECK: hetgpu.bar.count:
; CHECK: atomicrmw add ptr addrspace(1) %{{.*}}, i32 1 monotonic
; CHECK: %hetgpu.hit = icmp uge i32 %{{.*}}, %hetgpu.after
; CHECK: %[[HIT:.*]] = zext i1 %hetgpu.hit to i32
; CHECK: atomicrmw or ptr addrspace(1) %{{.*}}, i32 %[[HIT]] monotonic
; CHECK-NEXT: %[[YC:.*]] = select i1 %hetgpu.hit, i32 1, i32 %hetgpu.yield
; CHECK-NEXT: br label %hetgpu.sp.1
; The landing block reloads every slot and enters the barrier's test.
; CHECK: hetgpu.land.1:
; CHECK: %[[L0:.*]] = getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 0
; CHECK-NEXT: load i64, ptr %[[L0]]
; CHECK: br label %hetgpu.sp.1
; The barrier is the barrier_or of the flag; a resumed thread contributes 0.
; CHECK: hetgpu.sp.1:
; CHECK: %hetgpu.y = phi i32 [ %hetgpu.yield, %hetgpu.body ], [ %[[YC]], %hetgpu.bar.count ], [ 0, %hetgpu.land.1 ]
; CHECK-NEXT: %hetgpu.bar.any = call i32 @__hetgpu_barrier_or(i32 %hetgpu.y)
; CHECK-NEXT: %[[ANY1:.*]] = icmp ne i32 %hetgpu.bar.any, 0
; CHECK-NEXT: br i1 %[[ANY1]], label %hetgpu.save.1, label %hetgpu.cont.1
; CHECK: hetgpu.save.1:
; CHECK: %[[R0:.*]] = getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 0
; CHECK-NEXT: store i64 %{{.*}}, ptr %[[R0]]
; CHECK: br label %hetgpu.copy
; The loop safe point right after it (watched launches only now: the
; plain copy has none); only when the random trigger is armed does thread
; 0 count the visit.
; CHECK: hetgpu.cont.1:
; CHECK: %hetgpu.ctrlword{{[0-9]+}} = load volatile i64, ptr addrspace(1)
; CHECK: br i1 %{{.*}}, label %hetgpu.count.test, label %hetgpu.sp.2
; CHECK: hetgpu.count.test:
; CHECK: br i1 %hetgpu.t0{{[0-9]+}}, label %hetgpu.count, label %hetgpu.sp.2
; CHECK: hetgpu.count.set:
; CHECK: store volatile i32 1, ptr addrspace(1)
; CHECK-NEXT: br label %hetgpu.sp.2
; The landing block reloads every slot and enters the safe point.
; CHECK: hetgpu.land.2:
; CHECK: %[[L0:.*]] = getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 0
; CHECK-NEXT: load i64, ptr %[[L0]]
; CHECK-NEXT: %[[L8:.*]] = getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 8
; CHECK-NEXT: load float, ptr %[[L8]]
; CHECK-NEXT: %[[L16:.*]] = getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 16
; The shared pointer is rebuilt from its offset in the shared layout.
; CHECK-NEXT: %[[SO:.*]] = load i64, ptr %[[L16]]
; CHECK-NEXT: %[[SR:.*]] = sub i64 %[[SO]], 0
; CHECK-NEXT: getelementptr i8, ptr addrspace(3) @tile, i64 %[[SR]]
; CHECK-NEXT: br label %hetgpu.sp.2
; CHECK: hetgpu.sp.2:
; CHECK: %[[Y:.*]] = call i32 @__hetgpu_barrier_or(i32 %hetgpu.y{{[0-9]+}})
; CHECK-NEXT: %[[ANY:.*]] = icmp ne i32 %[[Y]], 0
; CHECK-NEXT: br i1 %[[ANY]], label %hetgpu.save.2, label %hetgpu.cont.2
; CHECK: hetgpu.save.2:
; CHECK: %[[R0:.*]] = getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 0
; CHECK-NEXT: store i64 %{{.*}}, ptr %[[R0]]
; CHECK-NEXT: %[[R8:.*]] = getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 8
; CHECK-NEXT: store float %{{.*}}, ptr %[[R8]]
; CHECK-NEXT: %[[R16:.*]] = getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 16
; The shared pointer is saved as its offset in the shared layout.
; CHECK: sub i64 %{{.*}}, ptrtoint (ptr addrspace(3) @tile to i64)
; CHECK: store i64 %{{.*}}, ptr %[[R16]]
; CHECK: br label %hetgpu.copy
; barrier_count: the yield test first, then the count; its result is a
; live value of the next barrier.
; CHECK: hetgpu.cont.3:
; CHECK-NEXT: %c = call i32 @__hetgpu_barrier_count(i32 1){{$}}
; CHECK: hetgpu.save.4:
; CHECK: %[[C8:.*]] = getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 12
; CHECK-NEXT: store i32 %c.reg2mem.0, ptr %[[C8]]
; No "finished" mark at the kernel's return.
; CHECK: hetgpu.cont.4:
; CHECK-NOT: ptr %hetgpu.header
; CHECK: ret void
; The unwatched copy: the body as it was, plain barriers without bundles,
; no loop safe point, no control-word read.
; CHECK: hetgpu.body.plain:
; CHECK-NOT: hetgpu.ctrl
; CHECK: store float %v.plain, ptr addrspace(3) %ps.plain
; CHECK-NEXT: call void @__hetgpu_barrier(){{$}}
; CHECK-NEXT: %w.plain = load float, ptr addrspace(3) %ps.plain
; CHECK-NEXT: %sum.plain = fadd float %v.plain, %w.plain
; CHECK-NEXT: %c.plain = call i32 @__hetgpu_barrier_count(i32 1){{$}}
; CHECK-NEXT: %a.plain = call i32 @__hetgpu_barrier_and(i32 %c.plain){{$}}
; CHECK-NOT: hetgpu.ctrl
; CHECK: ret void
; CHECK: hetgpu.return:
; CHECK-NEXT: ret void
; Save ends with {round + 1, id} after the shared-memory copy; the round
; is the parameter.
; CHECK: hetgpu.copy.end:
; CHECK-NEXT: %[[IDP:.*]] = getelementptr i8, ptr %hetgpu.header{{[0-9]+}}, i64 4
; CHECK-NEXT: store i32 1, ptr %[[IDP]]
; CHECK-NEXT: %[[NEXT:.*]] = add i32 %hetgpu.rnd, 1
; CHECK-NEXT: store i32 %[[NEXT]], ptr %hetgpu.header{{[0-9]+}}
; CHECK-NEXT: ret void
define void @k(ptr %in, ptr %out) #0 {
entry:
; %t comes from memory (a value a resumed launch cannot recompute); %pt,
; the tid-based address, is recomputable and never state.
  %tid = call i32 @__hetgpu_tid_x()
  %pt = getelementptr i32, ptr %out, i32 %tid
  %t = load i32, ptr %pt
  %t64 = zext i32 %t to i64
  %pin = getelementptr float, ptr %in, i64 %t64
  %v = load float, ptr %pin
  %ps = getelementptr [64 x float], ptr addrspace(3) @tile, i64 0, i64 %t64
  store float %v, ptr addrspace(3) %ps
  call void @__hetgpu_barrier()
  call void @__hetgpu_safepoint()
  %w = load float, ptr addrspace(3) %ps
  %sum = fadd float %v, %w
  %c = call i32 @__hetgpu_barrier_count(i32 1)
  %a = call i32 @__hetgpu_barrier_and(i32 %c)
  %cf = sitofp i32 %a to float
  %r = fadd float %sum, %cf
  %pout = getelementptr float, ptr %out, i64 %t64
  store float %r, ptr %pout
  ret void
}

; NOSP-LABEL: define void @k(ptr %in, ptr %out, ptr %hetgpu.state, ptr %hetgpu.ctrl, i32 %hetgpu.round)
; NOSP: switch i32 %{{.*}}, label %hetgpu.return [
; NOSP-NEXT: i32 -1, label %hetgpu.start
; NOSP-NEXT: i32 1, label %hetgpu.restore.1
; NOSP-NEXT: i32 2, label %hetgpu.restore.2
; NOSP-NEXT: i32 3, label %hetgpu.restore.3
; NOSP-NEXT: ]
; NOSP: br i1 %hetgpu.watched, label %hetgpu.start.count, label %hetgpu.body.plain
; NOSP: hetgpu.sp.1:
; NOSP: hetgpu.sp.2:
; NOSP: hetgpu.sp.3:
; NOSP: hetgpu.body.plain:
; NOSP: call void @__hetgpu_barrier(){{$}}
; NOSP-NEXT: %w.plain = load float, ptr addrspace(3) %ps.plain
; NOSP-NEXT: %sum.plain = fadd float %v.plain, %w.plain
; NOSP-NEXT: %c.plain = call i32 @__hetgpu_barrier_count(i32 1){{$}}
; NOSP-NEXT: %a.plain = call i32 @__hetgpu_barrier_and(i32 %c.plain){{$}}
; NOSP-NOT: hetgpu.count.set
; NOSP: !hetgpu.kernels = !{![[K:[0-9]+]]}
; NOSP: ![[K]] = {{.*}}!"instrumented", i1 true}

declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_barrier()
declare void @__hetgpu_safepoint()
declare i32 @__hetgpu_barrier_count(i32)
declare i32 @__hetgpu_barrier_and(i32)

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 256, !"features", !4, !"launch.bounds", !5}
!2 = !{!3, !3}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{!"barrier"}
!5 = !{i32 0, i32 0}

; The kernel entry keeps the user's two parameters and gains the marker.
; CHECK: !hetgpu.kernels = !{![[K:[0-9]+]]}
; CHECK: ![[K]] = !{ptr @k, !"name", !"k", !"params", ![[P:[0-9]+]], !"shared.static", i64 256, !"features", !{{[0-9]+}}, !"launch.bounds", !{{[0-9]+}}, !"instrumented", i1 true}
; CHECK: ![[P]] = !{![[PP:[0-9]+]], ![[PP]]}

; PRINT: state k: 5 safe points, record 24 bytes
; PRINT-NEXT: safepoint 0 entry: 0 slots, 0 bytes
; PRINT-NEXT: safepoint 1 barrier: 3 slots, 24 bytes
; PRINT-NEXT: slot 0: value i64 @0 size 8 align 8
; PRINT-NEXT: slot 1: value float @8 size 4 align 4
; PRINT-NEXT: slot 2: shared-ptr ptr addrspace(3) @16 size 8 align 8
; PRINT-NEXT: safepoint 2 loop-latch: 3 slots, 24 bytes
; PRINT-NEXT: slot 0: value i64 @0 size 8 align 8
; PRINT-NEXT: slot 1: value float @8 size 4 align 4
; PRINT-NEXT: slot 2: shared-ptr ptr addrspace(3) @16 size 8 align 8
; PRINT-NEXT: safepoint 3 barrier: 2 slots, 16 bytes
; PRINT-NEXT: slot 0: value i64 @0 size 8 align 8
; PRINT-NEXT: slot 1: value float @8 size 4 align 4
; PRINT-NEXT: safepoint 4 barrier: 3 slots, 16 bytes
; PRINT-NEXT: slot 0: value i64 @0 size 8 align 8
; PRINT-NEXT: slot 1: value float @8 size 4 align 4
; PRINT-NEXT: slot 2: value i32 @12 size 4 align 4
