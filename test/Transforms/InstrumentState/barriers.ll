; Every kernel gets three hidden trailing parameters (state buffer, control
; block, round). A fresh launch (round 0, a parameter: no memory access)
; goes straight to the body; a resumed launch of round R loads the block's
; header and continues the blocks whose status is R at their saved safe
; point. Only loop safe points (__hetgpu_safepoint) are yield-tested: a
; block-uniform __hetgpu_barrier_or of the flag, then save code that stores
; the live values at their slot offsets (!hetgpu.state) and the shared
; memory and writes {R + 1, id} to the header before returning. The
; restore block copies the shared memory back, the landing block reloads
; the same offsets and enters the safe point. Barriers (barrier,
; barrier_count, barrier_and) keep their layout but stay plain barriers:
; no yield test, no save, restore or landing block. A block that runs to
; its end writes nothing.
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -S %s | FileCheck %s
; Running it again changes nothing (the kernel is marked instrumented).
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state,hetgpu-instrument-state -S %s | FileCheck %s
; Negative twin: without the loop safe point only barriers are left; the
; kernel gets the hidden parameters and nothing else.
; RUN: sed -e '/call void @__hetgpu_safepoint()/d' %s | hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -S | FileCheck --check-prefix=NOSP %s
; All safe-point blocks and barrier calls of the result, in order: one
; yield test (barrier_or) with its restore, landing and save blocks, for the
; loop safe point only; the three barriers are unchanged.
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -S %s | grep -E '^hetgpu\.[a-z]+\.[0-9]+:|call .*@__hetgpu_(barrier|safepoint)' | FileCheck --check-prefix=BLOCKS %s
; BLOCKS: hetgpu.restore.2:
; BLOCKS-NEXT: call void @__hetgpu_barrier()
; BLOCKS-NEXT: hetgpu.land.2:
; BLOCKS-NEXT: hetgpu.sp.2:
; BLOCKS-NEXT: call i32 @__hetgpu_barrier_or(i32 %hetgpu.y)
; BLOCKS-NEXT: hetgpu.save.2:
; BLOCKS-NEXT: hetgpu.cont.2:
; BLOCKS-NEXT: call i32 @__hetgpu_barrier_count(i32 1)
; BLOCKS-NEXT: call i32 @__hetgpu_barrier_and(i32 %c)
; BLOCKS-NOT: {{.}}
; The layout the code follows is the state layout's (unchanged by the pass):
; the barriers keep their safe points in the metadata.
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
; Only the loop safe point (id 2; the barriers are 1, 3 and 4) is resumed.
; CHECK-NEXT: switch i32 %[[WHICH]], label %hetgpu.return [
; CHECK-NEXT: i32 -1, label %hetgpu.start
; CHECK-NEXT: i32 2, label %hetgpu.restore.2
; CHECK-NEXT: ]
; Restore blocks copy the shared memory back (strided over the threads).
; CHECK: hetgpu.restore.2:
; CHECK: br label %hetgpu.copy

; The barrier stays a plain barrier, right before the yield test of the
; safe point. Every thread reads {yield, trigger} with one plain 64-bit
; load (no branch on the thread); only when the random trigger is armed
; does thread 0 count the visit.
; CHECK: hetgpu.body:
; CHECK: store float %v, ptr addrspace(3) %ps
; CHECK-NEXT: call void @__hetgpu_barrier(){{$}}
; CHECK-NEXT: %[[CG:.*]] = addrspacecast ptr %hetgpu.ctrl to ptr addrspace(1)
; CHECK-NEXT: %hetgpu.ctrlword = load volatile i64, ptr addrspace(1) %[[CG]]
; CHECK-NEXT: %hetgpu.yield = trunc i64 %hetgpu.ctrlword to i32
; CHECK-NEXT: %[[SH:.*]] = lshr i64 %hetgpu.ctrlword, 32
; CHECK-NEXT: %hetgpu.after = trunc i64 %[[SH]] to i32
; CHECK-NEXT: %[[ARMED:.*]] = icmp ne i32 %hetgpu.after, 0
; CHECK-NEXT: br i1 %[[ARMED]], label %hetgpu.count.test, label %hetgpu.sp.2
; CHECK: hetgpu.count.test:
; CHECK: %hetgpu.t0 = icmp eq i32 %{{.*}}, 0
; CHECK-NEXT: br i1 %hetgpu.t0, label %hetgpu.count, label %hetgpu.sp.2
; CHECK: hetgpu.count:
; CHECK: atomicrmw add ptr addrspace(1) %{{.*}}, i32 1 monotonic
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
; The safe point call is replaced by the yield test; a resumed thread
; contributes 0.
; CHECK: hetgpu.sp.2:
; CHECK: %hetgpu.y = phi i32 [ %hetgpu.yield, %hetgpu.body ], [ %hetgpu.yield, %hetgpu.count.test ], [ %hetgpu.yield, %hetgpu.count ], [ 1, %hetgpu.count.set ], [ 0, %hetgpu.land.2 ]
; CHECK-NEXT: %[[Y:.*]] = call i32 @__hetgpu_barrier_or(i32 %hetgpu.y)
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
; The barriers after the safe point are plain: no yield test before them,
; no live-value bundle left.
; CHECK: hetgpu.cont.2:
; CHECK-NEXT: %w = load float, ptr addrspace(3)
; CHECK-NEXT: %sum = fadd float
; CHECK-NEXT: %c = call i32 @__hetgpu_barrier_count(i32 1){{$}}
; CHECK-NEXT: %a = call i32 @__hetgpu_barrier_and(i32 %c){{$}}
; No "finished" mark at the kernel's return.
; CHECK-NOT: ptr %hetgpu.header
; CHECK: ret void
; CHECK: hetgpu.return:
; CHECK-NEXT: ret void
; Save ends with {round + 1, id} after the shared-memory copy; the round
; is the parameter.
; CHECK: hetgpu.copy.end:
; CHECK-NEXT: %[[IDP:.*]] = getelementptr i8, ptr %hetgpu.header{{[0-9]+}}, i64 4
; CHECK-NEXT: store i32 2, ptr %[[IDP]]
; CHECK-NEXT: %[[NEXT:.*]] = add i32 %hetgpu.rnd, 1
; CHECK-NEXT: store i32 %[[NEXT]], ptr %hetgpu.header{{[0-9]+}}
; CHECK-NEXT: ret void
; CHECK: hetgpu.copy.end{{[0-9]+}}:
; CHECK-NEXT: br label %hetgpu.land.2
; CHECK-NEXT: }
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
; NOSP-NEXT: hetgpu.entry:
; Plain barriers are not tested; the block entry is (no barrier added).
; NOSP-NEXT: %hetgpu.rnd = and i32 %hetgpu.round, 2147483647
; NOSP-NEXT: %hetgpu.fresh = icmp eq i32 %hetgpu.rnd, 0
; NOSP-NEXT: br i1 %hetgpu.fresh, label %hetgpu.start, label %hetgpu.resume
; NOSP: hetgpu.body:
; NOSP: store float %v, ptr addrspace(3) %ps
; NOSP-NEXT: call void @__hetgpu_barrier(){{$}}
; NOSP-NEXT: %w = load float, ptr addrspace(3) %ps
; NOSP-NEXT: %sum = fadd float %v, %w
; NOSP-NEXT: %c = call i32 @__hetgpu_barrier_count(i32 1){{$}}
; NOSP-NEXT: %a = call i32 @__hetgpu_barrier_and(i32 %c){{$}}
; NOSP: store float %r, ptr %pout
; NOSP-NEXT: ret void
; NOSP-NOT: __hetgpu_barrier_or
; NOSP-NOT: define
; NOSP-NOT: declare i32 @__hetgpu_barrier_or
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
